"""The narrow facets: a consumer takes the facets it reads, not the whole `Game`. The generic
solver takes `Rules`, so that an object that has them and nothing else (not a `Game`) is
solved; the referee and the players take the rules, the notation and the facts, so that such
an object with those is played between two players; and mypy holds a function typed to take
`Rules` to the rules (it cannot reach for the notation), as it holds this file's games to
the Protocols they are given as."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from judge.analysis import perfect_results, review
from judge.gamecheck import opening_position, scripted_game
from judge.games.base import (
    Facts,
    Game,
    Judged,
    Judging,
    Points,
    PositionError,
    Rules,
    Scoring,
    Seat,
    garbage,
    illegal,
    played_starts,
)
from judge.games.drawing import JSON, kit_script
from judge.html.boards import (
    Board,
    Replayed,
    Shown,
    board_meta,
    control,
    drawable,
    replay,
    scripts,
    touched,
)
from judge.html.pages import Labelled, move_labels
from judge.html.teaching import Teaching
from judge.players.base import Notation, Played, Player, Seated, Table
from judge.players.level import LevelPlayer
from judge.players.optimal import OptimalPlayer
from judge.referee import play_game
from judge.solvers import Solvable
from judge.solvers.base import Evaluation, MoveValue, Outcome, Solver
from judge.solvers.generic import GenericSolver
from judge.testsets import Graded, default_tests
from judge.web.explain import Explained, Panelled, end_reason, rules_panel
from judge.web.sessions import (
    Browsed,
    BrowserLimits,
    TieRemoteness,
    WebError,
    check_size,
    position_info,
    solver_here,
)

ROOT = Path(__file__).resolve().parent.parent


class TakeAway:
    """Rules alone: a heap of `size` counters, each move takes 1 or 2 of them, and the
    player who takes the last one wins. A position is (counters left, seat to move); its
    number (the optional `Encoded` facet) is ``2 * left + seat``."""

    def __init__(self, size: int) -> None:
        self.size = size

    def start(self) -> tuple[int, Seat]:
        return (self.size, 0)

    def mover(self, pos: tuple[int, Seat]) -> Seat:
        return pos[1]

    def legal_moves(self, pos: tuple[int, Seat]) -> list[int]:
        return [n for n in (1, 2) if n <= pos[0]]

    def play(self, pos: tuple[int, Seat], move: int) -> tuple[int, Seat]:
        return (pos[0] - move, 1 - pos[1])

    def is_over(self, pos: tuple[int, Seat]) -> bool:
        return pos[0] == 0

    def winner(self, pos: tuple[int, Seat]) -> Seat | None:
        return 1 - pos[1]  # the player who took the last counter

    def encode(self, pos: tuple[int, Seat]) -> int:
        return 2 * pos[0] + pos[1]


def test_the_generic_solver_solves_a_game_of_rules_alone() -> None:
    solver = GenericSolver(TakeAway(10))
    for left in range(11):
        ev = solver.evaluate((left, 0))
        lost = left % 3 == 0  # the mover loses exactly on a multiple of 3
        assert ev.value is (Outcome.LOSS if lost else Outcome.WIN), left
        assert ev.remoteness == (2 * (left // 3) if lost else 2 * (left // 3) + 1), left
        assert ev.best_moves == ([] if left == 0 else [1, 2][:left] if lost else [left % 3])
    assert solver.stats([(10, 0)]) == {"positions": 20, "win": 13, "loss": 7, "draw": 0}
    assert solver.choose((10, 0)) == 1
    assert solver.described is None  # no facts, so no table on disk under a made-up name


class PlainSolver(Solver):
    """A solver written before values said their kind (a plugin's): plain "win" and "loss",
    by the multiples of 3."""

    def evaluate(self, pos: tuple[int, Seat]) -> Evaluation:
        lost = pos[0] % 3 == 0
        return Evaluation("loss" if lost else "win", None,  # type: ignore[arg-type]
                          [] if lost else [pos[0] % 3])

    def move_value(self, pos: tuple[int, Seat], move: int) -> MoveValue:
        after = self.evaluate((pos[0] - move, 1 - pos[1])).value
        return MoveValue(move, "win" if after == "loss" else "loss", None)  # type: ignore[arg-type]


def test_a_plain_solver_s_answers_are_outcomes_for_a_game_of_rules_alone() -> None:
    solver = PlainSolver(TakeAway(10))
    assert solver.evaluate((7, 0)).value is Outcome.WIN
    assert solver.move_value((7, 0), 2).value is Outcome.LOSS
    assert solver.choose((7, 0)) == 1 and solver.is_mistake((7, 0), 2)


class TakeAwayTable(TakeAway):
    """`TakeAway` with its notation (a position is its counters left and the seat to move,
    ``"7 0"``; a move its count) and its facts: what the referee and the players read."""

    name = "take-away"
    defaults: dict[str, str] = {}
    variants: dict[str, str] = {}
    loopy = False
    draws = False
    scoring = Scoring.OUTCOME
    points = Points(1.0, 0.5, 0.0)
    solver = "judge.solvers.generic:GenericSolver"

    def describe(self) -> str:
        return f"take-away size={self.size}"

    def score(self, pos: tuple[int, Seat]) -> tuple[int, int] | None:
        return None

    def parse_position(self, text: str) -> tuple[int, Seat]:
        left, _, seat = text.partition(" ")
        if not left.isdigit() or seat not in ("0", "1"):
            raise PositionError(f"not counters and a seat: {text!r}")
        return (int(left), int(seat))

    def format_position(self, pos: tuple[int, Seat]) -> str:
        return f"{pos[0]} {pos[1]}"

    def wire_start(self, pos: tuple[int, Seat]) -> list[str]:
        return [self.format_position(pos)]

    def parse_move(self, line: str, pos: tuple[int, Seat]) -> int:
        if line not in ("1", "2"):
            raise garbage(line, "a move is 1 or 2")
        if int(line) > pos[0]:
            raise illegal(line, "more than the heap holds")
        return int(line)

    def format_move(self, move: int, pos: tuple[int, Seat]) -> str:
        return str(move)


class Scripted(Player):
    """Plays its `moves` in turn, as a bot writes them."""

    def __init__(self, name: str, moves: list[str]) -> None:
        self.name = name
        self.moves = moves

    def choose(self, pos: tuple[int, Seat], last: Played | None) -> int:
        move: int = self.game.parse_move(self.moves.pop(0), pos)
        return move


def test_the_referee_plays_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayTable(5)
    record = play_game(game, [Scripted("a", ["2", "1"]), Scripted("b", ["1", "1"])],
                       game.start())
    assert [(m.seat, m.move) for m in record.moves] == [(0, "2"), (1, "1"), (0, "1"), (1, "1")]
    assert (record.game, record.start, record.final) == ("take-away size=5", "5 0", "0 0")
    assert record.results == ["loss", "win"] and record.score is None


def test_a_bad_move_loses_and_the_perfect_players_play_it_by_the_generic_solver() -> None:
    game = TakeAwayTable(7)
    record = play_game(game, [Scripted("a", ["3"]), OptimalPlayer()], game.start())
    assert (record.verdict.code, record.verdict.seat) == ("garbage", 0)
    # 7 counters: the first mover wins by leaving a multiple of 3, and does whatever the
    # other plays; the level player of random play draws among the legal moves
    record = play_game(game, [OptimalPlayer(), LevelPlayer(0, seed=1)], game.start())
    assert record.results == ["win", "loss"]
    assert record.moves[0].move == "1"


def test_the_review_judges_the_moves_of_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayTable(5)
    record = play_game(game, [Scripted("a", ["1", "1"]), Scripted("b", ["1", "2"])],
                       game.start())
    assert record.results == ["loss", "win"]
    moves = [m.move for m in record.moves]
    reviews = review(game, game.start(), moves, played=record.played)
    assert [(r.ply, r.mistake, r.best_moves) for r in reviews] == [
        (1, True, ["2"]), (2, False, ["1"]), (3, False, ["1", "2"]), (4, False, ["2"])]
    assert perfect_results(game, game.start()) == ["win", "loss"]


def test_the_game_check_reads_the_opening_of_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayTable(5)
    assert opening_position(game, ["4 1"]) == (4, 1)
    assert opening_position(game, ["not one", "3 0", "2"]) == (3, 0)
    assert opening_position(game, ["not one"]) is None


@pytest.mark.slow
def test_a_bot_process_plays_a_game_that_is_not_a_game_subclass() -> None:
    bot = ("import sys\nassert sys.stdin.readline() == '4 0\\n'\n"
           "while True:\n    print(1, flush=True)\n    if not sys.stdin.readline():\n"
           "        break\n")
    record = scripted_game(TakeAwayTable(4), (4, 0), bot, ["1", "1"])
    assert [(m.seat, m.move) for m in record.moves] == [(0, "1"), (1, "1"), (0, "1"), (1, "1")]
    assert record.results == ["loss", "win"] and record.verdict.seat is None


class TakeAwayJudged(TakeAwayTable):
    """`TakeAwayTable` with the judging facet: its tests and tournaments start from heaps
    of 0 to 8 counters, the first seat to move."""

    max_tests: int | None = None

    def test_positions(self) -> list[tuple[int, Seat]]:
        return [(n, 0) for n in range(9)]

    def seat_test_positions(self, first: bool) -> list[tuple[int, Seat]]:
        return self.test_positions()

    def tournament_starts(self) -> list[tuple[int, Seat]]:
        return [p for p in self.test_positions() if not self.is_over(p)]


def test_the_test_sets_and_the_starts_of_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayJudged(8)
    # the first mover wins off a multiple of 3, the second on one (0 is over: a loss)
    assert default_tests(game, True) == [(n, 0) for n in (1, 2, 4, 5, 7, 8)]
    assert default_tests(game, False) == [(n, 0) for n in (0, 3, 6)]
    game.max_tests = 2
    assert default_tests(game, True) == [(1, 0), (5, 0)]
    # from 1 counter the only move wins: no move of either player changes the result
    assert played_starts(game) == [(n, 0) for n in range(2, 9)]


class TakeAwayShown(TakeAwayTable):
    """`TakeAwayTable` with a text drawing and no board facet: drawn as its text."""

    def render(self, pos: tuple[int, Seat]) -> str:
        return "|" * pos[0]


class TakeAwayDrawn(TakeAwayShown):
    """`TakeAwayShown` with the board facet: a renderer of its own draws the heap."""

    def board_script(self) -> str | None:
        return "JudgeBoards.register('take-away', function () {});"

    def board_meta(self) -> dict[str, JSON]:
        return {"size": self.size}

    def board_state(self, pos: tuple[int, Seat]) -> dict[str, JSON]:
        return {"left": pos[0]}

    def board_touched(self, pos: tuple[int, Seat], move: int) -> list[JSON]:
        return list(range(pos[0] - move, pos[0]))

    def board_control(self, pos: tuple[int, Seat], move: int) -> dict[str, JSON] | None:
        return {"counter": pos[0] - move}


def test_the_board_of_a_game_without_the_board_facet_is_its_text() -> None:
    game = TakeAwayShown(4)
    assert board_meta(game) == {"game": "take-away", "text": True}
    assert drawable(game, (3, 1)) == {"text": "|||", "over": 0}
    assert touched(game, (3, 1), 2) == [] and control(game, (3, 1), 2) == {}
    assert scripts(game) == [kit_script()]
    states, marks, broken = replay(game, (4, 0), ["1", "2", "3"])
    assert [s["text"] for s in states] == ["||||", "|||", "|", "|"] and broken == 3


def test_the_board_of_a_game_that_is_not_a_game_subclass_is_drawn_by_its_facet() -> None:
    game = TakeAwayDrawn(4)
    assert board_meta(game) == {"game": "take-away", "size": 4}
    assert drawable(game, (3, 1)) == {"left": 3, "mover": 1, "over": 0}
    assert drawable(game, (0, 0)) == {"left": 0, "mover": 0, "over": 1}
    assert touched(game, (3, 1), 2) == [1, 2] and control(game, (3, 1), 2) == {"counter": 1}
    assert scripts(game)[1] == game.board_script()
    states, marks, broken = replay(game, (4, 0), ["1", "2"])
    assert [s["left"] for s in states] == [4, 3, 1] and marks == [[], [3], [1, 2]]


class TakeAwayTaught(TakeAwayDrawn):
    """`TakeAwayDrawn` with the teaching facet: its moves named, its ends explained, its
    Grundy values (a heap's counters modulo 3) told."""

    variant_about: dict[str, str] = {}
    rule_sentences: dict[tuple[str, str], str] = {}
    value_notes = ""
    grundy_name = "heap value"

    def rules_text(self) -> list[str]:
        return ["Take 1 or 2 counters; whoever takes the last one wins."]

    def rule_notes(self) -> list[str]:
        return []

    def end_reason(self, pos: tuple[int, Seat]) -> str:
        return f"player {2 - pos[1]} took the last counter"

    def position_note(self, pos: tuple[int, Seat], rules: str) -> str | None:
        return None

    def grundy_value(self, pos: tuple[int, Seat]) -> int | None:
        return pos[0] % 3

    def grundy_text(self, pos: tuple[int, Seat], value: int) -> str:
        return f"Heap value: {value}."

    def describe_at(self, pos: tuple[int, Seat]) -> str:
        return self.describe()

    def move_label(self, move: int, pos: tuple[int, Seat]) -> str:
        return f"take {move}"

    def move_words(self, move: int, pos: tuple[int, Seat]) -> str:
        return f"take {move} ({move})"


class Limited(TakeAwayTaught):
    """`TakeAwayTaught` with the browser limits facet: the app draws no heap of more than
    9 counters, and solves none of more than 6 while a person waits."""

    def browser_limit(self, pos: tuple[int, Seat]) -> str | None:
        return "too many counters to draw" if pos[0] > 9 else None

    def solve_limit(self, pos: tuple[int, Seat]) -> str | None:
        return "too many counters to solve at once" if pos[0] > 6 else None


def test_the_explanations_of_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayTaught(5)
    assert end_reason(game, (0, 0), False, 0, None) == "player 2 took the last counter"
    assert end_reason(game, (2, 0), False, 0, None) is None
    assert move_labels(game, (5, 0), ["2", "1"]) == ("take 2", "take 1")
    assert rules_panel(game) == {
        "summary": ["Take 1 or 2 counters; whoever takes the last one wins."],
        "variant": None, "notes": [], "protocol": None}  # no protocol page: none served


def test_the_browser_app_shows_a_position_of_a_game_that_is_not_a_game_subclass() -> None:
    game = TakeAwayTaught(5)
    info = position_info(game, (5, 0), values=True, names=["you", "optimal"])
    assert (info["position"], info["game"], info["board"]) == (
        "5 0", "take-away size=5", {"left": 5, "mover": 0, "over": False})
    assert [(m["label"], m["value"], m["grundy"], m["control"]) for m in info["moves"]] == [
        ("take 1", "lose", 1, {"counter": 4}), ("take 2", "win", 0, {"counter": 3})]
    assert info["says"] == "You can win in 3 moves"
    assert (info["grundy"], info["grundy_name"], info["grundy_text"]) == (
        2, "heap value", "Heap value: 2.")
    check_size(game, (50, 0))  # no limits of its own: its solver's alone
    assert solver_here(game, (50, 0)).evaluate((50, 0)).value is Outcome.WIN


def test_the_browser_app_keeps_the_limits_of_a_game_that_is_not_a_game_subclass() -> None:
    game = Limited(5)
    check_size(game, (9, 0))
    with pytest.raises(WebError, match="too many counters to draw") as refused:
        check_size(game, (10, 0))
    assert refused.value.status == 413
    assert solver_here(game, (6, 0)).evaluate((6, 0)).value is Outcome.LOSS
    with pytest.raises(WebError, match="too many counters to solve at once"):
        position_info(game, (7, 0), values=True)
    assert position_info(game, (7, 0), values=False)["moves"][0]["label"] == "take 1"


@pytest.mark.slow
def test_mypy_holds_a_function_of_the_rules_to_the_rules(tmp_path: Path) -> None:
    source = tmp_path / "narrow.py"
    source.write_text(
        "from typing import Any\n"
        "from judge.games.base import Game, Rules\n"
        "def ok(game: Rules[Any, Any]) -> bool:\n"
        "    return game.is_over(game.play(game.start(), game.legal_moves(game.start())[0]))\n"
        "def reaches(game: Rules[Any, Any]) -> None:\n"
        "    game.format_position(game.start())\n"
        "def adapted(game: Game[Any, Any]) -> bool:\n"
        "    return ok(game)\n")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          str(source), __file__], capture_output=True, text=True, cwd=ROOT)
    mine = (str(source), str(Path(__file__).relative_to(ROOT)))  # (strict on these alone)
    errors = [line for line in run.stdout.splitlines()
              if ": error:" in line and line.startswith(mine)]
    assert len(errors) == 1, run.stdout
    assert "narrow.py:6:" in errors[0]
    assert '"Rules[Any, Any]" has no attribute "format_position"' in errors[0]


def members(proto: type) -> dict[str, str]:
    """The public members a Protocol declares (its own and its Protocol bases'), each with
    its signature as `Game` writes it: a method's, a property's type."""
    found = {}
    for cls in reversed(proto.__mro__):
        if not getattr(cls, "_is_protocol", False) or cls.__module__ == "typing":
            continue
        for name, member in vars(cls).items():
            if name.startswith("_"):
                continue
            if isinstance(member, property):
                assert member.fget is not None
                found[name] = f"ClassVar[{member.fget.__annotations__['return']}]"
            else:
                found[name] = str(inspect.signature(member)).replace(
                    "P_in", "P").replace("M_in", "M")
    return found


def test_every_game_has_the_facets_with_the_signatures_of_game() -> None:
    for proto in (Rules, Facts, Notation, Solvable, Seated, Table, Judging, Judged, Graded,
                  Board, Shown, Replayed, Teaching, Labelled, Explained, Panelled, BrowserLimits,
                  TieRemoteness, Browsed):
        for name, written in members(proto).items():
            ours = vars(Game).get(name)
            if ours is None or not callable(ours):
                assert written == Game.__annotations__[name], (proto.__name__, name)
            else:
                assert written == str(inspect.signature(ours)), (proto.__name__, name)
    assert set(members(Rules)) == {"start", "mover", "legal_moves", "play", "is_over", "winner"}
    assert set(members(Table)) == set(members(Rules)) | set(members(Facts)) \
        | set(members(Notation)) | {"solver"}
    assert set(members(Judging)) == {"max_tests", "test_positions", "seat_test_positions",
                                     "tournament_starts"}
    assert set(members(Board)) == {"board_script", "board_meta", "board_state",
                                   "board_touched", "board_control"}
    assert set(members(BrowserLimits)) == {"browser_limit", "solve_limit"}
    assert set(members(Teaching)) == {
        "variant_about", "rule_sentences", "value_notes", "grundy_name", "rules_text",
        "rule_notes", "end_reason", "position_note", "grundy_value", "grundy_text",
        "describe_at", "move_label", "move_words"}
    assert set(members(Browsed)) == set(members(Table)) | set(members(Teaching)) \
        | {"render"}
