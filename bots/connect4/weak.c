/*
 * Connect Four sample bot in C (weak): a random column that is not full; perfect play
 * beats it whenever it can.
 *
 * Reads the board (line 1: rows from the top separated by '/', e.g. "..../..../.o../.xx."),
 * then alternately writes a column number from 1 and reads the opponent's; every move is
 * followed by fflush(stdout). It exits when standard input ends or the board is full. The
 * generator is seeded from the environment variable BOT_SEED (a number) when it is set,
 * and from a fixed seed otherwise, so a game can be replayed exactly.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o c4_weak bots/connect4/weak.c
 *     BOT_SEED=7 ./c4_weak     then type  ..../..../..../....  and the opponent's moves.
 * See protocols/connect4.md. Self-contained on purpose (bots run confined).
 */
#include <stdio.h>
#include <stdlib.h>

#define MAX_COLS 42

/* A small generator of our own, so that a seed gives the same game on every C library. */
static unsigned long long state;

static unsigned next_random(unsigned bound)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state >> 33) % bound);
}

int main(void)
{
    char line[1024];
    int rows = 1, cols = 0, height[MAX_COLS] = {0};
    const char *seed = getenv("BOT_SEED");
    state = seed ? strtoull(seed, NULL, 10) : 1974;
    if (fgets(line, sizeof line, stdin) == NULL)
        return 0;
    for (int i = 0, c = 0; line[i] && line[i] != '\n'; i++) {
        if (line[i] == '/') {
            rows++;
            c = 0;
        } else if (c < MAX_COLS) {
            height[c] += line[i] != '.';
            c++;
            if (c > cols)
                cols = c;
        }
    }
    for (;;) {
        int free_columns[MAX_COLS], n = 0;
        for (int c = 0; c < cols; c++)
            if (height[c] < rows)
                free_columns[n++] = c;
        if (n == 0)
            break;
        int c = free_columns[next_random((unsigned)n)];
        printf("%d\n", c + 1);
        fflush(stdout);
        height[c]++;
        if (fgets(line, sizeof line, stdin) == NULL)
            break;
        c = atoi(line) - 1;
        if (c < 0 || c >= cols || height[c] >= rows)
            return 1;
        height[c]++;
    }
    return 0;
}
