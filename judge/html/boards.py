"""Positions as drawable data for the report's viewer and the browser app, from each game's
board facet.

The drawing scripts only draw what these functions return: they know no rule. A game with a
renderer of its own (`Board.board_script`) gives its positions with `Board.board_state`, what
a move touched with `Board.board_touched` and the facts of its rules with `Board.board_meta`;
any other game, one without the board facet too, is drawn as the text of its `render`.
`replay` plays a stored game's moves with `game.parse_move` and `game.play` and gives every
step's drawable state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

from markupsafe import Markup

from judge.games import GAMES, GameLoadError, load_game
from judge.games.base import M, M_in, MoveError, P, P_in, Rules, RulesError
from judge.games.drawing import JSON, kit_script
from judge.players.base import Notation

#: a drawable state or the board's meta: plain values, keyed by name
Drawable = dict[str, JSON]


@runtime_checkable
class Board(Protocol[P_in, M_in]):
    """The board facet: a game's own drawing, shared by the report's viewer and the browser
    app. Optional: a game without it, or whose `board_script` is None, is drawn as text.
    Every `Game` has it (with no drawing unless the game brings one)."""

    def board_script(self) -> str | None:
        """The JavaScript of the game's renderer, or None: no drawing of its own."""
        ...

    def board_meta(self) -> dict[str, JSON]:
        """Facts of the rules, not of a position, that the renderer needs."""
        ...

    def board_state(self, pos: P_in) -> dict[str, JSON]:
        """`pos` as the renderer draws it, in plain values."""
        ...

    def board_touched(self, pos: P_in, move: M_in) -> list[JSON]:
        """The parts of the drawn board that `move`, played from `pos`, touched."""
        ...

    def board_control(self, pos: P_in, move: M_in) -> dict[str, JSON] | None:
        """The part of the drawn board that plays `move` from `pos` when clicked; None."""
        ...


class Shown(Rules[P, M], Protocol[P, M]):
    """What a board reads of any game: its name, the rules (whose turn, whether it is over)
    and its text drawing, and the board facet where it has one. Every `Game` is one."""

    @property
    def name(self) -> str:
        """The game's name, which names its renderer."""
        ...

    def render(self, pos: P) -> str:
        """A drawing of the position for a person, a few lines of text."""
        ...


class Replayed(Shown[P, M], Notation[P, M], Protocol[P, M]):
    """What replaying a stored game's moves reads: a board, and the moves' notation."""


#: whether each class's games have the board facet, asked once a class (a check of a
#: Protocol's members costs more than drawing a position)
_DRAWN: dict[type, bool] = {}


def has_board(game: object) -> TypeGuard[Board[Any, Any]]:
    """Whether `game` has the board facet (`isinstance(game, Board)`, by its class)."""
    kind = type(game)
    found = _DRAWN.get(kind)
    if found is None:
        found = _DRAWN[kind] = issubclass(kind, Board)
    return found


def own_board(game: Shown[Any, Any]) -> Board[Any, Any] | None:
    """The game's board facet when it brings a renderer of its own; None: it is drawn as
    the text of its `render`."""
    return game if has_board(game) and game.board_script() is not None else None


def is_drawn(game: Shown[Any, Any]) -> bool:
    """Whether the game brings a renderer of its own (else it is shown as text)."""
    return own_board(game) is not None


def board_meta(game: Shown[Any, Any]) -> Drawable:
    """What a drawing needs from the rules and not from the position; ``game`` names the
    renderer, ``text`` says there is none."""
    board = own_board(game)
    if board is None:
        return {"game": game.name, "text": True}
    return {"game": game.name, **board.board_meta()}


def drawable(game: Shown[Any, Any], pos: Any) -> Drawable:
    """The position as the renderer draws it, with the seat to move and whether the game is
    over; for a game without a renderer, its own text of the position."""
    over = int(game.is_over(pos))
    board = own_board(game)
    if board is None:
        return {"text": game.render(pos), "over": over}
    return {**board.board_state(pos), "mover": game.mover(pos), "over": over}


def touched(game: Shown[Any, Any], pos: Any, move: Any) -> list[JSON]:
    """The parts of the board `move` from `pos` touched, to mark them (none for text)."""
    board = own_board(game)
    return [] if board is None else board.board_touched(pos, move)


def control(game: Shown[Any, Any], pos: Any, move: Any) -> Drawable:
    """The part of the drawn board that plays `move` when clicked ({}: none, the move is
    played from the move list)."""
    board = own_board(game)
    found = None if board is None else board.board_control(pos, move)
    return found or {}


def scripts(game: Shown[Any, Any]) -> list[str]:
    """The scripts that draw `game`'s boards, in order: the kit, then the game's renderer if
    it has one."""
    own = game.board_script() if has_board(game) else None
    return [kit_script()] if own is None else [kit_script(), own]


def inline_scripts(game: Shown[Any, Any]) -> list[Markup]:
    """`scripts`, to inline in a page's ``<script>`` element before the viewer; ValueError
    for one that would end the element."""
    found = scripts(game)
    for text in found:
        if "</script" in text.lower():
            raise ValueError(f"the board script of {game.name} must not contain </script")
    return [Markup(text) for text in found]  # noqa: S704 - a game package's file


def script_of(name: str) -> str | None:
    """The renderer of the installed game called `name`, or None (no such game, or it has
    no drawing of its own)."""
    try:
        return load_game(name).board_script()
    except RulesError:
        return None


def drawn_games() -> list[str]:
    """The installed games that bring a renderer (a game that fails to load is left out)."""
    names = []
    for name in GAMES:
        try:
            if is_drawn(load_game(name)):
                names.append(name)
        except GameLoadError:
            continue
    return names


def replay(game: Replayed[Any, Any], start: Any, moves: Sequence[str]
           ) -> tuple[list[Drawable], list[list[JSON]], int | None]:
    """Every step's drawable state (step 0 is the start, step k follows move k), what each
    move touched, and the number of the first move that could not be played (the illegal
    last move of a forfeited game), or None. A move that cannot be played leaves the board as
    it was, and so does every move after it."""
    states = [drawable(game, start)]
    marks: list[list[JSON]] = [[]]
    pos, broken = start, None
    for ply, line in enumerate(moves, 1):
        if broken is None:
            try:
                move = game.parse_move(line, pos)
                if game.is_over(pos):
                    raise MoveError("illegal-move", line, "the game is over")
                marks.append(touched(game, pos, move))
                pos = game.play(pos, move)
                states.append(drawable(game, pos))
                continue
            except MoveError:
                broken = ply
        marks.append([])
        states.append(states[-1])
    return states, marks, broken


def columns(states: Sequence[Drawable]) -> dict[str, list[JSON]]:
    """States as one list per key (step k is ``{key: lists[key][k]}``): compact JSON."""
    keys = list(states[0]) if states else []
    return {key: [s[key] for s in states] for key in keys}


def position_after(game: Replayed[Any, Any], start: Any, moves: Sequence[str], k: int) -> Any:
    """The position after the first `k` moves (for tests and tools)."""
    pos = start
    for line in moves[:k]:
        pos = game.play(pos, game.parse_move(line, pos))
    return pos
