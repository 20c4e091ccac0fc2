import sys


# read one line of numbers, None at the end of input
def get_numbers():
    text = sys.stdin.readline()
    if not text:
        return None
    return [int(w) for w in text.split()]


# nim-sum strategy
def find_move(heaps):
    total = 0
    for h in heaps:
        total ^= h
    if total == 0:
        k = heaps.index(max(heaps))
        return k, heaps[k]
    for k, h in enumerate(heaps):
        if h ^ total < h:
            return k, h - (h ^ total)


def output(k, amount):
    sys.stdout.write("%d %d\n" % (k + 1, amount))
    sys.stdout.flush()


def run():
    heaps = get_numbers()
    if heaps is None:
        return
    while any(heaps):
        k, amount = find_move(heaps)
        output(k, amount)
        heaps[k] -= amount
        if not any(heaps):
            break
        opp = get_numbers()
        if opp is None:
            break
        heaps[opp[0] - 1] -= opp[1]


if __name__ == "__main__":
    run()
