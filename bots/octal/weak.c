/*
 * Octal-game sample bot in C (weak): a random legal move; perfect play beats it from any
 * won position.
 *
 * Reads the heap sizes (line 1, e.g. "9 4"), then alternately writes its move "H K L"
 * (from heap H take K adjacent counters, leaving L to their left) and reads the opponent's
 * in the same form; every move is followed by fflush(stdout). It exits when standard input
 * ends or no move is left. The move is drawn uniformly among the legal moves under CODE,
 * the octal code of the task statement (Kayles, 0.77, unless built with -DCODE='"0.137"'
 * or another). The generator is seeded from the environment variable BOT_SEED (a number)
 * when it is set, and from a fixed seed otherwise, so a game can be replayed exactly.
 *
 * Build and run by hand:
 *     gcc -std=c99 -O2 -o octal_weak bots/octal/weak.c
 *     BOT_SEED=7 ./octal_weak     then type  9 4  and the opponent's moves; Ctrl-D ends.
 * See protocols/octal.md. Self-contained on purpose (bots run confined).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CODE
#define CODE "0.77"
#endif

static int digits[64], ndigits;
static int *heaps, count; /* the heaps, in order */

/* Whether a move may leave `left` counters to the left and `right` to the right of the
 * counters it takes, under one digit of the code (bits: 1 nothing, 2 one heap, 4 two). */
static int allowed(int k, int left, int right)
{
    int digit = k <= ndigits ? digits[k - 1] : 0;
    if (left == 0 && right == 0)
        return digit & 1;
    if (left == 0 || right == 0)
        return digit & 2;
    return digit & 4;
}

/* A small generator of our own, so that a seed gives the same game on every C library. */
static unsigned long long state;

static unsigned long long next_random(unsigned long long bound)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 11) % bound;
}

/* Play "from heap h (from 1) take k, leaving left to their left". */
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

/* The number of legal moves; with pick >= 0, the move numbered pick goes to h, k, left. */
static unsigned long long moves(long long pick, int *h, int *k, int *left)
{
    unsigned long long n = 0;
    for (int i = 0; i < count; i++)
        for (int take = 1; take <= ndigits && take <= heaps[i]; take++)
            for (int l = 0; l <= heaps[i] - take; l++)
                if (allowed(take, l, heaps[i] - take - l) && (long long)n++ == pick) {
                    *h = i + 1, *k = take, *left = l;
                    return n;
                }
    return n;
}

/* Up to `most` numbers of one line into `into`: how many, or -1 at the end of input. */
static int read_numbers(int *into, int most, int *total)
{
    int c, n = 0, value = -1;
    *total = 0;
    while ((c = getchar()) != EOF) {
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            continue;
        }
        if (value >= 0) {
            *total += value;
            if (n < most)
                into[n] = value;
            n++;
        }
        value = -1;
        if (c == '\n')
            return n;
    }
    if (value >= 0) {
        *total += value;
        if (n < most)
            into[n] = value;
        n++;
    }
    return n == 0 ? -1 : n;
}

int main(void)
{
    const char *seed = getenv("BOT_SEED");
    const char *dot = strchr(CODE, '.');
    for (const char *c = dot ? dot + 1 : CODE; *c >= '0' && *c <= '7' && ndigits < 64; c++)
        digits[ndigits++] = *c - '0';
    state = seed ? strtoull(seed, NULL, 10) : 1956;

    /* the first line twice over: once to count the counters, once to keep the heaps */
    char *first = NULL;
    size_t length = 0, room = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (length + 2 > room) {
            room = 2 * room + 64;
            first = realloc(first, room);
            if (first == NULL)
                return 1;
        }
        first[length++] = (char)c;
    }
    if (first == NULL)
        return 0;
    first[length] = '\0';
    long total = 0;
    for (char *p = first; *p; p++)
        if (*p >= '0' && *p <= '9')
            total += strtol(p, &p, 10), p--;
    heaps = malloc(((size_t)total + 1) * sizeof *heaps); /* never more heaps than counters */
    if (heaps == NULL)
        return 1;
    for (char *p = first; *p; p++)
        if (*p >= '0' && *p <= '9') {
            int size = (int)strtol(p, &p, 10);
            p--;
            if (size > 0)
                heaps[count++] = size;
        }
    free(first);

    for (;;) {
        int h = 0, k = 0, left = 0, line[3], sum;
        unsigned long long n = moves(-1, &h, &k, &left);
        if (n == 0)
            break;
        moves((long long)next_random(n), &h, &k, &left);
        printf("%d %d %d\n", h, k, left);
        fflush(stdout);
        play(h, k, left);
        if (read_numbers(line, 3, &sum) != 3)
            break;
        if (line[0] < 1 || line[0] > count || line[1] < 1
            || line[1] + line[2] > heaps[line[0] - 1])
            return 1;
        play(line[0], line[1], line[2]);
    }
    free(heaps);
    return 0;
}
