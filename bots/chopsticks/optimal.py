"""Chopsticks sample bot: perfect play under the rules it is given, by retrograde analysis.

Reads the rules line (`hands=3/3 fingers=5 knockout=cutoff misere=off attack=tapped
split=off swap=off`) and the position line (`(L 1 1 1 1 1 1)`: the side it plays, then
Left's hands, then Right's, 0 for a hand out of play). Then it alternately writes its move
and reads the opponent's, keeping the position itself:

- `H T`: the mover's hand H taps the opponent's hand T;
- `split v1 .. vk`: the mover's hands become v1 .. vk (a split, a revive or a swap).

It collects every position reachable from the current one, with each player's hands taken
as an unordered collection (the order of hands never changes who wins), and solves them all
by retrograde analysis: finished positions first, then a position is won when some move
reaches a position lost for the opponent, lost when every move reaches a position won for
the opponent, each with its remoteness (moves to the end); what is never decided is a draw
(splits, swaps and rollover make the game loopy). It plays a winning move that ends the game
soonest, a drawing move in a draw, and the move that loses slowest in a lost position.

All the rule keys are supported, with the moves of protocols/chopsticks.md: a split moves 1
or more fingers from a live hand, which keeps at least one, to another live hand (or, with
split=revive, an out one), which may not go past the most a live hand holds, and is not a
mere exchange of two values; a swap exchanges two live hands of different values. It solves
when it first has to move, and again should a later position lie outside what it collected.
The work grows fast with hands and fingers: the default rules take a few hundredths of a
second, 5 hands a side with 5 fingers, splits and swaps (60,000 positions) about 5 seconds,
and much larger variants may take longer than the time allowed for a first move.

Run by hand: `python3 bots/chopsticks/optimal.py`, type the two lines above, read its move,
type the opponent's move (from the opponent's side: `1 2` means the opponent's hand 1 tapped
this bot's hand 2), and so on; Ctrl-D (end of input) ends it. See protocols/chopsticks.md.

Self-contained on purpose (bots run confined, without the `judge` package), so the rules
below are written again here rather than taken from judge/games, and the reading loop is
the same in every Chopsticks sample bot.
"""

import sys
from collections import deque
from collections.abc import Iterator

DEFAULTS = {
    "hands": "3/3",
    "fingers": "5",
    "knockout": "cutoff",
    "misere": "off",
    "attack": "tapped",
    "split": "off",
    "swap": "off",
}

Hands = tuple[int, ...]
State = tuple[Hands, Hands]  # (the mover's hands, the opponent's hands)
# a move: the tapping and tapped hands (0-based; None for a split or swap), then the
# mover's and the opponent's hands after it
Move = tuple[tuple[int, int] | None, Hands, Hands]


def firsts(hands: Hands) -> list[int]:
    """The live hands (0-based), without those holding the same number as an earlier one."""
    return [i for i, value in enumerate(hands) if value and value not in hands[:i]]


def wire(move: Move) -> str:
    """A move in wire syntax."""
    tap, mover, _ = move
    if tap is None:
        return "split " + " ".join(map(str, mover))
    return f"{tap[0] + 1} {tap[1] + 1}"


def replace(hands: Hands, i: int, value: int) -> Hands:
    """`hands` with hand `i` (0-based) set to `value`."""
    return hands[:i] + (value,) + hands[i + 1 :]


class Rules:
    """The rules line, and the moves it allows."""

    def __init__(self, line: str) -> None:
        rules = dict(DEFAULTS)
        rules.update(token.split("=", 1) for token in line.lower().split())
        counts = rules["hands"].split("/")
        self.hands = (int(counts[0]), int(counts[-1]))
        self.fingers = int(rules["fingers"])
        self.rollover = rules["knockout"] != "cutoff"
        self.misere = rules["misere"] == "on"
        self.tapping = rules["attack"] == "tapping"
        self.split = rules["split"]
        self.swap = rules["swap"] == "on"
        # the most a live hand holds
        self.top = self.fingers - 1 if self.rollover else self.fingers

    def land(self, total: int) -> int:
        """What a hand holds when it would hold `total` fingers (0: out of play)."""
        if self.rollover:
            return total % self.fingers
        return total if total <= self.fingers else 0

    def tap(self, mover: Hands, other: Hands, i: int, j: int) -> tuple[Hands, Hands]:
        """The mover's hand `i` taps the opponent's hand `j` (0-based): both sides after."""
        if self.tapping:
            return replace(mover, i, self.land(mover[i] + other[j])), other
        return mover, replace(other, j, self.land(other[j] + mover[i]))

    def play(self, line: str, mover: Hands, other: Hands) -> tuple[Hands, Hands]:
        """A move in wire syntax, from the mover's side: both sides after."""
        tokens = line.split()
        if tokens[0] == "split":
            return tuple(map(int, tokens[1:])), other
        return self.tap(mover, other, int(tokens[0]) - 1, int(tokens[1]) - 1)

    def moves(self, mover: Hands, other: Hands) -> Iterator[Move]:
        """Every move of this bot's repertoire: taps, then splits and swaps.

        Hands holding the same number are interchangeable, so only the first of them is
        tried: the other moves lead to the same position up to the order of the hands.
        """
        for i in firsts(mover):
            for j in firsts(other):
                yield ((i, j), *self.tap(mover, other, i, j))
        for hands in dict.fromkeys(self.rearrangements(mover)):
            yield None, hands, other

    def rearrangements(self, hands: Hands) -> Iterator[Hands]:
        """The mover's hands after each split (or revive) and each swap the rules allow."""
        pairs = [(i, j) for i in firsts(hands) for j in range(len(hands)) if i != j]
        if self.split != "off":
            for i, j in pairs:
                a, b = hands[i], hands[j]
                if b or self.split == "revive":
                    for k in range(1, min(a, self.top - b + 1)):
                        if a - k != b:  # a mere exchange of values is not a split
                            yield replace(replace(hands, i, a - k), j, b + k)
        if self.swap:
            for i, j in pairs:
                if hands[j] and hands[i] != hands[j]:
                    yield replace(replace(hands, i, hands[j]), j, hands[i])

    def mover_wins(self, mover: Hands, other: Hands) -> bool | None:
        """Whether the mover has won a finished game (None while it goes on)."""
        if any(mover) and any(other):
            return None
        return (not any(mover)) == self.misere


def canonical(mover: Hands, other: Hands) -> State:
    """The position with each side's hands sorted: the same game, whatever the order."""
    return tuple(sorted(mover)), tuple(sorted(other))


class Solver:
    """Win / loss (with remoteness) of every position reachable from the ones asked about."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.known: set[State] = set()
        self.value: dict[State, tuple[bool, int]] = {}  # (mover wins, remoteness); else draw

    def solve(self, start: State) -> None:
        """Collect the positions reachable from `start` and solve them (retrograde)."""
        children: dict[State, set[State]] = {}
        parents: dict[State, list[State]] = {start: []}
        todo = [start]
        while todo:
            state = todo.pop()
            if self.rules.mover_wins(*state) is None:
                kids = {canonical(o, m) for _, m, o in self.rules.moves(*state)}
            else:
                kids = set()
            children[state] = kids
            for kid in kids:
                if kid not in parents:
                    parents[kid] = []
                    todo.append(kid)
                parents[kid].append(state)
        value = {s: (self.rules.mover_wins(*s), 0) for s, kids in children.items() if not kids}
        undecided = {s: len(kids) for s, kids in children.items()}
        queue = deque(value)  # decided positions, in order of remoteness
        while queue:
            state = queue.popleft()
            wins, remoteness = value[state]
            for parent in parents[state]:
                if parent in value:
                    continue
                undecided[parent] -= 1
                if not wins or not undecided[parent]:
                    value[parent] = (not wins, remoteness + 1)
                    queue.append(parent)
        self.known = set(children)
        self.value = value

    def choose(self, mover: Hands, other: Hands) -> Move:
        """The best move: win soonest, else draw, else lose slowest."""
        if canonical(mover, other) not in self.known:
            self.solve(canonical(mover, other))

        def rank(move: Move) -> tuple[int, int]:
            outcome = self.value.get(canonical(move[2], move[1]))  # the opponent's view
            if outcome is None:
                return 1, 0
            opponent_wins, remoteness = outcome
            return (2, -remoteness) if opponent_wins else (0, remoteness)

        return min(self.rules.moves(mover, other), key=rank)


def main() -> None:
    rules_line, position = sys.stdin.readline(), sys.stdin.readline()
    if not position:
        return
    rules = Rules(rules_line)
    tokens = position.replace("(", " ").replace(")", " ").split()
    values = tuple(map(int, tokens[1:]))
    left, right = values[: rules.hands[0]], values[rules.hands[0] :]
    me, you = (left, right) if tokens[0].upper() == "L" else (right, left)
    solver = Solver(rules)
    while True:
        if rules.mover_wins(me, you) is None:
            move = solver.choose(me, you)
            print(wire(move), flush=True)
            _, me, you = move
        line = sys.stdin.readline()
        if not line:
            return
        you, me = rules.play(line, you, me)


if __name__ == "__main__":
    main()
