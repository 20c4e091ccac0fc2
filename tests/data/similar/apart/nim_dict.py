#!/usr/bin/env python3
"""Plays Nim: keeps heaps in a dict keyed by their number."""
import sys


def state_from(line):
    return {n: int(v) for n, v in enumerate(line.split(), start=1)}


def reply(state):
    s = 0
    for v in state.values():
        s ^= v
    if s:
        for n, v in state.items():
            if v ^ s < v:
                return n, v - (v ^ s)
    n = max(state, key=state.get)
    return n, 1


def apply(state, n, k):
    state[n] -= k
    return any(state.values())


def run(stream, out):
    state = state_from(stream.readline())
    while any(state.values()):
        n, k = reply(state)
        out.write("%d %d\n" % (n, k))
        out.flush()
        if not apply(state, n, k):
            return
        theirs = stream.readline()
        if not theirs:
            return
        a, b = theirs.split()
        apply(state, int(a), int(b))


if __name__ == "__main__":
    run(sys.stdin, sys.stdout)
