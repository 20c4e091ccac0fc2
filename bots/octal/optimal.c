/*
 * Octal-game sample bot in C: perfect play by Sprague-Grundy values; the same player as
 * optimal.py (the first move, in the order heap, counters taken, counters left of them,
 * that leaves a position of value 0, else the first legal move).
 *
 * Reads the heap sizes (line 1, e.g. "9 4"), then alternately writes its move "H K L"
 * (from heap H take K adjacent counters, leaving L to their left) and reads the opponent's
 * in the same form; every move is followed by fflush(stdout). It exits when standard input
 * ends or no move is left.
 *
 * The octal code is part of the task statement, not of the wire: CODE below, Kayles
 * (0.77) unless the program is built with another, e.g. Dawson's chess:
 *     gcc -std=c99 -O2 -DCODE='"0.137"' -o octal_optimal bots/octal/optimal.c
 * Digit k of the code says what a move that takes k counters may leave of its heap, by its
 * bits: 1, nothing; 2, one heap (counters taken from an end); 4, two heaps (from the
 * middle). A heap's Grundy value is the mex of the values its moves leave, a position's the
 * XOR of its heaps' values, and the mover wins exactly when that is not 0.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o octal_optimal bots/octal/optimal.c
 *     ./octal_optimal        then type  9 4  and the opponent's moves; Ctrl-D ends.
 * See protocols/octal.md. Self-contained on purpose (bots run confined).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CODE
#define CODE "0.77"
#endif

static int digits[64], ndigits;
static int *grundy, known; /* grundy[0..known-1] computed so far */

/* The code's digits d1, d2, ... from "0.d1d2...". */
static void read_code(const char *code)
{
    const char *dot = strchr(code, '.');
    for (const char *c = dot ? dot + 1 : code; *c >= '0' && *c <= '7' && ndigits < 64; c++)
        digits[ndigits++] = *c - '0';
}

/* Whether a move may leave `left` counters to the left and `right` to the right of the
 * counters it takes, under one digit of the code. */
static int allowed(int digit, int left, int right)
{
    if (left == 0 && right == 0)
        return digit & 1;
    if (left == 0 || right == 0)
        return digit & 2;
    return digit & 4;
}

/* The Grundy value of one heap of n counters (computing the values up to n if need be). */
static int g(int n)
{
    if (n < known)
        return grundy[n];
    /* a heap's value is at most its number of moves, fewer than `size` */
    size_t size = (size_t)(ndigits + 1) * ((size_t)n + 2);
    int *seen = malloc(size * sizeof *seen); /* seen[v] == m: value v is an option of m */
    grundy = realloc(grundy, ((size_t)n + 1) * sizeof *grundy);
    if (grundy == NULL || seen == NULL)
        exit(1);
    for (size_t v = 0; v < size; v++)
        seen[v] = -1;
    for (int m = known; m <= n; m++) {
        for (int k = 1; k <= ndigits && k <= m; k++)
            for (int left = 0; left <= (m - k) / 2; left++) /* the mirror gives the same */
                if (allowed(digits[k - 1], left, m - k - left)) {
                    size_t value = (size_t)(grundy[left] ^ grundy[m - k - left]);
                    if (value < size)
                        seen[value] = m;
                }
        int mex = 0;
        while (seen[mex] == m)
            mex++;
        grundy[m] = mex;
    }
    known = n + 1;
    free(seen);
    return grundy[n];
}

static int *heaps, count; /* the heaps, in order */

/* Play "from heap h (from 1) take k, leaving left to their left": the heap becomes its
 * nonempty parts, in place. */
static void play(int h, int k, int left)
{
    int right = heaps[h - 1] - k - left;
    int parts = (left > 0) + (right > 0);
    memmove(heaps + h - 1 + parts, heaps + h, (size_t)(count - h) * sizeof *heaps);
    count += parts - 1;
    if (left > 0)
        heaps[h - 1] = left;
    if (right > 0)
        heaps[h - 1 + (left > 0)] = right;
}

/* The first move that leaves value 0, else the first legal one; 0 when none is left. */
static int choose(int *h, int *k, int *left)
{
    int total = 0, found = 0;
    for (int i = 0; i < count; i++)
        total ^= g(heaps[i]);
    for (int i = 0; i < count; i++) {
        int size = heaps[i];
        for (int take = 1; take <= ndigits && take <= size; take++) {
            int rest = size - take;
            for (int l = 0; l <= rest / 2; l++) { /* the mirror moves are left out */
                if (!allowed(digits[take - 1], l, rest - l))
                    continue;
                if (!found) {
                    *h = i + 1, *k = take, *left = l;
                    found = 1;
                }
                if ((total ^ g(size) ^ g(l) ^ g(rest - l)) == 0) {
                    *h = i + 1, *k = take, *left = l;
                    return 1;
                }
            }
        }
    }
    return found;
}

/* The numbers on a line, into heaps (growing it as needed); how many were read. */
static int read_numbers(int **into, int *capacity)
{
    int c, n = 0, value = -1;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            continue;
        }
        if (value >= 0) {
            if (n == *capacity) {
                *capacity = 2 * *capacity + 8;
                *into = realloc(*into, (size_t)*capacity * sizeof **into);
                if (*into == NULL)
                    exit(1);
            }
            (*into)[n++] = value;
        }
        value = -1;
    }
    if (value >= 0) {
        if (n == *capacity) {
            *capacity = 2 * *capacity + 8;
            *into = realloc(*into, (size_t)*capacity * sizeof **into);
            if (*into == NULL)
                exit(1);
        }
        (*into)[n++] = value;
    }
    return c == EOF && n == 0 ? -1 : n;
}

int main(void)
{
    int *line = NULL, capacity = 0, n;
    read_code(CODE);
    grundy = malloc(sizeof *grundy);
    if (grundy == NULL)
        return 1;
    grundy[0] = 0;
    known = 1;

    if ((n = read_numbers(&line, &capacity)) < 0)
        return 0;
    int total = 0;
    for (int i = 0; i < n; i++)
        total += line[i];
    heaps = malloc(((size_t)total + 1) * sizeof *heaps); /* never more heaps than counters */
    if (heaps == NULL)
        return 1;
    for (int i = 0; i < n; i++)
        if (line[i] > 0)
            heaps[count++] = line[i];
    for (;;) {
        int h, k, left;
        if (!choose(&h, &k, &left))
            break;
        printf("%d %d %d\n", h, k, left);
        fflush(stdout);
        play(h, k, left);
        if ((n = read_numbers(&line, &capacity)) < 0)
            break;
        if (n != 3 || line[0] < 1 || line[0] > count || line[1] < 1
            || line[1] + line[2] > heaps[line[0] - 1])
            return 1;
        play(line[0], line[1], line[2]);
    }
    free(line);
    free(heaps);
    free(grundy);
    return 0;
}
