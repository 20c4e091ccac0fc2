"""Runs on a Dask cluster: a real `judge scheduler` and two `judge worker`s on 127.0.0.1,
started here as subprocesses, every party proving itself over TLS with the judge's
credentials. The same seed gives the same standings as the local pool, a worker killed
mid-run loses and duplicates nothing, and neither a party without the credentials nor a
bot reaches the cluster."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import missing_guarantee

#: slow: Dask clusters started and killed (`-m slow` runs them)
pytestmark = pytest.mark.slow

CLUSTER_EXTRA = "pip install -e '.[cluster]'"
pytest.importorskip("distributed", reason=f"Dask distributed is not installed: {CLUSTER_EXTRA}")
pytest.importorskip("cryptography", reason=f"cryptography is not installed: {CLUSTER_EXTRA}")

from judge import credentials  # noqa: E402
from judge.games.base import InputError  # noqa: E402
from judge.sandbox import Limits, Tier  # noqa: E402
from tests.command import judge  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"
#: a tier without its own network: bots under it could reach the cluster
NETWORKED = Tier("none", uid=False, cgroups=False, helper=True)


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
    """`judge scheduler` on 127.0.0.1 (with `env` added to its environment) and its address
    (once it listens); skipped where bots would have the network, which it refuses."""
    reason = missing_guarantee(("network",))
    if reason is not None:
        pytest.skip(f"{reason}: a cluster is refused")
    log = tmp_path / "scheduler.log"
    scheduler = start([sys.executable, "-m", "judge", "scheduler", "--host", "127.0.0.1",
                       "--port", "0"], log, env={**os.environ, **env})
    deadline = time.monotonic() + 60
    address = ""
    while not address and time.monotonic() < deadline and scheduler.poll() is None:
        time.sleep(0.2)
        # printed alone on its line once it listens
        address = next((line for line in log.read_text().splitlines()
                        if line.startswith("tls://")), "")
    if not address:
        stop(scheduler)
        pytest.fail(f"judge scheduler did not start: {log.read_text()}")
    return scheduler, address


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, security=credentials.security(), timeout=30) as client:
        client.wait_for_workers(count, timeout=60)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen], subprocess.Popen]]:
    """A scheduler's address, its two workers (one game at a time each) and itself."""
    scheduler, address = start_scheduler(tmp_path)
    workers: list[subprocess.Popen] = []
    try:
        for n in range(2):
            workers.append(start([sys.executable, "-m", "judge", "worker", address, "--jobs",
                                  "1", "--name", f"w{n}"], tmp_path / f"worker{n}.log"))
        wait_for_workers(address, 2)
        yield address, workers, scheduler
    finally:
        for proc in [*workers, scheduler]:
            stop(proc)


@pytest.fixture
def made() -> Path:
    """The judge's credentials folder, its credentials made (as `judge scheduler` does)."""
    return credentials.files(make=True)


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


def bots_for(command: str) -> list[str]:
    """A Nim bot to grade, or two to play each other."""
    return [str(NIM / "optimal.py")] + ([str(NIM / "random.py")] if command != "run" else [])


# (where bots would have the network, a cluster is refused before any is looked for)
@pytest.mark.needs_guarantee("network")
@pytest.mark.parametrize("command", ["run", "tournament", "match"])
def test_a_scheduler_that_does_not_answer_is_exit_status_2_and_stores_nothing(
        tmp_path: Path, command: str, made: Path) -> None:
    out = judge(command, "--game", "nim", "--db", str(tmp_path / "r.db"), "--cluster",
                "tls://127.0.0.1:9", *bots_for(command), cwd=tmp_path)
    assert out.returncode == 2 and "no Dask scheduler answers" in out.stderr
    # nothing listens there: refused at once, not after the client's connect timeout
    assert "Connection refused" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "r.db").exists()  # no run was created to be left interrupted


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_a_worker_needs_at_least_one_job(tmp_path: Path, jobs: str) -> None:
    out = judge("worker", "tls://127.0.0.1:9", "--jobs", jobs, cwd=tmp_path)
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
    # no cache: no helper, no tier; Dask's own command, as `judge worker` refuses to start
    # where it cannot tell its tier
    broken = {**os.environ, "JUDGE_CACHE_DIR": "/etc/passwd"}
    folder = credentials.folder()
    bad = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                            "--nworkers", "1", "--nthreads", "1", "--resources", "games=1",
                            "--name", "broken", "--tls-ca-file", str(folder / "ca.pem"),
                            "--tls-cert", str(folder / "cert.pem"), "--tls-key",
                            str(folder / "key.pem")], env=broken, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers.append(bad)  # stopped with the others
    wait_for_workers(address, 3)
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
    from judge.playing import OPTIMAL, GameSpec, Setup

    bot = tmp_path / "bot.py"
    bot.write_text((NIM / "random.py").read_text())
    setup = Setup("nim", "", Limits(), "none",
                  fingerprints={str(bot): hashlib.sha256(bot.read_bytes()).hexdigest()})
    specs = [GameSpec("k", (str(bot), OPTIMAL), "1 2")]
    bot.write_text((NIM / "optimal.py").read_text())
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        next(play_on_cluster(setup, specs, "tls://127.0.0.1:9"))
    bot.unlink()
    with pytest.raises(Stopped, match="changed .or went. during the run"):
        next(play_on_cluster(setup, specs, "tls://127.0.0.1:9"))


def test_a_game_whose_workers_all_die_stops_the_run_in_one_line(tmp_path: Path) -> None:
    # the scheduler gives a game up once the workers that took it died (here at the first,
    # allowed-failures=0): the run stops with what is stored and how to resume
    scheduler, address = start_scheduler(
        tmp_path, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    worker = start([sys.executable, "-m", "judge", "worker", address, "--jobs", "1"],
                   tmp_path / "worker.log")
    try:
        wait_for_workers(address, 1)
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


# --- the cluster is the judge's alone ------------------------------------------------------


def test_a_client_without_the_credentials_cannot_reach_the_scheduler(tmp_path: Path) -> None:
    from distributed import Client, Security

    scheduler, address = start_scheduler(tmp_path)
    folder = credentials.folder()
    other = Security.temporary()  # another CA's certificate
    strangers = {
        "plain TCP": (address.replace("tls://", "tcp://"), None),
        "another CA": (address, other),
        # trusts the scheduler, but shows a certificate the judge's CA did not sign
        "another certificate": (address, Security(
            require_encryption=True, tls_ca_file=str(folder / "ca.pem"),
            tls_client_cert=other.tls_client_cert, tls_client_key=other.tls_client_key)),
    }
    try:
        with Client(address, security=credentials.security(), timeout=10) as client:
            assert client.submit(sum, [1, 2], pure=False).key  # the judge's own: taken
        for name, (where, security) in strangers.items():
            began = time.monotonic()
            with pytest.raises((OSError, TimeoutError)):
                Client(where, security=security, timeout=3, set_as_default=False)
            assert time.monotonic() - began < 10, name
        # no certificate at all: the scheduler ends the connection at the first read
        host, port = address.removeprefix("tls://").rsplit(":", 1)
        context = ssl.create_default_context(cafile=str(folder / "ca.pem"))
        context.check_hostname = False
        with socket.create_connection((host, int(port)), timeout=3) as raw:
            with pytest.raises((ssl.SSLError, ConnectionError)):
                with context.wrap_socket(raw) as tls:
                    tls.sendall(b"\0" * 8)
                    assert tls.recv(8) == b""  # (closed, if no alert came)
                    raise ConnectionError("closed")
    finally:
        stop(scheduler)


def test_the_credentials_are_the_judges_users_alone(tmp_path: Path) -> None:
    # a folder others may pass through, as a cache folder is: only the modes keep them out
    base = Path(tempfile.mkdtemp(prefix="judge-credentials-"))
    try:
        base.chmod(0o755)
        folder = credentials.files(str(base / "cluster"), make=True)
        assert folder.stat().st_mode & 0o777 == 0o700
        names = sorted(p.name for p in folder.iterdir())
        assert names == ["ca.pem", "cert.pem", "key.pem"]  # the CA's key is not kept
        for name in names:
            st = (folder / name).stat()
            assert st.st_mode & 0o777 == 0o600 and st.st_uid == os.geteuid()
        if os.geteuid() == 0:  # a slot's uid cannot read them, nor list the folder
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    os.setgid(60000)
                    os.setuid(60000)
                    for path in [folder / name for name in names]:
                        try:
                            path.read_bytes()
                            code = 1
                        except PermissionError:
                            pass
                    try:
                        os.listdir(folder)
                        code = 1
                    except PermissionError:
                        pass
                finally:
                    os._exit(code)
            assert os.waitpid(pid, 0)[1] == 0, "uid 60000 could read the credentials"
        # credentials others could read are refused, not used
        (folder / "key.pem").chmod(0o644)
        with pytest.raises(InputError, match="must be this user's alone"):
            credentials.files(str(folder))
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=True)


@pytest.mark.parametrize("command", ["run", "tournament", "match", "worker"])
def test_an_address_without_tls_is_exit_status_2(tmp_path: Path, command: str) -> None:
    where = (["tcp://127.0.0.1:9"] if command == "worker" else
             ["--game", "nim", "--db", str(tmp_path / "r.db"), "--cluster",
              "tcp://127.0.0.1:9", *bots_for(command)])
    out = judge(command, *where, cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "tcp://127.0.0.1:9: only a tls:// address is taken" in out.stderr
    assert not (tmp_path / "r.db").exists()


def test_the_check_refuses_a_tier_whose_bots_have_the_network() -> None:
    from judge.cluster import refuse_unconfined

    with pytest.raises(InputError, match="bots here would have the network"):
        refuse_unconfined("none", "--cluster", NETWORKED)
    refuse_unconfined("bwrap", "--cluster", Tier("bwrap", uid=False, cgroups=False,
                                                  helper=True))


@pytest.mark.parametrize("command", ["run", "tournament", "match"])
def test_cluster_is_refused_where_bots_would_have_the_network(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], made: Path) -> None:
    import judge.sandbox
    from judge.cli import main

    # as an ordinary user without bubblewrap: --sandbox none
    monkeypatch.setattr(judge.sandbox, "tier_for", lambda mode: NETWORKED)
    monkeypatch.chdir(tmp_path)
    status = main([command, "--game", "nim", "--sandbox", "none", "--db",
                   str(tmp_path / "r.db"), "--cluster", "tls://127.0.0.1:9",
                   *bots_for(command)])
    assert status == 2
    assert "--cluster: bots here would have the network" in capsys.readouterr().err
    assert not (tmp_path / "r.db").exists()


def test_a_worker_refuses_a_game_whose_bots_would_have_the_network(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed

    import judge.sandbox
    from judge.cluster import WorkerFailed, play_remote
    from judge.playing import OPTIMAL, GameSpec, Setup

    monkeypatch.setattr(judge.sandbox, "tier_for", lambda mode: NETWORKED)
    monkeypatch.setattr(distributed, "get_worker",
                        lambda: type("W", (), {"address": "tls://w:1"})())
    with pytest.raises(WorkerFailed, match="would have the network"):
        play_remote(Setup("nim", "", Limits(), "none"),
                    GameSpec("k", (str(NIM / "optimal.py"), OPTIMAL), "1 2"))


def test_a_bot_on_a_worker_cannot_reach_the_scheduler(cluster, tmp_path: Path) -> None:
    address, *_ = cluster
    port = int(address.rsplit(":", 1)[1])
    bot = tmp_path / "bot.py"
    bot.write_text(f"""import socket, sys
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    print("GOT a connection to the scheduler", file=sys.stderr, flush=True)
except OSError as exc:
    print(f"NOT a connection to the scheduler: {{exc}}", file=sys.stderr, flush=True)
for line in sys.stdin:
    print(1, line.split()[0], flush=True)
""")
    (tmp_path / "starts.txt").write_text("3\n")
    db = tmp_path / "r.db"
    out = judge("run", "--game", "nim", "--db", str(db), "--tests",
                str(tmp_path / "starts.txt"), "--cluster", address, str(bot), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(db) as con:
        (text,), = con.execute("SELECT record FROM games").fetchall()
    record = json.loads(text)
    said = " ".join(tail for tail in record["stderr"] if tail)
    assert "NOT a connection to the scheduler" in said and "GOT" not in said, said
    assert record["worker"] == socket.gethostname()  # played on a worker


def test_a_league_on_the_cluster_keeps_a_slot_busy_while_a_slow_game_plays(
        cluster, tmp_path: Path) -> None:
    # two workers of one game each: the slow bot's game holds up its own slot only, the
    # other slot is given game after game meanwhile (told by the order the games are
    # stored in, not by the time they took)
    from tests.test_league import GREEDY, SLOW_BOT, most_overtaken

    address, *_ = cluster

    def league(*args: str) -> subprocess.CompletedProcess:
        out = judge("league", *args, "--db", "l.db", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out

    (tmp_path / "starts.txt").write_text("1 2 4\n2 3\n1 1 3\n")
    (tmp_path / "slow.py").write_text(SLOW_BOT)
    league("new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
    for level, mu in (("level:2", "17"), ("level:8", "23")):
        league("add", "--anchor", level, "--mu", mu)  # pinned: bots play from the first game
    league("add", "slow", "slow.py")
    league("add", "fast", str(GREEDY))
    league("play", "--games", "30", "--cluster", address)
    with sqlite3.connect(tmp_path / "l.db") as store:
        rows = store.execute("SELECT key, record FROM games ORDER BY stored, rowid").fetchall()
    order = [key for key, _ in rows]
    assert len(order) == 30
    assert {json.loads(record)["worker"] for _, record in rows} == {socket.gethostname()}
    # a batch of games per slot (4 on 2 slots) would store none matched after a batch
    # before it ends
    assert most_overtaken(order) >= 6, order


def test_keep_busy_ships_each_setup_once_and_releases_the_one_replaced(
        cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a league's setup changes as bots are added: each setup is shipped once (with the
    # bots its games need), and one replaced is released once its games ended, not kept
    # until play ends
    import hashlib

    from judge import cluster as module
    from judge.playing import OPTIMAL, GameSpec, Setup

    address, *_ = cluster
    bots = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text((NIM / "random.py").read_text())
        bots.append(str(tmp_path / name))
    prints = {bot: hashlib.sha256(Path(bot).read_bytes()).hexdigest() for bot in bots}
    first = Setup("nim", "", Limits(), "auto", fingerprints={bots[0]: prints[bots[0]]})
    second = Setup("nim", "", Limits(), "auto", fingerprints=prints)
    items = [(first, GameSpec(f"a{n}", (bots[0], OPTIMAL), "1 2")) for n in range(4)]
    items += [(second, GameSpec(f"b{n}", (bots[n % 2], OPTIMAL), "2 3")) for n in range(6)]
    client = module.connect(address)
    shipped: list[Setup] = []
    released: list[tuple[int, list]] = []  # (records taken by then, what was cancelled)
    taken: list[str] = []
    scatter, cancel = client.scatter, client.cancel

    def counted_scatter(data, **kwargs):
        shipped.append(data)
        return scatter(data, **kwargs)

    def counted_cancel(futures, **kwargs):
        released.append((len(taken), list(futures)))
        return cancel(futures, **kwargs)

    monkeypatch.setattr(client, "scatter", counted_scatter)
    monkeypatch.setattr(client, "cancel", counted_cancel)
    backend = module.DaskCluster(address, None, 2)
    for spec, record in backend.keep_busy(lambda: items.pop(0) if items else None):
        taken.append(spec.key)
        assert record.worker == socket.gethostname()
    assert sorted(taken) == [*(f"a{n}" for n in range(4)), *(f"b{n}" for n in range(6))]
    # the second setup's first game needs bot a only; with b's first game it is shipped
    # again with both (a shipment per setup, and per bot it had not shipped)
    assert [sorted(s.bot_files or {}) for s in shipped] == [bots[:1], bots[:1], bots]
    # the shipments replaced are released during play (their games ended), the rest at
    # the end
    assert [len(futures) for _, futures in released[:2]] == [1, 1], released
    assert released[1][0] < len(taken), released
