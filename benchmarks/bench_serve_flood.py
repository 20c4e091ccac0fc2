"""`judge serve` under a flood: how long another client waits for its answers.

    python benchmarks/bench_serve_flood.py [--flood 1100] [--gets 20] [--uploads 60]
        [--open-files 1024]

A Nim league of two contestants, amy and bob, is served (`judge serve --db`, started with a
soft limit of `--open-files` descriptors, the usual default). Another client, from
127.0.0.1, times `--gets` GETs of /api/games and one upload of bob's: first alone, then
while `--flood` connections from 127.0.0.2 each hold half a request head, then while amy's
token sends `--uploads` uploads at once (their statuses are counted). Run it on the commit
to compare with `git stash` or an older checkout: the figures are the other client's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GREEDY = ROOT / "bots" / "nim" / "greedy.py"
#: how long the other client waits for an answer before it counts a timeout
WAIT = 30.0


def league(folder: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "judge", "league", *args, "--db", "l.db"],
                         cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout


def request(url: str, body: dict | None = None) -> tuple[int | str, float]:
    """The status of a GET (or a JSON POST of `body`) and its seconds; 'timeout' if none
    came within `WAIT`."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"}
                                 if data else {})
    began = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as answer:
            status: int | str = answer.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (OSError, TimeoutError):
        status = "timeout"
    return status, time.monotonic() - began


def measure(here: str, what: str, bob: str, gets: int, n: int) -> None:
    """Print the times of bob's upload (version `n`), then of `gets` GETs."""
    body = {"name": "bob", "token": bob, "filename": "bob.py",
            "source": GREEDY.read_text() + f"# version {n}\n"}
    sent, took = request(here + "/api/league/upload", body)
    times, statuses = [], []
    for _ in range(gets):
        status, spent = request(here + "/api/games")
        statuses.append(status)
        times.append(spent)
    print(f"{what}: bob's upload {took * 1000:.0f} ms ({sent}); GET median "
          f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
          f"({', '.join(sorted(set(map(str, statuses))))})", flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--flood", type=int, default=1100)
    p.add_argument("--gets", type=int, default=20)
    p.add_argument("--uploads", type=int, default=60)
    p.add_argument("--open-files", type=int, default=1024)
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, a.flood + 512), hard))

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, a.open_files), hard))

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "starts.txt").write_text("1 2 4\n2 3\n")
        league(folder, "new", "--game", "nim", "--starts", "starts.txt", "--seed", "3")
        league(folder, "add", "--anchor", "level:2")
        for name in ("amy", "bob"):
            league(folder, "add", name, str(GREEDY))
        amy, bob = (league(folder, "token", name).strip() for name in ("amy", "bob"))
        server = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0",
                                   "--no-browser", "--db", "l.db"], cwd=folder,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  start_new_session=True, preexec_fn=limited)
        flood: list[socket.socket] = []
        try:
            assert server.stdout is not None
            found = None
            while found is None:
                line = server.stdout.readline()
                if not line:
                    raise SystemExit("judge serve did not start")
                found = re.search(r"serving on (http://[^/]+)", line)
            threading.Thread(target=server.stdout.read, daemon=True).start()
            here = found.group(1)
            port = int(here.rsplit(":", 1)[1])
            measure(here, "alone", bob, a.gets, 1)
            for _ in range(a.flood):
                s = socket.socket()
                flood.append(s)
                s.bind(("127.0.0.2", 0))
                s.settimeout(5)
                try:
                    s.connect(("127.0.0.1", port))
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x")
                except OSError:
                    pass
            measure(here, f"{a.flood} half-open connections", bob, a.gets, 2)
            for s in flood:
                s.close()
            flood.clear()
            with ThreadPoolExecutor(max_workers=a.uploads) as pool:
                go = threading.Event()

                def amy_uploads(n: int) -> int | str:
                    go.wait()
                    return request(here + "/api/league/upload", {
                        "name": "amy", "token": amy, "filename": "amy.py",
                        "source": GREEDY.read_text() + f"# version {100 + n}\n"})[0]

                sent = [pool.submit(amy_uploads, n) for n in range(a.uploads)]
                go.set()
                measure(here, f"{a.uploads} uploads of amy's at once", bob, a.gets, 3)
                statuses = [str(f.result()) for f in sent]
            print("amy's uploads: " + ", ".join(f"{statuses.count(s)} x {s}"
                                                 for s in sorted(set(statuses))), flush=True)
        finally:
            for s in flood:
                s.close()
            os.killpg(server.pid, signal.SIGINT)
            server.wait()


if __name__ == "__main__":
    main()
