/* Dies of SIGSEGV as soon as it has read the board. */
#include <stdio.h>

int main(void) {
    char line[256];
    volatile int *nowhere = 0;
    if (fgets(line, sizeof line, stdin)) *nowhere = 1;
    return 0;
}
