heaps = list(map(int, input().split()))


def nim_sum(hs):
    s = 0
    for h in hs:
        s = s ^ h
    return s


while True:
    if max(heaps) == 0:
        break
    s = nim_sum(heaps)
    move = None
    if s == 0:
        # no winning move, take one counter from the first heap that has any
        for i in range(len(heaps)):
            if heaps[i] > 0:
                move = (i, 1)
                break
    else:
        for i in range(len(heaps)):
            if heaps[i] ^ s < heaps[i]:
                move = (i, heaps[i] - (heaps[i] ^ s))
                break
    heaps[move[0]] -= move[1]
    print(str(move[0] + 1) + " " + str(move[1]), flush=True)
    try:
        opp = input()
    except EOFError:
        break
    a, b = opp.split()
    heaps[int(a) - 1] -= int(b)
