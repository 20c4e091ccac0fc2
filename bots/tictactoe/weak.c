/*
 * Tic-tac-toe sample bot in C (weak): a random empty cell; perfect play beats it.
 *
 * Reads the grid (line 1: "x.o/.x./..o", rows from the top, '.' empty), then alternately
 * writes its move, a cell number 1 to 9 row by row from the top left, and reads the
 * opponent's; every move is followed by fflush(stdout). It exits when standard input ends
 * or the grid is full. The generator is seeded from the environment variable BOT_SEED (a
 * number) when it is set, and from a fixed seed otherwise, so a game can be replayed.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o ttt_weak bots/tictactoe/weak.c
 *     BOT_SEED=7 ./ttt_weak     then type  .../.../...  and the opponent's moves.
 * See protocols/tictactoe.md. Self-contained on purpose (bots run confined).
 */
#include <stdio.h>
#include <stdlib.h>

/* A small generator of our own, so that a seed gives the same game on every C library. */
static unsigned long long state;

static unsigned next_random(unsigned bound)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state >> 33) % bound);
}

int main(void)
{
    char line[64], cells[9];
    int n = 0;
    const char *seed = getenv("BOT_SEED");
    state = seed ? strtoull(seed, NULL, 10) : 1952;
    if (fgets(line, sizeof line, stdin) == NULL)
        return 0;
    for (char *c = line; *c != '\0' && n < 9; c++)
        if (*c == 'x' || *c == 'o' || *c == '.')
            cells[n++] = *c;
    if (n != 9)
        return 1;
    for (;;) {
        int empty[9], count = 0;
        for (int i = 0; i < 9; i++)
            if (cells[i] == '.')
                empty[count++] = i;
        if (count == 0)
            break;
        int cell = empty[next_random((unsigned)count)];
        printf("%d\n", cell + 1);
        fflush(stdout);
        cells[cell] = 'x'; /* which mark does not matter here: only empty cells count */
        if (fgets(line, sizeof line, stdin) == NULL)
            break;
        cell = atoi(line) - 1;
        if (cell < 0 || cell > 8 || cells[cell] != '.')
            return 1;
        cells[cell] = 'o';
    }
    return 0;
}
