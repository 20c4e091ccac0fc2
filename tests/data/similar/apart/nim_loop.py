# Nim bot: Bouton's strategy, one loop
heaps = [int(x) for x in input().split()]
while True:
    s = 0
    for h in heaps:
        s ^= h
    move = None
    if s:
        for i in range(len(heaps)):
            if heaps[i] ^ s < heaps[i]:
                move = (i, heaps[i] - (heaps[i] ^ s))
                break
    else:
        for i in range(len(heaps)):
            if heaps[i] > 0:
                move = (i, 1)
                break
    if move is None:
        break
    heaps[move[0]] -= move[1]
    print(move[0] + 1, move[1], flush=True)
    if sum(heaps) == 0:
        break
    try:
        a, b = map(int, input().split())
    except EOFError:
        break
    heaps[a - 1] -= b
