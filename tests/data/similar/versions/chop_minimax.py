"""Chopsticks with a depth-limited minimax, the finger count from the rules line."""
import sys
from functools import lru_cache

LIMIT = 5
DEPTH = 5


def parse(line):
    values = line.replace("(", "").replace(")", "").split()
    return values[0], [int(v) for v in values[1:]]


def read_limit(line):
    for word in line.split():
        if word.startswith("fingers="):
            return int(word.split("=")[1])
    return 5


def moves(me, you):
    return [(a, b) for a in range(len(me)) if me[a] for b in range(len(you)) if you[b]]


def tapped(me, you, a, b):
    total = you[b] + me[a]
    result = list(you)
    result[b] = total if total <= LIMIT else 0
    return tuple(result)


@lru_cache(maxsize=None)
def score(me, you, depth):
    if not any(me):
        return -100 - depth
    if not any(you):
        return 100 + depth
    if depth == 0:
        return sum(1 for v in me if v) - sum(1 for v in you if v)
    best = -1000
    for a, b in moves(me, you):
        best = max(best, -score(tapped(me, you, a, b), me, depth - 1))
    return best


def pick(me, you):
    return max(moves(me, you), key=lambda m: -score(tapped(me, you, *m), me, DEPTH))


def main():
    global LIMIT
    LIMIT = read_limit(sys.stdin.readline())
    side, hands = parse(sys.stdin.readline())
    n = len(hands) // 2
    me, you = (hands[:n], hands[n:]) if side == "L" else (hands[n:], hands[:n])
    me, you = tuple(me), tuple(you)
    while any(me) and any(you):
        a, b = pick(me, you)
        you = tapped(me, you, a, b)
        print(a + 1, b + 1, flush=True)
        if not any(you):
            break
        line = sys.stdin.readline()
        if not line:
            break
        a, b = (int(t) - 1 for t in line.split())
        me = tapped(you, me, a, b)


main()
