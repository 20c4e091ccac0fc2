"""One suite over every installed game, as OpenSpiel's random simulation test: random
playouts agree with the rules, the codec reads back what it writes, the solver's value of
each position visited agrees with its moves' values, and perfect play never loses a won
position. A game installed later is checked too, under its default rules."""

from __future__ import annotations

import random

import pytest

from judge.games import GAMES, load_game
from judge.games.base import Game
from judge.solvers import solver_for
from judge.solvers.base import order

#: small rules for the judge's own games, so that solving stays quick
SMALL = {"chopsticks": "hands=2", "connect4": "rows=3 cols=4 connect=3"}
PLAYOUTS = 3
MOVE_LIMIT = 60  # plies of a playout (loopy games could go on forever)


def playout(game: Game, rng: random.Random) -> list:
    """The positions of one random game from the start, checked against the rules."""
    pos = game.start()
    seen = [pos]
    for _ in range(MOVE_LIMIT):
        moves = game.legal_moves(pos)
        if game.is_over(pos):
            assert moves == [], "a finished game has no legal moves"
            assert game.winner(pos) in (0, 1, None)
            break
        assert moves, "a game that is not over has a legal move"
        assert len(set(moves)) == len(moves), "each legal move is listed once"
        assert game.mover(pos) in (0, 1)
        move = rng.choice(moves)
        line = game.format_move(move, pos)
        assert game.parse_move(line, pos) == move, f"move {line!r} reads back as itself"
        pos = game.play(pos, move)
        seen.append(pos)
    return seen


def check_codec(game: Game, pos) -> None:
    text = game.format_position(pos)
    back = game.parse_position(text)
    assert game.format_position(back) == text
    assert game.legal_moves(back) == game.legal_moves(pos)  # (impartial games' notation
    # leaves out whose turn it is: Nim's heaps are the same game for either seat)
    assert all(isinstance(line, str) and "\n" not in line for line in game.wire_start(pos))
    assert isinstance(game.render(pos), str)


def check_values(game: Game, pos) -> None:
    """The value of `pos` is the best of its moves' values, and its best moves reach it."""
    solver = solver_for(game)
    ev = solver.evaluate(pos)
    if game.is_over(pos):
        return
    moves = solver.move_values(pos)
    assert order(ev.value) == max(order(m.value) for m in moves), game.format_position(pos)
    assert ev.best_moves, "a position that is not over has a best move"
    by_move = {m.move: m for m in moves}
    for best in ev.best_moves:
        assert best in by_move and by_move[best].value == ev.value
    if ev.value == "win" and ev.remoteness is not None:
        assert ev.remoteness == min(m.remoteness for m in moves if m.value == "win")
    if ev.value == "loss" and ev.remoteness is not None:
        assert ev.remoteness == max(m.remoteness for m in moves)


def check_perfect_play_wins(game: Game, pos, rng: random.Random) -> None:
    """From a won position, perfect play against random moves wins."""
    solver = solver_for(game)
    seat = game.mover(pos)
    for _ in range(4 * MOVE_LIMIT):
        if game.is_over(pos):
            break
        if game.mover(pos) == seat:
            pos = game.play(pos, solver.choose(pos))
        else:
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    assert game.is_over(pos) and game.winner(pos) == seat, game.format_position(pos)


@pytest.mark.parametrize("name", list(GAMES))
def test_random_playouts_agree_with_rules_codec_and_solver(name: str) -> None:
    game = load_game(name, SMALL.get(name, ""))
    rng = random.Random(f"every game {name}")
    for _ in range(PLAYOUTS):
        for pos in playout(game, rng):
            check_codec(game, pos)
            check_values(game, pos)
            value = solver_for(game).evaluate(pos).value
            if value == "win" and not game.is_over(pos):
                check_perfect_play_wins(game, pos, rng)
