"""Connect Four by search (judge/games/connect4/search.c), for boards too big for a table:
exact scores as Pascal Pons' test sets have them, and the value and remoteness that the
table and a plain minimax give on boards they can solve."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

from judge.games.base import InputError
from judge.games.connect4 import Board, ConnectFour
from judge.games.connect4 import solver as c4solver
from judge.games.connect4.solver import ConnectFourSolver, Search
from judge.solvers.generic import DRAW, LOSS, WIN, GenericSolver
from tests.command import judge

PONS = Path(__file__).parent / "data" / "connect4-pons.txt"
STANDARD = "rows=6 cols=7"
BOTS = Path(__file__).resolve().parent.parent / "bots" / "connect4"


def played(game: ConnectFour, columns: str) -> Board:
    pos = game.start()
    for column in columns:
        pos = game.play(pos, int(column))
    return pos


def sample(game: ConnectFour, count: int, seed: int) -> list[Board]:
    """Positions met in random games, none finished."""
    rng = random.Random(seed)
    found: dict[Board, None] = {}
    while len(found) < count:
        pos = game.start()
        while not game.is_over(pos):
            found[pos] = None
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return list(found)[:count]


def search_of(game: ConnectFour) -> Search:
    codes = game.position_codes()
    assert codes is not None
    return Search(game, codes)


def pons_lines() -> list[tuple[str, str, int]]:
    lines = [line.split() for line in PONS.read_text().splitlines()
             if line and not line.startswith("#")]
    return [(name, columns, int(score)) for name, columns, score in lines]


def test_the_search_gives_pons_scores() -> None:
    """Every line of the sample of Pons' four test sets: the same score."""
    game = ConnectFour(STANDARD)
    search = search_of(game)
    lines = pons_lines()
    assert {name for name, _, _ in lines} == {"Test_L3_R1", "Test_L2_R1", "Test_L2_R2",
                                              "Test_L1_R1"}
    wrong = [(columns, score, search.score(played(game, columns)))
             for _, columns, score in lines if search.score(played(game, columns)) != score]
    assert wrong == []


def test_the_solver_answers_on_7x6() -> None:
    """The 7x6 board has a solver: a position's value and remoteness from its score, a
    move's the negated score of the position after it."""
    game = ConnectFour(STANDARD)
    solver = ConnectFourSolver(game)
    assert solver.search is not None
    # Pons' first end position (score -1): O to move loses to X's 21st and last disc, the
    # 41st on the board
    pos = played(game, "2252576253462244111563365343671351441")
    found = solver.evaluate(pos)
    assert (found.value, found.remoteness) == ("loss", 41 - 37)
    for move in game.legal_moves(pos):
        after = game.play(pos, move)
        value = solver.move_value(pos, move)
        if game.is_over(after):
            assert value.value == "win" and value.remoteness == 1
            continue
        score = -solver.search.score(after)
        assert value.value == ("win" if score > 0 else "loss" if score < 0 else "draw")
    # X to move has three in a row on the bottom: a win in one, at either end
    found = solver.evaluate(played(game, "445566"))
    assert (found.value, found.remoteness, found.best_moves) == ("win", 1, [3, 7])


@pytest.mark.parametrize("rules", ["rows=4 cols=4", pytest.param("rows=4 cols=5",
                                   marks=pytest.mark.slow),
                                   pytest.param("rows=5 cols=4", marks=pytest.mark.slow)])
def test_the_search_agrees_with_the_table(rules: str) -> None:
    """Value and remoteness of each of 300 random positions: the search's as the table's."""
    game = ConnectFour(rules)
    table = GenericSolver(game)
    search = search_of(game)
    differ = [(game.format_position(p), search.value(p), table.value_of(p))
              for p in sample(game, 300, seed=7) if search.value(p) != table.value_of(p)]
    assert differ == []


def test_the_solver_searching_evaluates_as_the_table() -> None:
    """On 4x4, the solver made to search gives each position's value, remoteness and best
    moves as the table does, and each move's value."""
    game = ConnectFour("rows=4 cols=4")
    table = GenericSolver(game)
    searching = ConnectFourSolver(game)
    assert searching.search is None  # 4x4 fits a table
    searching.search = search_of(game)
    for pos in sample(game, 150, seed=3):
        assert searching.evaluate(pos) == table.evaluate(pos), game.format_position(pos)
        assert searching.move_values(pos) == table.move_values(pos)


def minimax(game: ConnectFour, pos: Board, memo: dict[Board, tuple[int, int]]) -> tuple[int, int]:
    """(WIN, LOSS or DRAW for the mover, remoteness or -1 for a draw) by trying every move:
    the winner wins fastest, the loser loses slowest."""
    if pos in memo:
        return memo[pos]
    if game.is_over(pos):
        result = (DRAW, -1) if game.winner(pos) is None else (LOSS, 0)
    else:
        outcomes = [minimax(game, game.play(pos, m), memo) for m in game.legal_moves(pos)]
        wins = [r + 1 for v, r in outcomes if v == LOSS]
        if wins:
            result = (WIN, min(wins))
        elif any(v == DRAW for v, _ in outcomes):
            result = (DRAW, -1)
        else:
            result = (LOSS, max(r for _, r in outcomes) + 1)
    memo[pos] = result
    return result


@pytest.mark.parametrize("rules", ["rows=3 cols=4 connect=3", "rows=4 cols=3 connect=3",
                                   "rows=3 cols=4 connect=4", "rows=2 cols=5 connect=3",
                                   "rows=4 cols=4 connect=2", "rows=3 cols=3 connect=3",
                                   "rows=5 cols=3 connect=3"])
def test_the_search_agrees_with_minimax(rules: str) -> None:
    """Every position of small boards (lines of 2 to 4, odd and even numbers of cells): as
    a plain minimax finds it."""
    game = ConnectFour(rules)
    memo: dict[Board, tuple[int, int]] = {}
    minimax(game, game.start(), memo)
    search = search_of(game)
    differ = [(game.format_position(p), search.value(p), want)
              for p, want in memo.items() if not game.is_over(p) and search.value(p) != want]
    assert len(memo) > 100
    assert differ == []


def test_a_search_too_long_gives_up_and_keeps_nothing_wrong() -> None:
    """A position that needs more than the search's budget is refused with the reason, and
    what the search met before giving up changes no later score: every position of Pons'
    sample given up on at several budgets first, then solved."""
    game = ConnectFour(STANDARD)
    search = search_of(game)
    lines = [(played(game, columns), score) for _, columns, score in pons_lines()]
    search.budget = 1000
    hard = next(played(game, c) for name, c, _ in pons_lines() if name == "Test_L2_R2")
    with pytest.raises(InputError, match="gave up .* after 1,000 positions"):
        search.score(hard)
    for budget in (30, 300, 3000):
        search.budget = budget
        for pos, _ in lines:
            with suppress(InputError):
                search.score(pos)
    search.budget = c4solver.BUDGET
    assert [search.score(pos) for pos, _ in lines] == [score for _, score in lines]


def test_no_compiler_is_a_clear_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a C compiler the search cannot be built: the 7x6 board is refused before a
    game starts, and says why."""
    monkeypatch.setattr(c4solver, "library", lambda: None)
    solver = ConnectFourSolver(ConnectFour(STANDARD))
    with pytest.raises(InputError, match="no C compiler"):
        solver.check([solver.game.start()])


def test_no_compiler_exits_2(tmp_path: Path) -> None:
    """judge solve on 7x6 where no compiler is found (and none was built): exit status 2
    and one line that says why."""
    done = subprocess.run(
        [sys.executable, "-m", "judge", "solve", "--game", "connect4", "--rules", STANDARD,
         "......./......./......./......./......./...x..."],
        capture_output=True, text=True, timeout=120,
        env={"PATH": str(tmp_path), "JUDGE_CACHE_DIR": str(tmp_path / "cache"),
             "HOME": str(tmp_path)})
    assert done.returncode == 2, done.stderr
    assert "no C compiler" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_7x6_test_set_is_openings_of_14_discs() -> None:
    """judge run on 7x6 starts from 40 openings of 14 discs (the search answers those in
    about a second or less, not the empty board), none over, each read back as written;
    other boards keep the start and the positions after one and two moves."""
    game = ConnectFour(STANDARD)
    openings = game.test_positions()
    assert len(openings) == len(set(openings)) == 40
    assert all(p.cells.count(".") == 42 - 14 and not game.is_over(p) for p in openings)
    assert [game.parse_position(game.format_position(p)) for p in openings] == openings
    small = ConnectFour("rows=4 cols=4")
    assert small.test_positions()[0] == small.start() and len(small.test_positions()) == 21


@pytest.mark.slow
@pytest.mark.needs_toolchain("c")
def test_judge_run_grades_every_move_on_7x6(tmp_path: Path) -> None:
    """judge run on 7x6 from two openings, one won and one drawn for the bot, every move
    judged: the C optimal bot keeps every value, the weak bot does not."""
    game = ConnectFour(STANDARD)
    openings = game.test_positions()
    tests = tmp_path / "tests.txt"
    tests.write_text(f"{game.format_position(openings[0])}\n"
                     f"{game.format_position(openings[32])}\n")
    out = judge("run", "--game", "connect4", "--rules", STANDARD, "--tests", str(tests),
                "--db", str(tmp_path / "r.db"), "--format", "json",
                str(BOTS / "optimal.c"), str(BOTS / "weak.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    bots = {Path(b["bot"]).name: b for b in json.loads(out.stdout)["bots"]}
    assert bots["optimal.c"]["points"] == bots["optimal.c"]["max_points"]
    assert bots["weak.py"]["points"] < bots["weak.py"]["max_points"]
