"""What a game measured: each bot's CPU time, wall time and peak memory, as isolate's meta
file gives them, in the record and in every output; accuracy as the share of a bot's moves
that kept the value of the position, with its slow moves (still winning, in more moves) a
figure of their own."""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from test_confinement import LIMITS, MODES, play, said, write_bot
from test_fair_and_counted import HELPERS
from test_hostile import LIMITS as HOSTILE_LIMITS
from test_hostile import FirstPit
from test_hostile import play as play_hostile
from test_html import browser, open_game  # noqa: F401  (the headless Chromium fixture)

from judge import verdicts
from judge.analysis import review
from judge.games import load_game
from judge.players.bot import BotPlayer
from judge.records import PlayedGame
from judge.referee import play_game
from judge.results import memory_text, move_accuracy, seconds_text, slow_moves, usage_cells
from judge.sandbox.context import SLOTS_PER_PROCESS, sandbox_context
from judge.sandbox.limits import Usage
from judge.summaries import summarise
from tests.command import judge, show

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
MIB = 1 << 20

TOUCH_64_MIB = """
hold = bytearray(64 << 20)
for i in range(0, len(hold), 4096):
    hold[i] = 1
"""
#: `first_pit.c` reading its own program first, a file of 12 MiB: page cache (read, not
#: mapped), none of it the bot's resident memory
READS_ITSELF = (ROOT / "tests" / "bots" / "first_pit.c").read_text().replace(
    "int main(void) {", """static const char pad[12 << 20] = {1};

int main(int argc, char **argv) {
    static char chunk[1 << 16];
    FILE *self = fopen("/proc/self/exe", "rb");
    while (self != NULL && fread(chunk, 1, sizeof chunk, self) == sizeof chunk) {
    }
    if (argc > 99) putchar(pad[argc] + argv[0][0]);""")
#: one second of CPU before the first move, by its own clock: it says how much CPU its
#: process had used by then
BURN = """
end = time.process_time() + 1.0
while time.process_time() < end:
    pass
report(f"burned {time.process_time():.9f}", True)
"""


# --- what a bot used ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_touches_64_mib_shows_a_peak_of_at_least_that_below_the_limit(
        mode: str, tmp_path: Path) -> None:
    record = play(write_bot(tmp_path, TOUCH_64_MIB), mode)
    assert record.verdict.code == verdicts.OK, record.verdict
    used = record.usage[0]
    assert used is not None and not used.oom_killed
    assert 64 * MIB <= used.memory_bytes < LIMITS.memory_bytes
    assert record.usage[1] is None  # the scripted player is no process


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_holds_little_shows_a_small_peak(mode: str, tmp_path: Path) -> None:
    used = play(write_bot(tmp_path, "pass"), mode).usage[0]
    assert used is not None and 0 < used.memory_bytes < 32 * MIB


def test_the_same_c_bot_shows_the_same_memory_whatever_the_page_cache_holds(
        tmp_path: Path) -> None:
    # once the same C bot showed 1.5 MiB in a game and 13 MiB in another: its slot's
    # cgroup counted page cache that an earlier program in the slot had left (its compile)
    # or that it had read. Here, in each tier: compiled now, then a game in the other slot
    # in which it reads its program cold, a game in the slot of its compile, and one in
    # the slot that holds the 12 MiB its first game read (less than the 1/64 of the memory
    # limit that a slot gives back before a game)
    source = tmp_path / "reads_itself.c"
    source.write_text(READS_ITSELF + f"/* {tmp_path} */\n")  # (not in the cache: compiled)
    limits = replace(LIMITS, memory_bytes=1 << 30)
    peaks = []
    for mode in MODES:
        for game in range(SLOTS_PER_PROCESS + 1):
            player = BotPlayer(source, limits, mode)
            if game == 0:
                evict(Path(player.program.argv[0]))
            record = play_game(GAME, [player, FirstPit()], GAME.start(), limits)
            assert record.verdict.code == verdicts.OK, record.verdict
            used = record.usage[0]
            assert used is not None and used.memory_bytes is not None
            peaks.append(used.memory_bytes)
    assert max(peaks) - min(peaks) <= MIB // 2, [p / MIB for p in peaks]
    assert max(peaks) < 12 * MIB


def evict(path: Path) -> None:
    """Take `path` out of the page cache (written out first): its next reader reads it from
    the disk, and the kernel charges it the pages."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_burns_cpu_shows_at_least_what_it_burned_and_at_most_its_wall_time(
        mode: str, tmp_path: Path) -> None:
    # facts however busy the machine is: its CPU time is at least what its own clock had
    # counted (the judge's figure may count in ticks: one a field, utime and stime), and
    # one thread cannot use more CPU than the time it lived
    record = play(write_bot(tmp_path, BURN), mode)
    used = record.usage[0]
    assert used is not None
    burned = float(said(record).split("GOT burned ")[1].split()[0])
    assert burned >= 1.0
    assert burned - 2 / os.sysconf("SC_CLK_TCK") <= used.cpu_seconds <= used.wall_seconds + 0.01


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_that_sleeps_shows_wall_time_without_cpu(mode: str, tmp_path: Path) -> None:
    used = play(write_bot(tmp_path, "time.sleep(1.0)"), mode).usage[0]
    assert used is not None
    assert used.wall_seconds >= 1.0 and used.cpu_seconds < 0.5


@pytest.mark.parametrize("mode", MODES)
def test_a_bot_the_judge_kills_at_its_time_limit_shows_its_life_until_then(mode: str) -> None:
    record, _ = play_hostile("sleep_forever.py", mode)
    assert record.verdict.code == verdicts.TIME_LIMIT
    used = record.usage[0]
    assert used is not None
    assert HOSTILE_LIMITS.first_move_seconds <= used.wall_seconds and used.cpu_seconds < 0.5


@pytest.mark.needs_guarantee("limits")
@pytest.mark.parametrize("mode", MODES)
def test_a_bot_killed_for_memory_shows_it(mode: str, tmp_path: Path) -> None:
    # three helpers of 100 MiB under a limit of 256 MiB: the kernel kills one of them
    bot = write_bot(tmp_path, HELPERS + "helpers()\nreap()\n")
    limits = replace(LIMITS, grace_seconds=5.0)
    try:
        record = play_game(GAME, [BotPlayer(bot, limits, mode), FirstPit()], GAME.start(),
                           limits)
    finally:
        sandbox_context().close()
    assert record.verdict.code == verdicts.MEMORY_LIMIT, record.verdict
    used = record.usage[0]
    assert used is not None and used.oom_killed
    assert used.memory_bytes <= limits.memory_bytes


def test_a_bot_that_did_not_compile_used_nothing(tmp_path: Path) -> None:
    bot = Path(__file__).parent / "bots" / "compile_error.c"
    record = play_game(GAME, [BotPlayer(bot, LIMITS), FirstPit()], GAME.start(), LIMITS)
    assert record.verdict.code == verdicts.COMPILE_ERROR
    assert record.usage == [None, None]


GAME = load_game("ioiwari", "")


def a_record(usage: tuple[Usage | None, ...] | None) -> PlayedGame:
    """A stored Nim game whose bot (seat 0) played one slow move, then the fastest ones."""
    game = load_game("nim", "")
    start = game.parse_position("2 2 3")
    moves = ["1 1", "1 1", "3 1", "2 1", "3 1", "2 1", "3 1"]
    return PlayedGame(game.describe(), "2 2 3", ("bot.py", "optimal"), (),
                      ("win", "loss"), review=tuple(review(game, start, moves, [0])),
                      perfect=("win", "loss"), usage=usage)


def test_usage_is_stored_and_read_back_and_old_records_read_without_it() -> None:
    rec = a_record((Usage(0.25, 0.5, 12 * MIB, False), None))
    data = json.loads(json.dumps(rec.to_json()))
    assert data["usage"] == [{"cpu_seconds": 0.25, "wall_seconds": 0.5,
                              "memory_bytes": 12 * MIB, "oom_killed": False}, None]
    assert PlayedGame.from_json(data) == rec
    del data["usage"]  # as every record before it was kept
    old = PlayedGame.from_json(data)
    assert old.usage is None
    row = summarise("bot.py", [(old, 0)], {"win": 1.0, "tie": 0.0, "loss": 0.0})
    assert (row.max_cpu_seconds, row.max_wall_seconds, row.max_memory_bytes,
            row.oom_killed) == (None, None, None, 0)


def test_a_bots_row_gives_the_most_it_used_in_one_game() -> None:
    games = [(a_record((Usage(0.25, 2.0, 12 * MIB, False), None)), 0),
             (a_record((Usage(0.5, 1.0, 10 * MIB, True), None)), 0),
             (a_record(None), 0)]
    row = summarise("bot.py", games, {"win": 1.0, "tie": 0.0, "loss": 0.0})
    assert (row.max_cpu_seconds, row.max_wall_seconds, row.max_memory_bytes,
            row.oom_killed) == (0.5, 2.0, 12 * MIB, 1)


def test_a_peak_that_could_not_be_read_is_not_known_rather_than_zero() -> None:
    unread = Usage(0.25, 0.5, None, False)
    games = [(a_record((unread, None)), 0), (a_record((Usage(0.1, 0.2, 5 * MIB), None)), 0)]
    row = summarise("bot.py", games, {"win": 1.0, "tie": 0.0, "loss": 0.0})
    assert row.max_memory_bytes == 5 * MIB
    assert usage_cells(unread)["memory"] == ""
    assert PlayedGame.from_json(games[0][0].to_json()).usage == (unread, None)


def test_usage_is_written_in_short_units() -> None:
    assert [seconds_text(s) for s in (0.0042, 0.12, 3.456)] == ["0.004 s", "0.12 s", "3.46 s"]
    assert [memory_text(b) for b in (812 * 1024, 3 * MIB // 2, 14 * MIB + 1)] == [
        "812 KiB", "1.5 MiB", "14 MiB"]
    assert seconds_text(None) == memory_text(None) == ""


# --- accuracy and slow moves -------------------------------------------------------------------

def test_a_slow_move_keeps_the_value_and_is_counted_apart_with_the_remoteness_lost() -> None:
    rec = a_record(None)
    first = rec.review[0]
    # 3 3 wins in 5 more moves; 1 1 still wins, in 7
    assert (first.before, first.after, first.remoteness, first.move_remoteness) == (
        "win", "win", 5, 7)
    assert first.slow and not first.mistake and first.remoteness_lost == 2
    assert move_accuracy([(rec, 0)]) == (4, 4)
    assert slow_moves(rec, 0) == [first]
    assert all(r.remoteness_lost == 0 for r in rec.review[1:])


@pytest.fixture(scope="module")
def nim_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The perfect Nim sample bot graded on the standard set (run 1 of the database)."""
    folder = tmp_path_factory.mktemp("nim")
    out = judge("run", "--game", "nim", "--db", "r.db", "--jobs", "2",
                str(BOTS / "nim" / "optimal.py"), cwd=folder)
    assert out.returncode == 0, out.stderr
    return folder


def test_the_perfect_nim_bot_shows_100_percent_and_its_slow_moves(nim_run: Path) -> None:
    data = json.loads(show(nim_run, "--format", "json"))
    bot = data["bots"][0]
    slow = [s for g in data["games"] for s in g["slow_moves"]]
    assert bot["accuracy"] == 1.0 and bot["wins"] == bot["games"]
    assert bot["slow_moves"] == len(slow) > 0
    for s in slow:
        assert s["remoteness_lost"] == s["move_remoteness"] - s["remoteness"] > 0
    for wide in ([], ["--wide"]):  # the table fitted to 80 columns, and in full
        lines = show(nim_run, *wide).splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("bot "))
        cells = dict(zip(lines[at].split(), lines[at + 2].split(), strict=False))
        assert (cells["accuracy"], cells["slow"]) == ("100.0%", str(len(slow)))


def test_details_csv_and_jsonl_name_each_slow_move_with_the_remoteness_lost(
        nim_run: Path) -> None:
    games = json.loads(show(nim_run, "--format", "json"))["games"]
    texts = [", ".join(f"move {s['ply']} (+{s['remoteness_lost']})" for s in g["slow_moves"])
             for g in games]
    rows = list(csv.DictReader(io.StringIO(show(nim_run, "--format", "csv", "--details"))))
    assert [r["slow"] for r in rows] == texts
    details = show(nim_run, "--details")
    assert all(text in details for text in texts if text)
    lines = [json.loads(line) for line in show(nim_run, "--format", "jsonl").splitlines()]
    assert [[{k: v for k, v in s.items() if k != "seat"} for s in line["slow_moves"]]
            for line in lines] == [g["slow_moves"] for g in games]
    assert all(s["seat"] == 1 for line in lines for s in line["slow_moves"])


def test_every_output_gives_what_the_bot_used(nim_run: Path) -> None:
    data = json.loads(show(nim_run, "--format", "json"))
    used = [g["usage"] for g in data["games"]]
    assert all(u["memory_bytes"] > 0 and 0 < u["cpu_seconds"] for u in used)
    bot = data["bots"][0]
    assert bot["max_memory_bytes"] == max(u["memory_bytes"] for u in used)
    assert bot["max_cpu_seconds"] == max(u["cpu_seconds"] for u in used)
    assert bot["max_wall_seconds"] == max(u["wall_seconds"] for u in used)
    (row,) = csv.DictReader(io.StringIO(show(nim_run, "--format", "csv")))
    assert (row["cpu"], row["memory"]) == (seconds_text(bot["max_cpu_seconds"]),
                                           memory_text(bot["max_memory_bytes"]))
    rows = list(csv.DictReader(io.StringIO(show(nim_run, "--format", "csv", "--details"))))
    assert [(r["cpu"], r["wall"], r["memory"]) for r in rows] == [
        (seconds_text(u["cpu_seconds"]), seconds_text(u["wall_seconds"]),
         memory_text(u["memory_bytes"])) for u in used]
    lines = [json.loads(line) for line in show(nim_run, "--format", "jsonl").splitlines()]
    assert [line["usage"] for line in lines] == [[u, None] for u in used]
    page = show(nim_run, "--format", "html")
    assert "<th>slow</th><th>cpu</th><th>memory</th>" in page
    assert '"u":["CPU ' in page  # the viewer's data of each game


def test_the_perfect_ioiwari_bot_shows_100_percent(tmp_path: Path) -> None:
    (tmp_path / "starts.txt").write_text("4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n4 4 4 4 4 4 4\n")
    out = judge("run", "--game", "ioiwari", "--tests", "starts.txt", "--db", "r.db",
                "--format", "json", str(BOTS / "ioiwari" / "optimal.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bots"][0]["accuracy"] == 1.0


@pytest.mark.needs_chromium
def test_the_reports_viewer_shows_a_games_slow_moves_and_what_the_bot_used(
        nim_run: Path, browser: object) -> None:  # noqa: F811
    games = json.loads(show(nim_run, "--format", "json"))["games"]
    number, game = next((n, g) for n, g in enumerate(games, 1) if g["slow_moves"])
    page = nim_run / "report.html"
    page.write_text(show(nim_run, "--format", "html"))
    open_game(browser, page, number)
    shown_info = dict(browser.execute_script(
        "return [...document.querySelectorAll('#game-info dd[data-seat]')]"
        ".map(dd => [dd.previousElementSibling.textContent, dd.textContent])"))
    slow = ", ".join(f"move {s['ply']} (+{s['remoteness_lost']})" for s in game["slow_moves"])
    assert shown_info["slow moves of player 1"] == slow
    used = shown_info["used by player 1"]
    assert used.startswith("CPU ") and " s, wall " in used and used.endswith("MiB")
    assert "used by player 2" not in shown_info  # the perfect player is no process


def test_a_tournaments_games_give_what_each_bot_used_and_its_slow_moves(
        tmp_path: Path) -> None:
    (tmp_path / "starts.txt").write_text("2 2 3\n")
    bots = [str(BOTS / "nim" / "optimal.py"), str(BOTS / "nim" / "greedy.py")]
    out = judge("tournament", "--game", "nim", "--starts", "starts.txt", "--include-optimal",
                "--db", "t.db", "--format", "json", *bots, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)["games"]
    for g in games:
        for who, used, slow in zip(g["players"], g["usage"], g["slow_moves"], strict=True):
            if who == "optimal":  # the judge's own player: no process
                assert used is None and slow == []
            else:
                assert used["memory_bytes"] > 0 and used["cpu_seconds"] > 0
    # the sample bot takes 1 1 first from 2 2 3: still a win, two moves longer
    assert any(s["remoteness_lost"] == 2 for g in games for seat in g["slow_moves"]
               for s in seat)
    page = judge("show", "1", "--db", "t.db", "--format", "html", cwd=tmp_path).stdout
    assert page.count('"u":[') == len(games)
