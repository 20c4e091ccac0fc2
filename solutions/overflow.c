/* 64-bit overflow: right for heaps that fit a signed 64-bit integer, wrong beyond. strtoll
   saturates at LLONG_MAX (2^63 - 1), so the default input's data sets with heaps near 10^30
   get wrong answers (or a wrong "Lose Game"). Partial marks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    FILE *f = fopen("nim.txt", "r");
    char line[65536];
    if (f == NULL || fgets(line, sizeof line, f) == NULL) return 1;
    int n = atoi(line);
    for (int t = 0; t < n && fgets(line, sizeof line, f) != NULL; t++) {
        long long heap[1000];
        int k = 0;
        for (char *w = strtok(line, " \t\r\n"); w != NULL && k < 1000;
             w = strtok(NULL, " \t\r\n"))
            heap[k++] = strtoll(w, NULL, 10);  /* the bug: 10^30 becomes 2^63 - 1 */
        long long sum = 0;
        for (int i = 0; i < k; i++) sum ^= heap[i];
        int h = -1;
        for (int i = 0; i < k && h < 0; i++)
            if ((heap[i] ^ sum) < heap[i]) h = i;
        if (h < 0)
            printf("Lose Game\n");
        else
            printf("Remove %lld counters from Heap %d\n", heap[h] - (heap[h] ^ sum), h + 1);
    }
    return 0;
}
