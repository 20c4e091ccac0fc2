"""The judge's own cost per game, against a bare harness, and what it costs to start.

Every figure of the per-game goals of the overhead issue, printed side by side in one run
(absolute times on a shared machine drift; ratios measured together hold):

- per-game marginal cost: the slope between a 51-game and a 357-game run of one C bot
  (Ioiwari greedy) against the optimal opponent, `--jobs 1`, so that start-up is not
  counted; for the bare harness (pipes, no limits, no review, no database) without and
  with the very bwrap command line the judge uses (namespaces of its own per game), and
  for `judge run` with `--sandbox none` and `--sandbox bwrap`;
- spawn cost flat in the judge's memory: a bot's start and end with and without 1 GiB of
  the judge's memory in use;
- `--jobs 2` against `--jobs 1` on the 357 games, and per game (the slope between a 51-game
  and a 357-game run, without the start-up that neither can share): the median of
  `--rounds` rounds, each with both side by side, and the range (one round's figure drifts
  by a tenth on a shared machine); and the README main command with each;
- a bot's start after a pause: from its start to its first move when games come 50 ms
  apart (a bot that thinks), against back to back;
- fixed start-up: a one-game `judge run`, next to `python -c pass` (`--starts` of each tree,
  in turn; the median, and the median ratio of the pairs);
- the README main command (the four sample bots, 1,428 games);
- the gvisor tier next to auto's (`--only gvisor`, as root with runsc): per game (the
  slope between 11 and 51 games of the C bot, `--jobs 1`), and a bot's start to its first
  move;
- a game clock's cost (`--only clock`): the C bot's 357 games played as a run plays each
  (`play_spec`, in this process) with `--tc SPEC` (`--clock`, default a clock that never
  runs out) and without, in turns game by game (`--only clock-turns`: this alone); then the
  per-game marginal cost of `judge run` with the clock next to the same run without one,
  and next to the `--before` tree's, interleaved round by round, the order swapped every
  other round.

With ``--before DIR`` (a checkout of an earlier version), its `judge run` figures are
measured in the same run, next to this one's. Run: ``python benchmarks/bench_overhead.py
[--before DIR] [--repeat N] [--only start-up|readme|gvisor|clock|clock-turns]``. Bytecode
caching is on for the judge processes (whatever PYTHONDONTWRITEBYTECODE says here), as on a
user's machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge.games.ioiwari import Ioiwari
from judge.sandbox import Limits, program_for, tier_for
from judge.solvers import solver_for

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bots/ioiwari/greedy.c"
STARTS_51 = ROOT / "samples/ioiwari-starts-51.txt"
SAMPLE_BOTS = sorted(str(p) for p in (ROOT / "bots/ioiwari").iterdir())


def bare(prefix: list[str], starts: list, argv: tuple[str, ...]) -> float:
    """Seconds to play `starts` over plain pipes, the bot started as `prefix + argv`."""
    game = Ioiwari()
    solver = solver_for(game)
    began = time.perf_counter()
    for start in starts:
        proc = subprocess.Popen([*prefix, *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, bufsize=1)
        assert proc.stdin and proc.stdout
        pos = start
        proc.stdin.write(game.wire_start(pos)[0] + "\n")
        proc.stdin.flush()
        while True:
            pos = game.play(pos, game.parse_move(proc.stdout.readline().strip(), pos))
            if game.is_over(pos):
                break
            reply = solver.choose(pos)
            proc.stdin.write(f"{reply}\n")
            proc.stdin.flush()
            pos = game.play(pos, reply)
            if game.is_over(pos):
                break
        proc.stdin.close()
        proc.wait()
    return time.perf_counter() - began


def bare_in_two(prefix: list[str], starts: list, argv: tuple[str, ...]) -> float:
    """Seconds for `bare` with the starts shared by two forked processes."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    began = time.perf_counter()
    halves = [context.Process(target=bare, args=(prefix, starts[k::2], argv)) for k in (0, 1)]
    for half in halves:
        half.start()
    for half in halves:
        half.join()
    return time.perf_counter() - began


def judge_run(tree: Path, args: list[str]) -> float:
    """Seconds for `judge run ARGS` with the judge found in `tree`."""
    return timed_run(tree, args)[0]


def timed_run(tree: Path, args: list[str]) -> tuple[float, float]:
    """Wall seconds for `judge run ARGS` with the judge found in `tree`, and the CPU
    seconds of the judge and its bots together (less swayed by other loads)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    with tempfile.TemporaryDirectory() as tmp:
        began, cpu = time.perf_counter(), os.times()
        # run from elsewhere: `python -m` puts the working folder first on the path, where
        # this project's own judge would hide the one of `tree`
        subprocess.run([sys.executable, "-m", "judge", "run", "--game", "ioiwari",
                        "--db", os.path.join(tmp, "r.db"), *args],
                       check=True, capture_output=True, env=env, cwd=tmp)
        ended = os.times()
        used = ended.children_user + ended.children_system - cpu.children_user \
            - cpu.children_system
        return time.perf_counter() - began, used


def best(repeat: int, measure) -> float:  # noqa: ANN001 - a callable returning seconds
    return min(measure() for _ in range(repeat))


def slope(t51: float, t357: float) -> float:
    """Milliseconds per game between the two runs."""
    return (t357 - t51) / (357 - 51) * 1000


def spawn_ms(games: int, ballast: bool) -> float:
    """Median milliseconds for a bot's start, first move and end, with 1 GiB held or not."""
    from judge.players.bot import BotPlayer

    held = bytearray(1 << 30) if ballast else b""
    if ballast:
        for i in range(0, len(held), 4096):
            held[i] = 1
    game = Ioiwari()
    player = BotPlayer(BOT, Limits(), "auto")
    times = []
    for _ in range(games):
        began = time.perf_counter()
        player.begin(game, 0)
        player.choose(game.start(), None)
        player.close()
        times.append(time.perf_counter() - began)
    del held
    return statistics.median(times) * 1000


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="a checkout of an earlier version to compare")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of the parallel games' figures, their median shown (default 3)")
    ap.add_argument("--starts", type=int, default=21,
                    help="one-game starts of each tree for the start-up figure (default 21)")
    ap.add_argument("--only", choices=("all", "start-up", "readme", "gvisor", "clock",
                                       "clock-turns"),
                    default="all", help="only the start-up figure, the README main "
                    "command's, the gvisor tier's next to auto's, a clock's cost, or its "
                    "games in turns alone")
    ap.add_argument("--clock", default="100000+1", metavar="SPEC",
                    help="the time control of --only clock (default 100000+1)")
    args = ap.parse_args()
    trees = [("now", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    if args.only == "start-up":
        return startup(trees, args.starts)
    if args.only == "readme":
        return readme(trees)
    if args.only == "gvisor":
        return gvisor(args.repeat)
    if args.only == "clock-turns":
        return clock_turns(args.rounds, args.clock)
    if args.only == "clock":
        clock_turns(args.rounds, args.clock)
        return clock(trees, args.repeat, args.rounds, args.clock)
    game = Ioiwari()
    all_starts = game.standard_starts()
    starts_51 = [game.parse_position(line) for line in STARTS_51.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    argv = program_for(BOT).argv
    tier = tier_for("auto")
    print(f"{os.cpu_count()} cores; confinement here: {tier.name}; best of {args.repeat}")

    from judge.sandbox.commandline import bwrap_command

    # (namespaces of its own per game, as the judge's)
    wrap = [*bwrap_command(program_for(BOT), Limits(), {}), "--"]
    print("\nPer-game marginal cost (ms per game, slope between 51 and 357 games, --jobs 1)")
    rows = []
    for label, prefix in (("none", []), ("bwrap", wrap)):
        b51 = best(args.repeat, lambda p=prefix: bare(p, starts_51, argv))
        b357 = best(args.repeat, lambda p=prefix: bare(p, all_starts, argv))
        bare_ms = slope(b51, b357)
        line = f"  {label:6} bare harness {bare_ms:6.2f}"
        for name, tree in trees:
            common = ["--jobs", "1", "--sandbox", label, str(BOT)]
            j51 = best(args.repeat, lambda t=tree, c=common: judge_run(
                t, ["--tests", str(STARTS_51), *c]))
            j357 = best(args.repeat, lambda t=tree, c=common: judge_run(t, c))
            ms = slope(j51, j357)
            line += f"   judge ({name}) {ms:6.2f} = {ms / bare_ms:4.2f}x"
            rows.append((label, name, ms))
        print(line)

    print("\nSpawn cost of one game (start, first move, end), median of 100, ms")
    print(f"  judge memory as is: {spawn_ms(100, False):6.2f}   "
          f"with 1 GiB more: {spawn_ms(100, True):6.2f}")

    print(f"\nParallel games (357 games, the current judge; per game: the slope from 51 games;"
          f" {args.rounds} interleaved rounds of best of {args.repeat}, the median and range)")
    for label in ("none", "bwrap"):
        whole: dict[str, list[float]] = {"1": [], "2": []}
        per_game: dict[str, list[float]] = {"1": [], "2": []}
        for _ in range(args.rounds):  # (--jobs 1 and 2 side by side in each round)
            for jobs in ("1", "2"):
                common = ["--jobs", jobs, "--sandbox", label, str(BOT)]
                j51 = best(args.repeat, lambda c=common: judge_run(
                    ROOT, ["--tests", str(STARTS_51), *c]))
                whole[jobs].append(best(args.repeat, lambda c=common: judge_run(ROOT, c)))
                per_game[jobs].append(slope(j51, whole[jobs][-1]))
        speed = [a / b for a, b in zip(whole["1"], whole["2"], strict=True)]
        ratio = [a / b for a, b in zip(per_game["1"], per_game["2"], strict=True)]
        mid = statistics.median
        print(f"  {label:6} --jobs 1 {mid(whole['1']):6.2f} s   --jobs 2 {mid(whole['2']):6.2f} s"
              f"   speed-up {mid(speed):4.2f}x   per game {mid(per_game['1']):5.2f} / "
              f"{mid(per_game['2']):5.2f} ms = {mid(ratio):4.2f}x"
              f" ({min(ratio):4.2f}-{max(ratio):4.2f})")
    print("  the bare harness, the 357 games in one process against two (what the machine "
          "allows)")
    for label, prefix in (("none", []), ("bwrap", wrap)):
        one = best(args.repeat, lambda p=prefix: bare(p, all_starts, argv))
        two = best(args.repeat, lambda p=prefix: bare_in_two(p, all_starts, argv))
        print(f"  {label:6} one {one:6.2f} s   two {two:6.2f} s   speed-up {one / two:4.2f}x")

    print("\nA bot's start to its first move, median of 30 games (ms), --sandbox none / bwrap")
    for pause in (0.0, 0.05):
        line = f"  games {int(pause * 1000):2} ms apart"
        for name, tree in trees:
            line += f"   {name} " + " / ".join(f"{first_move_ms(tree, m, pause):5.2f}"
                                             for m in ("none", "bwrap"))
        print(line)

    startup(trees, args.starts)
    readme(trees)


def startup(trees: list[tuple[str, Path]], starts: int) -> None:
    """A one-game `judge run`'s whole process: each tree's start in turn, `starts` times,
    the median of each and of the ratios pair by pair (which hold when the machine drifts)."""
    print(f"\nFixed start-up: a one-game judge run (s), {starts} starts each, in turn")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as one:
        one.write("4 3 2 4 2 3 2\n")
        one.flush()
        floor = best(5, lambda: _timed([sys.executable, "-c", "pass"]))
        times: dict[str, list[float]] = {name: [] for name, _ in trees}
        for _ in range(starts):
            for name, tree in trees:
                times[name].append(judge_run(tree, ["--tests", one.name, str(BOT)]))
        line = f"  python -c pass {floor:5.3f}"
        for name, _ in trees:
            line += f"   judge ({name}) {statistics.median(times[name]):5.3f}"
        if len(trees) == 2:
            ratios = [a / b for a, b in zip(*times.values(), strict=True)]
            line += f"   now/before {statistics.median(ratios):4.2f}x"
        print(line)


def readme(trees: list[tuple[str, Path]]) -> None:
    """The README main command (1,428 games) in each tree, and with --jobs 1 against 2."""
    print("\nREADME main command: judge run --game ioiwari bots/ioiwari/* (1,428 games)")
    line = " "
    for name, tree in trees:
        t = best(1, lambda t=tree: judge_run(t, SAMPLE_BOTS))
        line += f"  {name} {t:6.2f} s"
    print(line)
    one = best(1, lambda: judge_run(ROOT, ["--jobs", "1", *SAMPLE_BOTS]))
    two = best(1, lambda: judge_run(ROOT, ["--jobs", "2", *SAMPLE_BOTS]))
    print(f"  now --jobs 1 {one:6.2f} s   --jobs 2 {two:6.2f} s   speed-up {one / two:4.2f}x")

def gvisor(repeat: int) -> None:
    """The gvisor tier's cost per game and to a first move, next to auto's tier."""
    lines = STARTS_51.read_text().splitlines()
    starts = [line for line in lines if line.strip() and not line.startswith("#")]
    print(f"{os.cpu_count()} cores; best of {repeat}")
    print("\nPer game (ms, slope between 11 and 51 games of one C bot, --jobs 1), and a bot's "
          "start to its first move (median of 30, ms)")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as eleven:
        eleven.write("\n".join(starts[:11]) + "\n")
        eleven.flush()
        for mode in ("auto", "gvisor"):
            common = ["--jobs", "1", "--sandbox", mode, str(BOT)]
            t11 = best(repeat, lambda c=common: judge_run(ROOT, ["--tests", eleven.name, *c]))
            t51 = best(repeat, lambda c=common: judge_run(ROOT, ["--tests", str(STARTS_51), *c]))
            per_game = (t51 - t11) / (51 - 11) * 1000
            print(f"  {tier_for(mode).name:20} per game {per_game:7.1f}   first move "
                  f"{first_move_ms(ROOT, mode, 0.0):7.1f}")


def clock(trees: list[tuple[str, Path]], repeat: int, rounds: int, spec: str) -> None:
    """The per-game marginal cost (51 and 357 games of the C bot, --jobs 1) of `judge run`
    with `--tc spec` and without, and of the other tree's, in `rounds` interleaved rounds
    of best of `repeat`, in wall time and in CPU time (the judge's and its bots'): each
    figure's median and range, and the median ratio to the run without a clock round by
    round."""
    runs = [(f"{name} --tc {spec}" if tc else name, tree, ["--tc", spec] if tc else [])
            for name, tree in trees for tc in ((False, True) if name == "now" else (False,))]
    print(f"{os.cpu_count()} cores; {rounds} rounds of best of {repeat}")
    for label in ("none", "bwrap"):
        print(f"\nPer-game marginal cost, --sandbox {label} (ms per game, slope between 51 "
              f"and 357 games, --jobs 1): wall, CPU; each against now without a clock")
        ms: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in runs}
        for turn in range(rounds):  # (in turns: the order swapped every other round)
            for name, tree, extra in runs[::-1] if turn % 2 else runs:
                common = ["--jobs", "1", "--sandbox", label, *extra, str(BOT)]
                few = [timed_run(tree, ["--tests", str(STARTS_51), *common])
                       for _ in range(repeat)]
                many = [timed_run(tree, common) for _ in range(repeat)]
                wall = slope(min(f[0] for f in few), min(m[0] for m in many))
                ms[name].append((wall, slope(min(f[1] for f in few), min(m[1] for m in many))))
        for name, figures in ms.items():
            line = f"  {name:24}"
            for k in (0, 1):
                mine = [f[k] for f in figures]
                ratio = statistics.median(a[k] / b[k] for a, b in zip(figures, ms["now"],
                                                                      strict=True))
                line += (f"   {statistics.median(mine):6.2f} ({min(mine):5.2f}-{max(mine):5.2f})"
                         f" {ratio:5.3f}x")
            print(line)

    print("\nThe referee alone, the optimal player in both seats on the 357 starts, with "
          f"--tc {spec} for both and without (ms per game, median of {rounds} rounds of best "
          f"of {repeat})")
    from judge.clock import Clock
    from judge.players.optimal import OptimalPlayer
    from judge.referee import play_game

    game = Ioiwari()
    starts = game.standard_starts()
    timed = Clock.parse(spec)

    def referee(clocks: list[Clock | None]) -> float:
        began = time.perf_counter()
        for start in starts:
            play_game(game, [OptimalPlayer(1), OptimalPlayer(2)], start, clocks=clocks)
        return (time.perf_counter() - began) / len(starts) * 1000

    pairs = [(best(repeat, lambda: referee([None, None])),
              best(repeat, lambda: referee([timed, timed]))) for _ in range(rounds)]
    without, with_clock = (statistics.median(p[k] for p in pairs) for k in (0, 1))
    print(f"  without {without:6.3f}   with {with_clock:6.3f}   "
          f"+{(with_clock - without) * 1000:5.1f} us a game")


def clock_turns(rounds: int, spec: str) -> None:
    """The C bot's games against the optimal player on the 357 starts (in each seat in
    turn), each played as a run plays it (`play_spec`: the players, the referee, the
    review; in this process, as `--jobs 1`), with `--tc spec` and without in turns game by
    game, the order swapped every other game so that the machine's drift falls on both
    alike; `rounds` times. Per game (ms): wall, the judge's CPU (its threads', where the
    clock is kept) and the CPU of the judge and the bot together (the bot's as its game
    records it), with and without, each round's ratio, and the median and range of the
    ratios."""
    from judge.clock import Clock, Clocks
    from judge.playing import OPTIMAL, GameSpec, Setup, play_spec
    from judge.verdicts import OK

    game = Ioiwari()
    starts = [game.format_position(s) for s in game.standard_starts()]
    bot = str(BOT)

    print(f"{os.cpu_count()} cores; the C bot's {len(starts)} games with --tc {spec} and "
          f"without, in turns game by game, {rounds} rounds")
    for sandbox in ("none", "bwrap"):
        setups = [Setup("ioiwari", "", Limits(), sandbox),
                  Setup("ioiwari", "", Limits(), sandbox, clocks=Clocks(Clock.parse(spec)))]
        play_spec(setups[0], GameSpec("warm", (bot, OPTIMAL), starts[0]))  # built, ready
        print(f"\nPer game, --sandbox {sandbox} (ms, without / with = ratio): wall; the "
              f"judge's CPU; the judge's and the bot's")
        ratios: tuple[list[float], ...] = ([], [], [])
        for turn in range(rounds):
            spent = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]  # [without, with] of each figure
            for i, start in enumerate(starts):
                players = (bot, OPTIMAL) if i % 2 == 0 else (OPTIMAL, bot)
                for timed in (0, 1) if (i // 2 + turn) % 2 == 0 else (1, 0):
                    wall, used = time.perf_counter(), time.process_time()
                    record = play_spec(setups[timed], GameSpec(str(i), players, start))
                    spent[0][timed] += time.perf_counter() - wall
                    spent[1][timed] += time.process_time() - used
                    spent[2][timed] += time.process_time() - used + sum(
                        u.cpu_seconds for u in record.usage or () if u is not None)
                    assert record.verdict.code == OK, record.verdict
                    assert (record.clocks is not None) == bool(timed)
            line = f"  round {turn + 1}"
            for k, figures in enumerate(spent):
                without, with_clock = (x / len(starts) * 1000 for x in figures)
                ratios[k].append(with_clock / without)
                line += f"   {without:6.3f} / {with_clock:6.3f} = {ratios[k][-1]:5.3f}x"
            print(line)
        print("  median " + "".join(
            f"   {statistics.median(r):5.3f}x ({min(r):5.3f}-{max(r):5.3f})" for r in ratios))


FIRST_MOVE = """
import statistics, sys, time
from pathlib import Path
from judge.games.ioiwari import Ioiwari
from judge.players.bot import BotPlayer
from judge.sandbox import Limits
game, times = Ioiwari(), []
player = BotPlayer(Path(sys.argv[1]), Limits(), sys.argv[2])
for _ in range(32):
    player.begin(game, 0)
    began = time.perf_counter()
    player.choose(game.start(), None)
    times.append(time.perf_counter() - began)
    player.close()
    time.sleep(float(sys.argv[3]))
print(statistics.median(times[2:]) * 1000)
"""


def first_move_ms(tree: Path, mode: str, pause: float) -> float:
    """Median ms from a bot's start to its first move with the judge in `tree`, games
    `pause` s apart."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", FIRST_MOVE, str(BOT), mode, str(pause)],
                             check=True, capture_output=True, text=True, env=env, cwd=tmp)
    return float(out.stdout)


def _timed(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True)
    return time.perf_counter() - began


if __name__ == "__main__":
    main()
