"""Runs on a Dask cluster: a real scheduler and two `judge worker`s on 127.0.0.1, started
here as subprocesses. The same seed gives the same standings as the local pool, and a worker
killed mid-run loses and duplicates nothing."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="Dask distributed is not installed (judge[cluster])")

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"


def start(args: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True, env=env)


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def start_scheduler(tmp_path: Path, **env: str) -> tuple[subprocess.Popen, str]:
    """A Dask scheduler on 127.0.0.1 (with `env` added to its environment) and its address
    (once it listens)."""
    info = tmp_path / "scheduler.json"
    scheduler = start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                       "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                       str(info)], tmp_path / "scheduler.log", env={**os.environ, **env})
    deadline = time.monotonic() + 60
    address = ""
    while not address and time.monotonic() < deadline and scheduler.poll() is None:
        time.sleep(0.2)
        try:  # written by the scheduler once it listens
            address = json.loads(info.read_text())["address"]
        except (OSError, ValueError, KeyError):
            continue
    if not address:
        stop(scheduler)
        pytest.fail("the Dask scheduler did not start")
    return scheduler, address


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen], subprocess.Popen]]:
    """A scheduler's address, its two workers (one game at a time each) and itself."""
    scheduler, address = start_scheduler(tmp_path)
    workers: list[subprocess.Popen] = []
    try:
        for n in range(2):
            workers.append(start([sys.executable, "-m", "judge", "worker", address, "--jobs",
                                  "1", "--name", f"w{n}"], tmp_path / f"worker{n}.log"))
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers, scheduler
    finally:
        for proc in [*workers, scheduler]:
            stop(proc)


def slow_run(tmp_path: Path, address: str, games: int, pause: float, extra: list[str],
             **popen: object) -> subprocess.Popen:
    """`judge run` on the cluster of a Nim bot that thinks `pause` s a move, on starts of one
    heap of 1 to `games` counters (one game each), stored in tmp_path/r.db."""
    slow = tmp_path / "slow.py"
    slow.write_text(f"import sys, time\nfor line in sys.stdin:\n    time.sleep({pause})\n"
                    "    print(1, line.split()[0], flush=True)\n")
    (tmp_path / "starts.txt").write_text("".join(f"{n}\n" for n in range(1, games + 1)))
    return subprocess.Popen(
        [sys.executable, "-m", "judge", "run", "--game", "nim", "--db", str(tmp_path / "r.db"),
         "--tests", str(tmp_path / "starts.txt"), "--cluster", address, *extra, str(slow)],
        cwd=tmp_path, **popen)


def wait_for_games(db: Path, count: int, run: subprocess.Popen) -> int:
    """Wait (up to 2 minutes) until `count` games of the run are stored or it ends; how
    many are stored then."""
    stored, deadline = 0, time.monotonic() + 120
    while stored < count and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                stored = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.Error:
            continue
    return stored


def judge(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


def test_a_tournament_on_the_cluster_has_the_local_standings(cluster, tmp_path: Path) -> None:
    address, *_ = cluster
    args = ["tournament", "--game", "nim", "--seed", "5", "--include-optimal", "--format",
            "json", str(NIM / "optimal.py"), str(NIM / "random.py")]
    remote = judge(*args, "--db", str(tmp_path / "c.db"), "--cluster", address, cwd=tmp_path)
    assert remote.returncode == 0, remote.stderr
    local = judge(*args, "--db", str(tmp_path / "l.db"), cwd=tmp_path)
    assert local.returncode == 0, local.stderr

    def table(out: subprocess.CompletedProcess) -> list:
        return [(s["bot"], s["points"], s["wins"], s["losses"])
                for s in json.loads(out.stdout)["standings"]]

    assert table(remote) == table(local)
    moves = {g["key"]: g["moves"] for g in json.loads(remote.stdout)["games"]}
    assert moves == {g["key"]: g["moves"] for g in json.loads(local.stdout)["games"]}


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(cluster, tmp_path: Path) -> None:
    address, workers, _ = cluster
    db = tmp_path / "r.db"
    run = slow_run(tmp_path, address, 40, 0.05, ["--format", "json"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_games(db, 5, run)
    assert run.poll() is None, "the run ended before a worker could be killed"
    stop(workers[0])  # kill -9, mid-game
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    result = json.loads(out)
    assert result["bots"][0]["games"] == 40  # each start once: nothing lost
    keys = [g["start"] for g in result["games"]]
    assert sorted(keys, key=int) == [str(n) for n in range(1, 41)]  # nothing twice
    assert result["bots"][0]["judge_errors"] == 0


@pytest.mark.parametrize("command", ["run", "tournament", "match"])
def test_a_scheduler_that_does_not_answer_is_exit_status_2_and_stores_nothing(
        tmp_path: Path, command: str) -> None:
    bots = [str(NIM / "optimal.py")] + ([str(NIM / "random.py")] if command != "run" else [])
    out = judge(command, "--game", "nim", "--db", str(tmp_path / "r.db"), "--cluster",
                "tcp://127.0.0.1:9", *bots, cwd=tmp_path)
    assert out.returncode == 2 and "no Dask scheduler answers" in out.stderr
    # nothing listens there: refused at once, not after the client's connect timeout
    assert "Connection refused" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "r.db").exists()  # no run was created to be left interrupted


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_a_worker_needs_at_least_one_job(tmp_path: Path, jobs: str) -> None:
    out = judge("worker", "tcp://127.0.0.1:9", "--jobs", jobs, cwd=tmp_path)
    assert out.returncode == 2 and "--jobs must be at least 1" in out.stderr


def test_a_scheduler_without_judge_workers_is_refused_before_a_run_is_created(
        tmp_path: Path) -> None:
    scheduler, address = start_scheduler(tmp_path)
    try:
        out = judge("run", "--game", "nim", "--db", str(tmp_path / "r.db"), "--cluster",
                    address, str(NIM / "optimal.py"), cwd=tmp_path)
    finally:
        stop(scheduler)
    assert out.returncode == 2, out.stderr
    assert f"start workers with `judge worker {address}`" in out.stderr
    assert not (tmp_path / "r.db").exists()


def test_a_worker_whose_sandbox_fails_is_excluded_with_a_message(cluster,
                                                                 tmp_path: Path) -> None:
    address, workers, _ = cluster
    broken = {**os.environ, "JUDGE_CACHE_DIR": "/etc/passwd"}  # no cache: no helper, no build
    bad = subprocess.Popen([sys.executable, "-m", "judge", "worker", address, "--jobs", "1",
                            "--name", "broken"], env=broken, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers.append(bad)  # stopped with the others
    from distributed import Client

    with Client(address, timeout=30) as client:
        client.wait_for_workers(3, timeout=60)
    (tmp_path / "starts.txt").write_text("".join(f"{n} {n + 1}\n" for n in range(1, 13)))
    out = judge("run", "--game", "nim", "--db", str(tmp_path / "r.db"), "--tests",
                str(tmp_path / "starts.txt"), "--cluster", address, "--format", "json",
                str(NIM / "optimal.c"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["bots"][0]["games"] == 12 and result["bots"][0]["judge_errors"] == 0
    assert "is excluded" in out.stderr and "JUDGE_CACHE_DIR" in out.stderr
    # a match plays batch after batch: the worker stays excluded, said once
    bots = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text((NIM / "random.py").read_text())
        bots.append(str(tmp_path / name))
    match = judge("match", "--game", "nim", "--max-games", "48", "--seed", "2", "--db",
                  str(tmp_path / "m.db"), "--cluster", address, "--format", "json", *bots,
                  cwd=tmp_path)
    assert match.returncode == 0, match.stderr
    assert json.loads(match.stdout)["pairs"] == 24
    assert match.stderr.count("is excluded") <= 1


def test_a_coordinator_killed_mid_run_resumes_on_the_cluster(cluster, tmp_path: Path) -> None:
    address, *_ = cluster
    db = tmp_path / "r.db"
    first = slow_run(tmp_path, address, 30, 0.3, [], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
    stored = wait_for_games(db, 3, first)
    assert first.poll() is None and stored < 30, "the run ended before it could be killed"
    stop(first)  # the coordinator, killed with SIGKILL
    again = judge("run", "--resume", "1", "--db", str(db), "--cluster", address, "--format",
                  "json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    result = json.loads(again.stdout)
    assert result["state"] == "finished" and result["bots"][0]["games"] == 30
    assert sorted(int(g["start"]) for g in result["games"]) == list(range(1, 31))


def test_a_match_on_the_cluster_plays_the_local_match_batch_after_batch(
        cluster, tmp_path: Path) -> None:
    # 15 batches of 4 pairs through one client: each batch ships the bots again, and none
    # may lose the copy the batch before it is releasing
    address, *_ = cluster
    bots = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text((NIM / "random.py").read_text())
        bots.append(str(tmp_path / name))
    args = ["match", "--game", "nim", "--max-games", "120", "--seed", "6", "--jobs", "2",
            "--format", "json", *bots]
    remote = judge(*args, "--db", str(tmp_path / "c.db"), "--cluster", address, cwd=tmp_path)
    assert remote.returncode == 0, remote.stderr
    local = judge(*args, "--db", str(tmp_path / "l.db"), cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    got, want = json.loads(remote.stdout), json.loads(local.stdout)
    assert got["state"] == "finished" and got["pairs"] == 60
    for key in ("pairs", "pentanomial", "elo", "llr", "decision"):
        assert got[key] == want[key]
    assert ([(g["key"], g["moves"]) for g in got["games"]]
            == [(g["key"], g["moves"]) for g in want["games"]])


def test_a_scheduler_killed_mid_run_stops_the_run_with_the_way_to_resume(
        cluster, tmp_path: Path) -> None:
    address, _, scheduler = cluster
    db = tmp_path / "r.db"
    run = slow_run(tmp_path, address, 30, 0.2, [], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True)
    stored = wait_for_games(db, 3, run)
    assert run.poll() is None and stored < 30, "the run ended before the scheduler was killed"
    stop(scheduler)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 1, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert f"--cluster {address}: the cluster stopped playing" in lines[-1]
    assert f"continue with: judge run --resume 1 --db {db}" in lines[-1]


def test_a_bot_changed_during_a_run_on_the_cluster_stops_it_as_locally(tmp_path: Path) -> None:
    # a local run checks each bot's SHA-256 before every game; on a cluster the bots are
    # shipped by content, so the content shipped is checked against the run's fingerprints
    # (before the scheduler is even asked)
    import hashlib

    from judge.cluster import play_on_cluster
    from judge.games.base import Stopped
    from judge.schedule import OPTIMAL, GameSpec, Setup

    bot = tmp_path / "bot.py"
    bot.write_text((NIM / "random.py").read_text())
    setup = Setup("nim", "", {}, "none",
                  fingerprints={str(bot): hashlib.sha256(bot.read_bytes()).hexdigest()})
    specs = [GameSpec("k", (str(bot), OPTIMAL), "1 2")]
    bot.write_text((NIM / "optimal.py").read_text())
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        next(play_on_cluster(setup, specs, "tcp://127.0.0.1:9"))
    bot.unlink()
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        next(play_on_cluster(setup, specs, "tcp://127.0.0.1:9"))


def test_a_game_whose_workers_all_die_stops_the_run_in_one_line(tmp_path: Path) -> None:
    # the scheduler gives a game up once the workers that took it died (here at the first,
    # allowed-failures=0): the run stops with what is stored and how to resume
    scheduler, address = start_scheduler(
        tmp_path, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    worker = start([sys.executable, "-m", "judge", "worker", address, "--jobs", "1"],
                   tmp_path / "worker.log")
    try:
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        db = tmp_path / "r.db"
        run = slow_run(tmp_path, address, 20, 0.2, [], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
        wait_for_games(db, 2, run)
        assert run.poll() is None, "the run ended before its worker could be killed"
        stop(worker)  # the worker's processes, with the game under way
        _, err = run.communicate(timeout=300)
    finally:
        for proc in (worker, scheduler):
            stop(proc)
    assert run.returncode == 1, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert "was given up by the scheduler" in last and "judge run --resume 1" in last
