"""Facts of the games that come as packages (tic-tac-toe, octal games, Connect Four), solved
by the generic solver or by their Sprague-Grundy values."""

from __future__ import annotations

import pytest

from judge.games import load_game
from judge.games.base import MoveError, PositionError, RulesError
from judge.games.connect4 import ConnectFour
from judge.games.octal import Row, grundy_values, parse_code
from judge.solvers import solver_for
from judge.solvers.generic import VALUES, GenericSolver
from judge.testsets import default_tests

# OEIS A002186, the Grundy values of Kayles (octal game 0.77), from a heap of 0
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8,
          5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2,
          1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7]
# OEIS A002187, the Grundy values of Dawson's chess (octal game 0.137), from a heap of 0: those
# of Dawson's Kayles (0.07) with one counter more
DAWSON = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
          0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2]


# --- tic-tac-toe ----------------------------------------------------------------------------

def test_tictactoe_is_a_draw_with_5478_reachable_positions() -> None:
    game = load_game("tictactoe")
    solver = solver_for(game)
    assert solver.evaluate(game.start()).value == "draw"
    assert solver.stats([game.start()])["positions"] == 5478


def test_tictactoe_knows_a_won_position_and_refuses_impossible_grids() -> None:
    game = load_game("tictactoe")
    ev = solver_for(game).evaluate(game.parse_position("xx./oo./..."))  # X to move
    assert (ev.value, ev.remoteness, ev.best_moves) == ("win", 1, [3])
    for bad in ("xxx/ooo/...", "ooo/x../x..", "xx./.../...", "x/o"):
        with pytest.raises(PositionError):
            game.parse_position(bad)
    with pytest.raises(MoveError, match="taken"):
        game.parse_move("1", game.parse_position("x../.../..."))


def test_tictactoe_default_tests_hold_the_draw_or_win() -> None:
    game = load_game("tictactoe")
    first = default_tests(game, True)
    assert game.start() in first and len(first) > 1


# --- octal games ----------------------------------------------------------------------------

def test_kayles_first_values_are_those_of_oeis() -> None:
    assert grundy_values(parse_code("0.77"), len(KAYLES) - 1) == KAYLES


def test_dawsons_chess_and_kayles_first_values_are_those_of_oeis() -> None:
    assert grundy_values(parse_code("0.137"), len(DAWSON) - 1) == DAWSON
    assert grundy_values(parse_code("0.07"), len(DAWSON))[1:] == DAWSON


def test_kayles_has_period_12_after_its_last_exception_at_70() -> None:
    g = grundy_values(parse_code("0.77"), 1200)
    assert g[70] != g[82]
    assert all(g[n] == g[n + 12] for n in range(71, 1200 - 12))


def test_dawsons_chess_has_period_34_after_its_last_exception_at_51() -> None:
    g = grundy_values(parse_code("0.137"), 1200)
    assert g[51] != g[85]
    assert all(g[n] == g[n + 34] for n in range(52, 1200 - 34))


def test_the_grundy_closed_form_agrees_with_the_search() -> None:
    for code in ("0.77", "0.137", "0.07", "0.333"):
        game = load_game("octal", f"code={code}")
        closed, searched = solver_for(game), GenericSolver(game)
        searched._grundy = None  # the same rules, by retrograde analysis
        for text in ("1", "5", "9", "3 4", "2 2 5", "12"):
            pos = game.parse_position(text)
            assert closed.evaluate(pos).value == searched.evaluate(pos).value, (code, text)


def test_octal_codes_and_moves_are_checked() -> None:
    for bad in ("0.8", "1.7", "077", "0.", "0.00"):
        with pytest.raises(RulesError):
            load_game("octal", f"code={bad}")
    dawson = load_game("octal", "code=0.137")
    pos = dawson.parse_position("6")
    assert dawson.parse_move("1 3 1", pos) == (1, 3, 1)
    with pytest.raises(MoveError, match="does not let"):
        dawson.parse_move("1 2 1", pos)  # 0.137: two counters only from an end
    with pytest.raises(MoveError, match="does not let"):
        dawson.parse_move("1 1 0", pos)  # and one only as a whole heap
    kayles = load_game("octal")
    row = kayles.parse_position("8 3")
    after = kayles.play(row, kayles.parse_move("1 2 5", row))
    assert kayles.format_position(after) == "5 1 3"


def test_octal_moves_are_named_in_plain_words_each_its_own() -> None:
    kayles = load_game("octal")
    row = kayles.parse_position("8 2")
    said = {text: kayles.move_label(kayles.parse_move(text, row), row)
            for text in ("1 2 5", "1 2 0", "1 2 6", "2 2 0", "1 1 3")}
    assert said == {"1 2 5": "take 2 from heap 1, leaving 5 and 1",
                    "1 2 0": "take 2 from the left end of heap 1",
                    "1 2 6": "take 2 from the right end of heap 1",
                    "2 2 0": "take all 2 of heap 2",
                    "1 1 3": "take 1 from heap 1, leaving 3 and 4"}
    labels = [kayles.move_label(m, row) for m in kayles.legal_moves(row)]
    assert len(set(labels)) == len(labels)


# --- Connect Four ---------------------------------------------------------------------------

def test_connect_four_on_4x4_is_a_draw() -> None:
    game = load_game("connect4")
    assert solver_for(game).evaluate(game.start()).value == "draw"


def test_connect_three_on_3x4_is_a_first_player_win() -> None:
    game = load_game("connect4", "rows=3 cols=4 connect=3")
    ev = solver_for(game).evaluate(game.start())
    assert ev.value == "win" and ev.best_moves == [2, 3]


def test_connect_four_on_5x4_and_4x5_is_a_draw_as_in_tromps_table() -> None:
    # J. Tromp's results by width (columns) and height (rows): 4 wide 5 high and 5 wide 4
    # high are both draws; 5 rows of 4 reach 1,706,255 positions
    tall = load_game("connect4", "rows=5 cols=4")
    assert solver_for(tall).evaluate(tall.start()).value == "draw"
    assert solver_for(tall).stats([tall.start()]) == {
        "positions": 1_706_255, "win": 509_601, "loss": 484_233, "draw": 712_421}
    wide = load_game("connect4", "rows=4 cols=5")
    assert solver_for(wide).evaluate(wide.start()).value == "draw"


class WithoutCodes(ConnectFour):
    """Connect Four solved through its rules alone, one position at a time."""

    def position_codes(self) -> None:
        return None


@pytest.mark.slow
def test_connect_fours_numbers_and_array_moves_give_the_values_of_its_rules() -> None:
    # boards the start does not reach too: both players with a line (the first line in
    # the rules' order decides), the player to move with one, a full board
    odd = ["ooo./xxx./oxox", "xxx./ooo./xoxo", "x.../xo../xoo.", "xoxo/oxox/xoxo"]
    for rules in ("rows=3 cols=4 connect=3", "rows=4 cols=3", "rows=2 cols=5 connect=2"):
        game, plain = ConnectFour(rules), WithoutCodes(rules)
        fast, slow = GenericSolver(game), GenericSolver(plain)
        assert fast.codes is not None and slow.codes is None
        positions, frontier = {game.start()}, [game.start()]
        while frontier:
            frontier = [game.play(p, m) for p in frontier for m in game.legal_moves(p)]
            positions.update(frontier)
        if rules.startswith("rows=3 cols=4"):
            positions.update(game.parse_position(text) for text in odd)
        for pos in positions:
            assert fast.lookup(pos) == slow.lookup(pos), (rules, game.format_position(pos))
        assert fast.stats([game.start()]) == slow.stats([game.start()])
        later = game.play(game.start(), 2)  # counted by a search of its own
        reached, frontier = {later}, [later]
        while frontier:
            frontier = [game.play(p, m) for p in frontier for m in game.legal_moves(p)]
            reached.update(frontier)
        values = [fast.evaluate(p).value for p in reached]
        counted = {"positions": len(reached), **{v: values.count(v) for v in VALUES.values()}}
        assert fast.stats([later]) == slow.stats([later]) == counted


def test_connect_four_boards_and_moves_are_checked() -> None:
    game = load_game("connect4")
    with pytest.raises(PositionError, match="above an empty"):
        game.parse_position("..../.x../..../....")
    with pytest.raises(RulesError):
        load_game("connect4", "rows=3 cols=3 connect=4")
    full = game.parse_position("x.../o.../x.../o...")
    with pytest.raises(MoveError, match="full"):
        game.parse_move("1", full)
    assert game.play(game.start(), 2).cells[-3] == "x"


# --- drawn where the report and the browser have no board of their own ----------------------

def test_a_game_without_a_drawing_is_shown_as_its_own_text_in_every_step() -> None:
    from judge.html.boards import board_meta, drawable, replay

    game = load_game("octal")
    start = game.start()  # one heap of 10: Kayles
    states, touched, broken = replay(game, start, ["1 2 3", "2 1 0", "1 1 1"])
    assert broken is None and len(states) == 4 and touched == [[], [], [], []]
    assert states[0] == drawable(game, start) == {"text": game.render(start), "over": 0}
    assert states[3]["text"] == game.render(Row((1, 1, 4), to_move=1))
    assert board_meta(game) == {"game": "octal", "text": True}
