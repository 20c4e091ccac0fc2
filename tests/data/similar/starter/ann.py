def choose(heaps: list[int]) -> tuple[int, int]:
    """Leave a nim-sum of 0 when I can."""
    total = 0
    for size in heaps:
        total ^= size
    for i, size in enumerate(heaps):
        if size ^ total < size:
            return i + 1, size - (size ^ total)
    return heaps.index(max(heaps)) + 1, 1
