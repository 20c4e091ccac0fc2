#!/usr/bin/env python3
"""Plays Nim: keeps heaps in a dict keyed by their number, and logs to stderr."""
import sys


def state_from(line):
    return {n: int(v) for n, v in enumerate(line.split(), start=1)}


def nim_sum(state):
    s = 0
    for v in state.values():
        s ^= v
    return s


def reply(state):
    s = nim_sum(state)
    if s:
        for n, v in state.items():
            if v ^ s < v:
                return n, v - (v ^ s)
    n = max(state, key=state.get)
    return n, 1


def apply(state, n, k):
    if state.get(n, 0) < k:
        print("bad move", n, k, file=sys.stderr)
    state[n] -= k
    return any(state.values())


def run(stream, out):
    state = state_from(stream.readline())
    moves = 0
    while any(state.values()):
        n, k = reply(state)
        out.write("%d %d\n" % (n, k))
        out.flush()
        moves += 1
        if not apply(state, n, k):
            break
        theirs = stream.readline()
        if not theirs:
            break
        a, b = theirs.split()
        apply(state, int(a), int(b))
    print("moves played:", moves, file=sys.stderr)


if __name__ == "__main__":
    run(sys.stdin, sys.stdout)
