"""Connect Four sample bot (weak): a random column that is not full; perfect play beats it
whenever it can.

Reads the board (rows from the top separated by '/'), then alternately writes a column
number from 1 and reads the opponent's. See protocols/connect4.md. Self-contained (bots run
without the `judge` package).
"""

import os
import random
import sys

RNG = random.Random(os.environ.get("BOT_SEED", "connect4"))  # BOT_SEED replays a game


def main() -> None:
    height: list[int] = []
    rows = 0
    for line in sys.stdin:
        if height:
            height[int(line) - 1] += 1
        else:
            board = line.strip().split("/")
            rows = len(board)
            height = [sum(r[c] != "." for r in board) for c in range(len(board[0]))]
        free = [c for c, h in enumerate(height) if h < rows]
        if not free:
            break
        col = RNG.choice(free)
        print(col + 1, flush=True)
        height[col] += 1


if __name__ == "__main__":
    main()
