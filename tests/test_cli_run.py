"""`judge run`, `judge show` and `judge play` as a user runs them."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"


def starts_file(tmp_path: Path, lines: list[str]) -> str:
    """A test file with these starts."""
    path = tmp_path / "starts.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_json_contract_and_scoring_of_a_nim_grading_run(tmp_path):
    tests = starts_file(tmp_path, ["3 4 5", "1 2 4", "2 2 7"])
    out = judge(
        "run",
        "--game",
        "nim",
        "--tests",
        tests,
        "--db",
        str(tmp_path / "r.db"),
        "--format",
        "json",
        "--jobs",
        "2",
        str(BOTS / "nim/optimal.py"),
        str(BOTS / "nim/greedy.py"),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    bots = {Path(b["bot"]).name: b for b in data["bots"]}
    for b in bots.values():
        assert {
            "bot",
            "games",
            "wins",
            "ties",
            "losses",
            "points",
            "max_points",
            "failures",
        } <= set(b)
        assert b["games"] == 3 and b["max_points"] == 3
    assert bots["optimal.py"]["points"] == 3 and bots["optimal.py"]["accuracy"] == 1.0
    assert bots["greedy.py"]["points"] < 3
    assert len(data["games"]) == 6
    for g in data["games"]:
        assert {"bot", "start", "seat", "result", "verdict", "moves"} <= set(g)
        assert g["result"] in ("win", "tie", "loss")
    assert data["game"] == "nim misere=off"


@pytest.mark.slow
def test_ioiwari_scores_four_points_a_win_and_optimal_wins_every_standard_start(tmp_path):
    out = judge(
        "run",
        "--game",
        "ioiwari",
        "--db",
        str(tmp_path / "r.db"),
        "--format",
        "json",
        str(BOTS / "ioiwari/optimal.py"),
    )
    assert out.returncode == 0, out.stderr
    (bot,) = json.loads(out.stdout)["bots"]
    assert bot["games"] == 357 and bot["wins"] == 357
    assert bot["points"] == bot["max_points"] == 4 * 357


def test_second_seat_is_graded_on_starts_the_second_player_wins(tmp_path):
    out = judge(
        "run",
        "--game",
        "nim",
        "--seats",
        "both",
        "--db",
        str(tmp_path / "r.db"),
        "--format",
        "json",
        str(BOTS / "nim/optimal.py"),
    )
    data = json.loads(out.stdout)
    seats = {g["seat"] for g in data["games"]}
    assert seats == {1, 2}
    assert all(g["result"] == "win" for g in data["games"])


@pytest.mark.slow
def test_a_killed_run_resumes_without_replaying_finished_games(tmp_path):
    db = tmp_path / "r.db"
    lines = (ROOT / "samples/ioiwari-starts.txt").read_text().splitlines()[1:81]
    tests = starts_file(tmp_path, lines)
    args = [
        sys.executable,
        "-m",
        "judge",
        "run",
        "--game",
        "ioiwari",
        "--db",
        str(db),
        "--tests",
        tests,
        "--jobs",
        "1",
        "--format",
        "json",
        str(BOTS / "ioiwari/random.py"),
    ]
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 20 and time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists():
            try:
                stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                stored = 0
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 20 <= stored < 80
    partial = judge("show", "1", "--db", str(db), "--format", "json")
    assert json.loads(partial.stdout)["state"] == "interrupted"
    assert f"results are partial ({stored} games stored)" in partial.stderr
    out = judge("run", "--resume", "1", "--db", str(db), "--format", "json")
    assert out.returncode == 0, out.stderr
    assert f"{80 - stored} to play" in out.stderr
    (bot,) = json.loads(out.stdout)["bots"]
    assert bot["games"] == 80
    shown = judge("show", "1", "--db", str(db), "--format", "json")
    assert json.loads(shown.stdout)["bots"] == json.loads(out.stdout)["bots"]
    assert json.loads(shown.stdout)["state"] == "finished" and not shown.stderr


def test_a_bot_for_another_game_gets_verdicts_not_a_crash(tmp_path):
    tests = starts_file(tmp_path, ["4 3 2 4 2 3 2"])
    out = judge(
        "run",
        "--game",
        "ioiwari",
        "--tests",
        tests,
        "--db",
        str(tmp_path / "r.db"),
        "--format",
        "json",
        str(BOTS / "nim/optimal.py"),
    )
    assert out.returncode == 0, out.stderr
    (game,) = json.loads(out.stdout)["games"]
    assert game["result"] == "loss"
    assert game["verdict"] in ("garbage", "illegal-move", "no-move", "crash")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "nim", "no/such/bot.py"], "no such file"),
        (["--game", "nim", "--rules", "misere=sometimes", "x.py"], "misere"),
        (["--game", "chess", "x.py"], "invalid choice"),
        (["--game", "nim"], "at least one BOT"),
        (["--resume", "42"], "no results database"),
        (["--move-time", "nan", "--game", "nim", "x.py"], "--move-time must be a positive"),
        (["--output-limit", "-1", "--game", "nim", "x.py"], "--output-limit must be a positive"),
    ],
)
def test_bad_command_lines_exit_2_with_a_message_and_no_traceback(tmp_path, args, message):
    out = judge("run", "--db", str(tmp_path / "r.db"), *args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_malformed_test_file_names_file_and_line_and_stores_nothing(tmp_path):
    tests = starts_file(tmp_path, ["3 4 5", "3 four 5"])
    db = tmp_path / "r.db"
    out = judge("run", "--game", "nim", "--tests", tests, "--db", str(db),
                str(BOTS / "nim/optimal.py"))
    assert out.returncode == 2
    assert f"{tests}: line 2" in out.stderr
    assert not db.exists()  # no half-made run, not even an empty database


def test_a_starts_file_saved_with_a_byte_order_mark_is_read_as_its_starts(tmp_path):
    # Notepad's "UTF-8" starts a file with a byte-order mark: not a part of the first start
    tests = tmp_path / "starts.txt"
    tests.write_bytes("3 4 5\r\n1 2 4\r\n".encode("utf-8-sig"))
    db = str(tmp_path / "r.db")
    graded = judge("run", "--game", "nim", "--tests", str(tests), "--db", db, "--format",
                   "json", str(BOTS / "nim/optimal.py"))
    assert graded.returncode == 0, graded.stderr
    assert sorted(g["start"] for g in json.loads(graded.stdout)["games"]) == ["1 2 4", "3 4 5"]
    played = judge("tournament", "--game", "nim", "--starts", str(tests), "--db", db,
                   str(BOTS / "nim/optimal.py"), str(BOTS / "nim/random.py"))
    assert played.returncode == 0, played.stderr


def test_a_test_set_lost_for_the_graded_seat_is_warned_of_with_how_to_fix_it(tmp_path):
    db = str(tmp_path / "r.db")
    lost = starts_file(tmp_path, ["1 2 3", "4 5 1"])  # nim-sum 0: the first player loses
    graded = judge("run", "--game", "nim", "--tests", lost, "--db", db, "--format", "json",
                   str(BOTS / "nim/optimal.py"))
    assert graded.returncode == 0, graded.stderr
    assert json.loads(graded.stdout)["bots"][0]["max_points"] == 0
    warning = next(line for line in graded.stderr.splitlines() if "every start" in line)
    assert warning.startswith(f"judge: warning: every start of {lost} is lost for the graded "
                              "seat (first player)")
    assert "give --tests FILE" in warning and "--seats both" in warning
    mixed = starts_file(tmp_path, ["1 2 3", "1 2 4"])
    fair = judge("run", "--game", "nim", "--tests", mixed, "--db", db, str(BOTS / "nim/optimal.py"))
    assert fair.returncode == 0 and "every start" not in fair.stderr


def test_resume_plays_the_stored_starts_even_if_the_file_changed(tmp_path):
    tests = starts_file(tmp_path, ["3 4 5", "1 2 4"])
    db = str(tmp_path / "r.db")
    first = judge("run", "--game", "nim", "--tests", tests, "--db", db, "--format", "json",
                  str(BOTS / "nim/optimal.py"))
    assert first.returncode == 0, first.stderr
    Path(tests).unlink()
    again = judge("run", "--resume", "1", "--db", db, "--format", "json")
    assert again.returncode == 0, again.stderr
    assert "0 to play" in again.stderr
    assert sorted(g["start"] for g in json.loads(again.stdout)["games"]) == ["1 2 4", "3 4 5"]
    conflict = judge("run", "--resume", "1", "--db", db, "--game", "nim")
    assert conflict.returncode == 2 and "drop --game" in conflict.stderr
    unknown = judge("run", "--resume", "9", "--db", db)
    assert unknown.returncode == 2 and "no run 9" in unknown.stderr


def test_resuming_a_run_of_another_kind_names_the_command_that_resumes_it(tmp_path):
    db = str(tmp_path / "r.db")
    played = judge("tournament", "--game", "nim", "--starts", starts_file(tmp_path, ["3 4 5"]),
                   "--db", db, str(BOTS / "nim/optimal.py"), str(BOTS / "nim/random.py"))
    assert played.returncode == 0, played.stderr
    wrong = judge("run", "--resume", "1", "--db", db)
    assert wrong.returncode == 2
    assert (f"run 1 is a tournament, not a run: continue with: judge tournament --resume 1 "
            f"--db {db}") in wrong.stderr


def test_resume_refuses_new_settings_and_a_changed_bot(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text((BOTS / "nim/optimal.py").read_text())
    tests = starts_file(tmp_path, ["3 4 5"])
    db = str(tmp_path / "r.db")
    assert judge("run", "--game", "nim", "--tests", tests, "--db", db, str(bot)).returncode == 0
    for option in (["--seats", "both"], ["--seed", "4"], ["--move-time", "9"]):
        out = judge("run", "--resume", "1", "--db", db, *option)
        assert out.returncode == 2 and f"drop {option[0]}" in out.stderr
    assert judge("run", "--resume", "1", "--db", db, "--jobs", "1").returncode == 0
    bot.write_text(bot.read_text() + "# a new version\n")
    out = judge("run", "--resume", "1", "--db", db)
    assert out.returncode == 2 and "has changed since the run started" in out.stderr


def test_non_bot_files_among_the_bots_are_skipped_with_a_note(tmp_path):
    (tmp_path / "README.md").write_text("my bots\n")
    (tmp_path / "__pycache__").mkdir()
    bot = tmp_path / "bot.py"
    bot.write_text((BOTS / "nim/optimal.py").read_text())
    tests = starts_file(tmp_path, ["3 4 5"])
    out = judge("run", "--game", "nim", "--tests", tests, "--db", str(tmp_path / "r.db"),
                "--format", "json", str(tmp_path / "README.md"),
                str(tmp_path / "__pycache__"), str(bot))
    assert out.returncode == 0, out.stderr
    assert "skipping" in out.stderr and "README.md" in out.stderr
    assert "__pycache__" in out.stderr
    assert [b["bot"] for b in json.loads(out.stdout)["bots"]] == [str(bot)]


@pytest.mark.parametrize("name, text", [
    ("Main.kt", "fun main() {}\n"),  # a language the judge does not know
    ("big.py", None),  # over a bot's disk quota (a sparse file of 70 MiB)
])
def test_a_program_that_cannot_be_graded_among_the_bots_ends_with_status_3(tmp_path, name,
                                                                          text):
    """A student's file the judge cannot grade is named and the run says some bots were not
    graded (status 3), where a document among them (a README) is skipped with a note alone:
    a student does not vanish from the grades with status 0."""
    given = tmp_path / name
    if text is None:
        with open(given, "wb") as fh:
            fh.truncate(70 << 20)
    else:
        given.write_text(text)
    bot = tmp_path / "bot.py"
    bot.write_text((BOTS / "nim/optimal.py").read_text())
    out = judge("run", "--game", "nim", "--tests", starts_file(tmp_path, ["3 4 5"]),
                "--db", str(tmp_path / "r.db"), str(given), str(bot))
    assert out.returncode == 3, out.stderr
    assert f"judge: skipping bot {given}: " in out.stderr
    assert out.stderr.splitlines()[-1] == (
        "judge: warning: some bots were not graded: skipped, as said above the table")


def test_an_empty_folder_among_the_bots_is_a_student_who_gave_nothing(tmp_path):
    (tmp_path / "sub").mkdir()
    tests = starts_file(tmp_path, ["3 4 5"])
    out = judge("run", "--game", "nim", "--tests", tests, "--db", str(tmp_path / "r.db"),
                "--format", "json", "--details", str(tmp_path / "sub"),
                str(BOTS / "nim/optimal.py"))
    assert out.returncode == 3, out.stderr
    assert [(g["verdict"], g["message"]) for g in json.loads(out.stdout)["games"]
            if g["bot"] == str(tmp_path / "sub")] == [("not-graded", "an empty folder")]


def test_csv_and_markdown_outputs_have_one_row_per_bot(tmp_path):
    tests = starts_file(tmp_path, ["3 4 5"])
    for fmt, marker in (("csv", "bot,games"), ("markdown", "| bot")):
        out = judge(
            "run",
            "--game",
            "nim",
            "--tests",
            tests,
            "--db",
            str(tmp_path / "r.db"),
            "--format",
            fmt,
            str(BOTS / "nim/optimal.py"),
            str(BOTS / "nim/random.py"),
        )
        assert out.returncode == 0, out.stderr
        assert marker in out.stdout
        rows = [line for line in out.stdout.splitlines() if fmt == "csv" or line[:1] == "|"]
        assert sum("optimal.py" in line or "random.py" in line for line in rows) == 2


def test_play_names_the_move_that_lost_the_game_in_json(tmp_path):
    out = judge("play", "--game", "ioiwari", "--format", "json", str(BOTS / "ioiwari/greedy.py"))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["verdict"] == "ok"
    assert data["result"] in ("tie", "loss")  # greedy cannot hold the example start
    mine = [m for m in data["moves"] if m["seat"] == 1]
    assert any(m["review"]["mistake"] for m in mine)
    for m in mine:
        r = m["review"]
        assert r["mistake"] == (m["move"] not in r["best_moves"])
    assert data["players"][0]["seat"] == 1 and data["players"][0]["name"].endswith("greedy.py")


def test_play_from_a_start_lost_for_the_mover_says_so_before_the_game(tmp_path):
    bot = str(BOTS / "nim/optimal.py")
    lost = judge("play", "--game", "nim", "--start", "1 2 3", bot)  # nim-sum 0
    assert lost.returncode == 0, lost.stderr
    note = (f"judge: note: this start is lost for player 1 ({bot}), who moves first: "
            f"player 2 wins it with perfect play")
    assert lost.stderr.splitlines().count(note) == 1
    assert "result: " + bot + " loses" in lost.stdout
    won = judge("play", "--game", "nim", "--start", "1 2 4", bot)
    assert won.returncode == 0 and "lost" not in won.stderr


def test_play_json_gives_each_player_its_own_verdict(tmp_path):
    garbage = Path(__file__).parent / "bots" / "garbage.py"
    out = judge("play", "--game", "ioiwari", "--format", "json", "--seat", "2",
                str(BOTS / "ioiwari/greedy.py"), "--vs", str(garbage))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["result"], data["verdict"], data["seat"]) == ("win", "ok", 2)
    assert data["failed_seat"] == 1
    first, second = data["players"]
    assert (first["result"], first["verdict"]) == ("loss", "garbage")
    assert "hello, judge" in first["message"]
    assert (second["result"], second["verdict"], second["message"]) == ("win", "ok", "")


def test_play_gives_random_bots_the_seed_so_a_game_can_be_replayed():
    def moves(seed: str) -> list[str]:
        out = judge("play", "--game", "ioiwari", "--format", "json", "--seed", seed,
                    str(BOTS / "ioiwari/random.py"), "--vs", str(BOTS / "ioiwari/random.py"))
        assert out.returncode == 0, out.stderr
        return [m["move"] for m in json.loads(out.stdout)["moves"]]

    assert moves("1") == moves("1")
    assert len({tuple(moves(str(seed))) for seed in range(2, 6)}) > 1


def test_play_text_draws_boards_and_judges_moves():
    out = judge("play", "--game", "nim", "--start", "3 4 5", str(BOTS / "nim/optimal.py"))
    assert out.returncode == 0, out.stderr
    assert "heap 1:" in out.stdout and "optimal" in out.stdout
    assert "MISTAKE" not in out.stdout
    assert "result:" in out.stdout and "verdict: ok" in out.stdout


def test_a_verdicts_message_of_several_lines_keeps_them_escaped():
    from judge.commands.play import verdict_message

    assert verdict_message("") == ""
    assert verdict_message("move 3: exited with status 1") == ": move 3: exited with status 1"
    error = "bot.c:2:5: error: \x1b[31mexpected ';'\n    2 | int x\n      |      ^\n"
    assert verdict_message(error) == (
        ":\n  bot.c:2:5: error: \\x1b[31mexpected ';'\n      2 | int x\n        |      ^")


def processes_mentioning(text: str) -> list[str]:
    """Command lines of live (not zombie) processes that contain `text`."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmd and state != "Z":
            found.append(cmd)
    return found


def test_killing_the_judge_leaves_no_worker_or_bot_behind(tmp_path):
    bot = tmp_path / "slowish_bot.py"
    bot.write_text((BOTS / "ioiwari/optimal.py").read_text())
    db = tmp_path / "r.db"
    proc = subprocess.Popen([sys.executable, "-m", "judge", "run", "--game", "ioiwari",
                             "--jobs", "2", "--db", str(db), str(bot)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not processes_mentioning(str(bot)) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1)
    proc.kill()  # the main process only: its workers and their bots must follow
    proc.wait()
    deadline = time.monotonic() + 60  # (at once on an idle machine)
    while (processes_mentioning(str(bot)) or processes_mentioning(str(db))) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_mentioning(str(bot)) == []
    assert processes_mentioning(str(db)) == []


def test_without_bubblewrap_auto_warns_and_the_run_records_the_sandbox_used(tmp_path):
    tools = tmp_path / "bin"  # no bwrap on the PATH, only the C compiler (for the helper)
    tools.mkdir()
    for name in ("cc", "gcc", "as", "ld"):
        if shutil.which(name):
            (tools / name).symlink_to(shutil.which(name))
    env = dict(os.environ, PATH=str(tools))
    db = tmp_path / "r.db"
    out = subprocess.run([sys.executable, "-m", "judge", "run", "--game", "nim", "--tests",
                          starts_file(tmp_path, ["3 4 5"]), "--db", str(db),
                          str(BOTS / "nim/optimal.py")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert "warning: bubblewrap is not installed" in out.stderr
    assert "confinement none" in out.stderr
    (config,) = sqlite3.connect(db).execute("SELECT config FROM runs").fetchone()
    assert json.loads(config)["sandbox"] == "none"
