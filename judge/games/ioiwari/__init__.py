"""Ioiwari (IOI 2001): seven pits in a circle, banks, the 5-bead rule and the last-bead rule."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import ClassVar

from judge.games.base import (
    Game,
    InputError,
    Points,
    PositionError,
    Scoring,
    Seat,
    garbage,
    illegal,
    parse_int,
    strict_tokens,
)
from judge.games.drawing import JSON, package_script

PITS = 7
MAX_BEADS = 5  # a pit never holds more: sowing into a 5 takes a bead out instead
START_BEADS = 20


@dataclass(frozen=True, slots=True)
class Board:
    """Pit contents (pit 1 first), each seat's bank, and the seat to move."""

    pits: tuple[int, ...]
    banks: tuple[int, int] = (0, 0)
    to_move: Seat = 0


def sow(pits: tuple[int, ...], pit: int) -> tuple[tuple[int, ...], int, int]:
    """Play pit `pit` (1..7): the new pits, beads won by the mover and by the opponent."""
    board = list(pits)
    i = pit - 1
    hand, board[i] = board[i], 0
    mine = theirs = 0
    while hand:
        i = (i + 1) % PITS
        if hand > 1:
            if board[i] == MAX_BEADS:
                board[i] -= 1
                mine += 1
            else:
                board[i] += 1
                hand -= 1
        else:
            if 1 <= board[i] <= MAX_BEADS - 1:
                mine += board[i] + 1
                board[i] = 0
            else:
                theirs += 1
            hand = 0
    return tuple(board), mine, theirs


def standard_boards() -> list[tuple[int, ...]]:
    """The 357 standard starts: 20 beads, every pit holding 2, 3 or 4."""
    return [p for p in product((2, 3, 4), repeat=PITS) if sum(p) == START_BEADS]


def canonical_rotation(pits: tuple[int, ...]) -> tuple[int, ...]:
    """The least rotation of a board: boards equal up to rotation share it."""
    return min(pits[i:] + pits[:i] for i in range(PITS))


def rotation_classes(beads: int) -> list[tuple[int, ...]]:
    """The boards of `beads` beads (0 to 5 a pit), one per rotation class (its least
    rotation), in order."""
    return sorted({canonical_rotation(p) for p in product(range(MAX_BEADS + 1), repeat=PITS)
                   if sum(p) == beads})


class Ioiwari(Game[Board, int]):
    """The IOI 2001 game; no rule options."""

    name = "ioiwari"
    #: perfect play: its own solver, beside the rules (named, not imported)
    solver = "judge.games.ioiwari.solver:IoiwariSolver"
    defaults: ClassVar[dict[str, str]] = {}
    variants: ClassVar[dict[str, str]] = {"standard": ""}
    variant_about: ClassVar[dict[str, str]] = {
        "standard": "seven pits in a circle, the larger bank wins"}
    #: as the original task scored each test
    points: ClassVar[Points] = Points(4.0, 2.0, 0.0)
    scoring: ClassVar[Scoring] = Scoring.DIFFERENCE  # its values: the banks' difference
    notation: ClassVar[str] = (
        "the seven pits: '4 3 2 4 2 3 2', optionally followed by '| BANK1 BANK2 [MOVER]'")
    value_notes: ClassVar[str] = (
        "The value is the best score difference the mover can force from here on (beads "
        "already banked do not change it).")

    def start(self) -> Board:
        return Board((4, 3, 2, 4, 2, 3, 2))

    def standard_starts(self) -> list[Board]:
        return [Board(p) for p in standard_boards()]

    def parse_position(self, text: str) -> Board:
        """``p1 .. p7`` optionally followed by ``| bank1 bank2 [mover]`` (mover 1 or 2)."""
        board_part, sep, rest = text.partition("|")
        try:
            pits = tuple(parse_int(t, "a pit", 0, MAX_BEADS) for t in board_part.split())
            extra = [parse_int(t, "a bank", 0) for t in rest.split()]
        except InputError as exc:
            raise PositionError(f"bad Ioiwari position {text.strip()!r}: {exc}") from None
        if len(pits) != PITS:
            raise PositionError(
                f"an Ioiwari position has {PITS} pits, {text.strip()!r} has {len(pits)}"
            )
        if not sep:
            return Board(pits)
        if len(extra) not in (2, 3):
            raise PositionError("after '|' come the two banks and optionally the mover (1 or 2)")
        mover = extra[2] if len(extra) == 3 else 1
        if mover not in (1, 2):
            raise PositionError(f"the mover is player 1 or 2, not {mover}")
        return Board(pits, (extra[0], extra[1]), mover - 1)

    def format_position(self, pos: Board) -> str:
        pits = " ".join(map(str, pos.pits))
        if pos.banks == (0, 0) and pos.to_move == 0:
            return pits
        return f"{pits} | {pos.banks[0]} {pos.banks[1]} {pos.to_move + 1}"

    def mover(self, pos: Board) -> Seat:
        return pos.to_move

    def legal_moves(self, pos: Board) -> list[int]:
        return [i + 1 for i, beads in enumerate(pos.pits) if beads]

    def play(self, pos: Board, move: int) -> Board:
        pits, mine, theirs = sow(pos.pits, move)
        banks = list(pos.banks)
        banks[pos.to_move] += mine
        banks[1 - pos.to_move] += theirs
        return Board(pits, (banks[0], banks[1]), 1 - pos.to_move)

    def is_over(self, pos: Board) -> bool:
        return not any(pos.pits)

    def winner(self, pos: Board) -> Seat | None:
        a, b = pos.banks
        return None if a == b else (0 if a > b else 1)

    def score(self, pos: Board) -> tuple[int, int]:
        return pos.banks

    def wire_start(self, pos: Board) -> list[str]:
        return [" ".join(map(str, pos.pits))]

    def parse_move(self, line: str, pos: Board) -> int:
        tokens = strict_tokens(line)
        if len(tokens) != 1 or not tokens[0].isdigit():
            raise garbage(line, "a move is a single pit number from 1 to 7")
        token = tokens[0]
        if len(token) > 1 and token.startswith("0"):
            raise garbage(line, "numbers must not have leading zeros")
        if len(token) > 1 or not 1 <= int(token) <= PITS:  # a long number is never a pit
            raise illegal(line, f"there is no pit {token}: pits are numbered 1 to 7")
        pit = int(token)
        if pos.pits[pit - 1] == 0:
            raise illegal(line, f"pit {pit} is empty")
        return pit

    def format_move(self, move: int, pos: Board) -> str:
        return str(move)

    def move_label(self, move: int, pos: Board) -> str:
        return f"pit {move}"

    def render(self, pos: Board) -> str:
        labels = "  ".join(f"{i + 1:>2}" for i in range(PITS))
        beads = "  ".join(f"{b:>2}" for b in pos.pits)
        return (
            f"pit   {labels}\n"
            f"beads {beads}\n"
            f"banks player 1: {pos.banks[0]}   player 2: {pos.banks[1]}   "
            + ("(game over)" if self.is_over(pos) else f"(player {pos.to_move + 1} to move)")
        )

    # --- judging and explaining ------------------------------------------------------------
    def seat_test_positions(self, first: bool) -> list[Board]:
        """The standard starts for the first seat. No standard start is lost for the first
        player, so the second seat's tests are chosen from every 20-bead board (0 to 5
        beads a pit), one per rotation class."""
        if first:
            return self.standard_starts()
        return [Board(p) for p in rotation_classes(START_BEADS)]

    def tournament_starts(self) -> list[Board]:
        """The standard starts, one per rotation class (51)."""
        return [Board(p) for p in sorted({canonical_rotation(b.pits)
                                          for b in self.standard_starts()})]

    def rules_text(self) -> list[str]:
        return [
            "Seven pits stand in a circle, numbered 1 to 7 clockwise; each player has a bank. "
            "Nobody owns a pit: to move, you empty any pit and carry its beads clockwise, one "
            "into each pit after it, going round as often as needed.",
            "While you hold two or more beads, a pit that already holds 5 gives one bead to "
            "your bank instead of taking one. Your last bead decides: if its pit holds 1 to 4 "
            "beads, you bank them with your last bead; if it holds 0 or 5, your last bead goes "
            "to your opponent's bank.",
            "When a move leaves every pit empty the game is over: the larger bank wins, equal "
            "banks are a tie. The win-by is the difference of the banks at the end.",
        ]

    def end_reason(self, pos: Board) -> str:
        a, b = pos.banks
        winner = self.winner(pos)
        if winner is None:
            return f"the pits are empty and the banks are equal ({a} to {b}): a tie"
        return f"the pits are empty: banks {a} to {b}, player {winner + 1} wins by {abs(a - b)}"

    # --- board drawing (board.js) ----------------------------------------------------------
    def board_script(self) -> str | None:
        return package_script(__package__)

    def board_meta(self) -> dict[str, JSON]:
        return {"pits": PITS, "max_beads": MAX_BEADS}

    def board_state(self, pos: Board) -> dict[str, JSON]:
        """The seven pits (pit 1 first) and both banks."""
        return {"pits": list(pos.pits), "banks": list(pos.banks)}

    def board_touched(self, pos: Board, move: int) -> list[JSON]:
        """The pit sown."""
        return [move]

    def board_control(self, pos: Board, move: int) -> dict[str, JSON] | None:
        """The pit sown."""
        return {"pit": move}
