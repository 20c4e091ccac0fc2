"""`judge match`: paired games, the pentanomial model and the SPRT of fishtest and fastchess."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.kinds.match import MatchPlan, live_line, match_stats, match_text
from judge.plan import Harness
from judge.playing import game_seed
from judge.records import PlayedGame
from judge.sprt import (
    SprtParams,
    decision,
    elo_estimate,
    llr_approx,
    llr_logistic,
    logistic_elo,
    logistic_score,
    mean_var,
    mle_expected,
    parse_sprt,
    pentanomial,
    summary,
    to_pdf,
)
from judge.store import Store
from judge.summaries import MatchStats

#: slow: matches played until an SPRT decides, killed and resumed (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots/nim"


def ptnml(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> list[int]:
    """The five counts of fastchess's `Stats(ll, ld, wl, dd, wd, ww)` (WL and DD are both
    one point)."""
    return [ll, ld, wl + dd, wd, ww]


# --- the statistics, against published worked examples -----------------------------------

# fastchess app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2" (Disservin/fastchess):
# the LLR of its getLLR_logistic, which is fishtest's LLRcalc.LLR_logistic, to 2 decimals
@pytest.mark.parametrize("stats, elo0, elo1, llr", [
    (ptnml(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, -3.07),
    (ptnml(871, 26175, 55003, 980, 26678, 821), 0.0, 2.0, -4.98),
])
def test_llr_reproduces_the_published_fastchess_examples(stats, elo0, elo1, llr):
    assert llr_logistic(elo0, elo1, stats) == pytest.approx(llr, abs=0.005)


# fastchess app/tests/elo_test.cpp, "EloPentanomial 1" to "3": Elo, its error (the half-width
# of the 95% interval) and LOS as printed ("100.00 %", "5.05 %")
@pytest.mark.parametrize("stats, elo, error, los", [
    (ptnml(34, 54, 31, 32, 64, 75), 55.58, 27.65, "100.00"),
    (ptnml(332, 433, 457, 41, 333, 334), -8.64, 10.33, "5.05"),
    (ptnml(7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95, None),
])
def test_elo_interval_and_los_reproduce_the_published_fastchess_examples(stats, elo, error, los):
    est = elo_estimate(stats)
    assert est.elo == pytest.approx(elo, abs=0.005)
    assert est.error == pytest.approx(error, abs=0.005)
    assert est.low < est.elo < est.high
    assert est.high - est.low == pytest.approx(2 * est.error)
    if los is not None:
        assert f"{100 * est.los:.2f}" == los


def test_elo_follows_the_logistic_formula_from_the_pair_mean_and_variance():
    # computed here by the formula: per-game score mu = sum n_i (i/4) / N, variance of the
    # halved pair score var, se = sqrt(var / N), Elo(x) = -400 log10(1/x - 1),
    # LOS = Phi((mu - 0.5) / se) with Phi(z) = (1 + erf(z / sqrt 2)) / 2
    counts = [3, 10, 20, 12, 5]
    n = sum(counts)
    mu = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - mu) ** 2 for i, c in enumerate(counts)) / n
    se = math.sqrt(var / n)
    est = elo_estimate(counts)
    assert est.score == pytest.approx(mu)
    assert est.elo == pytest.approx(-400 * math.log10(1 / mu - 1))
    assert est.low == pytest.approx(-400 * math.log10(1 / (mu - 1.959964 * se) - 1))
    assert est.high == pytest.approx(-400 * math.log10(1 / (mu + 1.959964 * se) - 1))
    assert est.los == pytest.approx((1 + math.erf((mu - 0.5) / se / math.sqrt(2))) / 2)


def test_logistic_elo_inverts_the_score_and_is_clamped_like_fishtest():
    assert logistic_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert logistic_score(400 * math.log10(3)) == pytest.approx(0.75)
    assert logistic_elo(0.5) == 0.0
    # fishtest stat_util.elo clamps the score to [1e-3, 1 - 1e-3]: about +-1200 Elo
    assert logistic_elo(1.0) == pytest.approx(400 * math.log10(999))
    assert logistic_elo(0.0) == pytest.approx(-400 * math.log10(999))


def stats_of(counts: list[int]) -> MatchStats:
    """A match's statistics from its pentanomial alone (the SPRT's defaults)."""
    return MatchStats(**summary(counts, SprtParams()), wins=0, ties=0, losses=0, void_pairs=0)


def test_a_symmetric_pentanomial_is_elo_zero_not_a_rounding_error_below_it():
    for counts in ([4, 0, 12, 0, 4], [3, 7, 11, 7, 3], [1, 0, 0, 0, 1]):
        est = elo_estimate(counts)
        assert est.elo == 0.0 and math.copysign(1, est.elo) == 1
        assert est.low == pytest.approx(-est.high)
        assert live_line(stats_of(counts)).count("Elo +0.0 ±") == 1


def test_the_maximum_likelihood_distribution_has_the_hypothesis_mean_and_is_a_maximum():
    # van den Bergh, Prop. 1.1: of all distributions on the five scores with mean s, the
    # p_i = phat_i / (1 + x (a_i - s)) maximises sum phat_i log p_i
    _, pdf = to_pdf([5, 30, 60, 25, 3])
    s = logistic_score(30)
    mle = mle_expected(pdf, s)
    assert sum(p for _, p in mle) == pytest.approx(1, abs=1e-12)
    assert mean_var(mle)[0] == pytest.approx(s, abs=1e-12)

    def loglik(q: list[float]) -> float:
        return sum(ph * math.log(qi) for (_, ph), qi in zip(pdf, q, strict=True))

    best = loglik([p for _, p in mle])
    # directions that keep the sum and the mean: orthogonal to (1,...,1) and (a_1,...,a_5)
    for d in ([1, -2, 1, 0, 0], [0, 1, -2, 1, 0], [0, 0, 1, -2, 1], [1, -1, -1, 1, 0]):
        for eps in (1e-4, -1e-4):
            moved = [p + eps * di for (_, p), di in zip(mle, d, strict=True)]
            assert sum(a * q for (a, _), q in zip(mle, moved, strict=True)) == pytest.approx(s)
            assert loglik(moved) < best


def test_llr_agrees_with_fishtests_brownian_approximation_near_the_bounds():
    # fishtest LLRcalc.LLR_alt2: N (s1 - s0)(2 mu - s0 - s1) / (2 var), a close approximation
    # of the exact ratio when the hypotheses and the observed Elo are close
    counts = ptnml(223, 9863, 20279, 1000, 10037, 246)
    assert llr_logistic(0.5, 2.5, counts) == pytest.approx(llr_approx(0.5, 2.5, counts),
                                                           rel=1e-3)


def test_bounds_and_decisions_are_walds():
    p = SprtParams(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert p.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439)
    assert p.upper == pytest.approx(math.log(0.95 / 0.05))
    q = SprtParams(elo0=0, elo1=5, alpha=0.01, beta=0.1)
    assert (q.lower, q.upper) == (pytest.approx(math.log(0.1 / 0.99)),
                                  pytest.approx(math.log(0.9 / 0.01)))
    assert decision(p.upper, p) == "H1"
    assert decision(p.lower, p) == "H0"
    assert decision(0.0, p) is None


def test_no_pairs_give_no_estimate_and_an_llr_of_zero():
    s = summary([0, 0, 0, 0, 0], SprtParams())
    assert (s["pairs"], s["elo"], s["los"], s["llr"], s["decision"]) == (0, None, None, 0.0,
                                                                         None)


def test_a_one_sided_result_decides_h1_and_a_balanced_one_never_h1():
    p = SprtParams(elo0=0, elo1=50)
    # every pair won twice: about 0.134 per pair, so H1 after 23 pairs
    assert decision(llr_logistic(0, 50, [0, 0, 0, 0, 22]), p) is None
    assert decision(llr_logistic(0, 50, [0, 0, 0, 0, 23]), p) == "H1"
    assert llr_logistic(0, 50, [0, 0, 40, 0, 0]) < 0


def test_sprt_strings_parse_with_defaults_for_missing_keys():
    assert parse_sprt("elo0=0 elo1=10 alpha=0.05 beta=0.05") == SprtParams()
    assert parse_sprt("elo1=50") == SprtParams(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert parse_sprt(" ELO0=-2, elo1=3 ") == SprtParams(elo0=-2, elo1=3)


# --- pairs and their pentanomial -----------------------------------------------------------

def rec(players: list[str], results: list[str]) -> PlayedGame:
    """A stored game record, as far as the statistics read it."""
    return PlayedGame("nim", "1 2 3", tuple(players), results=tuple(results))


def test_the_pentanomial_counts_pairs_from_bot_as_view():
    config = MatchPlan(game="nim", bots=("A", "B"))
    records = {
        "1|1|s|A|B": rec(["A", "B"], ["win", "loss"]),  # A: win, win -> 2
        "1|1|s|B|A": rec(["B", "A"], ["loss", "win"]),
        "2|1|t|A|B": rec(["A", "B"], ["win", "loss"]),  # A: win, loss -> 1
        "2|1|t|B|A": rec(["B", "A"], ["win", "loss"]),
        "3|1|u|A|B": rec(["A", "B"], ["tie", "tie"]),  # A: tie, loss -> 0.5
        "3|1|u|B|A": rec(["B", "A"], ["win", "loss"]),
        "4|1|v|A|B": rec(["A", "B"], ["tie", "tie"]),  # A: tie, win -> 1.5
        "4|1|v|B|A": rec(["B", "A"], ["loss", "win"]),
        "5|1|w|A|B": rec(["A", "B"], ["loss", "win"]),  # A: loss, loss -> 0
        "5|1|w|B|A": rec(["B", "A"], ["win", "loss"]),
        "6|1|x|A|B": rec(["A", "B"], ["win", "loss"]),  # its second game not played yet
        "7|1|y|A|B": rec(["A", "B"], ["none", "none"]),  # void: a judge error
        "7|1|y|B|A": rec(["B", "A"], ["loss", "win"]),
    }
    stats = match_stats(config, records)
    assert stats.pentanomial == [1, 1, 1, 1, 1]
    assert stats.pairs == 5
    assert stats.void_pairs == 1
    assert (stats.wins, stats.ties, stats.losses) == (4, 2, 4)
    assert pentanomial([0, 0.5, 1, 1, 2, 2, 2]) == [1, 1, 2, 0, 3]


def test_a_pair_is_one_start_in_both_seats_with_one_seed_and_rounds_differ():
    starts = ["1 2 3", "3 4 5", "2 2 7"]
    config = MatchPlan(game="nim", bots=("A", "B"), start_positions=tuple(starts),
                       harness=Harness(seed=9))
    pairs = [config.pair_games(n) for n in range(3 * len(starts))]
    for g1, g2 in pairs:
        assert g1.players == ("A", "B") and g2.players == ("B", "A")
        assert g1.start == g2.start
        assert g1.seeded_by == g2.seeded_by  # the pair key: both games get one seed
        assert g1.key != g2.key
    for rnd in range(3):  # each round plays every start once
        assert sorted(p[0].start for p in pairs[3 * rnd: 3 * rnd + 3]) == sorted(starts)
    seeds = {game_seed(9, p[0].seeded_by) for p in pairs}
    assert len(seeds) == len(pairs)  # a start's pairs in later rounds get new seeds


def test_the_live_line_shows_pairs_pentanomial_elo_los_and_llr():
    line = live_line(stats_of([1, 2, 3, 4, 5]))
    assert line.startswith("15 pairs, ptnml(0-2) 1 2 3 4 5, Elo +")
    assert "±" in line and "LOS " in line and "LLR " in line and "[-2.94, 2.94]" in line


# --- the command ---------------------------------------------------------------------------

def judge(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run `judge` with `args`."""
    out = subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True,
                         timeout=600)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def twins(tmp_path: Path) -> list[str]:
    """Two copies of the random Nim bot: the same program in two files."""
    bots = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text((NIM / "random.py").read_text())
        bots.append(str(tmp_path / name))
    return bots


def test_optimal_against_random_accepts_h1_quickly(tmp_path):
    db = str(tmp_path / "m.db")
    out = judge("match", "--game", "nim", "--sprt", "elo0=0 elo1=50", "--seed", "3",
                "--jobs", "2", "--db", db, "--format", "json",
                str(NIM / "optimal.py"), str(NIM / "random.py"))
    data = json.loads(out.stdout)
    assert data["decision"] == "H1"
    assert data["llr"] >= data["llr_bounds"][1] == pytest.approx(math.log(19))
    assert len(data["games"]) == 2 * data["pairs"] <= 80  # a few batches of 4 pairs
    assert data["elo_low"] > 50 and data["los"] > 0.99
    assert data["state"] == "finished"
    assert data["sprt"] == {"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05}
    for key in ("pairs", "pentanomial", "elo", "elo_low", "elo_high", "los", "llr",
                "llr_bounds", "decision", "sprt", "games"):
        assert key in data
    assert len(data["pentanomial"]) == 5 and sum(data["pentanomial"]) == data["pairs"]
    assert {"key", "players", "start", "results", "verdict", "message", "moves",
            "seed"} <= set(data["games"][0])
    # `judge show` lists it, and the stored match prints again the same
    listing = json.loads(judge("show", "--db", db, "--format", "json").stdout)
    assert listing[0]["kind"] == "match" and listing[0]["state"] == "finished"
    assert [Path(b).name for b in listing[0]["bots"]] == ["optimal.py", "random.py"]


def test_a_bot_against_a_copy_of_itself_plays_mirrored_pairs_and_ends_undecided(tmp_path):
    out = judge("match", "--game", "nim", "--max-games", "40", "--seed", "5", "--jobs", "2",
                "--db", str(tmp_path / "m.db"), "--format", "json", *twins(tmp_path))
    data = json.loads(out.stdout)
    # the same seed in both games of a pair, and the same program: the second game is the
    # first with the seats swapped, so every pair scores exactly 1 point
    assert data["pentanomial"] == [0, 0, 20, 0, 0]
    assert data["elo"] == 0 and data["elo_low"] < 0 < data["elo_high"]
    assert data["decision"] is None
    assert data["llr_bounds"][0] < data["llr"] < data["llr_bounds"][1]
    games = data["games"]
    assert len(games) == 40
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first["pair"] == second["pair"] and first["seed"] == second["seed"]
        assert first["players"] == second["players"][::-1]
        assert first["moves"] == second["moves"]
    assert len({g["seed"] for g in games}) == 20


def test_the_table_names_the_decision_and_csv_is_one_row(tmp_path):
    db = str(tmp_path / "m.db")
    out = judge("match", "--game", "nim", "--max-games", "8", "--seed", "5", "--jobs", "1",
                "--db", db, *twins(tmp_path))
    assert "no decision: --max-games 8 reached" in out.stdout
    assert "0 0 4 0 0" in out.stdout
    store = Store(db, read_only=True)
    lines = match_text(store, 1, "csv", False).text.splitlines()
    assert lines[0].startswith("bot_a,bot_b,pairs,games,") and len(lines) == 2


def test_resuming_a_match_that_reached_max_games_plays_nothing_more(tmp_path):
    db = str(tmp_path / "m.db")
    first = json.loads(judge("match", "--game", "nim", "--max-games", "8", "--seed", "5",
                             "--db", db, "--format", "json", *twins(tmp_path)).stdout)
    again = json.loads(judge("match", "--resume", "1", "--db", db, "--format", "json").stdout)
    assert again == first
    refused = judge("match", "--resume", "1", "--max-games", "20", "--db", db, check=False)
    assert refused.returncode == 2 and "drop --max-games" in refused.stderr


def test_a_killed_match_resumes_to_the_result_of_an_uninterrupted_one(tmp_path):
    whole, part = tmp_path / "whole", tmp_path / "part"
    whole.mkdir()
    part.mkdir()
    bots = twins(tmp_path)

    def args(folder: Path) -> list[str]:
        return ["match", "--game", "nim", "--max-games", "120", "--seed", "8", "--jobs", "2",
                "--db", str(folder / "m.db"), "--format", "json", *bots]

    expected = json.loads(judge(*args(whole)).stdout)
    proc = subprocess.Popen([sys.executable, "-m", "judge", *args(part)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 15 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        try:
            stored = sqlite3.connect(part / "m.db").execute(
                "SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            stored = 0
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < stored < 120
    resumed = json.loads(judge("match", "--resume", "1", "--db", str(part / "m.db"),
                               "--format", "json").stdout)
    assert resumed["state"] == "finished"
    for key in ("pairs", "pentanomial", "elo", "llr", "decision"):
        assert resumed[key] == expected[key]
    assert ([(g["key"], g["moves"], g["seed"]) for g in resumed["games"]]
            == [(g["key"], g["moves"], g["seed"]) for g in expected["games"]])


@pytest.mark.parametrize("sprt, message", [
    ("elo0=10 elo1=0", "elo0 (10) must be less than elo1 (0)"),
    ("elo0=0 elo1=10 gamma=1", "unknown key 'gamma'"),
    ("elo1", "'elo1' is not KEY=VALUE"),
    ("alpha=1.5", "alpha=1.5: must be between 0 and 1"),
    ("alpha=0.6 beta=0.5", "alpha + beta (0.6 + 0.5) must be less than 1"),
    ("elo1=ten", "elo1=ten: not a number"),
    ("elo1=5 elo1=6", "elo1 is given twice"),
])
def test_a_bad_sprt_string_is_refused_with_status_2_before_anything_is_played(
        tmp_path, sprt, message):
    out = judge("match", "--game", "nim", "--sprt", sprt, "--db", str(tmp_path / "m.db"),
                *twins(tmp_path), check=False)
    assert out.returncode == 2
    assert f"judge: error: --sprt {sprt!r}: {message}" in out.stderr
    assert not (tmp_path / "m.db").exists()


def test_a_match_needs_exactly_two_bots_and_an_even_max_games(tmp_path):
    a, b = twins(tmp_path)
    one = judge("match", "--game", "nim", "--db", str(tmp_path / "m.db"), a, check=False)
    assert one.returncode == 2 and "a match is between two bots" in one.stderr
    odd = judge("match", "--game", "nim", "--max-games", "7", "--db", str(tmp_path / "m.db"),
                a, b, check=False)
    assert odd.returncode == 2 and "must be an even number" in odd.stderr


def plays_as_seeded(game, g: dict, seat: int, player) -> None:
    """Each move of `seat` in the stored game `g` is the one `player` (seeded with the
    game's seed) chooses, asked move by move."""
    player.begin(game, seat)
    pos = game.parse_position(g["start"])
    for text in g["moves"]:
        move = game.parse_move(text, pos)
        if game.mover(pos) == seat:
            assert player.choose(pos, None) == move
        pos = game.play(pos, move)


@pytest.mark.parametrize("names", [
    ["optimal"], ["optimal", "--opponent", "tricky"], ["tricky"],
])
def test_the_perfect_player_takes_a_seat_in_a_match_as_the_opponent_kind(tmp_path, names):
    from judge.games import load_game
    from judge.players.optimal import opponent_player

    (tmp_path / "starts.txt").write_text("2 2 1 1\n")
    db = str(tmp_path / "m.db")
    perfect, *option = names
    out = judge("match", "--game", "nim", "--starts", str(tmp_path / "starts.txt"),
                "--max-games", "8", "--jobs", "1", "--seed", "1", "--db", db, "--format",
                "json", *option, perfect, str(NIM / "optimal.py"))
    data = json.loads(out.stdout)
    kind = "tricky" if "tricky" in names else "optimal"
    assert data["bots"] == [kind, str(NIM / "optimal.py")] and data["opponent"] == kind
    game = load_game("nim", "")
    for g in data["games"]:
        # each move of the perfect player is the one that kind plays with the game's seed
        seat = g["players"].index("optimal")
        plays_as_seeded(game, g, seat, opponent_player(kind, g["seed"]))
        if seat == 0 and kind == "tricky":  # it opens 2 2 1 1 by emptying a 1-heap
            assert g["moves"][0] in ("3 1", "4 1")
    # every pair of a perfect bot against a perfect player scores one point
    assert data["pentanomial"] == [0, 0, 4, 0, 0]
    assert f"{kind}, optimal.py" in judge("show", "--db", db).stdout
    replay = judge("show", "--db", db, "1", "--game", "1").stdout
    assert f"player 1 {kind}" in replay or f"player 2 {kind}" in replay


def test_a_weaker_level_takes_a_seat_by_name_and_each_move_is_its_seeded_choice(tmp_path):
    from judge.games import load_game
    from judge.players.level import LevelPlayer

    db = str(tmp_path / "m.db")
    out = judge("match", "--game", "nim", "--max-games", "8", "--jobs", "2", "--seed", "5",
                "--db", db, "--format", "json", str(NIM / "greedy.py"), "level:04")
    data = json.loads(out.stdout)
    assert data["bots"] == [str(NIM / "greedy.py"), "level:4"] and len(data["games"]) == 8
    game = load_game("nim", "")
    for g in data["games"]:  # replayed from the recorded seed: the same moves
        plays_as_seeded(game, g, g["players"].index("level:4"), LevelPlayer(4, g["seed"]))
    assert "greedy.py, level:4" in judge("show", "--db", db).stdout
    again = judge("match", "--game", "nim", "--max-games", "4", "--db", db, "level:4",
                  "level:4", check=False)
    assert again.returncode == 2 and "itself" in again.stderr


def test_a_match_is_not_between_two_perfect_players(tmp_path):
    out = judge("match", "--game", "nim", "--db", str(tmp_path / "m.db"), "tricky", "optimal",
                check=False)
    assert out.returncode == 2 and "needs a bot program" in out.stderr
    assert not (tmp_path / "m.db").exists()


def test_a_bot_that_does_not_compile_has_its_message_once(tmp_path):
    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return undeclared_variable; }\n")
    db = str(tmp_path / "m.db")
    out = judge("match", "--game", "nim", "--max-games", "4", "--jobs", "1", "--db", db,
                "--wide", str(broken), str(NIM / "random.py"))
    # after the table, once (gcc quotes the source line too), not in each game
    assert out.stdout.count(f"{broken}: compile error:") == 1
    assert out.stdout.count("undeclared (first use in this function)") == 1
    data = json.loads(judge("show", "--db", db, "1", "--format", "json").stdout)
    assert set(data["compile_errors"]) == {str(broken)}
    assert "undeclared_variable" in data["compile_errors"][str(broken)]
    assert all(g["verdict"] == "compile-error" for g in data["games"])


def test_on_a_cluster_a_batch_fills_the_clusters_game_slots_not_the_local_jobs(
        tmp_path, monkeypatch):
    # the coordinator may have 1 core and the cluster 8 game slots: a batch of 2 pairs per
    # local job would leave 6 of them idle between SPRT checks
    import argparse

    import judge.commands.runs as runs
    import judge.kinds.match as match
    from judge.commands.runs import play

    batches: list[int] = []

    class FakeCluster:
        slots = 8

        def play(self, setup, specs):
            batches.append(len(specs))
            for spec in specs:
                yield spec, PlayedGame("nim", spec.start, spec.players, key=spec.key,
                                       results=("tie", "tie"))

    asked: list[str] = []

    def fake_backend(args, plan):
        asked.append(args.cluster)
        return FakeCluster()

    monkeypatch.setattr(runs, "backend_for", fake_backend)
    store = Store(str(tmp_path / "m.db"))
    config = MatchPlan(game="nim", bots=("A", "B"), start_positions=("1 2 3",),
                       max_games=40, harness=Harness(seed=1))
    run_id = store.create_run(config)
    args = argparse.Namespace(jobs=1, cluster="tls://127.0.0.1:8786", credentials=None)
    backend = runs.backend_for(args, config)
    play(store, run_id, config, backend, match.Pairs(config, store, run_id, backend))
    assert asked == ["tls://127.0.0.1:8786"]
    assert batches == [32, 8]  # 16 pairs (2 per slot), then the 4 left of the 20
    assert len(store.games(run_id)) == 40


def test_the_live_line_fits_the_terminal_so_it_is_redrawn_in_place(monkeypatch, capsys):
    from judge.kinds.match import Live

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((40, 24)))
    live = Live(True)
    live.show(stats_of([1, 2, 3, 4, 5]))
    live.show(stats_of([1, 2, 3, 4, 6]))
    written = capsys.readouterr().err
    assert "\n" not in written
    drawn = [part.removesuffix("\x1b[K") for part in written.split("\r") if part]
    assert len(drawn) == 2 and all(len(line) <= 39 for line in drawn)
