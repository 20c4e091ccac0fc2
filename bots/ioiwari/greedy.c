/*
 * Ioiwari sample bot in C: one-step greedy (the same player as greedy.py).
 *
 * Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
 * keeping the board itself. It plays the pit that adds the most to its own bank minus what
 * the same move gives the opponent, looking no further; ties go to the lowest pit. Every
 * move is followed by fflush(stdout). It exits when standard input ends.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o greedy bots/ioiwari/greedy.c
 *     ./greedy        then type  4 3 2 4 2 3 2  and the opponent's pits; Ctrl-D ends.
 * See protocols/ioiwari.md.
 *
 * Self-contained on purpose (bots run confined), so the sowing rule is a copy of the one
 * in judge/games/ioiwari.py.
 */
#include <stdio.h>

#define PITS 7
#define FULL 5 /* a pit never holds more: sowing past a full pit takes a bead out instead */

/* Play `pit` (1..7) on `board` in place; returns the mover's gain minus the opponent's. */
static int sow(int board[PITS], int pit)
{
    int i = pit - 1;
    int hand = board[i];
    int gain = 0;
    board[i] = 0;
    while (hand > 1) {
        i = (i + 1) % PITS;
        if (board[i] == FULL) {
            board[i]--;
            gain++;
        } else {
            board[i]++;
            hand--;
        }
    }
    i = (i + 1) % PITS;
    if (board[i] >= 1 && board[i] < FULL) { /* the last bead captures the pit */
        gain += board[i] + 1;
        board[i] = 0;
    } else { /* the last bead goes to the opponent */
        gain--;
    }
    return gain;
}

/* The pit with the largest immediate gain, the lowest of them on a tie; 0 if none. */
static int choose(const int board[PITS])
{
    int best_pit = 0, best_gain = 0;
    for (int pit = 1; pit <= PITS; pit++) {
        int copy[PITS];
        if (board[pit - 1] == 0)
            continue;
        for (int i = 0; i < PITS; i++)
            copy[i] = board[i];
        int gain = sow(copy, pit);
        if (best_pit == 0 || gain > best_gain) {
            best_pit = pit;
            best_gain = gain;
        }
    }
    return best_pit;
}

int main(void)
{
    int board[PITS];
    for (int i = 0; i < PITS; i++)
        if (scanf("%d", &board[i]) != 1)
            return 0;
    for (;;) {
        int pit = choose(board);
        if (pit != 0) { /* the board is not empty: our move */
            printf("%d\n", pit);
            fflush(stdout);
            sow(board, pit);
        }
        if (scanf("%d", &pit) != 1) /* end of input: the game is over */
            return 0;
        sow(board, pit);
    }
}
