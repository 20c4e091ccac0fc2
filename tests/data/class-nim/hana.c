#include <stdio.h>

#define MAXN 1000

long long heap[MAXN];
int n = 0;

int main(void) {
    long long x;
    char c;
    int r;

    /* read the heaps: numbers until the end of the first line */
    while (n < MAXN) {
        c = 0;
        r = scanf("%lld%c", &x, &c);
        if (r < 1) break;
        heap[n++] = x;
        if (r == 1 || c == '\n') break;
    }

    while (1) {
        int i, pick = -1, left = 0;
        long long s = 0, take = 0;
        for (i = 0; i < n; i++) {
            s ^= heap[i];
            if (heap[i] > 0) left = 1;
        }
        if (!left) break;
        if (s != 0) {
            for (i = 0; i < n; i++)
                if ((heap[i] ^ s) < heap[i]) { pick = i; take = heap[i] - (heap[i] ^ s); break; }
        } else {
            /* losing: take one from the largest heap */
            pick = 0;
            for (i = 1; i < n; i++)
                if (heap[i] > heap[pick]) pick = i;
            take = 1;
        }
        printf("%d %lld\n", pick + 1, take);
        fflush(stdout);
        heap[pick] -= take;

        int h;
        long long k;
        if (scanf("%d %lld", &h, &k) != 2) break;
        heap[h - 1] -= k;
    }
    return 0;
}
