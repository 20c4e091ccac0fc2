"""Positions as drawable data for the report's viewer and the browser app, from each game's
board hooks.

The drawing scripts only draw what these functions return: they know no rule. A game with a
renderer of its own (`Game.board_script`) gives its positions with `Game.board_state`, what a
move touched with `Game.board_touched` and the facts of its rules with `Game.board_meta`;
any other game is drawn as the text of its `Game.render`. `replay` plays a stored game's
moves with `game.parse_move` and `game.play` and gives every step's drawable state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from judge.games import GAMES, GameLoadError, load_game
from judge.games.base import Game, MoveError, RulesError
from judge.games.drawing import JSON, kit_script

#: a drawable state or the board's meta: plain values, keyed by name
Drawable = dict[str, JSON]


def is_drawn(game: Game) -> bool:
    """Whether the game brings a renderer of its own (else it is shown as text)."""
    return game.board_script() is not None


def board_meta(game: Game) -> Drawable:
    """What a drawing needs from the rules and not from the position; ``game`` names the
    renderer, ``text`` says there is none."""
    if not is_drawn(game):
        return {"game": game.name, "text": True}
    return {"game": game.name, **game.board_meta()}


def drawable(game: Game, pos: Any) -> Drawable:
    """The position as the renderer draws it, with the seat to move and whether the game is
    over; for a game without a renderer, its own text of the position."""
    over = int(game.is_over(pos))
    if not is_drawn(game):
        return {"text": game.render(pos), "over": over}
    return {**game.board_state(pos), "mover": game.mover(pos), "over": over}


def touched(game: Game, pos: Any, move: Any) -> list[JSON]:
    """The parts of the board `move` from `pos` touched, to mark them (none for text)."""
    return game.board_touched(pos, move) if is_drawn(game) else []


def control(game: Game, pos: Any, move: Any) -> Drawable:
    """The part of the drawn board that plays `move` when clicked ({}: none, the move is
    played from the move list)."""
    found = game.board_control(pos, move) if is_drawn(game) else None
    return found or {}


def scripts(game: Game) -> list[str]:
    """The scripts that draw `game`'s boards, in order: the kit, then the game's renderer if
    it has one."""
    own = game.board_script()
    return [kit_script()] if own is None else [kit_script(), own]


def inline_scripts(game: Game) -> list[Markup]:
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


def replay(game: Game, start: Any, moves: Sequence[str]
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


def position_after(game: Game, start: Any, moves: Sequence[str], k: int) -> Any:
    """The position after the first `k` moves (for tests and tools)."""
    pos = start
    for line in moves[:k]:
        pos = game.play(pos, game.parse_move(line, pos))
    return pos
