"""Game records and reviews are built by hand on the hot path: they must equal the plain
data that `dataclasses.asdict` gives."""

from __future__ import annotations

from dataclasses import asdict

from judge.analysis import review
from judge.games.ioiwari import Ioiwari
from judge.players.optimal import OptimalPlayer
from judge.referee import play_game


def test_record_and_review_dicts_equal_asdict() -> None:
    game = Ioiwari()
    start = game.start()
    record = play_game(game, [OptimalPlayer(1), OptimalPlayer(2)], start)
    # (but for the moves as played, positions and parsed moves, which are not stored)
    assert record.played and record.to_dict() == {
        k: v for k, v in asdict(record).items() if k != "played"}
    moves = [m.move for m in record.moves]
    for r in review(game, start, moves):
        assert {k: v for k, v in r.to_dict().items() if k in asdict(r)} == asdict(r)


def test_review_of_one_seat_skips_the_others_moves_only() -> None:
    game = Ioiwari()
    start = game.start()
    record = play_game(game, [OptimalPlayer(1), OptimalPlayer(2)], start)
    moves = [m.move for m in record.moves]
    both = review(game, start, moves)
    first = review(game, start, moves, [0])
    assert first == [r for r in both if r.seat == 0] and first


def test_simple_tables_are_drawn_exactly_as_tabulate_draws_them() -> None:
    import random

    from tabulate import tabulate

    from judge.report import simple_table

    rng = random.Random(7)
    alphabet = "ab c|-1.5%/"
    for _ in range(300):
        cols = rng.randint(1, 5)
        headers = ["".join(rng.choices(alphabet, k=rng.randint(1, 8))) for _ in range(cols)]
        matrix = [["".join(rng.choices(alphabet, k=rng.randint(0, 12))) for _ in range(cols)]
                  for _ in range(rng.randint(0, 4))]
        expected = tabulate(matrix, headers=headers, tablefmt="simple", disable_numparse=True)
        assert simple_table(matrix, headers) == expected, (headers, matrix)
