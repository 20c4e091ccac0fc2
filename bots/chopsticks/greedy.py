"""Chopsticks sample bot: greedy taps, one move deep.

Reads the rules line and the position line (see optimal.py or protocols/chopsticks.md),
then alternately writes its move and reads the opponent's, keeping the position itself. It
only ever taps (a tap is legal under every rule set; it never splits or swaps), and picks,
in this order of preference, taking the first in hand order on a tie:

1. a tap that knocks out one of the opponent's hands;
2. a tap after which no tap of the opponent can knock out one of its own hands;
3. any tap.

It was written with the default rules in mind and ignores misere; under other rules it
still plays legally (it follows the knockout and attack rules to keep the position right).

Run by hand: `python3 bots/chopsticks/greedy.py`, then type
`hands=3/3 fingers=5 knockout=cutoff misere=off attack=tapped split=off swap=off` and
`(L 1 1 1 1 1 1)`, read its move, type the opponent's move (from the opponent's side: `1 2`
means the opponent's hand 1 tapped this bot's hand 2), and so on; Ctrl-D ends it.

Self-contained on purpose (bots run confined, without the `judge` package), so the rules
below are written again here rather than taken from judge/games, and the reading loop is
the same in every Chopsticks sample bot.
"""

import sys

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


def taps(mover: Hands, other: Hands) -> list[tuple[int, int]]:
    """Every tap (0-based hands), in hand order."""
    return [(i, j) for i, a in enumerate(mover) for j, b in enumerate(other) if a and b]


def alive(hands: Hands) -> int:
    """How many hands are in play."""
    return sum(1 for value in hands if value)


def choose(rules: Rules, me: Hands, you: Hands) -> tuple[int, int]:
    """The greedy tap (0-based hands)."""

    def knocks_out(tap: tuple[int, int]) -> bool:
        return alive(rules.tap(me, you, *tap)[1]) < alive(you)

    def safe(tap: tuple[int, int]) -> bool:
        mine, theirs = rules.tap(me, you, *tap)
        replies = (rules.tap(theirs, mine, *reply)[1] for reply in taps(theirs, mine))
        return all(alive(after) == alive(mine) for after in replies)

    return min(taps(me, you), key=lambda tap: (not knocks_out(tap), not safe(tap)))


def main() -> None:
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
            i, j = choose(rules, me, you)
            print(i + 1, j + 1, flush=True)
            me, you = rules.tap(me, you, i, j)
        line = sys.stdin.readline()
        if not line:
            return
        you, me = rules.play(line, you, me)


if __name__ == "__main__":
    main()
