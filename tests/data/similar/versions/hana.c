#include <stdio.h>

#define MAXN 1000

long long heap[MAXN];
int n = 0;

/* read the heaps: numbers until the end of the first line */
static void read_heaps(void) {
    long long x;
    char c;
    int r;
    while (n < MAXN) {
        c = 0;
        r = scanf("%lld%c", &x, &c);
        if (r < 1) break;
        heap[n++] = x;
        if (r == 1 || c == '\n') break;
    }
}

static int largest(void) {
    int i, pick = 0;
    for (i = 1; i < n; i++)
        if (heap[i] > heap[pick]) pick = i;
    return pick;
}

int main(void) {
    read_heaps();
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
            pick = largest();
            take = 1;
        }
        printf("%d %lld\n", pick + 1, take);
        fflush(stdout);
        heap[pick] -= take;
        left = 0;
        for (i = 0; i < n; i++)
            if (heap[i] > 0) left = 1;
        if (!left) break;

        int h;
        long long k;
        if (scanf("%d %lld", &h, &k) != 2) break;
        if (h < 1 || h > n) break;
        heap[h - 1] -= k;
    }
    return 0;
}
