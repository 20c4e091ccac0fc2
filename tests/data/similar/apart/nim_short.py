import sys
h = list(map(int, sys.stdin.readline().split()))
while sum(h):
    x = 0
    for v in h: x ^= v
    i = next((i for i, v in enumerate(h) if v ^ x < v), h.index(max(h))) if x else h.index(max(h))
    c = h[i] - (h[i] ^ x) if x else 1
    h[i] -= c
    print(i + 1, c, flush=True)
    if not sum(h): break
    r = sys.stdin.readline().split()
    if not r: break
    h[int(r[0]) - 1] -= int(r[1])
