/*
 * Connect Four sample bot in C for small boards: perfect play by alpha-beta search with a
 * transposition table; it wins fastest and loses slowest, as optimal.py does (among equal
 * moves it may choose another column).
 *
 * Reads the board (line 1: rows from the top separated by '/', 'x' the first player's
 * discs, 'o' the second's, '.' empty; it is X when both have as many discs), then
 * alternately writes its move, a column number from 1, and reads the opponent's; every
 * move is followed by fflush(stdout). It exits when standard input ends or the game is
 * over. CONNECT (4 unless built with -DCONNECT=3, say) is part of the task statement, not
 * of the wire; the board's size comes on the wire. The search is exact on any board, and
 * quick up to about 20 cells (4x4, 5x4, 4x5 take well under a second for the first move).
 *
 * A board is two bitmaps of (rows + 1) bits per column, from the bottom: the discs of the
 * player to move and all the discs; the bit above each column stays empty, so that runs
 * found by shifting never wrap from one column to the next. A position's score for the
 * player to move counts the discs on the board when the game ends, which the position
 * fixes whoever reaches it: SIZE + 1 - that count for a win, its negative for a loss, 0
 * for a tie. So the table's scores hold wherever the position comes up.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o c4_optimal bots/connect4/optimal.c
 *     ./c4_optimal        then type  ..../..../..../....  and the opponent's moves.
 * See protocols/connect4.md. Self-contained on purpose (bots run confined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CONNECT
#define CONNECT 4
#endif
#define MAX_COLS 42
#define TABLE_BITS 22 /* 4M entries of 16 bytes: 64 MiB */

typedef uint64_t board;

static int rows, cols, size, fits; /* fits: the board's bitmaps fit in 64 bits */
static board bottom_row, top_row, column_bits[MAX_COLS];
static int order[MAX_COLS]; /* columns from the centre outwards: the likely best first */

struct entry {
    board key;
    signed char value, kind; /* kind: EXACT, LOWER or UPPER bound, 0 for an empty slot */
};
enum { EXACT = 1, LOWER, UPPER };
static struct entry *table;

/* Whether the discs hold CONNECT in a row, across, up or along a diagonal. */
static int has_line(board discs)
{
    const int steps[4] = {1, rows + 1, rows, rows + 2};
    for (int d = 0; d < 4; d++) {
        if ((CONNECT - 1) * steps[d] >= 64)
            continue; /* no run that long fits */
        board run = discs;
        for (int i = 1; i < CONNECT; i++)
            run &= discs >> (i * steps[d]);
        if (run)
            return 1;
    }
    return 0;
}

/* The bit of the lowest empty cell of column c. */
static board drop(board taken, int c)
{
    return (taken + ((board)1 << (c * (rows + 1)))) & column_bits[c];
}

/* The score of the position for the player to move (see the top), within (alpha, beta):
 * a score at or below alpha or at or above beta is only a bound. `discs` counts `taken`. */
static int search(board mine, board taken, int discs, int alpha, int beta)
{
    board theirs = taken ^ mine, forced = 0;
    int threats = 0;
    for (int c = 0; c < cols; c++) {
        if (taken & top_row & column_bits[c])
            continue;
        board cell = drop(taken, c);
        if (has_line(mine | cell))
            return size - discs; /* a win now is the best there is */
        if (has_line(theirs | cell))
            threats++, forced = cell; /* the opponent would win there: block it */
    }
    if (threats > 1)
        return -(size - discs - 1); /* two to block: the opponent wins next move */
    if (discs + 1 == size)
        return 0; /* the last cell, and no line: a tie */
    if (beta > size - discs - 2)
        beta = size - discs - 2; /* no win before the next move but one */
    if (alpha < -(size - discs - 1))
        alpha = -(size - discs - 1); /* no loss before the opponent's next move */
    if (alpha >= beta)
        return alpha;
    board key = mine + taken + bottom_row;
    struct entry *slot = &table[(key * 0x9E3779B97F4A7C15ULL) >> (64 - TABLE_BITS)];
    if (slot->kind && slot->key == key) {
        if (slot->kind == EXACT)
            return slot->value;
        if (slot->kind == LOWER && slot->value > alpha)
            alpha = slot->value;
        if (slot->kind == UPPER && slot->value < beta)
            beta = slot->value;
        if (alpha >= beta)
            return slot->value;
    }
    int low = alpha, best = -(size + 1);
    for (int i = 0; i < cols; i++) {
        int c = order[i];
        if (taken & top_row & column_bits[c])
            continue;
        board cell = drop(taken, c);
        if (forced && cell != forced)
            continue;
        int value = -search(theirs, taken | cell, discs + 1, -beta, -alpha);
        if (value > best)
            best = value;
        if (value > alpha)
            alpha = value;
        if (alpha >= beta)
            break;
    }
    slot->key = key;
    slot->value = (signed char)best;
    slot->kind = best <= low ? UPPER : best >= beta ? LOWER : EXACT;
    return best;
}

/* The score of playing column c: exact when above `floor`, else at most `floor`. */
static int move_score(board mine, board taken, int discs, int c, int floor)
{
    board cell = drop(taken, c);
    if (has_line(mine | cell))
        return size - discs;
    if (discs + 1 == size)
        return 0;
    return -search(taken ^ mine, taken | cell, discs + 1, -(size + 1), -floor);
}

/* The best column (from 0) for the player to move in a game that is not over: first the
 * outcome of every move (a search that only tells win, tie and loss is quick), then, among
 * the wins, the fastest, or among the losses, the slowest. */
static int choose(board mine, board taken, int discs)
{
    int outcome[MAX_COLS], top = -2, best_column = -1;
    for (int i = 0; i < cols; i++) {
        int c = order[i], value;
        if (taken & top_row & column_bits[c])
            continue;
        if (!fits)
            return c; /* too big a board for this bot's bitmaps: any legal column */
        board cell = drop(taken, c);
        if (has_line(mine | cell))
            return c; /* the fastest win of all */
        value = discs + 1 == size ? 0 : -search(taken ^ mine, taken | cell, discs + 1, -1, 1);
        outcome[c] = value > 0 ? 1 : value < 0 ? -1 : 0;
        if (outcome[c] > top) {
            top = outcome[c];
            best_column = c;
        }
    }
    if (top == 0)
        return best_column;
    int best = top > 0 ? 0 : -(size + 2);
    for (int i = 0; i < cols; i++) {
        int c = order[i];
        if (taken & top_row & column_bits[c] || outcome[c] != top)
            continue;
        int value = move_score(mine, taken, discs, c, best);
        if (value > best) {
            best = value;
            best_column = c;
        }
    }
    return best_column;
}

int main(void)
{
    char line[1024];
    if (fgets(line, sizeof line, stdin) == NULL)
        return 0;
    char cells[MAX_COLS * MAX_COLS];
    int n = 0, width = 0;
    rows = 1;
    for (char *c = line; *c && *c != '\n' && *c != '\r'; c++) {
        if (*c == '/') {
            rows++;
        } else if (n < (int)sizeof cells) {
            cells[n++] = *c;
            width += rows == 1;
        }
    }
    cols = width;
    size = rows * cols;
    if (cols < 1 || cols > MAX_COLS || n != size)
        return 1;
    fits = (rows + 1) * cols <= 64;
    if (fits) {
        table = calloc((size_t)1 << TABLE_BITS, sizeof *table);
        if (table == NULL)
            return 1;
    }
    for (int c = 0; c < cols; c++) {
        int shift = c * (rows + 1);
        if (!fits)
            break;
        column_bits[c] = (((board)1 << rows) - 1) << shift;
        bottom_row |= (board)1 << shift;
        top_row |= (board)1 << (shift + rows - 1);
    }
    for (int i = 0; i < cols; i++) /* centre first, then outwards, left before right */
        order[i] = (cols - 1) / 2 + (i % 2 ? (i + 1) / 2 : -(i / 2)) * (cols % 2 ? -1 : 1);

    int xs = 0, os = 0, heights[MAX_COLS] = {0};
    board x_discs = 0, o_discs = 0;
    for (int r = rows - 1; r >= 0; r--) /* from the bottom row up */
        for (int c = 0; c < cols; c++) {
            char mark = cells[r * cols + c];
            if (mark == '.')
                continue;
            board bit = fits ? (board)1 << (c * (rows + 1) + heights[c]) : 0;
            heights[c]++;
            if (mark == 'x')
                xs++, x_discs |= bit;
            else
                os++, o_discs |= bit;
        }
    board mine = xs == os ? x_discs : o_discs, theirs = xs == os ? o_discs : x_discs;
    int discs = xs + os;
    for (;;) {
        int free_column = 0;
        for (int c = 0; c < cols; c++)
            free_column |= heights[c] < rows;
        if ((fits && (has_line(mine) || has_line(theirs))) || !free_column)
            break;
        int c = choose(mine, mine | theirs, discs);
        printf("%d\n", c + 1);
        fflush(stdout);
        if (fits)
            mine |= drop(mine | theirs, c);
        heights[c]++;
        discs++;
        if (fgets(line, sizeof line, stdin) == NULL)
            break;
        c = atoi(line) - 1;
        if (c < 0 || c >= cols || heights[c] >= rows)
            return 1;
        if (fits)
            theirs |= drop(mine | theirs, c);
        heights[c]++;
        discs++;
        if (fits && has_line(theirs))
            break;
    }
    free(table);
    return 0;
}
