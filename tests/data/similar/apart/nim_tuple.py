import sys

def legal(heaps):
    for i, h in enumerate(heaps):
        for k in range(h, 0, -1):
            yield i, k

def after(heaps, i, k):
    return heaps[:i] + (heaps[i] - k,) + heaps[i + 1:]

def nimsum(heaps):
    x = 0
    for h in heaps:
        x ^= h
    return x

def choose(heaps):
    for i, k in legal(heaps):
        if nimsum(after(heaps, i, k)) == 0:
            return i, k
    return next(legal(heaps))

def main():
    heaps = tuple(int(t) for t in sys.stdin.readline().split())
    while any(heaps):
        i, k = choose(heaps)
        heaps = after(heaps, i, k)
        sys.stdout.write(f"{i + 1} {k}\n")
        sys.stdout.flush()
        if not any(heaps):
            break
        line = sys.stdin.readline()
        if not line:
            break
        j, m = (int(t) for t in line.split())
        heaps = after(heaps, j - 1, m)

main()
