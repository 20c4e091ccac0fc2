/* Touches memory until malloc fails, then uses the NULL it got (as careless C does). */
#include <stdlib.h>
#include <string.h>

char *volatile last;

int main(void) {
    for (;;) {
        last = malloc(1 << 20);
        memset(last, 1, 1 << 20);
    }
}
