// Ivan - Nim (normal play), perfect strategy with xor
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 1000000

typedef unsigned long long ull;

int main() {
    char *line = malloc(LINE_MAX_LEN);
    ull *piles = malloc(sizeof(ull) * (LINE_MAX_LEN / 2 + 1));
    int count = 0;

    if (!fgets(line, LINE_MAX_LEN, stdin)) return 0;
    for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n"))
        piles[count++] = strtoull(tok, NULL, 10);

    for (;;) {
        ull nimsum = 0, remaining = 0;
        for (int i = 0; i < count; i++) {
            nimsum ^= piles[i];
            remaining |= piles[i];
        }
        if (remaining == 0) break;   // game over, we took the last one

        int where = -1;
        ull amount;
        if (nimsum == 0) {
            // every move loses, so just finish the first non-empty pile
            for (where = 0; piles[where] == 0; where++) ;
            amount = piles[where];
        } else {
            for (where = 0; (piles[where] ^ nimsum) >= piles[where]; where++) ;
            amount = piles[where] - (piles[where] ^ nimsum);
        }
        printf("%d %llu\n", where + 1, amount);
        fflush(stdout);
        piles[where] -= amount;

        // opponent's move
        if (!fgets(line, LINE_MAX_LEN, stdin)) break;
        char *a = strtok(line, " \n");
        char *b = strtok(NULL, " \n");
        if (!a || !b) break;
        piles[atoi(a) - 1] -= strtoull(b, NULL, 10);
    }
    free(line);
    free(piles);
    return 0;
}
