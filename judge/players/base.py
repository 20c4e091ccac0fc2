"""One interface for everything that can sit at the board: bots, the optimal player, humans."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, NamedTuple

from judge import verdicts
from judge.games.base import Game, Seat


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

    def begin(self, game: Game, seat: Seat) -> None:
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
