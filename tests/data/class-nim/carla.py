import sys


def read_ints():
    line = sys.stdin.readline()
    if not line:
        return None
    return [int(t) for t in line.split()]


def winning_move(piles):
    x = 0
    for p in piles:
        x ^= p
    if x == 0:
        j = piles.index(max(piles))
        return j, piles[j]
    for j, p in enumerate(piles):
        if p ^ x < p:
            return j, p - (p ^ x)


def send(j, c):
    sys.stdout.write("%d %d\n" % (j + 1, c))
    sys.stdout.flush()


def play():
    piles = read_ints()
    if piles is None:
        return
    while any(piles):
        j, c = winning_move(piles)
        send(j, c)
        piles[j] -= c
        if not any(piles):
            break
        mv = read_ints()
        if mv is None:
            break
        piles[mv[0] - 1] -= mv[1]


if __name__ == "__main__":
    play()
