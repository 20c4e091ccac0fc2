import sys

MISERE = False


def read_ints():
    line = sys.stdin.readline()
    if not line:
        return None
    return [int(t) for t in line.split()]


def winning_move(piles):
    big = [p for p in piles if p > 1]
    if MISERE and len(big) <= 1:
        ones = sum(1 for p in piles if p == 1)
        j = piles.index(max(piles))
        keep = 1 if ones % 2 == 0 else 0
        return j, max(piles[j] - keep, 1)
    x = 0
    for p in piles:
        x ^= p
    if x == 0:
        j = piles.index(max(piles))
        return j, 1
    for j, p in enumerate(piles):
        if p ^ x < p:
            return j, p - (p ^ x)


def play():
    piles = read_ints()
    if piles is None:
        return
    while any(piles):
        j, c = winning_move(piles)
        print(j + 1, c, flush=True)
        piles[j] -= c
        if not any(piles):
            break
        mv = read_ints()
        if mv is None:
            break
        piles[mv[0] - 1] -= mv[1]


if __name__ == "__main__":
    play()
