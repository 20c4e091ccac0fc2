"""Facts about Nim: Bouton's theorem in both conventions, checked against plain search."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.games.base import MoveError, PositionError
from judge.games.nim import Heaps, Nim
from judge.games.nim.solver import NimSolver, nim_sum, winning_moves

NORMAL, MISERE = Nim(), Nim("misere=on")


@cache
def plain_wins(sizes: tuple[int, ...], misere: bool) -> bool:
    """Whether the mover wins, by trying every move."""
    if not any(sizes):
        return misere
    return any(
        not plain_wins(tuple(sorted(sizes[:h] + (s - k,) + sizes[h + 1 :])), misere)
        for h, s in enumerate(sizes)
        for k in range(1, s + 1)
    )


def test_example_file_answers_of_the_batch_assignment():
    cases = {
        (3, 4, 5): (1, 2),
        (8, 13, 5): None,
        (123, 675, 296, 864, 917, 532): (3, 239),
        (9, 7, 4, 12): (2, 6),
    }
    for sizes, expected in cases.items():
        moves = winning_moves(sizes, misere=False)
        assert (moves[0] if moves else None) == expected


def test_three_single_counters_lose_in_misere_and_win_in_normal_play():
    pos = Heaps((1, 1, 1))
    assert NimSolver(MISERE).evaluate(pos).value == "loss"
    assert NimSolver(NORMAL).evaluate(pos).value == "win"


def test_misere_winning_move_leaves_an_odd_number_of_one_heaps():
    assert winning_moves((1, 1, 3), misere=True) == [(3, 2)]  # leaves 1 1 1
    assert winning_moves((1, 3), misere=True) == [(2, 3)]
    assert winning_moves((1, 1, 3), misere=False) == [(3, 3)]
    assert winning_moves((1, 3), misere=False) == [(2, 2)]


def test_huge_heaps_are_solved_in_closed_form():
    big = 10**40
    pos = Heaps((big, big + 3, 5))
    ev = NimSolver(NORMAL).evaluate(pos)
    assert ev.value == "win" and ev.remoteness is None
    after = NORMAL.play(pos, ev.best_moves[0])
    assert nim_sum(after.sizes) == 0
    assert NORMAL.parse_position(f"{big} 1").sizes == (big, 1)


def test_heaps_of_thousands_of_digits_are_read_written_and_solved():
    big = 10**5000  # past Python's default limit of 4300 digits for int <-> str
    text = f"{big} 7"
    pos = NORMAL.parse_position(text)
    assert NORMAL.format_position(pos) == text
    ev = NimSolver(NORMAL).evaluate(pos)
    assert ev.value == "win" and ev.best_moves == [(1, big - 7)]
    line = NORMAL.format_move(ev.best_moves[0], pos)
    assert NORMAL.parse_move(line, pos) == (1, big - 7)


def test_numbers_longer_than_any_heap_are_refused_as_illegal_moves():
    pos = Heaps((3, 4, 5))
    for line, reason in [("9" * 100_000 + " 1", "there is no heap 999"),
                         ("1 " + "9" * 100_000, "holds only 3 counters")]:
        with pytest.raises(MoveError, match=reason) as info:
            NORMAL.parse_move(line, pos)
        assert info.value.code == "illegal-move"


@pytest.mark.parametrize("game", [NORMAL, MISERE], ids=["normal", "misere"])
def test_in_a_lost_position_too_big_to_search_the_judge_empties_the_largest_heap(game):
    pos = Heaps((10**6, 10**6, 2, 2))
    ev = NimSolver(game).evaluate(pos)
    assert ev.value == "loss" and ev.remoteness is None
    assert ev.best_moves == [(1, 10**6)]  # a short game: the judge never stalls a bot


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.booleans())
def test_solver_agrees_with_plain_search(sizes, misere):
    game = MISERE if misere else NORMAL
    solver = NimSolver(game)
    pos = Heaps(tuple(sizes))
    wins = plain_wins(tuple(sorted(sizes)), misere)
    ev = solver.evaluate(pos)
    assert ev.value == ("win" if wins else "loss")
    for move in winning_moves(pos.sizes, misere):
        assert not plain_wins(tuple(sorted(game.play(pos, move).sizes)), misere)
    if wins and any(sizes):
        assert ev.best_moves


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=3), st.booleans())
def test_remoteness_is_the_length_of_a_game_between_perfect_players(sizes, misere):
    game = MISERE if misere else NORMAL
    solver = NimSolver(game)
    pos = Heaps(tuple(sizes))
    expected = solver.evaluate(pos).remoteness
    moves = 0
    while not game.is_over(pos):
        pos = game.play(pos, solver.choose(pos))
        moves += 1
    assert moves == expected


def test_winner_of_a_finished_game_depends_on_the_convention():
    end = Heaps((0, 0), to_move=1)  # seat 0 took the last counter
    assert NORMAL.winner(end) == 0
    assert MISERE.winner(end) == 1


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("1", "garbage"),
        ("1 2 3", "garbage"),
        ("a 1", "garbage"),
        ("1  2", "garbage"),
        ("4 1", "illegal-move"),
        ("1 0", "illegal-move"),
        ("1 4", "illegal-move"),
        ("0 1", "illegal-move"),
        ("01 1", "garbage"),
    ],
)
def test_move_lines_are_parsed_strictly(line, code):
    with pytest.raises(MoveError) as info:
        NORMAL.parse_move(line, Heaps((3, 4, 5)))
    assert info.value.code == code


@pytest.mark.parametrize("text", ["", "1 -2", "x", "1.5"])
def test_malformed_positions_are_rejected(text):
    with pytest.raises(PositionError):
        NORMAL.parse_position(text)
