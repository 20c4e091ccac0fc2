"""The judge's cost per move against a bare pipe loop driving the same C bot.

The bot answers every line with ``1``. The bare loop writes a line and reads a line through
`subprocess` pipes. The judge runs the same binary as a `BotPlayer` (confined, with
deadlines, output limits, CPU sampling and move parsing): once calling `choose` alone, once
in a whole game refereed by `play_game` against an instant scripted opponent (so the
referee's bookkeeping of both players' moves is in it). Each figure is the best of a few
runs, in microseconds per bot move. A second table shows what starting a bot costs: from
`begin` (start the process, confined) to its first move, for the same bot in C and in
Python, without and with bubblewrap. Run: ``python benchmarks/bench_roundtrip.py``.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from judge.games.base import Game, garbage
from judge.players.base import Played, Player
from judge.players.bot import BotPlayer
from judge.referee import play_game
from judge.sandbox import Limits, bwrap_path, compiled

BOT_SOURCE = r"""
#include <stdio.h>
int main(void) {
    char line[256];
    while (fgets(line, sizeof line, stdin)) { fputs("1\n", stdout); fflush(stdout); }
    return 0;
}
"""
PYTHON_SOURCE = """
import sys
for line in sys.stdin:
    print(1, flush=True)
"""
REPEATS = 3
STARTS = 10


class Countdown(Game[int, int]):
    """A game of nothing but moves: the position counts the plies left, the move is always 1."""

    name = "countdown"

    def __init__(self, plies: int) -> None:
        super().__init__()
        self.plies = plies

    def start(self) -> int:
        return self.plies

    def standard_starts(self) -> list[int]:
        return [self.plies]

    def parse_position(self, text: str) -> int:
        return int(text)

    def format_position(self, pos: int) -> str:
        return str(pos)

    def mover(self, pos: int) -> int:
        return (self.plies - pos) % 2

    def legal_moves(self, pos: int) -> list[int]:
        return [1] if pos else []

    def play(self, pos: int, move: int) -> int:
        return pos - 1

    def is_over(self, pos: int) -> bool:
        return pos == 0

    def winner(self, pos: int) -> int | None:
        return None

    def wire_start(self, pos: int) -> list[str]:
        return [str(pos)]

    def parse_move(self, line: str, pos: int) -> int:
        if line != "1":
            raise garbage(line, "the only move is 1")
        return 1

    def format_move(self, move: int, pos: int) -> str:
        return "1"

    def render(self, pos: int) -> str:
        return str(pos)


class Instant(Player):
    """The opponent: answers at once."""

    name = "instant"

    def choose(self, pos: int, last: Played | None) -> int:
        return 1


def bare_loop(binary: Path, moves: int) -> float:
    """Seconds per round trip of a plain write-a-line, read-a-line loop."""
    proc = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    started = time.perf_counter()
    for _ in range(moves):
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        proc.stdout.readline()
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.wait()
    return elapsed / moves


def player_loop(source: Path, moves: int, sandbox: str) -> float:
    """Seconds per `BotPlayer.choose` round trip (send the opponent's move, read a move)."""
    game = Countdown(2 * moves)
    bot = BotPlayer(source, Limits(), sandbox)
    bot.begin(game, 0)
    try:
        last = Played(game.start(), bot.choose(game.start(), None))
        started = time.perf_counter()
        for _ in range(moves):
            bot.choose(game.start(), last)
        return (time.perf_counter() - started) / moves
    finally:
        bot.close()


def refereed(source: Path, moves: int, sandbox: str) -> float:
    """Seconds per bot move of a refereed game between the bot and an instant player."""
    game = Countdown(2 * moves)
    bot = BotPlayer(source, Limits(), sandbox)
    started = time.perf_counter()
    record = play_game(game, [bot, Instant()], game.start())
    elapsed = time.perf_counter() - started
    assert record.verdict.code == "ok", record.verdict
    return elapsed / moves


def first_move(source: Path, sandbox: str) -> float:
    """Seconds from starting the bot to its first move (the best of a few starts)."""
    game = Countdown(2)
    best = float("inf")
    for _ in range(STARTS):
        bot = BotPlayer(source, Limits(), sandbox)
        started = time.perf_counter()
        bot.begin(game, 0)
        bot.choose(game.start(), None)
        best = min(best, time.perf_counter() - started)
        bot.close()
    return best


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20000, help="moves per run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "answer_one.c"
        source.write_text(BOT_SOURCE)
        script = Path(tmp) / "answer_one.py"
        script.write_text(PYTHON_SOURCE)
        binary = compiled(source)[0] / "bot"
        modes = ["none", "bwrap"] if bwrap_path() else ["none"]
        rows = []
        for mode in modes:
            bare = min(bare_loop(binary, args.moves) for _ in range(REPEATS))
            row = [mode, f"{bare * 1e6:.1f}"]
            for measure in (player_loop, refereed):
                judge = min(measure(source, args.moves, mode) for _ in range(REPEATS))
                row += [f"{judge * 1e6:.1f}", f"{judge / bare:.2f}"]
            rows.append(row)
        starts = [
            [mode, *(f"{first_move(bot, mode) * 1e3:.1f}" for bot in (source, script))]
            for mode in modes
        ]
    print(f"Round trip: {args.moves} moves per run, best of {REPEATS}")
    headers = ["sandbox", "bare loop µs", "BotPlayer µs", "ratio", "refereed game µs", "ratio"]
    print(tabulate(rows, headers=headers))
    print(f"\nStart to first move, best of {STARTS}")
    print(tabulate(starts, headers=["sandbox", "C bot ms", "Python bot ms"]))


if __name__ == "__main__":
    main()
