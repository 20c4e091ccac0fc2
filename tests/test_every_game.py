"""One suite over every installed game, as OpenSpiel's random simulation test: random
playouts agree with the rules, the codec reads back what it writes, the solver's value of
each position visited agrees with its moves' values, perfect play never loses a won
position, and the protocol round-trips through a real bot process in either seat. A game
installed later is checked too, under its default rules."""

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


#: a bot that reads what its script says the judge sends at each of its turns and writes the
#: script's move; a line other than the script's is named on its output and it exits
ROUND_TRIP_BOT = """
import sys
for expected, reply in {script!r}:
    got = [sys.stdin.readline().rstrip("\\n") for _ in expected]
    if got != expected:
        print("MISMATCH expected " + repr(expected) + " got " + repr(got), flush=True)
        sys.exit(1)
    print(reply, flush=True)
"""


def ending_game(game: Game, rng: random.Random) -> list[tuple[object, object]]:
    """(position, move) of a game that ends: random moves until the mover can win, then
    perfect play by both (a won position is won within its remoteness)."""
    solver = solver_for(game)
    pos, played = game.start(), []
    for _ in range(40 * MOVE_LIMIT):
        if game.is_over(pos):
            return played
        won = solver.evaluate(pos).value == "win"
        move = solver.choose(pos) if won else rng.choice(game.legal_moves(pos))
        played.append((pos, move))
        pos = game.play(pos, move)
    raise AssertionError(f"no end after {40 * MOVE_LIMIT} moves")


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", list(GAMES))
def test_the_protocol_round_trips_through_a_bot(name: str, seat: int, tmp_path) -> None:
    """A real bot process, in either seat, is sent exactly what the game's codec writes (its
    start, then each opponent move) and its lines are read back as the moves it meant."""
    from judge.players.bot import BotPlayer
    from judge.referee import play_game
    from judge.sandbox import Limits
    from tests.test_protocols import Scripted

    game = load_game(name, SMALL.get(name, ""))
    played = ending_game(game, random.Random(f"round trip {name} {seat}"))
    script, first = [], True
    for ply, (pos, move) in enumerate(played):
        if game.mover(pos) != seat:
            continue
        if first:
            sent, first = game.wire_start(pos), False
        else:
            sent = [game.format_move(played[ply - 1][1], played[ply - 1][0])]
        script.append((sent, game.format_move(move, pos)))
    bot = tmp_path / "bot.py"
    bot.write_text(ROUND_TRIP_BOT.format(script=script))
    theirs = [game.format_move(m, p) for p, m in played if game.mover(p) != seat]
    players = [Scripted(theirs), Scripted(theirs)]
    players[seat] = BotPlayer(bot, limits=Limits(first_move_seconds=20), sandbox="none")
    record = play_game(game, players, game.start())
    assert record.verdict.code == "ok", record.verdict.message
    assert [m.move for m in record.moves] == [game.format_move(m, p) for p, m in played]
