#include <stdio.h>

#define MAXN 1000

long long pile[MAXN];
int cnt = 0;

int main(void)
{
	long long num;
	char sep;
	int got;

	while (cnt < MAXN)
	{
		sep = 0;
		got = scanf("%lld%c", &num, &sep);
		if (got < 1)
			break;
		pile[cnt++] = num;
		if (got == 1 || sep == '\n')
			break;
	}
	while (1)
	{
		int j, best = -1, any = 0;
		long long xr = 0, amt = 0;
		for (j = 0; j < cnt; j++) {
			xr ^= pile[j];
			if (pile[j] > 0) any = 1;
		}
		if (!any)
			break;
		if (xr != 0)
		{
			for (j = 0; j < cnt; j++)
				if ((pile[j] ^ xr) < pile[j])
				{
					best = j;
					amt = pile[j] - (pile[j] ^ xr);
					break;
				}
		}
		else
		{
			best = 0;
			for (j = 1; j < cnt; j++)
				if (pile[j] > pile[best])
					best = j;
			amt = 1;
		}
		printf("%d %lld\n", best + 1, amt);
		fflush(stdout);
		pile[best] -= amt;

		int p;
		long long q;
		if (scanf("%d %lld", &p, &q) != 2)
			break;
		pile[p - 1] -= q;
	}
	return 0;
}
