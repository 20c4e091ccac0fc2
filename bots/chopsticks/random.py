"""Chopsticks sample bot: a uniformly random tap.

Reads the rules line and the position line (see optimal.py or protocols/chopsticks.md),
then alternately writes its move and reads the opponent's, keeping the position itself.
Each move is a tap `H T` chosen uniformly among its live hands H and the opponent's live
hands T. It never splits or swaps, so its moves are legal under every rule set. The
generator is seeded from the environment variable BOT_SEED when it is set (any string),
and from a fixed seed otherwise, so a game can be replayed exactly.

Run by hand: `BOT_SEED=7 python3 bots/chopsticks/random.py`, then type
`hands=3/3 fingers=5 knockout=cutoff misere=off attack=tapped split=off swap=off` and
`(L 1 1 1 1 1 1)`, read its move, type the opponent's move (from the opponent's side: `1 2`
means the opponent's hand 1 tapped this bot's hand 2), and so on; Ctrl-D ends it.

Self-contained on purpose (bots run confined, without the `judge` package), so the rules
below are written again here rather than taken from judge/games, and the reading loop is
the same in every Chopsticks sample bot.
"""

import os
import sys

# This file is called random.py, and Python puts its folder first on the module path when it
# runs a script: drop that folder, so that `import random` finds the standard library.
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != HERE]
import random  # noqa: E402

Hands = tuple[int, ...]


class Rules:
    """What a tap does under the rules line (splits and swaps arrive as whole hands)."""

    def __init__(self, line: str) -> None:
        rules = dict(token.split("=", 1) for token in line.lower().split())
        counts = rules.get("hands", "3/3").split("/")
        self.hands = (int(counts[0]), int(counts[-1]))
        self.fingers = int(rules.get("fingers", "5"))
        self.rollover = rules.get("knockout", "cutoff") != "cutoff"
        self.tapping = rules.get("attack", "tapped") == "tapping"

    def land(self, total: int) -> int:
        """What a hand holds when it would hold `total` fingers (0: out of play)."""
        if self.rollover:
            return total % self.fingers
        return total if total <= self.fingers else 0

    def tap(self, mover: Hands, other: Hands, i: int, j: int) -> tuple[Hands, Hands]:
        """The mover's hand `i` taps the opponent's hand `j` (0-based): both sides after."""
        if self.tapping:
            return mover[:i] + (self.land(mover[i] + other[j]),) + mover[i + 1 :], other
        return mover, other[:j] + (self.land(other[j] + mover[i]),) + other[j + 1 :]

    def play(self, line: str, mover: Hands, other: Hands) -> tuple[Hands, Hands]:
        """A move in wire syntax, from the mover's side: both sides after."""
        tokens = line.split()
        if tokens[0] == "split":
            return tuple(map(int, tokens[1:])), other
        return self.tap(mover, other, int(tokens[0]) - 1, int(tokens[1]) - 1)


def main() -> None:
    rng = random.Random(os.environ.get("BOT_SEED", "chopsticks"))
    rules_line, position = sys.stdin.readline(), sys.stdin.readline()
    if not position:
        return
    rules = Rules(rules_line)
    tokens = position.replace("(", " ").replace(")", " ").split()
    values = tuple(map(int, tokens[1:]))
    left, right = values[: rules.hands[0]], values[rules.hands[0] :]
    me, you = (left, right) if tokens[0].upper() == "L" else (right, left)
    while True:
        if any(me) and any(you):
            i, j = rng.choice(
                [(i, j) for i, a in enumerate(me) for j, b in enumerate(you) if a and b]
            )
            print(i + 1, j + 1, flush=True)
            me, you = rules.tap(me, you, i, j)
        line = sys.stdin.readline()
        if not line:
            return
        you, me = rules.play(line, you, me)


if __name__ == "__main__":
    main()
