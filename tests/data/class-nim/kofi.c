/* Kofi's nim bot.
   Bouton: if the xor of all heaps is not zero, reduce some heap
   so that the xor becomes zero. */
#include <stdio.h>
#include <stdlib.h>

static char buf[1 << 20];

long xorsum(long *a, int n) {
    long s = 0;
    int i;
    for (i = 0; i < n; i++) s ^= a[i];
    return s;
}

int biggest(long *a, int n) {
    int i, b = 0;
    for (i = 1; i < n; i++) if (a[i] > a[b]) b = i;
    return b;
}

int main() {
    int n = 0, cap = 8, used, pos = 0;
    long *a = (long *) malloc(cap * sizeof(long));
    long v;

    if (scanf("%[^\n]", buf) != 1) return 0;
    while (sscanf(buf + pos, "%ld%n", &v, &used) == 1) {
        if (n == cap) {
            cap *= 2;
            a = (long *) realloc(a, cap * sizeof(long));
        }
        a[n++] = v;
        pos += used;
    }

    int who, opp;
    long take, s;
    for (;;) {
        who = biggest(a, n);
        if (a[who] == 0) break;
        s = xorsum(a, n);
        take = a[who];        /* lost position: empty the biggest heap */
        if (s) {
            for (who = 0; who < n; who++)
                if ((a[who] ^ s) < a[who]) break;
            take = a[who] - (a[who] ^ s);
        }
        printf("%d %ld\n", who + 1, take);
        fflush(stdout);
        a[who] -= take;
        if (scanf("%d %ld", &opp, &v) != 2) break;
        a[opp - 1] -= v;
    }
    free(a);
    return 0;
}
