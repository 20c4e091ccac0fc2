#include <cstdio>

unsigned long long h[100000];
int nh;

/* reads a number with getchar, *end gets the char after it; returns 0 at EOF */
int readnum(unsigned long long *v, int *end)
{
    int ch = getchar();
    while (ch == ' ' || ch == '\r')
        ch = getchar();
    if (ch < '0' || ch > '9')
        return 0;
    *v = 0;
    while (ch >= '0' && ch <= '9') {
        *v = *v * 10 + (ch - '0');
        ch = getchar();
    }
    *end = ch;
    return 1;
}

int main(void)
{
    unsigned long long v, a, b, x;
    int end = 0, i;

    while (readnum(&v, &end)) {
        h[nh++] = v;
        if (end != ' ')
            break;
    }
    while (1) {
        x = 0;
        for (i = 0; i < nh; i++)
            x ^= h[i];
        i = 0;
        if (x == 0) {
            while (i < nh && h[i] == 0)
                i++;
            if (i == nh)
                return 0;
            b = 1;
        } else {
            while ((h[i] ^ x) >= h[i])
                i++;
            b = h[i] - (h[i] ^ x);
        }
        h[i] -= b;
        printf("%d %llu\n", i + 1, b);
        fflush(stdout);
        if (!readnum(&a, &end) || !readnum(&b, &end))
            return 0;
        h[a - 1] -= b;
    }
}
