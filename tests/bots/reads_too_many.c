/* Reads fourteen numbers (both sides' pits, as it believes) where the board has seven. */
#include <stdio.h>

int main(void) {
    int pits[14];
    for (int i = 0; i < 14; i++)
        if (scanf("%d", &pits[i]) != 1) return 1;
    printf("1\n");
    fflush(stdout);
    return 0;
}
