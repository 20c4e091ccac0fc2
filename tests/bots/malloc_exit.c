/* Allocates until malloc fails, then exits with status 1 without a word (as careful C does). */
#include <stdlib.h>
#include <string.h>

int main(void) {
    for (;;) {
        char *block = malloc(1 << 20);
        if (block == NULL)
            return 1;
        memset(block, 1, 1 << 20);
    }
}
