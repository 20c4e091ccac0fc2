"""A game's values carry their kind: the game declares it (`Game.scoring`: win/loss/draw
outcomes, or a final score difference) and the solver's values say it (`Outcome`,
`Difference`), so no layer tells them apart by a value's Python or JavaScript type."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, ClassVar

from judge.analysis import MoveReview
from judge.gamecheck import Check, Suite
from judge.games import load_game
from judge.games.base import Game, Scoring
from judge.records import PlayedGame
from judge.solvers import solver_for
from judge.solvers.base import (
    Difference,
    Evaluation,
    MoveValue,
    Outcome,
    Solver,
    order,
    stored_value,
)
from judge.web.sessions import final_difference, value_word

PACKAGE = Path(__file__).resolve().parent.parent / "judge"

#: where values are made and read from their stored form: the value types' own module
#: and the games, whose solvers make them
OWN = {"solvers/base.py"}

#: attributes and names that hold a solver's value
VALUE_NAMES = {"value", "before", "after"}
#: the types a guess looks for
GUESSED = {"int", "str", "Outcome", "Difference", "bool"}


def value_names(func: ast.AST) -> set[str]:
    """The parameters of `func` annotated as a `Value`, with `VALUE_NAMES`' names."""
    names = {"before", "after"}
    if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
        for arg in func.args.args + func.args.kwonlyargs:
            if arg.annotation is not None and "Value" in ast.unparse(arg.annotation):
                names.add(arg.arg)
    return names


def guesses(root: Path) -> list[str]:
    """Every ``isinstance`` under `root` (outside judge/games and `OWN`) that asks a value's
    type, as ``file:line: code``; and every JavaScript test of a value's type or of
    whether a score difference was sent."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("games/") or rel in OWN:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for func in ast.walk(tree):
            names = value_names(func)
            for node in ast.walk(func):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "isinstance" and len(node.args) == 2):
                    continue
                what, kinds = node.args
                if not set(re.findall(r"\w+", ast.unparse(kinds))) & GUESSED:
                    continue
                if ((isinstance(what, ast.Attribute) and what.attr in VALUE_NAMES)
                        or (isinstance(what, ast.Name) and what.id in names)
                        or {"Outcome", "Difference"} & set(re.findall(r"\w+",
                                                                     ast.unparse(kinds)))):
                    found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    for path in sorted(root.rglob("*.js")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if (re.search(r"typeof\s+[\w.]*\b(value|difference|final_difference)\b", line)
                    or re.search(r"final_difference\s*[!=]==?\s*undefined", line)):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return sorted(set(found))


def test_no_layer_guesses_a_value_s_kind_from_its_type() -> None:
    assert guesses(PACKAGE) == []


def test_the_games_declare_their_values() -> None:
    assert load_game("ioiwari").scoring is Scoring.DIFFERENCE
    for name in ("nim", "chopsticks", "tictactoe", "octal", "connect4"):
        game = load_game(name)
        assert game.scoring is Scoring.OUTCOME, name
        value = solver_for(game).evaluate(game.start()).value
        assert isinstance(value, Outcome) and value.scoring is Scoring.OUTCOME, name
    ioiwari = load_game("ioiwari")
    value = solver_for(ioiwari).evaluate(ioiwari.start()).value
    assert isinstance(value, Difference) and value.scoring is Scoring.DIFFERENCE


def test_the_older_spelling_scored_declares_a_difference() -> None:
    """A plugin written when `scored = True` was the declaration keeps its meaning."""
    base = type(load_game("tictactoe"))

    class Banked(base):  # type: ignore[misc,valid-type]
        scored: ClassVar[bool] = True

    class Plain(base):  # type: ignore[misc,valid-type]
        scored: ClassVar[bool] = False

    assert Banked.scoring is Scoring.DIFFERENCE and Plain.scoring is Scoring.OUTCOME


def test_a_difference_of_zero_and_an_outcome_are_told_by_the_game() -> None:
    """A difference of 0 is a tie when level and a win when ahead; an outcome ignores the
    banks: the game's scoring says which, not the value's type."""
    ioiwari, tictactoe = load_game("ioiwari"), load_game("tictactoe")
    assert value_word(ioiwari, Difference(0), 0) == "tie"
    assert value_word(ioiwari, Difference(0), 2) == "win"
    assert value_word(ioiwari, Difference(-3), 2) == "lose"
    assert final_difference(ioiwari, Difference(0), 2) == 2
    assert final_difference(ioiwari, Difference(0), 0) == 0
    # a game of outcomes that also keeps a score: the lead changes nothing
    assert value_word(tictactoe, Outcome.DRAW, 5) == "tie"
    assert value_word(tictactoe, Outcome.LOSS, 5) == "lose"
    assert final_difference(tictactoe, Outcome.WIN, 5) is None


def test_values_negate_and_order_within_their_kind() -> None:
    assert Outcome.WIN.negated() is Outcome.LOSS and Outcome.DRAW.negated() is Outcome.DRAW
    assert Difference(3).negated() == -3 and isinstance(Difference(3).negated(), Difference)
    assert order(Outcome.LOSS) < order(Outcome.DRAW) < order(Outcome.WIN)
    assert order(Difference(-1)) < order(Difference(0)) < order(Difference(2))


def test_a_stored_review_reads_back_typed() -> None:
    """A record's review keeps its values as text (outcomes) and numbers (differences), and
    reads them back as the values they were, a difference of 0 included."""
    reviews = (MoveReview(1, 0, "3", Difference(0), Difference(-2), ["1"], lead=1),
               MoveReview(2, 1, "5", Outcome.WIN, Outcome.DRAW, ["4"]))
    data = PlayedGame("g", "s", ("a", "b"), review=reviews).to_json()
    assert [(r["before"], r["after"]) for r in data["review"]] == [(0, -2), ("win", "draw")]
    back = PlayedGame.from_json(data).review
    assert back == reviews
    assert isinstance(back[0].before, Difference) and back[1].after is Outcome.DRAW
    assert back[0].changed_result and back[0].lost_game  # ahead by 1, then behind by 1
    assert back[1].changed_result and not back[1].lost_game
    assert stored_value("loss") is Outcome.LOSS and stored_value(0) == Difference(0)


def test_the_game_suite_holds_the_values_to_the_declared_scoring() -> None:
    """A game that declares score differences while its solver gives outcomes fails the
    suite's values check, saying what it expected."""
    base = type(load_game("tictactoe"))

    class Claims(base):  # type: ignore[misc,valid-type]
        scoring: ClassVar[Scoring] = Scoring.DIFFERENCE

    found = [f for o in Suite(Claims()).run() if o.check is Check.VALUES for f in o.failures]
    assert found and found[0].expected.startswith("a Difference")
    assert found[0].got.endswith("(Outcome)")
    assert not [f for o in Suite(base()).run() if o.check is Check.VALUES for f in o.failures]


def test_a_game_of_outcomes_that_keeps_a_score_is_shown_by_its_outcomes() -> None:
    """The page's words and numbers for a game of outcomes whose positions carry a score
    (ints of another meaning): no final difference, and the score's lead changes nothing;
    the page is told the kind."""
    from judge.web.sessions import position_info

    base = type(load_game("tictactoe"))

    class Counted(base):  # type: ignore[misc,valid-type]
        def score(self, pos):  # type: ignore[no-untyped-def]
            return (7, 0)

    game, plain = Counted(), base()
    pos = game.parse_position("x.o/.x./..o")
    shown, expected = position_info(game, pos, True), position_info(plain, pos, True)
    assert shown["scoring"] == "outcome" and "final_difference" not in shown
    assert [m["value"] for m in shown["moves"]] == [m["value"] for m in expected["moves"]]
    assert shown["value"] == expected["value"] and shown["says"] == expected["says"]
    assert not any("final_difference" in m or "difference" in m for m in shown["moves"])
    ioiwari = load_game("ioiwari")
    assert position_info(ioiwari, ioiwari.start(), True)["scoring"] == "difference"


class PlainValues(Solver):
    """A plugin's solver as the docs had it before values said their kind: the judge's own
    answers with their values written plain ("win", or a whole number for a difference)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.inner = solver_for(game)

    def plain(self, value: Any) -> Any:
        return int(value) if self.game.scoring is Scoring.DIFFERENCE else str(value)

    def evaluate(self, pos: Any) -> Evaluation:
        ev = self.inner.evaluate(pos)
        return Evaluation(self.plain(ev.value), ev.remoteness, ev.best_moves)

    def move_value(self, pos: Any, move: Any) -> MoveValue:
        mv = self.inner.move_value(pos, move)
        return mv._replace(value=self.plain(mv.value))

    def move_values(self, pos: Any) -> list[MoveValue]:
        return [mv._replace(value=self.plain(mv.value)) for mv in self.inner.move_values(pos)]


def test_a_plugin_solver_s_plain_values_are_read_by_its_game_s_scoring() -> None:
    """Plain values of a solver written before they said their kind come out typed, as its
    game declares them, and perfect play, mistakes and the suite's check work on them."""
    tictactoe = load_game("tictactoe")
    solver, reference = PlainValues(tictactoe), solver_for(tictactoe)
    pos = tictactoe.parse_position("x.o/.x./..o")
    ev = solver.evaluate(pos)
    assert ev.value is reference.evaluate(pos).value and isinstance(ev.value, Outcome)
    assert all(isinstance(mv.value, Outcome) for mv in solver.move_values(pos))
    assert solver.choose(pos) == reference.choose(pos)
    assert [solver.is_mistake(pos, m) for m in tictactoe.legal_moves(pos)] == [
        reference.is_mistake(pos, m) for m in tictactoe.legal_moves(pos)]
    ioiwari = load_game("ioiwari")
    banks = PlainValues(ioiwari)
    start = ioiwari.start()
    assert isinstance(banks.evaluate(start).value, Difference)
    assert banks.evaluate(start).value == solver_for(ioiwari).evaluate(start).value
    assert all(isinstance(mv.value, Difference) for mv in banks.move_values(start))
    assert banks.choose(start) == solver_for(ioiwari).choose(start)
    assert value_word(ioiwari, banks.move_value(start, 1).value, 0) == "tie"  # sows to 0
