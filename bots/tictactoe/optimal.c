/*
 * Tic-tac-toe sample bot in C: perfect play by a full search; the same player as
 * optimal.py (among the moves that keep the best result it wins fastest and loses slowest,
 * the lowest cell on a tie).
 *
 * Reads the grid (line 1: "x.o/.x./..o", rows from the top, '.' empty) and works out its
 * own mark from the marks on it (X moves first), then alternately writes its move, a cell
 * number 1 to 9 row by row from the top left, and reads the opponent's. Every move is
 * followed by fflush(stdout). It exits when standard input ends or the game is over.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o ttt_optimal bots/tictactoe/optimal.c
 *     ./ttt_optimal        then type  .../.../...  and the opponent's moves; Ctrl-D ends.
 * See protocols/tictactoe.md.
 */
#include <stdio.h>
#include <string.h>

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static int won(const char *cells, char mark)
{
    for (int i = 0; i < 8; i++)
        if (cells[LINES[i][0]] == mark && cells[LINES[i][1]] == mark
            && cells[LINES[i][2]] == mark)
            return 1;
    return 0;
}

static int full(const char *cells)
{
    return memchr(cells, '.', 9) == NULL;
}

/* A move's value for the mover: 10 - moves to a win, 0 a tie, moves to a loss - 10. */
static int step(int value)
{
    return value > 0 ? value - 1 : value < 0 ? value + 1 : 0;
}

/* For `me` to move: the best value (see step), and the cell that reaches it in *best. */
static int score(char *cells, char me, char you, int *best)
{
    if (won(cells, you))
        return -10;
    if (full(cells))
        return 0;
    int top = -100;
    for (int i = 0; i < 9; i++) {
        if (cells[i] != '.')
            continue;
        cells[i] = me;
        int value = step(-score(cells, you, me, NULL));
        cells[i] = '.';
        if (value > top) {
            top = value;
            if (best != NULL)
                *best = i;
        }
    }
    return top;
}

int main(void)
{
    char line[64], cells[10] = {0};
    char me = 'x', you = 'o';
    int started = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (!started) {
            int n = 0;
            for (char *c = line; *c != '\0' && n < 9; c++)
                if (*c == 'x' || *c == 'o' || *c == '.')
                    cells[n++] = *c;
            int xs = 0, os = 0;
            for (int i = 0; i < 9; i++) {
                xs += cells[i] == 'x';
                os += cells[i] == 'o';
            }
            if (xs > os) {
                me = 'o';
                you = 'x';
            }
            started = 1;
        } else {
            int cell = line[0] - '1';
            if (cell >= 0 && cell < 9)
                cells[cell] = you;
        }
        if (won(cells, you) || won(cells, me) || full(cells))
            break;
        int best = 0;
        score(cells, me, you, &best);
        printf("%d\n", best + 1);
        fflush(stdout);
        cells[best] = me;
    }
    return 0;
}
