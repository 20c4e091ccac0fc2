"""The vectorised Chopsticks solver: public facts, and agreement with a plain reference solver."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_chopsticks import sensible

from judge.games.base import RulesError
from judge.games.chopsticks import LEFT, RIGHT, Chopsticks, Position, mirrored
from judge.games.chopsticks import solver as vectorised
from judge.games.chopsticks.solver import ChopsticksSolver
from judge.solvers import cache, solver_for

Result = tuple[str, int | None]  # value for the mover and remoteness (None for a draw)


def every_position(game: Chopsticks, shape: tuple[int, int], ordered: bool = True):
    """Every position of `shape` with both movers: all hand orders, or sorted hands only."""
    values = range(game.top + 1)

    def hands(k: int) -> Iterable[tuple[int, ...]]:
        return product(values, repeat=k) if ordered else combinations_with_replacement(values, k)

    for left in hands(shape[0]):
        for right in hands(shape[1]):
            if any(left) or any(right):
                yield from (Position(LEFT, left, right), Position(RIGHT, left, right))


def reference_solve(
    game: Chopsticks, positions: Iterable[Position], key: Callable[[Position], Hashable]
) -> dict[Hashable, Result]:
    """Retrograde analysis on a dict, one round per remoteness.

    Round r decides, from what earlier rounds decided: a position with a lost child is won
    in r moves, a position whose children are all won is lost in r moves. What no round
    decides is a draw. `key` names a position (and so merges positions it makes equal).
    """
    children = {key(p): [key(game.play(p, m)) for m in game.legal_moves(p)] for p in positions}
    solved: dict[Hashable, Result] = {}
    for p in positions:
        if game.is_over(p):
            solved[key(p)] = ("win" if game.winner(p) == p.to_move else "loss", 0)
    rounds = 0
    while True:
        rounds += 1
        decided = {}
        for name, kids in children.items():
            if name in solved:
                continue
            known = [solved[k][0] for k in kids if k in solved]
            if "loss" in known:
                decided[name] = ("win", rounds)
            elif len(known) == len(kids) and all(v == "win" for v in known):
                decided[name] = ("loss", rounds)
        if not decided:
            return {name: solved.get(name, ("draw", None)) for name in children}
        solved.update(decided)


def canonical(game: Chopsticks, pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The mover's and the opponent's hands, each sorted."""
    mine, theirs = game.sides(pos)
    return tuple(sorted(mine)), tuple(sorted(theirs))


def reference_best_moves(game: Chopsticks, pos: Position, table: dict) -> set:
    """The moves that keep the value and make progress, by the reference table."""
    value, rem = table[pos]
    want = {"win": "loss", "loss": "win", "draw": "draw"}[value]
    best = set()
    for move in game.legal_moves(pos):
        child_value, child_rem = table[game.play(pos, move)]
        if child_value == want and (value == "draw" or child_rem == rem - 1):
            best.add(move)
    return best


def check_against_reference(game: Chopsticks, moves: bool) -> None:
    """Every position of the rules' hand counts: value, remoteness (and best moves) agree."""
    solver = ChopsticksSolver(game)
    positions = list(every_position(game, game.hands))
    table = reference_solve(game, positions, key=lambda p: p)
    for pos in positions:
        got = solver.evaluate(pos)
        assert (got.value, got.remoteness) == table[pos], game.format_position(pos)
        if moves:
            assert set(got.best_moves) == reference_best_moves(game, pos, table)


OPTIONS = list(
    product(["cutoff", "rollover"], ["off", "on"], ["tapped", "tapping"], ["off", "on", "revive"])
)


def rules_line(shape: tuple[int, int], fingers: int, options: tuple[str, ...], swap: str) -> str:
    knockout, misere, attack, split = options
    return (
        f"hands={shape[0]}/{shape[1]} fingers={fingers} knockout={knockout} misere={misere} "
        f"attack={attack} split={split} swap={swap}"
    )


VARIANT_LINES = [
    line
    for shape, fingers in [((2, 2), 3), ((2, 2), 4), ((1, 2), 4), ((3, 1), 2)]
    for options in OPTIONS
    for swap in ["off", "on"]
    if sensible(line := rules_line(shape, fingers, options, swap))
]


def test_every_split_and_swap_option_is_among_the_checked_variants():
    assert len(VARIANT_LINES) > 100
    for option in ["split=on", "split=revive", "swap=on"]:
        assert any(option in line and "rollover" in line for line in VARIANT_LINES)
        assert any(option in line and "cutoff" in line for line in VARIANT_LINES)


@pytest.mark.parametrize("rules", VARIANT_LINES)
def test_vectorised_solver_agrees_with_the_reference_solver(rules):
    check_against_reference(Chopsticks(rules), moves=True)


@settings(max_examples=25, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    fingers=st.integers(2, 6),
    options=st.sampled_from(OPTIONS),
    swap=st.sampled_from(["off", "on"]),
)
def test_vectorised_solver_agrees_with_the_reference_on_random_variants(
    shape, fingers, options, swap
):
    rules = rules_line(shape, fingers, options, swap)
    assume(sensible(rules))
    game = Chopsticks(rules)
    assume((game.top + 1) ** sum(shape) <= 1500)
    check_against_reference(game, moves=False)


@pytest.mark.parametrize(
    "rules", ["", "misere=on attack=tapping", "hands=2/4 fingers=4 knockout=rollover split=on"]
)
def test_vectorised_solver_agrees_with_a_reference_on_sorted_hands(rules):
    game = Chopsticks(rules)
    positions = list(every_position(game, game.hands, ordered=False))
    table = reference_solve(game, positions, key=lambda p: canonical(game, p))
    solver = ChopsticksSolver(game)
    for pos in positions:
        got = solver.evaluate(pos)
        assert (got.value, got.remoteness) == table[canonical(game, pos)]


def fibonacci_first_player_wins(n: int) -> bool:
    """GAMES.md: (1 | 1)_n is a first-player win exactly when f(2i) <= n < f(2i+1)."""
    fib = [0, 1, 1]
    while fib[-1] <= n:
        fib.append(fib[-1] + fib[-2])
    return any(fib[2 * i] <= n < fib[2 * i + 1] for i in range(1, len(fib) // 2))


def test_fibonacci_theorem_one_hand_each_with_cutoff():
    for n in range(1, 321):
        game = Chopsticks(f"hands=1 fingers={n}")
        solver = ChopsticksSolver(game)
        start = game.parse_position(f"(1 | 1)_{n}")
        expected = fibonacci_first_player_wins(n)
        assert solver.evaluate(start).value == ("win" if expected else "loss"), n
        assert solver.outcome(start) == ("N" if expected else "P"), n


def test_tapping_with_one_hand_each_reverses_the_fibonacci_outcome():
    # each move is forced: the tapping hand takes the next Fibonacci number and goes out past n
    for n in range(1, 90):
        game = Chopsticks(f"hands=1 fingers={n} attack=tapping")
        value = ChopsticksSolver(game).evaluate(game.start()).value
        assert value == ("loss" if fibonacci_first_player_wins(n) else "win"), n


@pytest.mark.parametrize(("left", "right"), list(product(range(1, 5), repeat=2)))
def test_outcome_classes_when_every_tap_knocks_out_a_hand(left, right):
    # with one finger per hand each move removes one opposing hand: Left needs `right` moves
    # and Right needs `left`, so more hands win, and with equal hands the first mover wins
    normal = ChopsticksSolver(Chopsticks(f"hands={left}/{right} fingers=1"))
    start = normal.game.start()
    assert normal.outcome(start) == ("L" if left > right else "R" if left < right else "N")
    # misere: whoever runs out of hands first wins, so more hands lose
    misere = ChopsticksSolver(Chopsticks(f"hands={left}/{right} fingers=1 misere=on"))
    assert misere.outcome(start) == ("R" if left > right else "L" if left < right else "P")


def test_rollover_with_splits_is_a_draw_between_perfect_players():
    # Wikipedia, Chopsticks (hand game), "Optimal strategy": under rollover with splits and
    # revivals two perfect players play on forever
    game = Chopsticks("hands=2 fingers=5 knockout=rollover split=revive")
    solver = ChopsticksSolver(game)
    assert solver.evaluate(game.start()) == solver.evaluate(mirrored(game.start()))
    assert solver.evaluate(game.start()).value == "draw"
    assert solver.evaluate(game.start()).remoteness is None
    assert solver.outcome(game.start()) == "D"


def test_outcome_combines_both_movers_including_draws():
    game = Chopsticks("hands=2 fingers=2 split=revive")
    table = reference_solve(game, list(every_position(game, (2, 2))), key=lambda p: p)
    solver = ChopsticksSolver(game)
    classes = {("L", "R"): "N", ("R", "L"): "P", ("L", "L"): "L", ("R", "R"): "R"}
    seen = set()
    for pos in every_position(game, (2, 2)):
        if pos.to_move == RIGHT:
            continue
        left_first = {"win": "L", "loss": "R", "draw": "D"}[table[pos][0]]
        right_first = {"win": "R", "loss": "L", "draw": "D"}[table[mirrored(pos)][0]]
        expected = classes.get((left_first, right_first))
        if expected is None:
            expected = "D" if left_first == right_first else f"{left_first}/{right_first}"
        assert solver.outcome(pos) == expected, game.format_position(pos)
        seen.add(expected)
    assert seen == {"N", "P", "L", "R", "D", "L/D", "R/D", "D/L", "D/R"}


def test_finished_positions_have_the_class_of_their_winner():
    solver = ChopsticksSolver(Chopsticks())
    lost_left = solver.game.parse_position("(L 0 0 0 1 0 0)")
    assert solver.outcome(lost_left) == solver.outcome(mirrored(lost_left)) == "R"
    assert solver.evaluate(lost_left).value == "loss"
    assert solver.evaluate(mirrored(lost_left)).value == "win"
    assert solver.evaluate(lost_left).remoteness == 0


@settings(max_examples=40, deadline=None)
@given(
    options=st.sampled_from(OPTIONS),
    swap=st.sampled_from(["off", "on"]),
    seed=st.randoms(use_true_random=False),
)
def test_perfect_play_ends_the_game_in_exactly_the_remoteness(options, swap, seed):
    game = Chopsticks(rules_line((2, 2), 5, options, swap))
    solver = ChopsticksSolver(game)
    mine = seed.choice([h for h in product(range(game.top + 1), repeat=2) if any(h)])
    theirs = seed.choice([h for h in product(range(game.top + 1), repeat=2) if any(h)])
    pos = Position(LEFT, mine, theirs)
    start = solver.evaluate(pos)
    if start.value == "draw":
        return
    for _ in range(start.remoteness):
        pos = game.play(pos, seed.choice(solver.evaluate(pos).best_moves))
    assert game.is_over(pos)
    winner = LEFT if start.value == "win" else RIGHT
    assert game.winner(pos) == winner


def test_best_moves_name_the_real_hands_in_their_order():
    game = Chopsticks()
    solver = ChopsticksSolver(game)
    pos = game.parse_position("(R 0 4 1 3 0 1)")
    best = solver.evaluate(pos).best_moves
    assert best and all(m in game.legal_moves(pos) for m in best)
    assert {m[1] for m in best} <= {1, 3} and {m[2] for m in best} <= {2, 3}


def test_positions_with_other_hand_counts_are_solved_with_their_own_table():
    three = ChopsticksSolver(Chopsticks())
    two = ChopsticksSolver(Chopsticks("hands=2"))
    pos = three.game.parse_position("(1 4 | 1 1)")
    assert three.evaluate(pos) == two.evaluate(pos)
    uneven = three.game.parse_position("R (1 1 | 2)")
    assert three.evaluate(uneven) == ChopsticksSolver(Chopsticks("hands=2/1")).evaluate(uneven)


def test_l_r_and_r_l_hands_share_one_table():
    one_two = ChopsticksSolver(Chopsticks("hands=1/2 fingers=6"))
    two_one = ChopsticksSolver(Chopsticks("hands=2/1 fingers=6"))
    assert one_two.table_key((1, 2)) == two_one.table_key((2, 1))
    pos = Position(LEFT, (3,), (1, 2))
    swapped = Position(RIGHT, (1, 2), (3,))
    assert one_two.evaluate(pos).value == two_one.evaluate(swapped).value


def test_solved_tables_are_stored_on_disk_and_read_back_without_solving(monkeypatch):
    game = Chopsticks("hands=2/3 fingers=4 split=revive misere=on")
    first = ChopsticksSolver(game)
    answer = first.evaluate(game.start())
    assert cache.path_for(first.table_key(game.hands)).exists()

    def no_solving(*args, **kwargs):
        raise AssertionError("the table should come from the cache")

    monkeypatch.setattr(vectorised, "solve", no_solving)
    again = ChopsticksSolver(Chopsticks(game.rules_string()))
    assert again.evaluate(game.start()) == answer


def test_too_large_variants_are_refused_up_front_with_their_size():
    game = Chopsticks("hands=6 fingers=40")
    with pytest.raises(RulesError, match=re.escape("has 87,737,298,178,761 positions")):
        ChopsticksSolver(game).check([game.start()])
    solver = ChopsticksSolver(Chopsticks("hands=1 fingers=60"))
    with pytest.raises(RulesError, match="positions"):
        solver.evaluate(solver.game.parse_position("(1 1 1 1 1 | 1 1 1 1 1)"))


def test_estimate_counts_positions_with_unordered_hands():
    solver = ChopsticksSolver(Chopsticks())
    assert solver.estimate((3, 3))[0] == 56 * 56  # C(5 + 3, 3) multisets of 3 hands
    assert solver.estimate((1, 2))[0] == 2 * 6 * 21  # both movers, as the counts differ
    assert solver.estimate((3, 3))[1] > 0


def reachable(game: Chopsticks, start: Position) -> set[tuple]:
    """The positions reachable from `start`, named by sorted hands from the mover's side."""
    seen = {canonical(game, start): start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for move in game.legal_moves(pos):
            after = game.play(pos, move)
            if canonical(game, after) not in seen:
                seen[canonical(game, after)] = after
                todo.append(after)
    return set(seen)


@pytest.mark.parametrize(
    ("rules", "mover"),
    [
        ("hands=2 fingers=4 split=revive", LEFT),
        ("hands=1/3 fingers=3 knockout=rollover swap=on", RIGHT),
        ("hands=2/1 fingers=5 attack=tapping split=on misere=on", LEFT),
    ],
)
def test_stats_count_positions_reachable_from_the_start(rules, mover):
    game = Chopsticks(rules)
    start = Chopsticks.start_for(game.hands, mover)
    names = reachable(game, start)
    sorted_hands = list(every_position(game, game.hands, ordered=False))
    table = reference_solve(game, sorted_hands, key=lambda p: canonical(game, p))
    stats = ChopsticksSolver(game).stats(start)
    assert stats["positions"] == len(names)
    for value in ("win", "loss", "draw"):
        assert stats[value] == sum(table[name][0] == value for name in names)


def test_stats_default_to_the_start_of_the_rules():
    solver = ChopsticksSolver(Chopsticks())
    stats = solver.stats()
    assert stats == solver.stats(solver.game.start())
    assert stats["positions"] == len(reachable(solver.game, solver.game.start()))
    assert stats["win"] + stats["loss"] + stats["draw"] == stats["positions"]


def test_stats_of_several_starts_count_every_position_reachable_from_any():
    solver = ChopsticksSolver(Chopsticks("hands=2 fingers=4"))
    game = solver.game
    near_end = game.parse_position("(1 3 | 0 4)")
    other_shape = game.parse_position("(2 | 1 1 1)")
    assert solver.canonical(game.parse_position("(3 1 | 4 0)")) == ((1, 3), (0, 4))
    union = len(reachable(game, game.start()) | reachable(game, near_end))
    assert solver.stats([game.start(), near_end])["positions"] == union
    both = solver.stats([game.start(), other_shape])
    assert both["positions"] == len(reachable(game, game.start())) + len(
        reachable(game, other_shape)
    )


def test_the_registry_builds_this_solver():
    game = Chopsticks("hands=2")
    assert isinstance(solver_for(game), ChopsticksSolver)
