"""Positions as drawable data for the HTML viewer, computed with each game's own rules.

The viewer's script only draws what these functions return: it knows no rule. Each game has
one function turning a position into a small dict of plain values (`drawable`), one naming
what a move touched so that it can be highlighted (`touched`), and the fixed facts of the
rules a drawing needs (`board_meta`). `replay` plays a stored game's moves with
`game.parse_move` and `game.play` and gives every step's drawable state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from judge.games.base import Game, MoveError

#: the largest integer a browser's JSON.parse reads exactly (2**53 - 1)
SAFE_INT = (1 << 53) - 1


def _number(n: int) -> int | str:
    """An integer as JSON can carry it to a browser: exact, as a string when huge."""
    return n if -SAFE_INT <= n <= SAFE_INT else str(n)


def ioiwari_board(game: Game, pos: Any) -> dict[str, Any]:
    """Ioiwari: the seven pits (pit 1 first), both banks, and the seat to move."""
    return {"pits": list(pos.pits), "banks": list(pos.banks), "mover": pos.to_move,
            "over": int(game.is_over(pos))}


def nim_board(game: Game, pos: Any) -> dict[str, Any]:
    """Nim: the heap sizes in order, and the seat to move."""
    return {"heaps": [_number(n) for n in pos.sizes], "mover": pos.to_move,
            "over": int(game.is_over(pos))}


def chopsticks_board(game: Game, pos: Any) -> dict[str, Any]:
    """Chopsticks: the raised fingers of Left's and Right's hands (0: out), and the mover."""
    return {"left": list(pos.left), "right": list(pos.right), "mover": pos.to_move,
            "over": int(game.is_over(pos))}


def ioiwari_touched(game: Game, pos: Any, move: Any) -> list[Any]:
    """The pit sown."""
    return [move]


def nim_touched(game: Game, pos: Any, move: Any) -> list[Any]:
    """The heap taken from."""
    return [move[0]]


def chopsticks_touched(game: Game, pos: Any, move: Any) -> list[Any]:
    """``[side, hand]`` pairs: the tapping and the tapped hand, or the mover's hands that a
    split or swap changed (side 0 is Left)."""
    me = pos.to_move
    if move[0] == "split":
        before = pos.hands(me)
        return [[me, i + 1] for i, (a, b) in enumerate(zip(before, move[1], strict=True))
                if a != b]
    return [[me, move[1]], [1 - me, move[2]]]


#: per game: (position -> drawable dict, (position, move) -> parts the move touched)
DRAWERS: dict[str, tuple[Callable[[Game, Any], dict[str, Any]],
                         Callable[[Game, Any, Any], list[Any]]]] = {
    "ioiwari": (ioiwari_board, ioiwari_touched),
    "nim": (nim_board, nim_touched),
    "chopsticks": (chopsticks_board, chopsticks_touched),
}


def text_board(game: Game, pos: Any) -> dict[str, Any]:
    """A game the viewer has no drawing for: its own text of the position (`Game.render`)."""
    return {"text": game.render(pos), "over": int(game.is_over(pos))}


def no_touch(game: Game, pos: Any, move: Any) -> list[Any]:
    """What a move touched, for a game drawn as text: nothing marked."""
    return []


def _drawers(game: Game) -> tuple[Callable[[Game, Any], dict[str, Any]],
                                  Callable[[Game, Any, Any], list[Any]]]:
    """The game's drawing functions, or the text of its own `render`."""
    return DRAWERS.get(game.name, (text_board, no_touch))


def drawable(game: Game, pos: Any) -> dict[str, Any]:
    """The position as the viewer draws it."""
    return _drawers(game)[0](game, pos)


def board_meta(game: Game) -> dict[str, Any]:
    """What a drawing needs from the rules and not from the position."""
    if game.name == "ioiwari":
        from judge.games.ioiwari import MAX_BEADS, PITS

        return {"game": "ioiwari", "pits": PITS, "max_beads": MAX_BEADS}
    if game.name == "nim":
        return {"game": "nim", "misere": bool(getattr(game, "misere", False))}
    if game.name == "chopsticks":
        from judge.games.chopsticks import DRAWN_FINGERS

        return {"game": "chopsticks", "fingers": getattr(game, "fingers", 5),
                "drawn_fingers": DRAWN_FINGERS, "sides": ["Left", "Right"]}
    return {"game": game.name, "text": True}


def replay(game: Game, start: Any, moves: Sequence[str]
           ) -> tuple[list[dict[str, Any]], list[list[Any]], int | None]:
    """Every step's drawable state (step 0 is the start, step k follows move k), what each
    move touched, and the number of the first move that could not be played (the illegal
    last move of a forfeited game), or None. A move that cannot be played leaves the board as
    it was, and so does every move after it."""
    board, touch = _drawers(game)
    states = [board(game, start)]
    touched: list[list[Any]] = [[]]
    pos, broken = start, None
    for ply, line in enumerate(moves, 1):
        if broken is None:
            try:
                move = game.parse_move(line, pos)
                if game.is_over(pos):
                    raise MoveError("illegal-move", line, "the game is over")
                touched.append(touch(game, pos, move))
                pos = game.play(pos, move)
                states.append(board(game, pos))
                continue
            except MoveError:
                broken = ply
        touched.append([])
        states.append(states[-1])
    return states, touched, broken


def columns(states: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
    """States as one list per key (step k is ``{key: lists[key][k]}``): compact JSON."""
    keys = list(states[0]) if states else []
    return {key: [s[key] for s in states] for key in keys}


def position_after(game: Game, start: Any, moves: Sequence[str], k: int) -> Any:
    """The position after the first `k` moves (for tests and tools)."""
    pos = start
    for line in moves[:k]:
        pos = game.play(pos, game.parse_move(line, pos))
    return pos
