"""Chopsticks: hands of fingers, taps, splits and swaps, in every variant of GAMES.md.

Rules (the `--rules` tokens, all of which appear on the protocol's first line):

- ``hands=l/r`` (or ``hands=k`` for k/k), ``fingers=n``: every hand has n fingers.
- ``knockout=cutoff``: a hand pushed past n is out, live hands hold 1..n;
  ``knockout=rollover`` (alias ``wrap-around``): a hand counts modulo n and is out at exactly
  a multiple of n, live hands hold 1..n-1.
- ``attack=tapped``: the tapped hand gains the tapping hand's fingers;
  ``attack=tapping``: the tapping hand gains the tapped hand's fingers instead.
- ``split=on``: instead of tapping, the mover moves 1 or more fingers from one live hand to
  one other live hand, keeping the total, without emptying the giving hand and without
  pushing the receiving hand past what a live hand holds; a transfer whose result merely
  exchanges the two hands' values is not a split. ``split=revive`` also allows the receiving
  hand to be a knocked-out one, which comes back into play.
- ``swap=on``: the mover may exchange the values of two live hands that differ (a pass).
- ``misere=on``: the player whose hands are all out wins instead of losing.

Combinations no game can be played under are refused (rollover with one finger holds no live
hand). Options that merely never apply, such as splits with one hand a side, are accepted and
give no such move: the wire's rules line states a position's own hand counts, so it must be
readable for any shape.

A position is written ``(L x1 .. xl y1 .. yr)`` (game card: the mover, Left's hands, then
Right's, 0 for a knocked-out hand; parentheses optional) or ``(x1 .. | y1 ..)_n`` (research
notation: live hands only, the hand counts read from the position, Left to move unless it is
prefixed with ``R``, e.g. ``R (1 4 | 1 1)``; the ``_n`` suffix must equal `fingers`). In the
bar form a 0 is accepted as a knocked-out hand, which is how positions whose hand counts
differ from the rules are written back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, ClassVar

from judge.games.base import (
    Game,
    InputError,
    PositionError,
    RulesError,
    Seat,
    garbage,
    illegal,
    opening_positions,
    parse_int,
    strict_tokens,
)
from judge.games.drawing import JSON, package_script
from judge.words import plural

LEFT, RIGHT = 0, 1
SIDES = "LR"
MAX_HANDS = 16
MAX_FINGERS = 1000
DRAWN_FINGERS = 20  # hands with more fingers are drawn as numbers
#: the default tests are chosen from the starts and every position up to this many moves
#: into the game
OPENING_PLIES = 3

_BAR = re.compile(r"^\((?P<inner>[^()]*)\)(?:_(?P<n>\S+))?$")


def hand_name(number: int, hands: int) -> str:
    """Hand `number` (from 1) in words: left and right of two hands, else by number."""
    return ("left hand", "right hand")[number - 1] if hands == 2 else f"hand {number}"


@dataclass(frozen=True, slots=True)
class Position:
    """The seat to move (0 = Left, 1 = Right) and each side's hands in order (0 = out)."""

    to_move: Seat
    left: tuple[int, ...]
    right: tuple[int, ...]

    def hands(self, seat: Seat) -> tuple[int, ...]:
        """The hands of `seat`."""
        return self.right if seat else self.left

    @property
    def shape(self) -> tuple[int, int]:
        """How many hands Left and Right have (live or not)."""
        return len(self.left), len(self.right)


Move = tuple[Any, ...]  # ("tap", my hand, their hand) numbered from 1, or ("split", my hands)


def tap(hand: int, target: int) -> Move:
    """The move in which the mover's hand `hand` taps the opponent's hand `target` (from 1)."""
    return ("tap", hand, target)


def split(hands: tuple[int, ...]) -> Move:
    """The move that leaves the mover's hands as `hands` (a split, revive or swap)."""
    return ("split", tuple(hands))


def knock(total: Any, fingers: int, rollover: bool) -> Any:
    """What a hand holding `total` fingers shows (0 when out); works on ints and numpy arrays."""
    return total % fingers if rollover else total * (total <= fingers)


def all_out(hands: tuple[int, ...]) -> bool:
    """Whether every one of `hands` is knocked out."""
    return not any(hands)


class Chopsticks(Game[Position, Move]):
    """Chopsticks under the `--rules` tokens in the module docstring."""

    name = "chopsticks"
    #: perfect play: its own solver, beside the rules (named, not imported)
    solver = "judge.games.chopsticks.solver:ChopsticksSolver"
    defaults = {
        "hands": "3/3",
        "fingers": "5",
        "knockout": "cutoff",
        "misere": "off",
        "attack": "tapped",
        "split": "off",
        "swap": "off",
    }
    loopy = True  # rollover, splits and swaps can repeat positions
    variants: ClassVar[dict[str, str]] = {
        "standard": "", "two-hands": "hands=2", "rollover": "hands=2 knockout=rollover",
        "splits": "hands=2 split=on", "zombies": "hands=2 split=revive",
        "swaps": "hands=2 swap=on", "tapping": "hands=2 attack=tapping",
        "misere": "hands=2 misere=on"}
    variant_about: ClassVar[dict[str, str]] = {
        "standard": "three hands a side, five fingers, cutoff",
        "two-hands": "two hands a side, as played in the schoolyard",
        "rollover": "two hands a side, a hand counts round modulo five",
        "splits": "two hands a side, fingers may be moved between your own hands",
        "zombies": "two hands a side, splits may bring back a hand that is out",
        "swaps": "two hands a side, you may exchange your two hands",
        "tapping": "two hands a side, the tapping hand gains the fingers",
        "misere": "two hands a side, whoever is knocked out wins"}
    rule_sentences: ClassVar[dict[tuple[str, str], str]] = {
        ("misere", "on"): "Misère: the player who would have won by the normal rule loses.",
        ("knockout", "rollover"): "Rollover: a hand counts modulo the finger count and is out "
                                  "only at exactly a multiple of it.",
        ("attack", "tapping"): "The tapping hand gains the tapped hand's fingers instead (and "
                               "may be the one that goes out).",
        ("split", "on"): "Split: instead of tapping, move one or more fingers from one of your "
                         "live hands to another (the giving hand keeps at least one).",
        ("split", "revive"): "Split with revival: as a split, and the receiving hand may be "
                             "one that is out, which comes back into play.",
        ("swap", "on"): "Swap: instead of tapping, exchange two of your live hands that differ "
                        "(in effect a pass)."}
    #: a default test set holds at most this many tests per seat
    max_tests: ClassVar[int | None] = 24
    notation: ClassVar[str] = (
        "the game card '(L 1 1 1 1 1 1)': the mover, then Left's hands and Right's (0 = out), "
        "or research notation '(1 4 | 1 1)' (Left to move; 'R (1 4 | 1 1)' for Right; "
        "optional '_n' suffix = fingers) with live hands only, any number on each side")
    value_notes: ClassVar[str] = (
        "Outcome classes: N the first mover wins, P the second mover wins, L / R that side "
        "wins whoever starts, D a draw either way; x/y when only one order is a draw (the "
        "result with Left moving first, then with Right moving first).")

    def __init__(self, rules: str = "") -> None:
        super().__init__(rules)
        r = self.rules
        try:
            counts = r["hands"].split("/")
            if len(counts) > 2:
                raise InputError(f"hands is 'l/r' or one number, not {r['hands']!r}")
            hands = [parse_int(c, "the number of hands", 1, MAX_HANDS) for c in counts]
            self.hands: tuple[int, int] = (hands[0], hands[-1])
            self.fingers = parse_int(r["fingers"], "fingers", 1, MAX_FINGERS)
        except InputError as exc:
            raise RulesError(str(exc)) from None
        knockout = {"cutoff": "cutoff", "rollover": "rollover", "wrap-around": "rollover"}
        self.rollover = self._choice("knockout", knockout) == "rollover"
        self.misere = self._choice("misere", {"off": False, "on": True})
        self.tapping = self._choice("attack", {"tapped": False, "tapping": True})
        self.split = self._choice("split", {v: v for v in ("off", "on", "revive")})
        self.swap = self._choice("swap", {"off": False, "on": True})
        if self.rollover and self.fingers == 1:
            raise RulesError(
                "knockout=rollover needs fingers >= 2: with one finger every count is a "
                "multiple of 1, so no hand could ever be alive"
            )
        #: the most fingers a live hand holds
        self.top = self.fingers - 1 if self.rollover else self.fingers
        self._refuse_idle_options()
        r["hands"] = f"{self.hands[0]}/{self.hands[1]}"
        r["fingers"] = str(self.fingers)

    def _refuse_idle_options(self) -> None:
        """Refuse a split or swap option that no position of these rules could ever use."""
        most = f"{self.top} finger{'s' if self.top > 1 else ''}"
        if max(self.hands) < 2 and (self.split != "off" or self.swap):
            raise RulesError(
                "split and swap move fingers between a player's own hands, "
                "so at least one side needs two hands"
            )
        if self.swap and self.top < 2:
            raise RulesError(
                f"swap=on exchanges two different live values, but a live hand holds at most "
                f"{most} here (needs fingers >= 2, or >= 3 with rollover)"
            )
        if self.split == "on" and self.top < 3:
            raise RulesError(
                f"split=on between two live hands needs a hand of 3 fingers; a live hand holds "
                f"at most {most} here, so every such move would merely exchange values "
                "(use split=revive, or fingers >= 3, or >= 4 with rollover)"
            )
        if self.split == "revive" and self.top < 2:
            raise RulesError(
                f"split=revive moves fingers out of a hand of 2 or more; a live hand holds at "
                f"most {most} here (needs fingers >= 2, or >= 3 with rollover)"
            )

    def _choice(self, key: str, allowed: dict[str, Any]) -> Any:
        value = self.rules[key]
        if value not in allowed:
            options = ", ".join(repr(v) for v in allowed)
            raise RulesError(f"{key} is one of {options}, not {value!r}")
        self.rules[key] = next(k for k, v in allowed.items() if v == allowed[value])
        return allowed[value]

    def rules_for(self, shape: tuple[int, int]) -> str:
        """The canonical rules line with the hand counts of `shape`."""
        rules = dict(self.rules, hands=f"{shape[0]}/{shape[1]}")
        return " ".join(f"{k}={v}" for k, v in rules.items())

    def describe_at(self, pos: Position) -> str:
        """The rules with the hand counts of `pos`, which research notation may choose."""
        return f"{self.name} {self.rules_for(pos.shape)}"

    # --- positions -------------------------------------------------------------------
    def position_note(self, pos: Position, rules: str) -> str | None:
        """A position in research notation brings its own hand counts: say so when they are
        not the rules' (`rules` as written: whether hands= was given or defaulted)."""
        if pos.shape == self.hands:
            return None
        given = any(t.split("=", 1)[0].lower() == "hands" for t in rules.split())
        return (f"is solved with {pos.shape[0]}/{pos.shape[1]} hands, its own (the rules "
                f"{'say' if given else 'default to'} hands={self.hands[0]}/{self.hands[1]})")

    def start(self) -> Position:
        return self.start_for(self.hands, LEFT)

    @staticmethod
    def start_for(shape: tuple[int, int], mover: Seat) -> Position:
        """Every hand holding one finger, `mover` to move."""
        return Position(mover, (1,) * shape[0], (1,) * shape[1])

    def standard_starts(self) -> list[Position]:
        """The start with Left to move and, when the sides differ in hands, with Right to move.

        With equal hand counts Right moving first is the same game with the seats exchanged,
        which playing both seats already covers.
        """
        starts = [self.start()]
        if self.hands[0] != self.hands[1]:
            starts.append(self.start_for(self.hands, RIGHT))
        return starts

    def parse_position(self, text: str) -> Position:
        """Game card ``(L 0 4 1 0 1 1)`` or research notation ``[R] (1 4 | 1 1)[_n]``."""
        body = text.strip()
        try:
            if "|" in body:
                return self._parse_bar(body)
            return self._parse_card(body)
        except InputError as exc:
            raise PositionError(f"bad Chopsticks position {body!r}: {exc}") from None

    def _parse_card(self, body: str) -> Position:
        if body.startswith("(") != body.endswith(")"):
            raise PositionError("unbalanced parentheses")
        if body.startswith("("):
            body = body[1:-1]
        tokens = body.replace(",", " ").split()
        left, right = self.hands
        if len(tokens) != 1 + left + right:
            raise PositionError(
                f"the game card form is (P x1 .. x{left} y1 .. y{right}): the mover (L or R) "
                f"and {left + right} hands"
            )
        mover = self._mover(tokens[0])
        values = self._values(tokens[1:])
        return self._checked(Position(mover, values[:left], values[left:]))

    def _parse_bar(self, body: str) -> Position:
        mover = LEFT
        if body[:1].upper() in SIDES and body[1:2] in (" ", "("):
            mover = self._mover(body[0])
            body = body[1:].strip()
        if "(" not in body and ")" not in body:
            body = f"({body})"
        match = _BAR.match(body)
        if not match:
            raise PositionError("the research form is (x1 .. | y1 ..) with an optional _n")
        n = None if match["n"] is None else parse_int(match["n"], "the _n suffix")
        if n is not None and n != self.fingers:
            raise PositionError(f"the position is for {plural(n, 'finger')} but the rules say "
                                f"fingers={self.fingers}")
        sides = match["inner"].split("|")
        if len(sides) != 2:
            raise PositionError("exactly one '|' separates Left's hands from Right's")
        left, right = (self._values(s.replace(",", " ").split()) for s in sides)
        for name, hands in (("Left", left), ("Right", right)):
            if not 1 <= len(hands) <= MAX_HANDS:
                raise PositionError(f"{name} needs 1 to {MAX_HANDS} hands, not {len(hands)}")
        return self._checked(Position(mover, left, right))

    @staticmethod
    def _mover(token: str) -> Seat:
        if token.upper() not in SIDES:
            raise PositionError(f"the mover is L or R, not {token!r}")
        return SIDES.index(token.upper())

    def _values(self, tokens: list[str]) -> tuple[int, ...]:
        return tuple(parse_int(t, "a hand", 0, self.top) for t in tokens)

    @staticmethod
    def _checked(pos: Position) -> Position:
        if all_out(pos.left) and all_out(pos.right):
            raise PositionError("both players cannot be out at once")
        return pos

    def format_position(self, pos: Position) -> str:
        """The game card form for the rules' hand counts, otherwise the bar form with zeros."""
        if pos.shape == self.hands:
            return self._card(pos)
        left, right = (" ".join(map(str, h)) for h in (pos.left, pos.right))
        return f"{'R ' if pos.to_move else ''}({left} | {right})"

    @staticmethod
    def _card(pos: Position) -> str:
        return f"({SIDES[pos.to_move]} {' '.join(map(str, pos.left + pos.right))})"

    def mover(self, pos: Position) -> Seat:
        return pos.to_move

    @staticmethod
    def sides(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The mover's hands and the opponent's hands."""
        return pos.hands(pos.to_move), pos.hands(1 - pos.to_move)

    @staticmethod
    def after(pos: Position, mine: tuple[int, ...], theirs: tuple[int, ...]) -> Position:
        """The position with the mover's and opponent's hands replaced, the other side to move."""
        left, right = (theirs, mine) if pos.to_move else (mine, theirs)
        return Position(1 - pos.to_move, left, right)

    # --- moves -----------------------------------------------------------------------
    def split_results(self, hands: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every distinct hand tuple a split, revive or swap can leave from `hands`, sorted."""
        results: set[tuple[int, ...]] = set()
        if self.swap:
            for i, j in combinations(range(len(hands)), 2):
                if hands[i] and hands[j] and hands[i] != hands[j]:
                    new = list(hands)
                    new[i], new[j] = hands[j], hands[i]
                    results.add(tuple(new))
        if self.split != "off":
            for i, give in enumerate(hands):
                for j, get in enumerate(hands):
                    if i == j or give < 2 or (not get and self.split != "revive"):
                        continue
                    for amount in range(1, min(give - 1, self.top - get) + 1):
                        if give - amount == get:  # the two hands' values merely exchanged
                            continue
                        new = list(hands)
                        new[i] -= amount
                        new[j] += amount
                        results.add(tuple(new))
        return sorted(results)

    def legal_moves(self, pos: Position) -> list[Move]:
        """Taps (my hand, their hand) in order, then splits by resulting hands."""
        if self.is_over(pos):
            return []
        mine, theirs = self.sides(pos)
        taps = [tap(h, t) for h, x in enumerate(mine, 1) if x for t, y in enumerate(theirs, 1) if y]
        return taps + [split(s) for s in self.split_results(mine)]

    def play(self, pos: Position, move: Move) -> Position:
        mine, theirs = (list(h) for h in self.sides(pos))
        if move[0] == "split":
            return self.after(pos, move[1], tuple(theirs))
        h, t = move[1] - 1, move[2] - 1
        if self.tapping:
            mine[h] = knock(mine[h] + theirs[t], self.fingers, self.rollover)
        else:
            theirs[t] = knock(theirs[t] + mine[h], self.fingers, self.rollover)
        return self.after(pos, tuple(mine), tuple(theirs))

    def is_over(self, pos: Position) -> bool:
        return all_out(pos.left) or all_out(pos.right)

    def winner(self, pos: Position) -> Seat | None:
        """The seat that won; a player with no hand left loses (wins under misere)."""
        if not self.is_over(pos):
            return None
        out = LEFT if all_out(pos.left) else RIGHT
        return out if self.misere else 1 - out

    # --- wire codec --------------------------------------------------------------------
    def wire_start(self, pos: Position) -> list[str]:
        """The rules line (with the position's hand counts) and the game card."""
        return [self.rules_for(pos.shape), self._card(pos)]

    def parse_move(self, line: str, pos: Position) -> Move:
        """``H T`` (my hand H taps your hand T) or ``split v1 .. vk`` (my hands become v1..vk)."""
        tokens = strict_tokens(line)
        syntax = "a move is 'H T' (your hand H taps hand T) or 'split v1 .. vk'"
        if tokens[0] == "split":
            if len(tokens) == 1:
                raise garbage(line, "'split' is followed by the new values of all your hands")
            values = tuple(self._number(t, line) for t in tokens[1:])
            return self._split_move(line, pos, values)
        if len(tokens) != 2:
            raise garbage(line, syntax)
        h, t = (self._number(tok, line) for tok in tokens)
        if self.is_over(pos):
            raise illegal(line, "the game is over")
        mine, theirs = self.sides(pos)
        for number, hands, who, whose in (
            (h, mine, "you have", "your"),
            (t, theirs, "your opponent has", "your opponent's"),
        ):
            if not 1 <= number <= len(hands):
                raise illegal(line, f"{who} no hand {number}: hands are 1 to {len(hands)}")
            if not hands[number - 1]:
                raise illegal(line, f"{whose} hand {number} is knocked out")
        return tap(h, t)

    @staticmethod
    def _number(token: str, line: str) -> int:
        if not token.isdigit():
            raise garbage(line, f"{token!r} is not a whole number (or the word 'split')")
        if len(token) > 1 and token.startswith("0"):
            raise garbage(line, f"{token!r}: numbers must not have leading zeros")
        return int(token)

    def _split_move(self, line: str, pos: Position, values: tuple[int, ...]) -> Move:
        mine, _ = self.sides(pos)
        if len(values) != len(mine):
            count = len(values)
            raise garbage(line, f"'split' needs one value per hand ({len(mine)}), not {count}")
        if self.is_over(pos):
            raise illegal(line, "the game is over")
        if self.split == "off" and not self.swap:
            raise illegal(line, "these rules allow neither splits nor swaps (split=off swap=off)")
        if values in self.split_results(mine):
            return split(values)
        raise illegal(line, self._split_fault(mine, values))

    def _split_fault(self, mine: tuple[int, ...], new: tuple[int, ...]) -> str:
        """Why turning `mine` into `new` is not a legal split, revive or swap."""
        if max(new) > self.top:
            return f"a live hand holds at most {plural(self.top, 'finger')}, not {max(new)}"
        if sum(new) != sum(mine):
            return (f"a split keeps the total: you have {plural(sum(mine), 'finger')}, "
                    f"not {sum(new)}")
        changed = [i for i in range(len(mine)) if mine[i] != new[i]]
        if not changed:
            return "the split leaves every hand as it is"
        exchange = sorted(mine[i] for i in changed) == sorted(new[i] for i in changed)
        if len(changed) == 2 and exchange:
            if not self.swap:
                return "merely exchanging two hands' values is a swap, and swap=off"
            return "only two live hands can be swapped"
        if self.split == "off":
            return "split=off: the only moves of this kind are swaps of two live hands"
        if len(changed) != 2:
            return f"a split moves fingers from one hand to one other, this changes {len(changed)}"
        give, get = sorted(changed, key=lambda i: new[i] - mine[i])
        if not new[give]:
            return f"a split may not empty hand {give + 1}"
        return f"hand {get + 1} is knocked out, and only split=revive brings a hand back"

    def format_move(self, move: Move, pos: Position) -> str:
        if move[0] == "split":
            return "split " + " ".join(map(str, move[1]))
        return f"{move[1]} {move[2]}"

    def move_label(self, move: Move, pos: Position) -> str:
        """A move in words, then as the game card writes it: ``left hand taps right hand
        (L1>R2)``, ``split to 2 and 2 (L split 2 2)`` (or revive, swap)."""
        me, you = SIDES[pos.to_move], SIDES[1 - pos.to_move]
        mine, _ = self.sides(pos)
        if move[0] != "split":
            return (f"{hand_name(move[1], len(mine))} taps {hand_name(move[2], len(mine))} "
                    f"({me}{move[1]}>{you}{move[2]})")
        new = move[1]
        if sorted(new) == sorted(mine):
            kind = "swap"
        elif any(new[i] and not mine[i] for i in range(len(mine))):
            kind = "revive"
        else:
            kind = "split"
        hands = " and ".join(map(str, new))
        return f"{kind} to {hands} ({me} {kind} {' '.join(map(str, new))})"

    # --- display -------------------------------------------------------------------------
    def render(self, pos: Position) -> str:
        """Both players' hands, raised fingers as ``|`` and lowered ones as ``.``."""
        winner = self.winner(pos)
        lines = []
        for seat, name in ((LEFT, "Left "), (RIGHT, "Right")):
            hands = "  ".join(f"{i}:{self._hand(v)}" for i, v in enumerate(pos.hands(seat), 1))
            if winner is None:
                note = "   <- to move" if seat == pos.to_move else ""
            else:
                note = "   wins" if seat == winner else "   loses"
            lines.append(f"{name} {hands}{note}")
        return "\n".join(lines)

    def _hand(self, value: int) -> str:
        if self.fingers > DRAWN_FINGERS:
            return f"{value}/{self.fingers}" if value else "out"
        return "|" * value + "." * (self.fingers - value)

    # --- judging and explaining ------------------------------------------------------------
    def test_positions(self) -> list[Position]:
        """The standard starts and every position up to `OPENING_PLIES` moves into the game."""
        return opening_positions(self, OPENING_PLIES)

    def rules_text(self) -> list[str]:
        return [
            "Two players, Left and Right, each have some hands; every hand has room for the "
            "same number of fingers and starts showing 1. On your turn you tap: one of your "
            "live hands touches one of your opponent's, and the tapped hand gains as many "
            "fingers as the tapping hand shows.",
            "Under cutoff a hand pushed past the finger count is out; under rollover it counts "
            "round and is out only at exactly a multiple of the finger count. A player whose "
            "hands are all out loses (wins under misère).",
            "Where positions can repeat (rollover, splits, swaps) a game is stopped at the move "
            "limit and scored a tie.",
        ]

    def rule_notes(self) -> list[str]:
        """The hands and fingers, then what each rule other than the default changes."""
        return [f"Hands: {self.rules['hands']} (Left/Right), fingers: {self.rules['fingers']}.",
                *super().rule_notes()]

    def end_reason(self, pos: Position) -> str:
        out = LEFT if all_out(pos.left) else RIGHT
        rule = " (misère: that player wins)" if self.misere else ""
        return f"all of player {out + 1}'s hands are out{rule}"

    # --- board drawing (board.js) ----------------------------------------------------------
    def board_script(self) -> str | None:
        return package_script(__package__)

    def board_meta(self) -> dict[str, JSON]:
        """The fingers of a hand, how many are drawn one by one at most, the sides' names."""
        return {"fingers": self.fingers, "drawn_fingers": DRAWN_FINGERS,
                "sides": ["Left", "Right"]}

    def board_state(self, pos: Position) -> dict[str, JSON]:
        """The raised fingers of Left's and Right's hands (0: out)."""
        return {"left": list(pos.left), "right": list(pos.right)}

    def board_touched(self, pos: Position, move: Move) -> list[JSON]:
        """``[side, hand]`` pairs (side 0 is Left, hands from 1): the tapping and the tapped
        hand, or the mover's hands that a split or swap changed."""
        me = pos.to_move
        if move[0] == "split":
            return [[me, i + 1] for i, (a, b) in enumerate(zip(pos.hands(me), move[1],
                                                               strict=True)) if a != b]
        return [[me, move[1]], [1 - me, move[2]]]

    def board_control(self, pos: Position, move: Move) -> dict[str, JSON] | None:
        """A tap: the mover's hand, then the hand it taps; a split is played from the list."""
        if move[0] != "tap":
            return None
        me = pos.to_move
        return {"hand": [me, move[1]], "target": [1 - me, move[2]]}


def mirrored(pos: Position) -> Position:
    """The same hands with the other side to move."""
    return replace(pos, to_move=1 - pos.to_move)
