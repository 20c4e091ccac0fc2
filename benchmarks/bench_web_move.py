"""The browser app's pages and moves: each game's page size, and a move's round trip.

    python benchmarks/bench_web_move.py [--old DIR] [--games 20]

`judge serve` is started from this checkout and, with `--old`, from another one (an older
commit's files: `git archive COMMIT | tar -x -C DIR`), both at once, each with its own empty
cache of solved tables. For each game it prints the bytes of /play/GAME as served (the HTML
and the scripts it loads, then its style sheet), and the time of `POST
/api/sessions/ID/move` against the optimal player (the person's move, the computer's reply,
the new state with every move's value) with the bytes of its answer, over `--games` games of
each: the checkouts take turns game by game, each first in turn, so that the machine's load
falls on both alike.
The first game of each is left out of the figures (it solves, or reads its tables).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scripts.screenshot_web import serving  # noqa: E402  (judge serve of a checkout)

#: the games played, each from its standard start against the optimal player
GAMES = ("ioiwari", "nim", "chopsticks", "tictactoe", "connect4", "octal")


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return bytes(answer.read())


def post(url: str, body: dict) -> tuple[dict, int]:
    """The JSON answer to a POST of `body`, and its bytes."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as answer:
        data = answer.read()
    return dict(json.loads(data)), len(data)


def page_size(base: str, game: str) -> tuple[int, int]:
    """The bytes of /play/GAME's HTML and scripts, and of its style sheets."""
    html = get(f"{base}/play/{game}").decode()
    scripts = re.findall(r'<script[^>]* src="([^"]+)"', html)
    sheets = re.findall(r'<link[^>]* href="([^"]+\.css[^"]*)"', html)
    code = len(html.encode()) + sum(len(get(base + src)) for src in scripts)
    return code, sum(len(get(base + href)) for href in sheets)


def play(base: str, game: str) -> list[tuple[float, int]]:
    """One game against the optimal player, the person always playing the first legal move;
    the seconds of each move's POST and the bytes of its answer."""
    state, _ = post(f"{base}/api/sessions", {"game": game, "opponent": "optimal",
                                             "values": True})
    moves = []
    while not state["over"]:
        move = state["moves"][0]["move"]
        began = time.perf_counter()
        state, size = post(f"{base}/api/sessions/{state['id']}/move",
                           {"move": move, "ply": state["ply"]})
        moves.append((time.perf_counter() - began, size))
    post(f"{base}/api/sessions/{state['id']}/end", {})
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", type=Path, help="an older checkout to compare with")
    parser.add_argument("--games", type=int, default=20, help="games of each game played")
    args = parser.parse_args()
    checkouts = {"now": ROOT} | ({"old": args.old.resolve()} if args.old else {})
    with ExitStack() as stack:
        caches = {name: stack.enter_context(tempfile.TemporaryDirectory()) for name in checkouts}
        bases = {name: stack.enter_context(serving(path, {"JUDGE_CACHE_DIR": caches[name]}))
                 for name, path in checkouts.items()}
        print("page /play/GAME: HTML+JS bytes (CSS bytes)")
        for game in GAMES:
            sizes = {name: page_size(base, game) for name, base in bases.items()}
            print(f"  {game:<11}" + "".join(f"  {name} {code:>7,} ({css:,})"
                                            for name, (code, css) in sizes.items()))
        print(f"POST move against optimal, {args.games - 1} games after the first: "
              "median / 90th percentile ms (moves), mean answer bytes")
        for game in GAMES:
            times: dict[str, list[tuple[float, int]]] = {name: [] for name in bases}
            for round_ in range(args.games):
                order = list(bases.items())
                for name, base in order[::-1] if round_ % 2 else order:  # each first in turn
                    played = play(base, game)
                    if round_:
                        times[name] += played
            line = f"  {game:<11}"
            for name, moves in times.items():
                got = [seconds for seconds, _ in moves]
                tenth = statistics.quantiles(got, n=10)[-1] if len(got) > 1 else got[0]
                size = statistics.mean(size for _, size in moves)
                line += (f"  {name} {statistics.median(got) * 1000:5.1f} / "
                         f"{tenth * 1000:5.1f} ({len(got)}) {size:6,.0f} B")
            print(line, flush=True)


if __name__ == "__main__":
    main()
