/* A well-behaved Ioiwari bot in C: always plays the first non-empty pit. */
#include <stdio.h>

static int pits[7];

static void sow(int pit) {
    int i = pit - 1, hand = pits[i];
    pits[i] = 0;
    while (hand) {
        i = (i + 1) % 7;
        if (hand > 1) {
            if (pits[i] == 5) pits[i]--;
            else { pits[i]++; hand--; }
        } else {
            if (pits[i] >= 1 && pits[i] <= 4) pits[i] = 0;
            hand = 0;
        }
    }
}

int main(void) {
    int opponent;
    for (int i = 0; i < 7; i++)
        if (scanf("%d", &pits[i]) != 1) return 1;
    for (;;) {
        int move = 1;
        while (pits[move - 1] == 0) move++;
        sow(move);
        printf("%d\n", move);
        fflush(stdout);
        if (scanf("%d", &opponent) != 1) return 0;
        sow(opponent);
    }
}
