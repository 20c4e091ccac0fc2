"""Facts about Swiss and knockout tournaments (`judge tournament --system`), played on Nim
by the judge's own players."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ENTRANTS = ["optimal", "level:9", "level:6", "level:3", "level:0", "level:5"]


def command(tmp_path: Path, db: str, *extra: str, fmt: str = "json") -> list[str]:
    """A Nim tournament's command line, its JSON (or `fmt`) on stdout."""
    return [sys.executable, "-m", "judge", "tournament", "--game", "nim", "--seed", "5",
            "--db", str(tmp_path / db), "--format", fmt, *extra]


def run(args: list[str]) -> dict:
    """Run and parse the JSON output."""
    out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_swiss_pairing_plays_two_game_pairs_a_round_without_repeats(tmp_path):
    data = run(command(tmp_path, "s.db", "--system", "swiss", "--rounds", "3", *ENTRANTS))
    games = data["games"]
    assert len(games) == 3 * 3 * 2 * 2  # 3 rounds of 3 pairings, each 2 pairs of games
    rounds: dict[str, dict[frozenset[str], list[str]]] = {}
    for g in games:
        pairing = rounds.setdefault(g["key"][:3], {}).setdefault(frozenset(g["players"]), [])
        pairing.append(g["start"])
    assert len(rounds) == 3
    pairings = [p for r in rounds.values() for p in r]
    assert len(pairings) == len(set(pairings)) == 9
    for played in rounds.values():  # everyone once a round, every pairing on the same starts
        assert sorted(p for pairing in played for p in pairing) == sorted(ENTRANTS)
        starts = {tuple(sorted(s)) for s in played.values()}
        assert len(starts) == 1 and len(set(starts.pop())) == 2  # two starts, both seats
    table = data["standings"]
    assert [s["swiss"]["points"] for s in table] == [s["points"] for s in table]
    assert [s["swiss"]["points"] for s in table] == sorted(
        (s["swiss"]["points"] for s in table), reverse=True)


def test_a_swiss_of_one_pair_a_pairing_plays_one_start_a_round_as_it_always_did(tmp_path):
    data = run(command(tmp_path, "s1.db", "--system", "swiss", "--rounds", "3", "--pairs",
                       "1", *ENTRANTS))
    assert len(data["games"]) == 3 * 3 * 2
    assert sorted({g["key"].split("|")[0] for g in data["games"]}) == ["001", "002", "003"]
    assert len({(g["key"][:3], g["start"]) for g in data["games"]}) == 3


def test_a_swiss_stored_before_pairings_played_several_pairs_resumes_with_one():
    from judge.kinds.tournament import System, TournamentPlan
    from judge.plan import from_config

    plan = TournamentPlan(game="nim", entrants=("optimal", "level:3"), system=System.SWISS,
                          rounds=3, start_positions=("3 4 5", "1 2 4"))
    config = plan.to_config()
    assert config["pairs"] == 2 and from_config("tournament", config).pairs == 2
    old = from_config("tournament", dict(config, version=4))
    argv = old.to_argv()  # the command line that plays it again
    assert old.pairs == 1 and argv[argv.index("--pairs") + 1] == "1"
    knockout = dict(config, version=4, system="knockout")
    assert from_config("tournament", knockout).pairs == 2


def test_a_bye_scores_a_won_pair_and_goes_to_a_different_entrant_each_round(tmp_path):
    data = run(command(tmp_path, "b.db", "--system", "swiss", "--rounds", "3", *ENTRANTS[:5]))
    byes = {s["bot"]: s["swiss"]["byes"] for s in data["standings"]}
    assert sorted(byes.values()) == [0, 0, 1, 1, 1]
    for s in data["standings"]:  # a bye: both pairs won
        assert s["swiss"]["points"] == s["points"] + 4 * s["swiss"]["byes"]


def test_a_swiss_stopped_mid_round_resumes_to_the_same_pairings_and_games(tmp_path):
    whole = run(command(tmp_path, "whole.db", "--system", "swiss", "--rounds", "3",
                        *ENTRANTS))
    run(command(tmp_path, "part.db", "--system", "swiss", "--rounds", "3", *ENTRANTS))
    db = sqlite3.connect(tmp_path / "part.db")
    with db:  # as if stopped in round 2: its last games and round 3 are not stored
        db.execute("DELETE FROM games WHERE key >= '002' AND rowid % 2 = 0 OR key >= '003'")
        db.execute("UPDATE runs SET finished = NULL")
    assert db.total_changes > 6 + 1
    db.close()
    resumed = run([sys.executable, "-m", "judge", "tournament", "--resume", "1", "--db",
                   str(tmp_path / "part.db"), "--format", "json"])
    assert [(g["key"], g["moves"]) for g in resumed["games"]] == [
        (g["key"], g["moves"]) for g in whole["games"]]
    assert resumed["standings"] == whole["standings"]


def test_a_knockout_gives_the_top_seeds_byes_and_the_top_seed_wins_its_ties(tmp_path):
    data = run(command(tmp_path, "k.db", "--system", "knockout", "--pairs", "1", *ENTRANTS))
    ties = data["ties"]
    # seeds 1-6 in a bracket of 8: 1 v (8), 4 v 5, 2 v (7), 3 v 6
    assert [(t["round"], t["high"], t["low"]) for t in ties[:4]] == [
        (1, "optimal", None), (1, "level:3", "level:0"), (1, "level:9", None),
        (1, "level:6", "level:5")]
    assert [t["round"] for t in ties] == [1, 1, 1, 1, 2, 2, 3]
    assert ties[-1]["winner"] == "optimal"  # never loses a pair: level, it goes on as seed 1
    for t in ties:
        if t["low"] is not None:
            assert 1 <= len(t["points"]) <= 1 + 4
            lead = sum(t["points"]) - (2 * len(t["points"]) - sum(t["points"]))
            assert (t["winner"] == t["high"]) == (lead >= 0)
            assert lead != 0 or len(t["points"]) == 5  # level only after every decider


def test_the_knockout_bracket_is_shown_round_by_round(tmp_path):
    out = subprocess.run(command(tmp_path, "k.db", "--system", "knockout", "--pairs", "1",
                                 *ENTRANTS[:3], fmt="table"), capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "round 1\n  optimal: bye\n  level:9 v level:6: " in out.stdout
    assert "round 2\n  optimal v level:" in out.stdout


def test_a_gauntlet_is_refused_with_a_swiss_before_anything_is_stored(tmp_path):
    out = subprocess.run(command(tmp_path, "g.db", "--system", "swiss", "--gauntlet",
                                 "optimal", *ENTRANTS[1:]), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2 and "--gauntlet plays a round robin" in out.stderr
    assert not (tmp_path / "g.db").exists()


@pytest.mark.parametrize("args, said", [
    (["--system", "knockout", "--rounds", "3"], "--rounds goes with a round robin or a Swiss"),
    (["--rounds", "3", "--pairs", "4"], "--pairs K is a Swiss's or a knockout's"),
])
def test_an_option_of_another_system_is_refused_before_anything_is_stored(tmp_path, args,
                                                                         said):
    out = subprocess.run(command(tmp_path, "o.db", *args, *ENTRANTS[1:]),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and said in out.stderr, out.stderr
    assert not (tmp_path / "o.db").exists()


def test_a_knockouts_deciders_are_counted_apart_in_the_run_list(tmp_path):
    # two perfect players tie every pair: the tie goes to deciders beyond the planned games
    data = run(command(tmp_path, "d.db", "--system", "knockout", "--pairs", "1", "optimal",
                       "level:10"))
    played = len(data["games"])
    assert played > 2
    listed = subprocess.run([sys.executable, "-m", "judge", "show", "--db",
                             str(tmp_path / "d.db")], capture_output=True, text=True,
                            timeout=120)
    assert f"{played} (2 + {played - 2} deciders)" in listed.stdout, listed.stdout


def page_text(html: str) -> str:
    """An HTML report's words: its scripts and tags left out, its spaces collapsed."""
    import re
    from html import unescape

    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def shown(tmp_path: Path, db: str, fmt: str) -> str:
    """Run 1 of `db` as `judge show` gives it in `fmt`."""
    out = subprocess.run([sys.executable, "-m", "judge", "show", "1", "--db",
                          str(tmp_path / db), "--format", fmt], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_html_report_shows_a_swiss_score_and_tie_breaks(tmp_path):
    data = run(command(tmp_path, "s.db", "--system", "swiss", "--rounds", "2", "--pairs", "1",
                       *ENTRANTS[:5]))
    page = shown(tmp_path, "s.db", "html")
    words = page_text(page)
    assert "score Buchholz S-B byes" in words
    for s in data["standings"]:
        swiss = s["swiss"]
        row = page.split(f'<tr data-bot="{s["bot"]}"')[1].split("</tr>")[0]
        cells = [f"{swiss[k]:g}" for k in ("points", "buchholz", "sonneborn_berger")]
        assert f"{s['bot']} {' '.join(cells)} {swiss['byes']} " in page_text(
            f"<tr {row}</tr>"), row


def test_the_html_report_shows_the_knockout_bracket_as_the_text_does(tmp_path):
    text = subprocess.run(command(tmp_path, "k.db", "--system", "knockout", "--pairs", "1",
                                  *ENTRANTS[:5], fmt="table"), capture_output=True, text=True,
                          timeout=600)
    assert text.returncode == 0, text.stderr
    rounds = text.stdout.split("\nround 1\n")[1].split("\n\n")[0].splitlines()
    bracket = [line for line in rounds if line.startswith("  ")]
    assert len(bracket) == 4 + 2 + 1  # the ties of a bracket of 8, byes among them
    words = page_text(shown(tmp_path, "k.db", "html"))
    assert "Round 1 " in words and "Round 3 " in words
    for line in bracket:
        assert " ".join(line.split()) in words, line
