"""One interface for everything that can sit at the board: bots, the optimal player, humans."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, NamedTuple, Protocol

from judge import verdicts
from judge.games.base import Facts, M, P, Seat
from judge.solvers import Solvable


class Notation(Protocol[P, M]):
    """The notation facet: positions and moves as people and bots write them, and the lines
    that open a game for a bot. What the players and the referee write and read; every
    `Game` has it."""

    def parse_position(self, text: str) -> P:
        """A position from the user's notation; raises `PositionError`."""
        ...

    def format_position(self, pos: P) -> str:
        """The position in the user's notation (parse_position reads it back)."""
        ...

    def wire_start(self, pos: P) -> list[str]:
        """The lines that open the game for a bot that must move at `pos`."""
        ...

    def parse_move(self, line: str, pos: P) -> M:
        """A bot's move line (without its newline) at `pos`; raises `MoveError`."""
        ...

    def format_move(self, move: M, pos: P) -> str:
        """The move in wire syntax, from the point of view of the mover at `pos`."""
        ...


class Seated(Solvable[P, M], Notation[P, M], Protocol[P, M]):
    """What a player reads of its game: the rules, the notation, and the solver the game
    names (the perfect players' moves; every `Game` is one)."""


class Table(Seated[P, M], Facts[P], Protocol[P, M]):
    """What the referee and the review of a game read of it: what its players read (the
    rules, the notation, the solver it names) and its facts (its exact rules, whether it
    needs a move limit, the score). Every `Game` is one."""


class Played(NamedTuple):
    """A move the opponent made: the position it was made from, and the move."""

    before: Any
    move: Any


class PlayerFailure(Exception):
    """A player broke the rules or the limits; `code` is its verdict (see judge.verdicts)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class OutOfTime(PlayerFailure):
    """The player's clock ran out before its move came; the referee, which keeps the
    clock, words the verdict."""

    def __init__(self) -> None:
        super().__init__(verdicts.TIME_FORFEIT, "its clock ran out")


class Player(ABC):
    """Something that chooses moves. The referee calls begin, then choose on each turn, then end."""

    name: str = "player"

    def begin(self, game: Seated[Any, Any], seat: Seat) -> None:
        """A game starts in which this player holds `seat`."""
        self.game = game
        self.seat = seat

    @abstractmethod
    def choose(self, pos: Any, last: Played | None) -> Any:
        """The move to play at `pos`; `last` is the opponent's move just before (if any).

        Raises `PlayerFailure` (or `judge.games.base.MoveError`) when the player fails.
        """

    def clocked(self, allowance: float, told: str | None) -> None:  # noqa: B027 - optional hook
        """The next move is on a clock: it may take `allowance` seconds, and a player that
        reads lines is told `told` first if not None (the referee's call, before the move;
        a player that ignores it is charged all the same)."""

    def end(self, final: Any, last: Played | None) -> None:  # noqa: B027 - optional hook
        """The game is over at `final`; `last` is the move that ended it."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release everything the player holds (processes, files). Safe to call twice."""
