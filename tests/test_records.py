"""Game records and reviews are built by hand on the hot path: they must equal the plain
data of every field (`dataclasses.asdict`, or a named tuple's `_asdict`, all the way down)."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from typing import Any

from judge.analysis import review
from judge.games.ioiwari import Ioiwari
from judge.players.optimal import OptimalPlayer
from judge.records import PlayedGame
from judge.referee import play_game


def plain(value: Any) -> Any:
    """`value` as plain data: every field of a dataclass or a named tuple, recursively."""
    if is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def test_record_and_review_dicts_equal_asdict() -> None:
    game = Ioiwari()
    start = game.start()
    record = play_game(game, [OptimalPlayer(1), OptimalPlayer(2)], start)
    # (but for the moves as played, positions and parsed moves, which are not stored)
    assert record.played and record.to_dict() == {
        k: v for k, v in plain(record).items() if k != "played"}
    moves = [m.move for m in record.moves]
    for r in review(game, start, moves):
        assert {k: v for k, v in r.to_dict().items() if k in plain(r)} == plain(r)


def test_review_of_one_seat_skips_the_others_moves_only() -> None:
    game = Ioiwari()
    start = game.start()
    record = play_game(game, [OptimalPlayer(1), OptimalPlayer(2)], start)
    moves = [m.move for m in record.moves]
    both = review(game, start, moves)
    first = review(game, start, moves, [0])
    assert first == [r for r in both if r.seat == 0] and first


def kept_game() -> PlayedGame:
    """A game of Ioiwari between greedy and perfect play, as a run keeps it."""
    from judge.analysis import perfect_results
    from judge.players.tricky import TrickyPlayer

    game = Ioiwari()
    start = game.start()
    record = play_game(game, [TrickyPlayer(3), OptimalPlayer(2)], start)
    return record.kept(players=("bot.py", "optimal"), key="bot.py|s|first", seed=11,
                       review=review(game, start, [m.move for m in record.moves], [0],
                                     record.played),
                       perfect=perfect_results(game, start))


def test_a_kept_games_json_is_what_the_store_always_wrote_and_reads_back_equal() -> None:
    played = kept_game()
    assert played.review and played.moves
    data = played.to_json()
    # the record as it was written before it was typed: the referee's record, then the run's
    # additions in this order, the players named as the run knows them
    old = {**played_record_dict(played), "key": "bot.py|s|first", "seed": 11,
           "review": [r.to_dict() for r in played.review], "perfect": list(played.perfect)}
    assert json.dumps(data) == json.dumps(old)
    assert PlayedGame.from_json(json.loads(json.dumps(data))) == played
    on_worker = played._replace(worker="node-7", tier="none")
    assert list(on_worker.to_json())[-2:] == ["worker", "tier"]
    assert PlayedGame.from_json(on_worker.to_json()) == on_worker


def played_record_dict(played: PlayedGame) -> dict:
    """The referee's dict of the same game (`GameRecord.to_dict`)."""
    from judge.referee import GameRecord

    return GameRecord(played.game, played.start, list(played.players), list(played.moves),
                      list(played.results), played.verdict, played.final or "",
                      None if played.score is None else list(played.score),
                      list(played.stderr), list(played.usage or ())).to_dict()


def test_a_record_of_the_first_databases_reads_and_its_moves_are_judged_again() -> None:
    # no seed, no results under perfect play; reviews without remoteness, optimal or slow
    played = kept_game()
    data = played.to_json()
    del data["seed"], data["perfect"]
    for r in data["review"]:
        for name in ("remoteness", "move_remoteness", "optimal", "slow"):
            del r[name]
    old = PlayedGame.from_json(data)
    assert (old.seed, old.perfect, old.key) == (None, None, "bot.py|s|first")
    assert [r.optimal for r in old.review] == [not r.mistake for r in played.review]
    assert [r.mistake for r in old.review] == [r.mistake for r in played.review]
    assert old.move_texts == played.move_texts and old.verdict == played.verdict


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
