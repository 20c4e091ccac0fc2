"""The interface every game implements: pure rules, notation and wire codec, no I/O."""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from enum import Enum
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    NamedTuple,
    Protocol,
    TypeVar,
    runtime_checkable,
)

from judge.games.drawing import JSON, package_script

P = TypeVar("P", bound=Hashable)  # a position: immutable, hashable, knows whose turn it is
M = TypeVar("M", bound=Hashable)  # a move: immutable, hashable
T = TypeVar("T")
#: a position a facet only reads
P_in = TypeVar("P_in", bound=Hashable, contravariant=True)
#: a move a facet only reads
M_in = TypeVar("M_in", bound=Hashable, contravariant=True)

#: the file of a game's protocol page, beside its package's ``__init__.py``
PROTOCOL = "protocol.md"

if TYPE_CHECKING:
    import random

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


def quoted(line: str, most: int = 100) -> str:
    """A bot's `line` quoted for a message, its first `most` characters of a longer one."""
    if len(line) <= most:
        return repr(line)
    return f"{line[:most] + '...'!r} ({len(line)} characters)"


class MoveError(ValueError):
    """A line written by a bot that is not a legal move.

    `code` is the verdict it earns: ``garbage`` when the line is not in the move syntax at
    all, ``illegal-move`` when it is a well-formed move that the rules forbid here.
    """

    def __init__(self, code: str, line: str, reason: str) -> None:
        super().__init__(f"{reason} (the bot wrote {quoted(line)})")
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


class Scoring(Enum):
    """What a game's values are, for the player to move (`Game.scoring`): declared by the
    game, so that no layer guesses it from a value's type."""

    #: won, lost or drawn (`judge.solvers.base.Outcome`)
    OUTCOME = "outcome"
    #: the final score difference: the mover's points less the opponent's from here, under
    #: perfect play (`judge.solvers.base.Difference`: Ioiwari's banks)
    DIFFERENCE = "difference"


class Rules(Protocol[P, M]):
    """The rules facet: where play starts, whose turn it is, the legal moves, where a move
    leads and how the game ends (the typed outcome: the winning seat, or None for a tie).
    What the generic solver and the referee play by; every `Game` has it."""

    def start(self) -> P:
        """The standard start position."""
        ...

    def mover(self, pos: P) -> Seat:
        """The seat whose turn it is."""
        ...

    def legal_moves(self, pos: P) -> list[M]:
        """All legal moves, in a fixed order; empty when the game is over."""
        ...

    def play(self, pos: P, move: M) -> P:
        """The position after `move` (which must be legal)."""
        ...

    def is_over(self, pos: P) -> bool:
        """Whether the game has ended at `pos`."""
        ...

    def winner(self, pos: P) -> Seat | None:
        """The winning seat of a finished game, or None for a tie."""
        ...


@runtime_checkable
class Facts(Protocol[P_in]):
    """The facts facet: what the game is called under its rules and what its results are
    (whether positions repeat, whether it can be a tie, its values' kind, the points of a
    graded game, a position's score). Every `Game` has it; the generic solver names a game
    and keeps its tables on disk only when it has it."""

    @property
    def name(self) -> str:
        """The game's name (`judge games` lists it)."""
        ...

    @property
    def defaults(self) -> dict[str, str]:
        """Its `--rules` keys with their default values."""
        ...

    @property
    def variants(self) -> dict[str, str]:
        """Named sets of rules."""
        ...

    @property
    def loopy(self) -> bool:
        """Whether positions can repeat, so that a game between bots needs a move limit."""
        ...

    @property
    def draws(self) -> bool:
        """Whether a finished game can be a tie."""
        ...

    @property
    def scoring(self) -> Scoring:
        """What its solver's values are."""
        ...

    @property
    def points(self) -> Points:
        """What a graded game earns the bot, by its result."""
        ...

    def describe(self) -> str:
        """The game and its exact rules, as recorded with every result."""
        ...

    def score(self, pos: P_in) -> tuple[int, int] | None:
        """Points banked by each seat, for games that keep a score (else None)."""
        ...


@runtime_checkable
class Impartial(Protocol):
    """An impartial game whose Sprague-Grundy values have a closed form (octal games): the
    generic solver values its positions by them, and the browser app shows them."""

    def grundy(self, pos: Any) -> int:
        """The Sprague-Grundy value of `pos`."""
        ...


class Judging(Protocol[P]):
    """The judging facet: where a game's default test sets and tournaments start (the
    positions a seat's tests are chosen from, at most how many, a tournament's starts).
    What the test sets and the commands that pick starts read; every `Game` has it, its
    defaults drawn from the standard starts."""

    @property
    def max_tests(self) -> int | None:
        """The most tests of a default test set per seat (None: every one found)."""
        ...

    def test_positions(self) -> list[P]:
        """Positions a default test set is chosen from."""
        ...

    def seat_test_positions(self, first: bool) -> list[P]:
        """Positions the default test set of the seat that moves first (or second) is
        chosen from."""
        ...

    def tournament_starts(self) -> list[P]:
        """A default tournament's starts (each played in both seats)."""
        ...


class Judged(Rules[P, M], Judging[P], Facts[P], Protocol[P, M]):
    """What picking a tournament's starts reads of a game: the rules (to play every line
    out), whether positions repeat, and its tournament starts. Every `Game` is one."""


class Points(NamedTuple):
    """What a graded game earns the bot, by its result (`Game.points`)."""

    win: float
    tie: float
    loss: float

    def text(self) -> str:
        """``4/2/0``: win, tie and loss."""
        return "/".join(f"{p:g}" for p in self)


#: starts of a default tournament, spread evenly over a game's test positions
TOURNAMENT_STARTS = 12


def evenly(items: Sequence[T], n: int) -> list[T]:
    """At most `n` of `items`, spread evenly over them in their order (all when fewer)."""
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


#: the most positions `decided` visits from one start before it counts the start as open
DECIDED_SEARCH = 20_000


def decided(game: Judged[P, M], pos: P, most: int = DECIDED_SEARCH) -> bool:
    """Whether every line of play from `pos` ends the same way (the same seat wins, or
    every line ties): no move of either player changes the result, so a game on it tells
    nothing of them (Nim's ``1 1 1``: the first mover wins whatever either plays). A loopy
    game's start from which play can go round forever is open (the move limit ends it),
    as is one not settled within `most` positions."""
    results: set[Seat | None] = set()
    children: dict[P, list[P]] = {}
    stack = [pos]
    while stack:
        here = stack.pop()
        if here in children:
            continue
        if len(children) >= most:
            return False
        if game.is_over(here):
            children[here] = []
            results.add(game.winner(here))
            if len(results) > 1:
                return False
            continue
        children[here] = [game.play(here, m) for m in game.legal_moves(here)]
        stack += children[here]
    return not game.loopy or acyclic(children)


def acyclic(children: dict[P, list[P]]) -> bool:
    """Whether the graph of positions (each to the positions its moves lead to) has no
    cycle: every position is taken off once all that lead to it are (Kahn's order)."""
    into = dict.fromkeys(children, 0)
    for after in children.values():
        for child in after:
            into[child] += 1
    free = [p for p, n in into.items() if n == 0]
    taken = 0
    while free:
        taken += 1
        for child in children[free.pop()]:
            into[child] -= 1
            if into[child] == 0:
                free.append(child)
    return taken == len(children)


def played_starts(game: Judged[P, M]) -> list[P]:
    """A tournament's or a match's default starts: the game's `tournament_starts` less
    those `decided` whatever either player does, where every game pair is a split."""
    return [p for p in game.tournament_starts() if not decided(game, p)]


def opening_positions(game: Game[P, M], plies: int) -> list[P]:
    """The standard starts and the distinct positions up to `plies` moves after them where
    the game goes on."""
    seen = {p: None for p in game.standard_starts()}
    frontier = list(seen)
    for _ in range(plies):
        nxt = []
        for pos in frontier:
            for move in game.legal_moves(pos):
                child = game.play(pos, move)
                if child not in seen and not game.is_over(child):
                    seen[child] = None
                    nxt.append(child)
        frontier = nxt
    return list(seen)


class Game(ABC, Generic[P, M]):
    """A two-player game under fixed rules: positions, moves, notation and the wire codec."""

    name: ClassVar[str]
    #: rules keys with their default values; `rules` always holds every key
    defaults: ClassVar[dict[str, str]] = {}
    #: whether positions can repeat, so that a game between bots needs a move limit
    loopy: ClassVar[bool] = False
    #: whether a finished game can be a tie, so that holding a draw is something to grade
    draws: ClassVar[bool] = False
    #: what its solver's values are: win, loss or draw, or the final score difference for
    #: the mover (Ioiwari's banks); a class that says ``scored = True``, the older spelling,
    #: gets `Scoring.DIFFERENCE`
    scoring: ClassVar[Scoring] = Scoring.OUTCOME
    #: the game's solver, as "module:Class" (named, not imported: solvers sit above the
    #: rules); the generic solver unless the game brings its own (in its package's solver.py)
    solver: ClassVar[str] = "judge.solvers.generic:GenericSolver"
    #: named sets of rules ("kayles" -> "code=0.77"), which `judge games` lists
    variants: ClassVar[dict[str, str]] = {}
    # what the judge says and scores of the game (optional: the defaults fit any game)
    #: what each named variant is, in a few words (the browser app's list of variants)
    variant_about: ClassVar[dict[str, str]] = {}
    #: a sentence for each rule value other than the default, by (key, value)
    rule_sentences: ClassVar[dict[tuple[str, str], str]] = {}
    #: points a graded game earns the bot (`judge run`; a tournament scores 1/0.5/0)
    points: ClassVar[Points] = Points(1.0, 0.5, 0.0)
    #: the most tests of a default test set per seat, spread evenly over those found
    max_tests: ClassVar[int | None] = None
    #: how a position is written, for `judge games` (default: `parse_position`'s docstring)
    notation: ClassVar[str] = ""
    #: what `judge solve` says of a position beyond win, loss or draw, if anything
    value_notes: ClassVar[str] = ""
    #: what the game calls the Grundy value of a position (`grundy_value`)
    grundy_name: ClassVar[str] = "Grundy value"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "scored" in vars(cls) and "scoring" not in vars(cls):
            cls.scoring = Scoring.DIFFERENCE if vars(cls)["scored"] else Scoring.OUTCOME

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
        """A short human label for a move (defaults to its wire form): the move as the game
        names it ("take 2 from heap 1", "pit 5"), in the browser app, the terminal and the
        report alike."""
        return self.format_move(move, pos)

    def move_words(self, move: M, pos: P) -> str:
        """The move as a terminal writes it: its label, then the text a player types for it
        where the two differ ("take 2 from heap 1 (1 2)")."""
        label, wire = self.move_label(move, pos), self.format_move(move, pos)
        return label if label == wire else f"{label} ({wire})"

    # --- board drawing (optional: without it the board is shown as `render`'s text) ------
    def board_script(self) -> str | None:
        """The JavaScript of the game's board renderer, shared by the report's viewer and
        the browser app (it calls ``JudgeBoards.register(name, draw)``: see
        judge/games/drawing.js), or None: the game has no drawing of its own. A game
        package returns ``package_script(__package__)``, its ``board.js``."""
        return None

    def board_meta(self) -> dict[str, JSON]:
        """Facts of the rules, not of a position, that the renderer needs."""
        return {}

    def board_state(self, pos: P) -> dict[str, JSON]:
        """`pos` as the renderer draws it, in plain values (the judge adds the seat to
        move as ``mover`` and whether the game is over as ``over``)."""
        return {}

    def board_touched(self, pos: P, move: M) -> list[JSON]:
        """The parts of the drawn board that `move`, played from `pos`, touched (marked
        once it is played), each as the renderer names it."""
        return []

    def board_control(self, pos: P, move: M) -> dict[str, JSON] | None:
        """The part of the drawn board that plays `move` from `pos` when clicked in the
        browser app, as the renderer names it; None: it is played from the move list."""
        return None

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

    # --- judging and explaining (optional: the defaults fit any game) ----------------------
    def seat_test_positions(self, first: bool) -> list[P]:
        """Positions the default test set of the seat that moves first (or second) is chosen
        from (those that seat can win or hold are kept); `test_positions` unless the game
        says more."""
        return self.test_positions()

    def tournament_starts(self) -> list[P]:
        """A default tournament's starts (each played in both seats): `TOURNAMENT_STARTS` of
        the first seat's test positions, spread evenly (won and lost ones alike), so that
        no one start decides it."""
        pool = [p for p in self.seat_test_positions(True) if not self.is_over(p)]
        return evenly(pool, TOURNAMENT_STARTS)

    @classmethod
    def position_syntax(cls) -> str:
        """How a position is written: `notation`, or the first paragraph of the docstring
        of `parse_position`, or where the game's protocol page says it."""
        doc = (cls.parse_position.__doc__ or "").strip().split("\n\n")[0]
        return (cls.notation or " ".join(doc.split())
                or f"see its protocol page: judge games --protocol {cls.name}")

    @classmethod
    def protocol_text(cls) -> str | None:
        """The game's protocol page for contestants (Markdown: what a bot reads and writes,
        with a worked transcript): the ``protocol.md`` of the package that holds the class,
        or None when it has none."""
        package = getattr(sys.modules.get(cls.__module__), "__package__", None)
        return package_script(package, PROTOCOL) if package else None

    def position_note(self, pos: P, rules: str) -> str | None:
        """What a reader of a solved `pos` should know that its text does not say, given the
        `--rules` tokens as written (e.g. a position that brings rules of its own); None."""
        return None

    def rules_text(self) -> list[str]:
        """The game's rules in brief, a paragraph each (the browser app's rules panel): the
        first paragraph of the class's docstring unless the game says more."""
        doc = (type(self).__doc__ or "").strip().split("\n\n")[0]
        return [" ".join(doc.split())] if doc else []

    def rule_notes(self) -> list[str]:
        """What the rules that differ from the defaults change, a sentence each."""
        return [self.rule_sentences[(k, v)] for k, v in self.rules.items()
                if v != self.defaults.get(k) and (k, v) in self.rule_sentences]

    def end_reason(self, pos: P) -> str:
        """Why the game is over at `pos` (it is), in words."""
        winner = self.winner(pos)
        return "the game is over" if winner is None else f"player {winner + 1} wins"

    def tie_remoteness(self, pos: P) -> int | None:
        """The moves left to the end from `pos`, a position perfect play leads to a tie,
        where every tie takes the same number of moves (a tie fills the board); None where
        the game cannot say (the solver then gives a tie no remoteness)."""
        return None

    def grundy_value(self, pos: P) -> int | None:
        """The Sprague-Grundy value of `pos`, shown by the browser app, for an impartial
        game that has one at hand (`Impartial`: the generic solver's closed form); None for
        the others."""
        return self.grundy(pos) if isinstance(self, Impartial) else None

    def grundy_text(self, pos: P, value: int) -> str:
        """A sentence on `value`, the Grundy value of `pos`, and what it says."""
        return (f"{self.grundy_name[:1].upper()}{self.grundy_name[1:]}: {value}"
                + (": the mover wins by a move to a position of value 0" if value else
                   ": every move leaves a value other than 0") + ".")

    def random_move(self, pos: P, rng: random.Random) -> M:
        """A legal move, each as likely (a weaker opponent's random move)."""
        return rng.choice(self.legal_moves(pos))

    def browser_limit(self, pos: P) -> str | None:
        """Why the browser app does not show `pos` (too big to draw), or None."""
        return None

    def solve_limit(self, pos: P) -> str | None:
        """Why the browser app does not compute perfect play from `pos` while a person waits
        (values, hints, a computer player), though people may play it there; None. Said
        before any search: a search that ends in a refusal costs its seconds too."""
        return None
