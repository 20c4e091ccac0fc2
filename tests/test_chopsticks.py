"""Chopsticks rules, notation and wire codec: facts from GAMES.md and the protocol."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.games import load_game
from judge.games.base import MoveError, PositionError, RulesError
from judge.games.chopsticks import LEFT, RIGHT, Chopsticks, Position, split, tap

DEFAULT_LINE = "hands=3/3 fingers=5 knockout=cutoff misere=off attack=tapped split=off swap=off"

# GAMES.md: the original card's example game, "L2>R1" = Left's hand 2 taps Right's hand 1
CARD_GAME = "L1>R1 R1>L2 L2>R1 R1>L1 L3>R1 R3>L2 L3>R2 R2>L2 L3>R2 R2>L3 L3>R3 R3>L3".split()


def play_lines(game: Chopsticks, pos: Position, lines: list[str]) -> Position:
    """The position after the wire moves `lines`, each parsed at its own position."""
    for line in lines:
        pos = game.play(pos, game.parse_move(line, pos))
    return pos


def test_default_rules_line_lists_every_key():
    assert Chopsticks().rules_string() == DEFAULT_LINE
    assert load_game("chopsticks").describe() == f"chopsticks {DEFAULT_LINE}"


def test_rules_are_written_back_in_canonical_form():
    game = Chopsticks("hands=2 knockout=wrap-around fingers=07 SPLIT=Revive")
    assert game.rules_string() == (
        "hands=2/2 fingers=7 knockout=rollover misere=off attack=tapped split=revive swap=off"
    )
    assert Chopsticks("hands=4/2").hands == (4, 2)


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ("fingers=0", "at least 1"),
        ("fingers=five", "whole number"),
        ("hands=0", "at least 1"),
        ("hands=1/2/3", "l/r"),
        ("hands=3/x", "whole number"),
        ("hands=17", "at most 16"),
        ("knockout=sideways", "knockout is one of"),
        ("knockout=rollover fingers=1", "no hand could ever be alive"),
        ("hands=1 split=revive", "at least one side needs two hands"),
        ("hands=1/1 swap=on", "at least one side needs two hands"),
        ("fingers=1 swap=on", "at most 1 finger here"),
        ("fingers=2 split=on", "merely exchange values"),
        ("fingers=3 knockout=rollover split=on", "merely exchange values"),
        ("fingers=2 knockout=rollover split=revive", "at most 1 finger here"),
        ("misere=yes", "misere is one of"),
        ("attack=both", "attack is one of"),
        ("split=sometimes", "split is one of"),
        ("swap=1", "swap is one of"),
        ("colour=red", "unknown rule"),
        ("fingers=5 fingers=6", "given twice"),
    ],
)
def test_bad_or_senseless_rules_are_refused_with_the_reason(rules, reason):
    with pytest.raises(RulesError, match=reason):
        Chopsticks(rules)


def test_example_game_from_the_game_card():
    game = Chopsticks()
    pos = game.start()
    assert game.format_position(pos) == "(L 1 1 1 1 1 1)"
    for number, label in enumerate(CARD_GAME, 1):
        mover, target = label.split(">")
        assert mover[0] == "LR"[game.mover(pos)]
        line = f"{mover[1]} {target[1]}"  # the wire form, from the mover's side
        move = game.parse_move(line, pos)
        assert game.move_label(move, pos) == f"hand {mover[1]} taps hand {target[1]} ({label})"
        assert game.format_move(move, pos) == line
        pos = game.play(pos, move)
        if number == 3:  # L2>R1: Right's hand 1 holds exactly 5 and stays in play
            assert pos.right[0] == 5
        if number == 4:  # R1>L1: 1 + 5 = 6 puts Left's hand 1 out
            assert pos.left[0] == 0
        if number == 6:  # the card's notation example is a position of this game
            assert game.format_position(pos) == "(L 0 4 1 0 1 1)"
        assert game.is_over(pos) == (number == len(CARD_GAME))
    assert pos.left == (0, 0, 0)
    assert game.winner(pos) == RIGHT


def test_game_card_notation_reads_with_or_without_parentheses():
    game = Chopsticks()
    pos = Position(LEFT, (0, 4, 1), (0, 1, 1))
    assert game.parse_position("(L 0 4 1 0 1 1)") == pos
    assert game.parse_position("L 0 4 1 0 1 1") == pos
    assert game.parse_position(" (r 0,4,1,0,1,1) ") == Position(RIGHT, (0, 4, 1), (0, 1, 1))
    assert game.format_position(pos) == "(L 0 4 1 0 1 1)"


def test_research_notation_carries_its_own_hand_counts_and_left_moves_unless_prefixed():
    game = Chopsticks()
    pos = game.parse_position("(1 4 | 1 1)")
    assert pos == Position(LEFT, (1, 4), (1, 1))
    assert game.parse_position("(1, 4 | 1, 1)_5") == pos
    assert game.parse_position("1 4 | 1 1") == pos
    assert game.parse_position("R (1 4 | 1 1)") == Position(RIGHT, (1, 4), (1, 1))
    assert game.parse_position("R(2|1 1 1)").shape == (1, 3)
    assert game.format_position(pos) == "(1 4 | 1 1)"
    assert game.format_position(Position(RIGHT, (0, 3), (1,))) == "R (0 3 | 1)"
    for text in ("(1 4 | 1 1)", "R (0 3 | 1)", "(L 0 4 1 0 1 1)"):
        assert game.format_position(game.parse_position(text)) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("(L 1 1 1 1 1)", "6 hands"),
        ("(X 1 1 1 1 1 1)", "L or R"),
        ("(L 6 1 1 1 1 1)", "at most 5"),
        ("(L 1 1 1 1 1 1", "unbalanced"),
        ("(L 0 0 0 0 0 0)", "both players"),
        ("(1 | 1)_6", "6 fingers but the rules say fingers=5"),
        ("(1 | 1)_x", "whole number"),
        ("(1 | 1 | 1)", "exactly one '|'"),
        ("( | 1)", "Left needs 1 to 16 hands"),
        ("(1 | 1) extra", "research form"),
        ("(1 | -1)", "at least 0"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text, reason):
    with pytest.raises(PositionError, match=reason):
        Chopsticks().parse_position(text)


def test_cutoff_keeps_a_hand_at_exactly_n_and_puts_it_out_past_n():
    game = Chopsticks("hands=1 fingers=5")
    assert game.play(game.parse_position("(3 | 2)"), tap(1, 1)).right == (5,)
    assert game.play(game.parse_position("(3 | 3)"), tap(1, 1)).right == (0,)


def test_rollover_hands_count_modulo_n_and_go_out_at_a_multiple():
    game = Chopsticks("hands=1 fingers=5 knockout=rollover")
    assert game.play(game.parse_position("(1 | 4)"), tap(1, 1)).right == (0,)  # 4+1 is out
    assert game.play(game.parse_position("(2 | 4)"), tap(1, 1)).right == (1,)  # 4+2 leaves 1
    with pytest.raises(PositionError, match="at most 4"):
        game.parse_position("(5 | 1)")


def test_tapping_attack_grows_the_tapping_hand_instead():
    game = Chopsticks("hands=2 attack=tapping")
    after = game.play(game.parse_position("(1 2 | 3 1)"), tap(2, 1))
    assert after == Position(RIGHT, (1, 5), (3, 1))
    assert game.play(game.parse_position("(1 2 | 4 1)"), tap(2, 1)).left == (1, 0)


def test_tapping_into_your_own_last_hand_loses_normal_play_and_wins_misere():
    normal = Chopsticks("hands=1 attack=tapping")
    pos = normal.play(normal.parse_position("(4 | 2)"), tap(1, 1))
    assert pos.left == (0,) and normal.winner(pos) == RIGHT
    misere = Chopsticks("hands=1 attack=tapping misere=on")
    assert misere.winner(pos) == LEFT


def test_misere_player_with_no_hands_left_wins():
    game = Chopsticks("misere=on")
    pos = game.parse_position("(R 0 0 0 1 2 3)")
    assert game.is_over(pos) and game.winner(pos) == LEFT
    assert Chopsticks().winner(pos) == RIGHT
    assert game.legal_moves(pos) == []


def test_splits_keep_the_total_and_every_live_hand_live():
    game = Chopsticks("hands=2 split=on")
    assert game.split_results((3, 1)) == [(2, 2)]  # (1, 3) is a mere exchange, (0, 4) empties
    assert game.split_results((3, 0)) == []  # the out hand needs split=revive
    assert Chopsticks("hands=2 split=revive").split_results((3, 0)) == [(1, 2), (2, 1)]
    assert Chopsticks("hands=2 split=on swap=on").split_results((3, 1)) == [(1, 3), (2, 2)]
    assert Chopsticks("hands=2 swap=on").split_results((3, 0)) == []  # only live hands swap
    assert Chopsticks("hands=2 fingers=4 split=on").split_results((4, 3)) == []  # no room


def test_swap_needs_two_different_live_values():
    game = Chopsticks("swap=on")
    assert game.split_results((2, 2, 2)) == []
    assert game.split_results((1, 2, 0)) == [(2, 1, 0)]


def test_wire_start_sends_the_rules_line_and_the_game_card():
    game = Chopsticks()
    assert game.wire_start(game.start()) == [DEFAULT_LINE, "(L 1 1 1 1 1 1)"]
    other = game.parse_position("R (2 | 1 3)")
    line = DEFAULT_LINE.replace("hands=3/3", "hands=1/2")
    assert game.wire_start(other) == [line, "(R 2 1 3)"]
    assert Chopsticks(line).parse_position("(R 2 1 3)") == other


def test_standard_starts_add_right_moving_first_only_when_the_sides_differ():
    assert Chopsticks().standard_starts() == [Position(LEFT, (1, 1, 1), (1, 1, 1))]
    assert Chopsticks("hands=2/3").standard_starts() == [
        Position(LEFT, (1, 1), (1, 1, 1)),
        Position(RIGHT, (1, 1), (1, 1, 1)),
    ]


def test_render_draws_raised_fingers_and_who_is_to_move():
    game = Chopsticks()
    assert game.render(game.parse_position("(R 0 4 1 0 1 5)")) == (
        "Left  1:.....  2:||||.  3:|....\nRight 1:.....  2:|....  3:|||||   <- to move"
    )
    assert "wins" in game.render(game.parse_position("(L 0 0 0 0 1 1)"))
    assert "7/40" in Chopsticks("hands=1 fingers=40").render(Position(LEFT, (7,), (1,)))


def test_move_labels_name_taps_splits_revives_and_swaps():
    game = Chopsticks("split=revive swap=on")
    pos = game.parse_position("(R 1 1 1 3 1 0)")
    assert game.move_label(tap(1, 2), pos) == "hand 1 taps hand 2 (R1>L2)"
    assert game.move_label(split((2, 2, 0)), pos) == "split to 2 and 2 and 0 (R split 2 2 0)"
    assert game.move_label(split((2, 1, 1)), pos) == "revive to 2 and 1 and 1 (R revive 2 1 1)"
    assert game.move_label(split((1, 3, 0)), pos) == "swap to 1 and 3 and 0 (R swap 1 3 0)"
    two = Chopsticks("hands=2")
    assert two.move_label(tap(1, 2), two.start()) == "left hand taps right hand (L1>R2)"


SYNTAX_CASES = [
    ("1  1", "exactly one space"),
    (" 1 1", "leading or trailing"),
    ("1 1 ", "leading or trailing"),
    ("1", "a move is"),
    ("1 1 1", "a move is"),
    ("a b", "not a whole number"),
    ("+1 1", "not a whole number"),
    ("01 1", "leading zeros"),
    ("1 1\r", "carriage return"),
    ("split", "followed by"),
    ("split 1 x 1", "not a whole number"),
    ("split 2 1", "one value per hand (3), not 2"),
    ("SPLIT 1 2 2", "a move is"),
    ("1 １", "non-ASCII"),
]


@pytest.mark.parametrize(("line", "reason"), SYNTAX_CASES)
def test_lines_outside_the_move_syntax_are_garbage(line, reason):
    game = Chopsticks("split=on")
    with pytest.raises(MoveError, match=re.escape(reason)) as caught:
        game.parse_move(line, game.start())
    assert caught.value.code == "garbage"


RULE_CASES = [
    ("", "(L 1 1 1 1 1 1)", "4 1", "you have no hand 4: hands are 1 to 3"),
    ("", "(L 1 1 1 1 1 1)", "0 1", "you have no hand 0"),
    ("", "(L 1 1 1 1 1 1)", "1 9", "your opponent has no hand 9"),
    ("", "(L 0 1 1 1 1 1)", "1 1", "your hand 1 is knocked out"),
    ("", "(R 1 0 1 1 1 1)", "1 2", "your opponent's hand 2 is knocked out"),
    ("", "(L 0 0 0 1 1 1)", "1 1", "the game is over"),
    ("", "(L 3 1 1 1 1 1)", "split 2 2 1", "neither splits nor swaps"),
    ("split=on", "(L 3 1 1 1 1 1)", "split 6 0 0", "at most 5 fingers"),
    ("split=on", "(L 3 1 1 1 1 1)", "split 3 1 2", "keeps the total: you have 5 fingers, not 6"),
    ("split=on", "(L 3 1 1 1 1 1)", "split 3 1 1", "leaves every hand as it is"),
    ("split=on", "(L 3 1 1 1 1 1)", "split 1 3 1", "is a swap, and swap=off"),
    ("split=on", "(L 3 1 1 1 1 1)", "split 1 2 2", "one hand to one other, this changes 3"),
    ("split=on", "(L 2 1 1 1 1 1)", "split 0 3 1", "may not empty hand 1"),
    ("split=on", "(L 3 0 1 1 1 1)", "split 2 1 1", "hand 2 is knocked out, and only split=revive"),
    ("swap=on", "(L 3 0 1 1 1 1)", "split 0 3 1", "only two live hands can be swapped"),
    (
        "swap=on",
        "(L 3 1 1 1 1 1)",
        "split 2 2 1",
        "split=off: the only moves of this kind are swaps",
    ),
    ("split=on knockout=rollover", "(L 3 1 1 1 1 1)", "split 0 5 0", "at most 4 fingers"),
]


@pytest.mark.parametrize(("rules", "text", "line", "reason"), RULE_CASES)
def test_well_formed_moves_the_rules_forbid_are_illegal_with_the_reason(rules, text, line, reason):
    game = Chopsticks(rules)
    with pytest.raises(MoveError, match=re.escape(reason)) as caught:
        game.parse_move(line, game.parse_position(text))
    assert caught.value.code == "illegal-move"
    assert line in str(caught.value)


@pytest.mark.parametrize(
    ("rules", "text", "line", "hands"),
    [
        ("split=on", "(L 3 1 1 1 1 1)", "split 2 2 1", (2, 2, 1)),
        ("split=on", "(L 3 1 1 1 1 1)", "split 2 1 2", (2, 1, 2)),
        ("split=revive", "(L 3 0 1 1 1 1)", "split 2 1 1", (2, 1, 1)),
        ("swap=on", "(R 1 1 1 3 0 1)", "split 1 0 3", (1, 0, 3)),
    ],
)
def test_legal_splits_revives_and_swaps_are_read(rules, text, line, hands):
    game = Chopsticks(rules)
    pos = game.parse_position(text)
    move = game.parse_move(line, pos)
    assert move == split(hands)
    assert game.sides(game.play(pos, move))[1] == hands  # the mover's hands, seen next turn


def sensible(rules: str) -> bool:
    """Whether the rules are accepted (split and swap options some position could use)."""
    try:
        Chopsticks(rules)
    except RulesError:
        return False
    return True


VARIANTS = st.builds(
    lambda k, n, ko, mi, at, sp, sw: (
        f"hands={k[0]}/{k[1]} fingers={n} knockout={ko} misere={mi} attack={at} "
        f"split={sp} swap={sw}"
    ),
    st.tuples(st.integers(1, 4), st.integers(1, 4)),
    st.integers(2, 7),
    st.sampled_from(["cutoff", "rollover"]),
    st.sampled_from(["off", "on"]),
    st.sampled_from(["tapped", "tapping"]),
    st.sampled_from(["off", "on", "revive"]),
    st.sampled_from(["off", "on"]),
).filter(sensible).map(Chopsticks)


@st.composite
def game_and_position(draw: st.DrawFn) -> tuple[Chopsticks, Position]:
    """A variant and any position of its hand counts (finished ones included)."""
    game = draw(VARIANTS)
    hand = st.integers(0, game.top)
    left = tuple(draw(st.lists(hand, min_size=game.hands[0], max_size=game.hands[0])))
    right = tuple(draw(st.lists(hand, min_size=game.hands[1], max_size=game.hands[1])))
    if not any(left) and not any(right):
        left = (1,) + left[1:]
    return game, Position(draw(st.sampled_from([LEFT, RIGHT])), left, right)


@settings(max_examples=150, deadline=None)
@given(game_and_position(), st.data())
def test_the_wire_accepts_exactly_the_legal_moves(case, data):
    game, pos = case
    legal = game.legal_moves(pos)
    for move in legal:
        assert game.parse_move(game.format_move(move, pos), pos) == move
    mine, theirs = game.sides(pos)
    h = data.draw(st.integers(0, len(mine) + 1))
    t = data.draw(st.integers(0, len(theirs) + 1))
    values = data.draw(st.lists(st.integers(0, game.top + 1), min_size=len(mine)))
    values = values[: len(mine)]
    tries = [(f"{h} {t}", tap(h, t)), ("split " + " ".join(map(str, values)), split(values))]
    for line, move in tries:
        try:
            assert game.parse_move(line, pos) == move
            assert move in legal
        except MoveError as exc:
            assert exc.code == "illegal-move"
            assert move not in legal


@settings(max_examples=100, deadline=None)
@given(game_and_position())
def test_every_move_changes_the_position_and_passes_the_turn(case):
    game, pos = case
    for move in game.legal_moves(pos):
        after = game.play(pos, move)
        assert after != pos and after.to_move != pos.to_move
        mine, _ = game.sides(pos)
        if move[0] == "split":
            assert sum(move[1]) == sum(mine)
            assert sorted(move[1]) != sorted(mine) or game.swap
    assert game.format_position(game.parse_position(game.format_position(pos))) == (
        game.format_position(pos)
    )


@pytest.mark.parametrize("hands", ["1/1", "1/2", "2/2"])
@pytest.mark.parametrize(
    ("fingers", "knockout"),
    # rollover with one finger is refused for another reason, checked above
    [(f, k) for f in (1, 2, 3, 4) for k in ("cutoff", "rollover") if (f, k) != (1, "rollover")],
)
@pytest.mark.parametrize("option", ["split=on", "split=revive", "swap=on"])
def test_split_and_swap_are_refused_exactly_when_no_hands_could_use_them(
    monkeypatch, hands, fingers, knockout, option
):
    rules = f"hands={hands} fingers={fingers} knockout={knockout} {option}"
    monkeypatch.setattr(Chopsticks, "_refuse_idle_options", lambda self: None)
    unchecked = Chopsticks(rules)
    usable = any(
        unchecked.split_results(mine)
        for k in unchecked.hands
        for mine in itertools.product(range(unchecked.top + 1), repeat=k)
    )
    monkeypatch.undo()
    assert sensible(rules) == usable
