def choose(heaps: list[int]) -> tuple[int, int]:
    """Try every move, keep one after which the xor of the heaps is zero."""
    for heap in range(len(heaps)):
        for take in range(1, heaps[heap] + 1):
            rest = heaps[:heap] + [heaps[heap] - take] + heaps[heap + 1:]
            x = 0
            for r in rest:
                x = x ^ r
            if x == 0:
                return heap + 1, take
    smallest = min(h for h in heaps if h)
    return heaps.index(smallest) + 1, smallest
