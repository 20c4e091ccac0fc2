"""Facts about Ioiwari from the IOI 2001 statement, and the solver against plain search."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.games.base import MoveError, PositionError
from judge.games.ioiwari import Board, Ioiwari, canonical_rotation, sow, standard_boards
from judge.games.ioiwari.solver import (
    MOVES_OF,
    IoiwariSolver,
    board_index,
    build_tables,
)
from judge.solvers import cache

GAME = Ioiwari()

# (player, pit, pits after, bank of player 1, bank of player 2) from the statement
EXAMPLE_GAME = [
    (1, 2, (4, 0, 3, 5, 0, 3, 2), 3, 0),
    (2, 3, (4, 0, 0, 4, 1, 4, 0), 3, 4),
    (1, 5, (4, 0, 0, 4, 0, 0, 0), 8, 4),
    (2, 4, (0, 0, 0, 0, 1, 1, 1), 8, 9),
    (1, 5, (0, 0, 0, 0, 0, 0, 1), 10, 9),
    (2, 7, (0, 0, 0, 0, 0, 0, 0), 11, 9),
]


@functools.cache
def plain_best(pits: tuple[int, ...]) -> int:
    """best(B) = max over legal m of gain(B, m) - best(after(B, m)), best(empty) = 0."""
    if not any(pits):
        return 0
    results = []
    for pit in range(1, 8):
        if pits[pit - 1]:
            after, mine, theirs = sow(pits, pit)
            results.append(mine - theirs - plain_best(after))
    return max(results)


def test_example_game_from_ioi_statement_board_by_board():
    pos = GAME.parse_position("4 3 2 4 2 3 2")
    for player, pit, pits, bank1, bank2 in EXAMPLE_GAME:
        assert GAME.mover(pos) == player - 1
        assert pit in GAME.legal_moves(pos)
        pos = GAME.play(pos, GAME.parse_move(str(pit), pos))
        assert pos.pits == pits
        assert pos.banks == (bank1, bank2)
    assert GAME.is_over(pos)
    assert GAME.winner(pos) == 0


def test_there_are_357_standard_starts_51_up_to_rotation():
    boards = standard_boards()
    assert len(boards) == 357
    assert all(sum(b) == 20 and set(b) <= {2, 3, 4} for b in boards)
    assert len({canonical_rotation(b) for b in boards}) == 51


def test_first_player_wins_from_every_standard_start():
    solver = IoiwariSolver(GAME)
    values = [solver.evaluate(Board(b)).value for b in standard_boards()]
    assert min(values) > 0


def test_example_start_is_worth_two_and_player_one_played_optimally():
    solver = IoiwariSolver(GAME)
    start = GAME.start()
    assert solver.evaluate(start).value == 2  # the statement's game ended 11 to 9
    assert not solver.is_mistake(start, 2)


def test_table_agrees_with_plain_recursion_on_every_board_up_to_eight_beads():
    best = build_tables()["best"]
    from itertools import product

    for pits in product(range(6), repeat=7):
        if sum(pits) <= 8:
            assert best[board_index(pits)] == plain_best(pits), pits


@settings(max_examples=300, deadline=None)
@given(st.tuples(*[st.integers(0, 5)] * 7))
def test_solver_agrees_with_plain_recursion_on_random_boards(pits):
    solver = IoiwariSolver(GAME)
    pos = Board(pits)
    ev = solver.evaluate(pos)
    assert ev.value == plain_best(pits)
    for mv in solver.move_values(pos):
        after, mine, theirs = sow(pits, mv.move)
        assert mv.value == mine - theirs - plain_best(after)
        assert (mv.move in ev.best_moves) == (mv.value == ev.value)


def test_stored_moves_are_those_the_move_values_give_on_random_boards():
    # the table keeps each board's best moves and the moves perfect play chooses among;
    # they must be what `Solver` reads from the value of every move (a seeded sample)
    import random

    from judge.solvers.base import Solver, best_of

    solver = IoiwariSolver(GAME)
    rng = random.Random(2001)
    for _ in range(20_000):
        pos = Board(tuple(rng.randrange(6) for _ in range(7)))
        values = solver.move_values(pos)
        best = solver.evaluate(pos)
        assert best.best_moves == [m.move for m in values if m.value == best.value], pos
        chosen = [m.move for m in best_of(values)]
        assert MOVES_OF[solver.chosen[board_index(pos.pits)]] == chosen, pos
        if chosen:
            assert solver.choose(pos) == Solver.choose(solver, pos) == chosen[0], pos
            seed = rng.random()
            assert solver.choose(pos, random.Random(seed)) == Solver.choose(
                solver, pos, random.Random(seed)), pos


@settings(max_examples=200, deadline=None)
@given(st.tuples(*[st.integers(0, 5)] * 7), st.integers(1, 7))
def test_sowing_keeps_every_bead_and_every_pit_at_most_five(pits, pit):
    if not pits[pit - 1]:
        return
    after, mine, theirs = sow(pits, pit)
    assert sum(after) + mine + theirs == sum(pits)
    assert max(after) <= 5
    assert sum(after) < sum(pits)


def test_remoteness_of_optimal_play_is_the_length_of_the_game():
    solver = IoiwariSolver(GAME)
    pos = GAME.start()
    expected = solver.evaluate(pos).remoteness
    moves = 0
    while not GAME.is_over(pos):
        pos = GAME.play(pos, solver.choose(pos))
        moves += 1
    assert moves == expected


def test_corrupt_cache_file_is_detected_and_rebuilt():
    key = IoiwariSolver(GAME).table_key
    path = cache.path_for(key)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert cache.load(key) is None
    solver = IoiwariSolver(GAME)
    assert solver.evaluate(GAME.start()).value == 2
    assert cache.load(key) is not None


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("8", "illegal-move"),
        ("0", "illegal-move"),
        ("a", "garbage"),
        ("2 3", "garbage"),
        (" 2", "garbage"),
        ("2.0", "garbage"),
        ("", "garbage"),
        ("02", "garbage"),  # protocols/ioiwari.md: no leading zero
        ("2\r", "garbage"),  # ... and no carriage return
        ("77", "illegal-move"),
    ],
)
def test_move_lines_are_parsed_strictly(line, code):
    with pytest.raises(MoveError) as info:
        GAME.parse_move(line, GAME.start())
    assert info.value.code == code


def test_empty_pit_is_an_illegal_move_that_names_the_pit():
    pos = GAME.play(GAME.start(), 2)
    with pytest.raises(MoveError, match="pit 2 is empty"):
        GAME.parse_move("2", pos)


@pytest.mark.parametrize(
    "text", ["4 3 2 4 2 3", "4 3 2 4 2 3 9", "a b c d e f g", "1 1 1 1 1 1 1 |"]
)
def test_malformed_positions_are_rejected(text):
    with pytest.raises(PositionError):
        GAME.parse_position(text)


def test_position_notation_round_trips_with_banks_and_mover():
    pos = Board((4, 0, 3, 5, 0, 3, 2), (3, 0), 1)
    assert GAME.parse_position(GAME.format_position(pos)) == pos
