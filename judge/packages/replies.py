"""The opponent's replies as data: every position a bot can reach from the cases' starts
against the opponent, with the move the opponent plays there, so that a package's
interactor answers without the solver (nor NumPy, nor the judge)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judge.games.base import Game, InputError


def reply_table(game: Game, starts: list[tuple[Any, int]],
                choose: Callable[[Any], Any]) -> dict[str, str]:
    """Position -> the opponent's move (both in the game's notation) at every position
    where the opponent moves in a game from one of `starts` (a position and the bot's seat:
    0 is player 1): every legal move of the bot is followed, and the opponent's
    one reply (`choose`). Positions written alike must get the same reply, and a reply must
    read back as itself: else the game's replies cannot be tabled (`InputError`)."""
    table: dict[str, str] = {}
    seen: set[tuple[Any, int]] = set()
    stack = list(starts)
    while stack:
        pos, bot = stack.pop()
        if (pos, bot) in seen or game.is_over(pos):
            continue
        seen.add((pos, bot))
        if game.mover(pos) == bot:
            stack.extend((game.play(pos, m), bot) for m in game.legal_moves(pos))
            continue
        move = choose(pos)
        key, text = game.format_position(pos), game.format_move(move, pos)
        if table.setdefault(key, text) != text or game.parse_move(text, pos) != move:
            raise InputError(f"{game.name}: its notation does not tell the opponent's reply "
                             f"at {key!r} ({text!r}): its replies cannot be tabled")
        stack.append((game.play(pos, move), bot))
    return table
