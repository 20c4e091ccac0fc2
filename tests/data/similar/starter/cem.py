def choose(heaps: list[int]) -> tuple[int, int]:
    """Mirror the opponent on two heaps, else empty all but one heap, else take one."""
    live = [i for i, h in enumerate(heaps) if h]
    if len(live) == 1:
        return live[0] + 1, heaps[live[0]]
    if len(live) == 2:
        a, b = live
        if heaps[a] != heaps[b]:
            big = a if heaps[a] > heaps[b] else b
            return big + 1, abs(heaps[a] - heaps[b])
    return live[-1] + 1, 1
