"""Subtraction-game sample bot: perfect play, for any set of takes.

Reads the numbers a move may take (`1 2 3`) and the counters in the heap (`21`), then
alternately writes the counters it takes and reads the opponent's take. A heap is lost for
the player to move when every take leads to a heap won for the other player (a heap no take
fits is lost: whoever cannot move loses), so the bot takes what leaves a lost heap when it
can, else the fewest counters, to make the game last. See subtraction_game/protocol.md.

Self-contained on purpose (bots run confined, without the `judge` package).
"""

import sys


def main() -> None:
    takes = [int(t) for t in sys.stdin.readline().split()]
    heap = int(sys.stdin.readline())
    lost: list[bool] = []  # lost[n]: a heap of n is lost for the player to move
    for n in range(heap + 1):
        lost.append(not any(lost[n - k] for k in takes if k <= n))
    while True:
        legal = [k for k in takes if k <= heap]
        if not legal:
            break
        winning = [k for k in legal if lost[heap - k]]
        take = (winning or legal)[0]
        print(take, flush=True)
        heap -= take
        line = sys.stdin.readline()
        if not line:  # the game is over: the judge closed the input
            break
        heap -= int(line)


if __name__ == "__main__":
    main()
