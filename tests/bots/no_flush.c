/* Writes a move without flushing: through pipes it never arrives (stdout is block-buffered). */
#include <stdio.h>

int main(void) {
    char line[256];
    int pits[7];
    if (!fgets(line, sizeof line, stdin)) return 1;
    sscanf(line, "%d %d %d %d %d %d %d", &pits[0], &pits[1], &pits[2], &pits[3], &pits[4],
           &pits[5], &pits[6]);
    int move = 1;
    while (pits[move - 1] == 0) move++;
    do printf("%d\n", move); while (fgets(line, sizeof line, stdin));
    return 0;
}
