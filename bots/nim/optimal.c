/*
 * Nim sample bot in C: perfect normal play (whoever takes the last counter wins), after
 * Bouton; the same player as optimal.py.
 *
 * Reads the heap sizes (line 1), then alternately writes its move "H K" (take K counters
 * from heap H, heaps numbered from 1) and reads the opponent's move in the same form,
 * keeping the heaps itself. The nim-sum s is the XOR of the heap sizes. When s is not 0 it
 * takes the FIRST heap h with (h XOR s) < h down to h XOR s; when s is 0 it is lost against
 * perfect play and empties the largest heap, as the judge does. Every move is followed by
 * fflush(stdout). It exits when standard input ends.
 *
 * Limits: every heap size must fit in an unsigned long long, that is at most
 * 18446744073709551615 (2^64 - 1); a larger number is read as that maximum, so the bot
 * would then play on a wrong position. The number of heaps is limited only by memory.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o nim_optimal bots/nim/optimal.c
 *     ./nim_optimal        then type  3 4 5  (it answers 1 2) and the opponent's moves;
 *                          Ctrl-D ends.
 * See protocols/nim.md.
 */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long heap_t;

/* Reads one line of numbers into *heaps (grown as needed), taking anything that is not a
 * digit as a separator; returns how many were read, or -1 at end of input. */
static long read_numbers(heap_t **heaps, size_t *capacity)
{
    long count = 0;
    int c = getchar();
    if (c == EOF)
        return -1;
    for (;;) {
        while (c != '\n' && c != EOF && (c < '0' || c > '9'))
            c = getchar();
        if (c == '\n' || c == EOF)
            return count;
        heap_t value = 0;
        while (c >= '0' && c <= '9') {
            heap_t digit = (heap_t)(c - '0');
            value = value > (~0ULL - digit) / 10 ? ~0ULL : value * 10 + digit;
            c = getchar();
        }
        if ((size_t)count == *capacity) {
            *capacity = *capacity ? 2 * *capacity : 16;
            *heaps = realloc(*heaps, *capacity * sizeof **heaps);
            if (*heaps == NULL)
                exit(1);
        }
        (*heaps)[count++] = value;
    }
}

/* The Bouton move: sets *heap (0-based) and *take. */
static void choose(const heap_t *heaps, long count, long *heap, heap_t *take)
{
    heap_t sum = 0;
    long largest = 0;
    for (long i = 0; i < count; i++)
        sum ^= heaps[i];
    for (long i = 0; i < count; i++) {
        if ((heaps[i] ^ sum) < heaps[i]) {
            *heap = i;
            *take = heaps[i] - (heaps[i] ^ sum);
            return;
        }
        if (heaps[i] > heaps[largest])
            largest = i;
    }
    *heap = largest; /* lost: every move loses; keep the game short */
    *take = heaps[largest];
}

int main(void)
{
    heap_t *heaps = NULL, *move = NULL;
    size_t heaps_capacity = 0, move_capacity = 0;
    long count = read_numbers(&heaps, &heaps_capacity);
    if (count <= 0)
        return 0;
    for (;;) {
        int over = 1;
        for (long i = 0; i < count; i++)
            if (heaps[i] != 0)
                over = 0;
        if (!over) {
            long heap;
            heap_t take;
            choose(heaps, count, &heap, &take);
            printf("%ld %llu\n", heap + 1, take);
            fflush(stdout);
            heaps[heap] -= take;
        }
        /* the opponent's move: "H K" */
        if (read_numbers(&move, &move_capacity) < 2)
            return 0;
        if (move[0] >= 1 && move[0] <= (heap_t)count && move[1] <= heaps[move[0] - 1])
            heaps[move[0] - 1] -= move[1];
    }
}
