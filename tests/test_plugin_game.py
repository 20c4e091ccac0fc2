"""A game from outside the judge: examples/plugin-game (the subtraction game) installed with
pip into a folder of its own, and used as a teacher would, through every `judge` command
(on a cluster too, installed on its workers) and the browser app, with nothing of the judge
changed. Also: a cluster whose worker lacks it stops the run naming it, a plugin that
takes a built-in game's name is not used, and one that fails to import stops only the
commands that ask for it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pytest

import judge.games as games
from judge.gamecheck import TRANSCRIPT_BOT, Scripted
from judge.games import Registry, load_game
from judge.players.base import Player
from judge.players.bot import BotPlayer
from judge.referee import play_game
from judge.sandbox import Limits

#: slow: a wheel built and installed, then every command (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "examples" / "plugin-game"
BOTS = PLUGIN / "bots"
PROTOCOL = PLUGIN / "subtraction_game" / "protocol.md"


def wheel_command() -> bool:
    """Whether this Python's setuptools can build a wheel: it has its own wheel command from
    70.1 on, and needs the `wheel` package before (asked without importing setuptools)."""
    try:
        release = tuple(int(p) for p in re.findall(r"\d+", version("setuptools"))[:2])
    except PackageNotFoundError:
        return False
    return release >= (70, 1) or importlib.util.find_spec("wheel") is not None


def pip_install(source: Path, target: Path) -> None:
    """`pip install --target TARGET SOURCE`: offline when this Python can build the package
    itself (setuptools with its wheel command), else in pip's build environment, which
    needs the package index; skipped with pip's reason when neither can build it."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed in this environment")
    offline = wheel_command()
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-input",
               "--disable-pip-version-check", "--target", str(target), str(source)]
    if offline:
        command += ["--no-build-isolation", "--no-index"]
    else:
        command += ["--retries", "1", "--timeout", "20"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if out.returncode != 0 and not offline:
        said = [line.strip() for line in out.stderr.splitlines() if "ERROR" in line]
        pytest.skip("the plugin cannot be built here: this Python lacks setuptools with its "
                    f"wheel command, and pip could not fetch them ({(said or ['?'])[-1]})")
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder pip installed the plugin into (from a copy: a build leaves files behind)."""
    work = tmp_path_factory.mktemp("plugin")
    source = work / "plugin-game"
    shutil.copytree(PLUGIN, source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = work / "site"
    pip_install(source, target)
    assert (target / "subtraction_game" / "protocol.md").is_file()  # its page is installed
    return target


def judge(*args: str, path: list[Path], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m judge ARGS` with the folders `path` on its PYTHONPATH."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd, env=env)


def games_json(path: list[Path]) -> dict[str, dict[str, Any]]:
    out = judge("games", "--format", "json", path=path)
    return {row["game"]: row for row in json.loads(out.stdout)}


def fake_package(folder: Path, name: str, version: str, entry: str) -> Path:
    """A folder holding an installed package `name` that registers the game `entry`."""
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[judge.games]\n{entry}\n")
    return folder


# --- judge games, judge solve -----------------------------------------------------------------

def test_judge_games_lists_the_installed_game_with_its_package_and_version(site) -> None:
    assert "subtraction" not in games_json([])  # the install is what brings it
    row = games_json([site])["subtraction"]
    assert row["from"] == "subtraction-game 1.0.0"
    assert row["class"] == "subtraction_game:Subtraction"
    assert row["rules"] == "heap=21 take=1,2,3"
    assert "one-three-four (heap=20 take=1,3,4)" in row["variants"]
    assert row["error"] is None
    table = judge("games", path=[site])
    assert table.returncode == 0, table.stderr
    assert "subtraction  (from subtraction-game 1.0.0, subtraction_game:Subtraction)" in (
        table.stdout)


def solved(site: Path, rules: str, heaps: range) -> dict[int, dict[str, Any]]:
    out = judge("solve", "--game", "subtraction", "--rules", rules, "--format", "json",
                *map(str, heaps), path=[site])
    assert out.returncode == 0, out.stderr
    return {int(row["position"]): row for row in json.loads(out.stdout)}


@pytest.mark.parametrize("k", [2, 3, 5])
def test_a_heap_is_lost_exactly_when_it_is_a_multiple_of_k_plus_1(site, k) -> None:
    rows = solved(site, "take=" + ",".join(map(str, range(1, k + 1))), range(40))
    for n, row in rows.items():
        assert row["value"] == ("loss" if n % (k + 1) == 0 else "win"), n
        if n % (k + 1):  # the one winning take leaves a multiple of k + 1
            assert row["best_moves"] == [str(n % (k + 1))], n


def test_takes_of_1_3_or_4_lose_exactly_the_heaps_of_0_or_2_modulo_7(site) -> None:
    # Winning Ways, the subtraction game S(1, 3, 4): its P-positions are 0 and 2 modulo 7
    rows = solved(site, "take=1,3,4", range(50))
    assert {n for n, row in rows.items() if row["value"] == "loss"} == {
        n for n in range(50) if n % 7 in (0, 2)}


def test_the_suite_over_every_installed_game_checks_it_too(site) -> None:
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests/test_every_game.py", "-k", "subtraction"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr  # (5 when no test is selected)
    # every case of the game passed, none skipped
    assert re.search(r"^\d+ passed, \d+ deselected in ", out.stdout, re.MULTILINE), out.stdout
    check = judge("games", "--check", "subtraction", path=[site])  # as a teacher runs it
    assert check.returncode == 0, check.stdout + check.stderr
    assert "FAILED" not in check.stdout and "bot in seat 2" in check.stdout


# --- judge run, judge show --------------------------------------------------------------------

@pytest.fixture(scope="module")
def graded(site, tmp_path_factory) -> tuple[Path, dict[str, Any]]:
    """A results database where `judge run --seats both` graded the two sample bots, and
    the run as its JSON output says it."""
    work = tmp_path_factory.mktemp("graded")
    out = judge("run", "--game", "subtraction", "--seats", "both", "--seed", "1", "--db",
                str(work / "runs.db"), "--format", "json", str(BOTS / "perfect.py"),
                str(BOTS / "weak.py"), path=[site], cwd=work)
    assert out.returncode == 0, out.stderr
    return work / "runs.db", json.loads(out.stdout)


def test_judge_run_gives_the_perfect_bot_full_marks_and_the_weak_one_fewer(graded) -> None:
    _, run = graded
    assert run["game"] == "subtraction heap=21 take=1,2,3"
    bots = {Path(b["bot"]).name: b for b in run["bots"]}
    # the default test set: the heaps of 1 to 21 that each seat can win
    assert bots["perfect.py"]["games"] == 21
    assert bots["perfect.py"]["points"] == bots["perfect.py"]["max_points"] == 21
    assert bots["weak.py"]["points"] < bots["weak.py"]["max_points"] == 21
    starts = {(int(g["start"]), g["seat"]) for g in run["games"]
              if Path(g["bot"]).name == "perfect.py"}
    assert starts == {(n, 1 if n % 4 else 2) for n in range(1, 22)}


def test_judge_show_and_the_html_report_show_its_games_as_text(graded, site) -> None:
    db, run = graded
    number = next(g["game"] for g in run["games"]
                  if Path(g["bot"]).name == "perfect.py" and g["start"] == "21")
    start = "heap:  21 " + "o" * 21 + "\n(a move takes 1, 2 or 3; player 1 to move)"
    shown = judge("show", "1", "--db", str(db), "--game", str(number), path=[site])
    assert shown.returncode == 0, shown.stderr
    assert start in shown.stdout and "perfect.py wins" in shown.stdout
    page = db.parent / "report.html"
    out = judge("show", "1", "--db", str(db), "--format", "html", "--output", str(page),
                path=[site])
    assert out.returncode == 0, out.stderr
    assert json.dumps(start)[1:-1] in page.read_text()  # the viewer's data: the drawing


def test_judge_show_jsonl_gives_every_game_with_its_moves_and_they_replay(
        graded, site) -> None:
    db, run = graded
    out = judge("show", "1", "--db", str(db), "--format", "jsonl", path=[site])
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    transcripts = {t["game_number"]: t for t in lines}
    assert len(lines) == len(transcripts) == len(run["games"]) == 42
    for game in run["games"]:
        said = transcripts[game["game"]]
        assert (said["game"], said["rules"]) == ("subtraction", "heap=21 take=1,2,3")
        assert said["start"] == game["start"]
        moves = [m["move"] for m in said["moves"]]
        assert moves == game["moves"] and moves, game["game"]
        # the takes empty the heap: the game is there to its end
        assert int(said["start"]) - sum(map(int, moves)) == int(said["final"]) == 0
    saved = db.parent / "games.jsonl"
    saved.write_text(out.stdout)
    replayed = judge("show", "--replay", str(saved), path=[site])
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.strip() == "42 of 42 transcripts replay as recorded"


# --- judge tournament, judge match, judge league -----------------------------------------------

def first_to_move_wins(start: str) -> bool:
    """Whether the player to move wins from a heap of `start` with takes of 1, 2 or 3."""
    return int(start) % 4 != 0


def test_judge_tournament_ranks_the_perfect_bot_above_the_weak_one(site, tmp_path) -> None:
    out = judge("tournament", "--game", "subtraction", "--seed", "1", "--jobs", "2", "--db",
                str(tmp_path / "t.db"), str(BOTS / "perfect.py"), str(BOTS / "weak.py"),
                path=[site], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("tournament 1: subtraction (seed 1")
    assert "rules: heap=21 take=1,2,3" in out.stdout
    ranked = re.findall(r"^(\d+)\s+\S*bots/(\w+)\.py\s", out.stdout, re.MULTILINE)
    assert ranked == [("1", "perfect"), ("2", "weak")]


def test_judge_tournament_with_the_optimal_player_ties_it_with_the_perfect_bot(
        site, tmp_path) -> None:
    perfect, weak = str(BOTS / "perfect.py"), str(BOTS / "weak.py")
    out = judge("tournament", "--game", "subtraction", "--seed", "1", "--jobs", "2",
                "--include-optimal", "--format", "json", "--db", str(tmp_path / "t.db"),
                perfect, weak, path=[site], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert [s["bot"] for s in result["standings"]][-1] == weak
    assert {s["bot"] for s in result["standings"]} == {perfect, "optimal", weak}
    # two perfect players: each wins exactly the starts won for its seat
    assert result["crosstable"][perfect]["optimal"] == result["crosstable"]["optimal"][perfect]
    met = [g for g in result["games"] if set(g["players"]) == {perfect, "optimal"}]
    assert len(met) == 2 * len({g["start"] for g in met}) > 0  # each start in both seats
    for game in met:
        assert game["results"][0] == ("win" if first_to_move_wins(game["start"]) else "loss")
    standing = {s["bot"]: s for s in result["standings"]}
    assert standing[perfect]["accuracy"] == 1.0 and standing[perfect]["points"] > (
        standing[weak]["points"])


def test_judge_match_ends_at_max_games_with_the_perfect_bot_ahead(site, tmp_path) -> None:
    perfect, weak = str(BOTS / "perfect.py"), str(BOTS / "weak.py")
    out = judge("match", "--game", "subtraction", "--seed", "1", "--jobs", "2", "--max-games",
                "24", "--format", "json", "--db", str(tmp_path / "m.db"), perfect, weak,
                path=[site], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["state"] == "finished" and result["pairs"] == 12
    assert result["game"] == "subtraction heap=21 take=1,2,3"
    assert result["wins"] > result["losses"] and result["score"] > 0.5 and result["elo"] > 0
    assert len(result["games"]) == 24
    for game in result["games"]:  # the perfect bot wins every start won for its seat
        seat = game["players"].index(perfect)
        if first_to_move_wins(game["start"]) == (seat == 0):
            assert game["results"][seat] == "win", game
    shown = judge("show", "1", "--db", str(tmp_path / "m.db"), path=[site], cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "no decision: --max-games 24 reached" in shown.stdout


def test_a_league_of_the_two_bots_has_both_on_its_leaderboard(site, tmp_path) -> None:
    db = str(tmp_path / "l.db")

    def league(*args: str) -> subprocess.CompletedProcess:
        out = judge("league", *args, "--db", db, path=[site], cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out

    assert "league 1: subtraction heap=21 take=1,2,3" in league(
        "new", "--game", "subtraction", "--seed", "1").stdout
    league("add", "perfect", str(BOTS / "perfect.py"))
    league("add", "weak", str(BOTS / "weak.py"))
    assert "12 games played" in league("play", "--games", "12", "--jobs", "2").stderr
    board = json.loads(league("show", "--format", "json").stdout)
    assert board["game"] == "subtraction heap=21 take=1,2,3" and board["games"] == 12
    rows = {row["name"]: row for row in board["leaderboard"]}
    assert [row["name"] for row in board["leaderboard"]] == ["perfect", "weak"]
    assert rows["perfect"]["games"] == rows["weak"]["games"] == 12
    assert rows["perfect"]["wins"] == rows["weak"]["losses"] > rows["perfect"]["losses"]
    assert rows["perfect"]["accuracy"] == 1.0
    table = league("show").stdout
    assert re.search(r"^1\s+perfect\s+v1\s", table, re.MULTILINE)
    assert re.search(r"^2\s+weak\s+v1\s", table, re.MULTILINE)


# --- judge play, judge opponent ---------------------------------------------------------------

def test_judge_play_prints_a_game_against_the_optimal_player_to_its_end(site) -> None:
    out = judge("play", "--game", "subtraction", "--rules", "heap=9", "--vs", "optimal",
                str(BOTS / "perfect.py"), path=[site])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("subtraction heap=9 take=1,2,3: player 1 ")
    # (each move by the game's name for it, then the text a player types: "take 3 (3)")
    moves = re.findall(r"^\d+\. player (\d) \(.*\): take \d+ \((\d+)\) ", out.stdout,
                       re.MULTILINE)
    assert sum(int(take) for _, take in moves) == 9 and moves[-1][0] == "1"
    heap = 9
    for seat, take in moves:  # each take of the bot leaves a multiple of 4
        heap -= int(take)
        assert seat == "2" or heap % 4 == 0
    assert out.stdout.count("  optimal\n") == len([m for m in moves if m[0] == "1"])
    assert "heap:   0\n(a move takes 1, 2 or 3; game over)" in out.stdout
    assert out.stdout.rstrip().endswith("perfect.py wins\nverdict: ok")


def test_judge_play_between_the_two_bots_gives_the_result_as_json(site) -> None:
    out = judge("play", "--game", "subtraction", "--start", "6", "--format", "json", "--vs",
                str(BOTS / "weak.py"), str(BOTS / "perfect.py"), path=[site])
    assert out.returncode == 0, out.stderr
    game = json.loads(out.stdout)
    assert (game["game"], game["start"]) == ("subtraction heap=21 take=1,2,3", "6")
    assert (game["result"], game["verdict"]) == ("win", "ok")
    assert [p["result"] for p in game["players"]] == ["win", "loss"]
    assert sum(int(m["move"]) for m in game["moves"]) == 6
    assert (game["moves"][0]["seat"], game["moves"][0]["move"]) == (1, "2")  # leaves 4


def test_judge_opponent_answers_each_take_with_perfect_play(site) -> None:
    # from 10 counters the mover wins with a take of 2; taking 1 each time, the optimal
    # opponent leaves multiples of 4 (8, then 4) and takes the last 3, which it does not
    # send: it closes its output and says so on stderr
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-m", "judge", "opponent", "--game", "subtraction",
                          "--start", "10"], input="1\n1\n1\n", capture_output=True,
                         text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "1 2 3\n10\n1\n3\n"
    assert out.stderr.splitlines() == ["opponent: plays 3, which ends the game",
                                       "opponent: game over, you lose"]
    bad = subprocess.run([sys.executable, "-m", "judge", "opponent", "--game", "subtraction",
                          "--start", "10"], input="4\n", capture_output=True, text=True,
                         timeout=60, env=env)
    assert bad.returncode == 1
    assert "illegal-move: move 1: a move takes 1, 2 or 3 counters, not 4" in bad.stderr


@pytest.mark.parametrize("rules, outcome", [("heap=20 take=1,3,4", "you win"),
                                            ("heap=21 take=1,3,4", "you lose")])
def test_judge_opponent_plays_the_perfect_bot_over_pipes(site, rules, outcome) -> None:
    # as docs/playing.md connects a bot: its output to the opponent's input and back; a
    # heap of 0 or 2 modulo 7 is lost for the mover with takes of 1, 3 or 4
    bot = subprocess.Popen([sys.executable, str(BOTS / "perfect.py")], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE)
    assert bot.stdin and bot.stdout
    try:
        opponent = subprocess.Popen(
            [sys.executable, "-m", "judge", "opponent", "--game", "subtraction", "--rules",
             rules], stdin=bot.stdout, stdout=bot.stdin, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONPATH=str(site)))
        bot.stdin.close()
        bot.stdout.close()
        _, err = opponent.communicate(timeout=60)
        assert bot.wait(timeout=60) == 0
    finally:
        bot.kill()
    assert opponent.returncode == 0, err
    assert err.strip().splitlines()[-1] == f"opponent: game over, {outcome}"


# --- the cluster ------------------------------------------------------------------------------

@contextmanager
def cluster(tmp_path: Path, workers: list[list[Path]]) -> Iterator[str]:
    """A `judge scheduler` on 127.0.0.1 and a `judge worker` (one game at a time) for each
    entry of `workers`, with those folders on its PYTHONPATH: where its packages are
    installed. The scheduler's address; all stopped at the end."""
    pytest.importorskip("distributed", reason="Dask distributed is not installed: "
                        "pip install -e '.[cluster]'")
    pytest.importorskip("cryptography", reason="cryptography is not installed: "
                        "pip install -e '.[cluster]'")
    from tests.test_cluster import start, start_scheduler, stop, wait_for_workers

    scheduler, address = start_scheduler(tmp_path)
    started: list[subprocess.Popen] = []
    try:
        for n, path in enumerate(workers):
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
            started.append(start([sys.executable, "-m", "judge", "worker", address, "--jobs",
                                  "1", "--name", f"w{n}"], tmp_path / f"worker{n}.log", env))
        wait_for_workers(address, len(workers))
        yield address
    finally:
        for proc in [*started, scheduler]:
            stop(proc)


def test_judge_run_on_a_cluster_whose_workers_have_the_plugin_grades_as_locally(
        site, graded, tmp_path) -> None:
    with cluster(tmp_path, [[site], [site]]) as address:
        out = judge("run", "--game", "subtraction", "--seats", "both", "--seed", "1", "--db",
                    str(tmp_path / "c.db"), "--cluster", address, "--format", "json",
                    str(BOTS / "perfect.py"), str(BOTS / "weak.py"), path=[site],
                    cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    remote, (_, local) = json.loads(out.stdout), graded  # the same run, played here

    def bots(run: dict[str, Any]) -> list[tuple]:
        return [(b["bot"], b["games"], b["wins"], b["losses"], b["points"]) for b in run["bots"]]

    def games(run: dict[str, Any]) -> list[tuple]:
        return sorted((g["bot"], g["start"], g["seat"], g["result"], g["verdict"], g["moves"])
                      for g in run["games"])

    assert remote["state"] == "finished" and remote["game"] == local["game"]
    assert bots(remote) == bots(local)
    assert games(remote) == games(local) and len(remote["games"]) == 42


def test_a_cluster_whose_worker_lacks_the_plugin_stops_the_run_naming_the_game(
        site, tmp_path) -> None:
    (tmp_path / "starts.txt").write_text("5\n9\n13\n")
    with cluster(tmp_path, [[]]) as address:
        out = judge("run", "--game", "subtraction", "--db", str(tmp_path / "r.db"), "--tests",
                    str(tmp_path / "starts.txt"), "--cluster", address,
                    str(BOTS / "perfect.py"), path=[site], cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    excluded, stopped = out.stderr.strip().splitlines()[-2:]
    assert excluded.startswith("judge: worker tls://127.0.0.1:")
    assert " is excluded: RulesError: unknown game 'subtraction' (games: " in excluded
    assert stopped == (f"judge: error: --cluster {address}: every worker was excluded (see "
                       f"above); stored: 0 of 3 games; continue with: judge run --resume 1 "
                       f"--db {tmp_path / 'r.db'}")


# --- judge serve ------------------------------------------------------------------------------

def test_judge_serve_offers_the_game_and_plays_it_over_http(site, monkeypatch) -> None:
    httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")
    from webserver import serving

    monkeypatch.setenv("PYTHONPATH", str(site))
    with serving("--bots", str(BOTS)) as url, httpx.Client(base_url=url, timeout=60) as web:
        listed = web.get("/api/games").json()
        offered = {g["game"]: g for g in listed["games"]}
        assert offered["subtraction"]["rules"] == {"heap": "21", "take": "1,2,3"}
        assert {"perfect.py", "weak.py"} <= set(listed["bots"])
        assert web.get("/play/subtraction").status_code == 200
        # against the optimal player from 10 counters: the winning take leaves a multiple of 4
        state = web.post("/api/sessions", json={"game": "subtraction", "rules": "heap=10",
                                                "opponent": "optimal", "values": True}).json()
        assert state["position"] == "10" and state["value"] == "win"
        while not state["over"]:
            take = next(m["move"] for m in state["moves"] if m["value"] == "win")
            assert (int(state["position"]) - int(take)) % 4 == 0
            state = web.post(f"/api/sessions/{state['id']}/move", json={"move": take}).json()
        assert state["result"] == "1" and state["position"] == "0"
        # against the perfect sample bot, confined, from 8 counters (lost for the mover)
        state = web.post("/api/sessions", json={"game": "subtraction", "rules": "heap=8",
                                                "opponent": "perfect.py"}).json()
        while not state["over"]:
            state = web.post(f"/api/sessions/{state['id']}/move",
                             json={"move": state["moves"][0]["move"]}).json()
        assert state["result"] == "2" and state["verdict"] is None


# --- the protocol page ------------------------------------------------------------------------

def test_a_package_that_does_not_ship_its_protocol_page_is_told_by_the_check(
        tmp_path: Path) -> None:
    """The mistake an editable install hides: a pyproject.toml without the package-data line
    installs no protocol.md; `judge games --check` says so, and `--protocol` too."""
    source = tmp_path / "plugin-game"
    shutil.copytree(PLUGIN, source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    project = source / "pyproject.toml"
    text = project.read_text()
    data = '\n[tool.setuptools.package-data]\nsubtraction_game = ["protocol.md"]\n'
    assert data in text
    project.write_text(text.replace(data, "\n"))
    pip_install(source, tmp_path / "site")
    site = tmp_path / "site"
    assert not (site / "subtraction_game" / "protocol.md").exists()
    check = judge("games", "--check", "subtraction", path=[site])
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines()[-1] == (
        "skipped  transcripts    the game's package ships no protocol page (protocol.md "
        "beside its __init__.py, as package data)")
    page = judge("games", "--protocol", "subtraction", path=[site])
    assert page.returncode == 2 and "has no protocol page" in page.stderr


def test_the_protocol_pages_transcript_is_what_the_judge_and_the_perfect_bot_say(
        site, monkeypatch, tmp_path) -> None:
    block = re.search(r"^```transcript\n(.*?)^```$", PROTOCOL.read_text(),
                      re.MULTILINE | re.DOTALL)
    assert block
    pairs = [(m, line.strip()) for m, _, line in
             (raw.partition(">") for raw in block.group(1).splitlines())]
    assert pairs[-1][0] == "close"
    said = [line for m, line in pairs if m == "judge"]
    # the perfect sample bot, sent the judge's lines, writes the transcript's bot lines
    perfect = subprocess.run([sys.executable, str(BOTS / "perfect.py")], text=True,
                             input="".join(f"{line}\n" for line in said),
                             capture_output=True, timeout=60)
    assert perfect.stdout.split("\n")[:-1] == [line for m, line in pairs if m == "bot"]
    # the referee sends exactly the judge's lines, and accepts the bot's
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(games, "GAMES", Registry())
    try:
        game = load_game("subtraction", f"take={said[0].replace(' ', ',')}")
        bot = tmp_path / "scripted.py"
        bot.write_text(TRANSCRIPT_BOT.format(script=pairs))
        players: list[Player] = [BotPlayer(bot, limits=Limits(first_move_seconds=20),
                                           sandbox="none"), Scripted(said[2:])]
        record = play_game(game, players, game.parse_position(said[1]))
    finally:
        sys.modules.pop("subtraction_game", None)
    assert record.verdict.code == "ok", record.verdict.message
    assert record.results == ["win", "loss"]  # the bot took the last counter


# --- names taken, packages broken ------------------------------------------------------------

def test_a_plugin_with_a_built_in_games_name_is_noted_and_not_used(site, tmp_path) -> None:
    shadow = fake_package(tmp_path, "shadow-game", "2.0", "nim = subtraction_game:Subtraction")
    listed = judge("games", path=[site, shadow])
    assert listed.returncode == 0, listed.stderr
    assert ("shadow-game 2.0 registers a game 'nim' (subtraction_game:Subtraction), which is "
            "not used") in listed.stderr
    assert games_json([site, shadow])["nim"]["class"] == "judge.games.nim:Nim"
    out = judge("solve", "--game", "nim", "--format", "json", "1 2", path=[site, shadow])
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)[0]  # Nim's heaps 1 and 2, not a heap of the plugin's
    assert row["value"] == "win" and row["best_moves"] == ["2 1"]


def test_a_plugin_that_fails_to_import_stops_only_the_commands_that_ask_for_it(
        site, tmp_path) -> None:
    broken = fake_package(tmp_path, "broken-game", "1.0", "broken = broken_game:Broken")
    (broken / "broken_game.py").write_text('raise ImportError("needs a module it lacks")\n')
    out = judge("solve", "--game", "broken", "3", path=[site, broken])
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "judge: error: game 'broken' (broken_game:Broken, from broken-game 1.0) cannot be "
        "loaded: ImportError: needs a module it lacks")
    listed = judge("games", path=[site, broken])
    assert listed.returncode == 1 and "broken-game 1.0" in listed.stdout
    assert "subtraction  (from subtraction-game 1.0.0" in listed.stdout
    out = judge("solve", "--game", "subtraction", "4", path=[site, broken])
    assert out.returncode == 0 and "loss" in out.stdout
