"""What the games of X and O on a board of cells share (tic-tac-toe, Connect Four): the
position, whose turn it is, the solver's number for a board, and the status line."""

from __future__ import annotations

from dataclasses import dataclass

from judge.games.base import Game, Seat

MARKS = "xo"
EMPTY = "."
_DIGITS = str.maketrans(".xo", "012")


@dataclass(frozen=True, slots=True)
class Cells:
    """The cells, row by row from the top left: ``x``, ``o`` or ``.``."""

    cells: str


class MarksGame(Game[Cells, int]):
    """X (seat 0, who moves first) against O on a board of cells; a move is a number from 1
    (of a cell or a column)."""

    draws = True

    def mover(self, pos: Cells) -> Seat:
        return 0 if pos.cells.count("x") == pos.cells.count("o") else 1

    def encode(self, pos: Cells) -> int:
        """The board as a number in base 3 (for the solver's table on disk)."""
        return int(pos.cells.translate(_DIGITS), 3)

    def wire_start(self, pos: Cells) -> list[str]:
        return [self.format_position(pos)]

    def format_move(self, move: int, pos: Cells) -> str:
        return str(move)

    def tie_remoteness(self, pos: Cells) -> int | None:
        """A tie fills the board: its empty cells are the moves left."""
        return pos.cells.count(EMPTY)

    def end_reason(self, pos: Cells) -> str:
        winner = self.winner(pos)
        if winner is None:
            return "the board is full and nobody made a line: a tie"
        return f"{MARKS[winner].upper()} (player {winner + 1}) made a line and wins"

    def status(self, pos: Cells, note: str = "") -> str:
        """The line under a drawing: who won, a tie, or who is to move (with `note`)."""
        if self.is_over(pos):
            winner = self.winner(pos)
            return "(a tie)" if winner is None else f"({MARKS[winner].upper()} wins)"
        return f"({MARKS[self.mover(pos)].upper()} to move{note})"
