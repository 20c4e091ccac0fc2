"""The interface every game implements: pure rules, notation and wire codec, no I/O."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import ClassVar, Generic, TypeVar

P = TypeVar("P", bound=Hashable)  # a position: immutable, hashable, knows whose turn it is
M = TypeVar("M", bound=Hashable)  # a move: immutable, hashable

Seat = int  # 0 is the player who moves first from the standard start, 1 the other one


class InputError(ValueError):
    """Something the user typed (a position, a rule, a file line) is malformed."""


class Stopped(RuntimeError):
    """The judge could not go on (one of its own processes was killed); what was stored is
    kept. The command line reports it in one line, with exit status 1."""


class RulesError(InputError):
    """A `--rules` string names an unknown key, a bad value or a senseless combination."""


class PositionError(InputError):
    """A position cannot be parsed or is not a position of this game."""


class MoveError(ValueError):
    """A line written by a bot that is not a legal move.

    `code` is the verdict it earns: ``garbage`` when the line is not in the move syntax at
    all, ``illegal-move`` when it is a well-formed move that the rules forbid here.
    """

    def __init__(self, code: str, line: str, reason: str) -> None:
        super().__init__(f"{reason} (the bot wrote {line!r})")
        self.code = code
        self.line = line
        self.reason = reason


def garbage(line: str, reason: str) -> MoveError:
    """A `MoveError` for a line that is not in the move syntax."""
    return MoveError("garbage", line, reason)


def illegal(line: str, reason: str) -> MoveError:
    """A `MoveError` for a well-formed move that the rules forbid."""
    return MoveError("illegal-move", line, reason)


def parse_rule_tokens(text: str, defaults: dict[str, str]) -> dict[str, str]:
    """Split ``key=value`` tokens, check the keys against `defaults`, fill in the rest."""
    rules = dict(defaults)
    seen: set[str] = set()
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise RulesError(f"rule token {token!r} is not of the form key=value")
        key = key.lower()
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise RulesError(f"unknown rule {key!r} (known rules: {known})")
        if key in seen:
            raise RulesError(f"rule {key!r} is given twice")
        seen.add(key)
        rules[key] = value.lower()
    return rules


def parse_int(text: str, what: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """A strict decimal integer (no sign unless negative, no spaces), range-checked."""
    stripped = text[1:] if text.startswith("-") else text
    if not stripped.isascii() or not stripped.isdigit():
        raise InputError(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if minimum is not None and value < minimum:
        raise InputError(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {maximum}, not {value}")
    return value


def strict_tokens(line: str) -> list[str]:
    """Split a bot's line into tokens, rejecting anything but single-space separated ASCII."""
    if not line:
        raise garbage(line, "an empty line where a move was expected")
    if line.endswith("\r"):
        raise garbage(line, "the line ends with a carriage return: end lines with '\\n' only")
    if not line.isascii():
        raise garbage(line, "the line contains non-ASCII characters")
    if line != line.strip(" \t"):
        raise garbage(line, "the line has leading or trailing spaces")
    tokens = line.split(" ")
    if "" in tokens:
        raise garbage(line, "tokens must be separated by exactly one space")
    if any(not t.isprintable() for t in tokens):
        raise garbage(line, "the line contains control characters")
    return tokens


class Game(ABC, Generic[P, M]):
    """A two-player game under fixed rules: positions, moves, notation and the wire codec."""

    name: ClassVar[str]
    #: rules keys with their default values; `rules` always holds every key
    defaults: ClassVar[dict[str, str]] = {}
    #: whether positions can repeat, so that a game between bots needs a move limit
    loopy: ClassVar[bool] = False
    #: whether a finished game can be a tie, so that holding a draw is something to grade
    draws: ClassVar[bool] = False
    #: the solver of a game the judge has no solver of its own for, as "module:Class"
    #: (named, not imported: solvers sit above the rules)
    solver: ClassVar[str] = "judge.solvers.generic:GenericSolver"
    #: named sets of rules ("kayles" -> "code=0.77"), which `judge games` lists
    variants: ClassVar[dict[str, str]] = {}

    def __init__(self, rules: str = "") -> None:
        self.rules = parse_rule_tokens(rules, self.defaults)

    def rules_string(self) -> str:
        """The canonical rules: every key, in a fixed order."""
        return " ".join(f"{k}={v}" for k, v in self.rules.items())

    def describe(self) -> str:
        """The game and its exact rules, as recorded with every result."""
        rules = self.rules_string()
        return f"{self.name} {rules}" if rules else self.name

    def describe_at(self, pos: P) -> str:
        """The game and rules that `pos` belongs to (a position may fix some rules itself)."""
        return self.describe()

    # --- positions -------------------------------------------------------------------
    @abstractmethod
    def start(self) -> P:
        """The standard start position."""

    @abstractmethod
    def standard_starts(self) -> list[P]:
        """The default test set of start positions."""

    def test_positions(self) -> list[P]:
        """Positions a default test set is chosen from (those the graded seat can win or
        hold); the standard starts unless the game says more."""
        return self.standard_starts()

    @abstractmethod
    def parse_position(self, text: str) -> P:
        """A position from the user's notation; raises `PositionError`."""

    @abstractmethod
    def format_position(self, pos: P) -> str:
        """The position in the user's notation (parse_position reads it back)."""

    @abstractmethod
    def mover(self, pos: P) -> Seat:
        """The seat whose turn it is."""

    @abstractmethod
    def legal_moves(self, pos: P) -> list[M]:
        """All legal moves, in a fixed order; empty when the game is over."""

    @abstractmethod
    def play(self, pos: P, move: M) -> P:
        """The position after `move` (which must be legal)."""

    @abstractmethod
    def is_over(self, pos: P) -> bool:
        """Whether the game has ended at `pos`."""

    @abstractmethod
    def winner(self, pos: P) -> Seat | None:
        """The winning seat of a finished game, or None for a tie."""

    def score(self, pos: P) -> tuple[int, int] | None:
        """Points banked by each seat, for games that keep a score (else None)."""
        return None

    # --- wire codec --------------------------------------------------------------------
    @abstractmethod
    def wire_start(self, pos: P) -> list[str]:
        """The lines that open the game for a bot that must move at `pos`."""

    @abstractmethod
    def parse_move(self, line: str, pos: P) -> M:
        """A bot's move line (without its newline) at `pos`; raises `MoveError`."""

    @abstractmethod
    def format_move(self, move: M, pos: P) -> str:
        """The move in wire syntax, from the point of view of the mover at `pos`."""

    # --- display -------------------------------------------------------------------------
    @abstractmethod
    def render(self, pos: P) -> str:
        """A drawing of the position for a person, a few lines of text."""

    def move_label(self, move: M, pos: P) -> str:
        """A short human label for a move (defaults to its wire form)."""
        return self.format_move(move, pos)

    def parse_positions(self, lines: Sequence[str]) -> list[P]:
        """Positions from the lines of a file: blank lines and ``#`` comments are skipped."""
        positions = []
        for number, raw in enumerate(lines, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                positions.append(self.parse_position(text))
            except InputError as exc:
                raise PositionError(f"line {number}: {exc}") from None
        return positions
