"""The course file, judge.toml: its settings are the options of every command that the
command line does not give, checked as the command line's are, its errors named by file,
line and key; `judge run` grades its submissions; `judge doctor` shows it; and its
`sandbox-prefer = "gvisor"` makes `--sandbox auto` take the gvisor tier where runsc works."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import pytest

from judge.cli import build_parser, parse
from judge.sandbox import tiers
from tests.command import judge
from tests.similar_sets import begun_from_greedy

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "bots" / "nim"


def parsed(folder: Path, monkeypatch: pytest.MonkeyPatch, *argv: str) -> argparse.Namespace:
    """The options of `judge ARGV` run in `folder`, as the command gets them."""
    monkeypatch.chdir(folder)
    return parse(build_parser(list(argv)), list(argv))


def refused(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *argv: str) -> str:
    """The one error line of `judge ARGV` in `folder`, which must end with status 2."""
    with pytest.raises(SystemExit) as ended:
        parsed(folder, monkeypatch, *argv)
    assert ended.value.code == 2
    lines = [line for line in capsys.readouterr().err.splitlines()
             if line.startswith("judge") and ": error: " in line]
    assert len(lines) == 1
    return lines[0]


def course(folder: Path, text: str, name: str = "judge.toml") -> Path:
    """A course file `name` in `folder` that says `text`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def test_a_command_takes_the_course_files_shared_settings_and_those_of_its_table(
        tmp_path, monkeypatch):
    course(tmp_path, 'game = "nim"\nmove-time = 2\nseed = 7\nsandbox-prefer = "gvisor"\n\n'
                     '[run]\nfeedback = "mistakes"\nseats = "both"\nshare = true\n'
                     'fail-fast = 3\nflags = ["c=-O2", "cpp=-O1"]\n\n'
                     '[tournament]\nmove-time = 5\n')
    args = parsed(tmp_path, monkeypatch, "run", "bot.py")
    assert (args.game, args.limit_move_seconds, args.seed) == ("nim", 2.0, 7)
    assert args.sandbox_prefer == "gvisor"
    assert (args.feedback, args.seats, args.share, args.fail_fast) == ("mistakes", "both",
                                                                      True, 3)
    assert args.flags == ["c=-O2", "cpp=-O1"]
    assert args.limit_cpu_seconds is None and args.rules == ""  # what it does not say: defaults
    assert parsed(tmp_path, monkeypatch, "tournament", "a.py", "b.py").limit_move_seconds == 5.0


def test_the_command_line_wins_over_the_course_file_even_with_the_default_value(
        tmp_path, monkeypatch):
    course(tmp_path, 'game = "nim"\n[run]\nfeedback = "mistakes"\nmove-time = 2\n'
                     'flags = ["c=-O2"]\n')
    args = parsed(tmp_path, monkeypatch, "run", "--feedback", "full", "--move-t", "3",
                  "--flags", "cpp=-O1", "--game", "chopsticks", "bot.py")
    assert (args.feedback, args.limit_move_seconds, args.game) == ("full", 3.0, "chopsticks")
    assert args.flags == ["cpp=-O1"]


def test_a_required_option_may_come_from_the_course_file_and_is_still_required_without(
        tmp_path, monkeypatch, capsys):
    course(tmp_path / "a", '[league]\ngame = "nim"\n')
    assert parsed(tmp_path / "a", monkeypatch, "league", "new").game == "nim"
    course(tmp_path / "b", '[league]\ndb = "l.sqlite"\n')
    assert "the following arguments are required: --game" in refused(
        tmp_path / "b", monkeypatch, capsys, "league", "new")


@pytest.mark.parametrize("text, said", [
    ('game = "nim"\n\n[run]\nseats = "all"\n',
     "judge.toml:4: seats: invalid choice: 'all' (choose from 'first', 'both')"),
    ('[run]\nmove-time = "fast"\n', "judge.toml:2: move-time: invalid float value: 'fast'"),
    ('[run]\nfail-fast = 0\n', "judge.toml:2: fail-fast: '0' is not a number of games"),
    ('[run]\nshare = "yes"\n', "judge.toml:2: share: is a flag: true or false"),
    ('[run]\nmove-time = [1, 2]\n', "judge.toml:2: move-time: takes one value, not a list"),
    ('game = "nim"\nmove-tme = 2\n',
     "judge.toml:2: move-tme: no command takes this option: did you mean move-time?"),
    ('# the course\n[run]\n  "gaem" = "nim"\n',
     "judge.toml:3: gaem: judge run takes no such option: did you mean game?"),
    ('[run]\nrounds = 2\n', "judge.toml:2: rounds: judge run takes no such option"),
    ('[runn]\nseats = "both"\n', "judge.toml: [runn]: no such command: did you mean run?"),
    ('[run]\nsubmissions = ["class/*/"]\n',
     "judge.toml:2: submissions: 'class/*/' matches no file or folder"),
    ('game = "nim"\nseats = \n', "judge.toml: not TOML: Invalid value (at line 2, column 9)"),
    ("x = " + "[" * 100_000 + "]" * 100_000, "judge.toml: not TOML: nested too deeply"),
    ("x = {" + "a = {" * 3000 + "}" * 3001, "judge.toml: not TOML: nested too deeply"),
    ("[" + ".".join("a" * 5000) + "]", "judge.toml: not TOML: nested too deeply"),
    ("# " + "x" * (1 << 20), "judge.toml: over 1 MiB: not a course file"),
])
def test_a_bad_key_or_value_is_refused_naming_the_file_line_and_key(
        tmp_path, monkeypatch, capsys, text, said):
    course(tmp_path, text)
    assert refused(tmp_path, monkeypatch, capsys, "run").startswith(f"judge: error: {said}")


def test_a_course_file_that_is_no_file_is_refused_without_reading_it(
        tmp_path, monkeypatch, capsys):
    """(--config on a FIFO waited for ever, on /dev/zero filled the judge's memory.)"""
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    for name in ("fifo.toml", "zero.toml"):
        assert refused(tmp_path, monkeypatch, capsys, "run", "--config", name) == (
            f"judge: error: cannot read the course file {name}: not a file")


def test_a_table_or_key_of_the_course_file_reaches_the_terminal_escaped(
        tmp_path, monkeypatch, capsys):
    course(tmp_path, '["run\\u001b[2J"]\nseats = "both"\n')
    said = refused(tmp_path, monkeypatch, capsys, "run")
    assert "\x1b" not in said and said.startswith("judge: error: judge.toml: ['run\\x1b[2J']")
    course(tmp_path, '[run]\n"seats\\u001b[2J" = "both"\n')
    said = refused(tmp_path, monkeypatch, capsys, "run")
    assert "\x1b" not in said and said.startswith("judge: error: judge.toml:2: 'seats\\x1b[2J'")


def test_a_value_the_command_itself_refuses_names_where_the_course_file_gave_it(tmp_path):
    course(tmp_path, 'game = "nim"\n[run]\nmove-time = -1\n')
    out = judge("run", str(NIM / "optimal.py"), cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == (
        "judge: error: --move-time must be a positive number, not -1 "
        "(from judge.toml:3: move-time = -1)")


def test_paths_in_the_course_file_are_read_from_its_folder(tmp_path, monkeypatch):
    course(tmp_path / "course", '[run]\nnames = "roster.csv"\ntests = "/srv/starts.txt"\n'
                                'db = "../results/r.sqlite"\nrules = "misere=on"\n'
                                'submissions = ["class/*/", "extra/*.py"]\n', "c.toml")
    for bot in ("class/bob/main.py", "class/alice/main.py", "extra/x.py", "extra/y.c"):
        (tmp_path / "course" / bot).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "course" / bot).write_text("")
    args = parsed(tmp_path, monkeypatch, "--config", "course/c.toml", "run")
    assert (args.names, args.tests, args.db) == ("course/roster.csv", "/srv/starts.txt",
                                                 "results/r.sqlite")
    assert args.rules == "misere=on"  # not a path
    assert args.bots == ["course/class/alice/", "course/class/bob/", "course/extra/x.py"]
    # the BOT arguments given replace the submissions, and --config after the command too
    assert parsed(tmp_path, monkeypatch, "run", "--config", "course/c.toml",
                  "b.py").bots == ["b.py"]


def test_no_config_ignores_the_course_file_and_a_missing_one_is_an_error(
        tmp_path, monkeypatch, capsys):
    course(tmp_path, '[run]\nseats = "both"\n')
    assert parsed(tmp_path, monkeypatch, "run", "--no-config", "b.py").seats == "first"
    assert parsed(tmp_path, monkeypatch, "--no-config", "run", "b.py").seats == "first"
    assert refused(tmp_path, monkeypatch, capsys, "--config", "other.toml", "run",
                   "b.py") == "judge: error: no such course file: other.toml"


def test_a_shared_setting_is_left_to_the_commands_whose_option_takes_its_value(
        tmp_path, monkeypatch):
    """`judge show --game N` is a game's number, not the game: the course's game is not
    its; a [league] setting of `league new` is not refused by `league play`."""
    course(tmp_path, 'game = "nim"\nfeedback = "mistakes"\n[league]\nstarts = "s.txt"\n')
    args = parsed(tmp_path, monkeypatch, "show", "1")
    assert (args.game_number, args.feedback) == (None, "mistakes")
    assert parsed(tmp_path, monkeypatch, "league", "play").games is None
    assert parsed(tmp_path, monkeypatch, "league", "new").starts == "s.txt"


def test_run_without_a_bot_grades_the_course_files_submissions(tmp_path):
    for name in ("alice", "bob"):
        (tmp_path / "class" / name).mkdir(parents=True)
        shutil.copy(NIM / "optimal.py", tmp_path / "class" / name / "main.py")
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    course(tmp_path, 'game = "nim"\ndb = "r.sqlite"\n\n[run]\ntests = "starts.txt"\n'
                     'submissions = "class/*/main.py"\nformat = "json"\n')
    out = judge("run", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    graded = {bot["bot"]: bot["points"] for bot in json.loads(out.stdout)["bots"]}
    assert graded == {"class/alice/main.py": 1.0, "class/bob/main.py": 1.0}


#: the body of carol's choose(): Bouton's strategy written her own way, not as the README's
#: tour writes it (ann's, tests/data/similar/starter/ann.py)
OWN = """    x = 0
    for h in heaps:
        x = x ^ h
    if x == 0:
        j = 0
        while heaps[j] == 0:
            j += 1
        return j + 1, 1
    found = None
    for idx in range(len(heaps)):
        target = heaps[idx] ^ x
        if target < heaps[idx]:
            found = (idx + 1, heaps[idx] - target)
            break
    return found
"""


def test_a_class_of_folders_from_the_starter_code_marks_the_copy_alone(tmp_path):
    """Students who began from the sample bot (the course's base file), one folder each:
    the disguised copy is marked in `judge show`, which the course file's base does not
    stop, and the student who wrote their own strategy is not."""
    starter = (NIM / "greedy.py").read_text()
    greedy = starter[starter.index("    largest = max"):starter.index("def main")].rstrip()
    alice = begun_from_greedy("ann")  # the choose() of the README's tour
    copy = alice.replace("total", "acc").replace("size", "pile")
    for name, text in (("alice", alice), ("bob", copy),
                       ("carol", starter.replace(greedy, OWN.rstrip()))):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "main.py").write_text(text)
    shutil.copy(NIM / "greedy.py", tmp_path / "starter.py")
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    course(tmp_path, 'game = "nim"\nbase = ["starter.py"]\nsubmissions = ["class/*/"]\n'
                     '\n[run]\ntests = "starts.txt"\n')
    assert judge("run", cwd=tmp_path).returncode == 0
    shown = judge("show", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    rows = {line.split()[0]: line.split()[1] for line in shown.stdout.splitlines()
            if line.startswith("class/")}
    assert rows == {"class/alice": "%1", "class/bob": "%1", "class/carol": "1/1"}, shown.stdout


def test_run_without_a_bot_or_submissions_says_how_to_name_them(tmp_path):
    course(tmp_path, 'game = "nim"\n')
    out = judge("run", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "judge: error: name at least one BOT to grade, or the course file's submissions "
        "(submissions = [\"class/*/\"] in judge.toml)")


def test_resume_takes_the_course_files_settings_as_the_runs_own(tmp_path, monkeypatch):
    """--resume refuses settings given again, but not the course file's, which the run
    was set up with."""
    from judge.commands.options import refuse_with_resume

    course(tmp_path, '[run]\nmove-time = 3\nseats = "both"\nsubmissions = "*.py"\n')
    (tmp_path / "a.py").write_text("")
    refuse_with_resume(parsed(tmp_path, monkeypatch, "run", "--resume", "1"), "--seats")


def test_doctor_shows_the_course_file_it_read_or_that_there_is_none(tmp_path):
    out = judge("doctor", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "course file: none: no judge.toml in this folder (--config FILE names one)\n" \
        in out.stdout
    course(tmp_path, 'game = "nim"\n[run]\nfeedback = "mistakes"\n')
    out = judge("doctor", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert f"{tmp_path / 'judge.toml'}:\n    game = \"nim\"\n    [run] feedback = " \
        f"\"mistakes\"\n\ntier: " in out.stdout


def test_doctor_checks_every_table_of_the_course_file(tmp_path):
    course(tmp_path, '[tournament]\nrounds = "two"\n')
    out = judge("doctor", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == "judge: error: judge.toml:2: rounds: invalid int value: 'two'"


def test_auto_takes_the_sandbox_of_todays_choice_without_a_preference():
    assert tiers.auto_choice("auto", "bwrap") == ("auto", None)
    assert tiers.auto_choice("bwrap", "gvisor") == ("bwrap", None)  # only auto follows it


@pytest.mark.skipif(tiers.runsc_refusal() is not None, reason=str(tiers.runsc_refusal()))
def test_auto_takes_gvisor_where_it_is_preferred_and_runsc_works(tmp_path):
    from judge.commands.inputs import tier_for_run

    assert tier_for_run("auto", prefer="gvisor").sandbox == "gvisor"
    course(tmp_path, 'sandbox-prefer = "gvisor"\n')
    said = json.loads(judge("doctor", "--format", "json", cwd=tmp_path).stdout)
    assert (said["tier"], said["auto"]) == ("gvisor", "--sandbox-prefer gvisor, and runsc "
                                                      "works here")


def test_auto_falls_back_to_the_next_tier_where_runsc_is_missing(monkeypatch):
    monkeypatch.setattr(tiers, "runsc_path", lambda: None)
    assert tiers.auto_choice("auto", "gvisor") == (
        "auto", "--sandbox-prefer gvisor, but runsc (gVisor) is not installed (apt-get "
        "install runsc): auto takes the next tier")


def test_a_run_says_in_one_line_why_a_preferred_gvisor_was_not_taken(monkeypatch):
    from judge.commands import inputs

    monkeypatch.setattr(tiers, "runsc_path", lambda: None)
    tier = inputs.tier_for_run("auto", prefer="gvisor")
    assert tier == tiers.tier_for("auto")
    assert inputs._tier_report[0] == (
        "judge: note: --sandbox-prefer gvisor, but runsc (gVisor) is not installed (apt-get "
        f"install runsc): auto takes the next tier, {tier.name}")
    inputs._tier_report.clear()


def test_resume_refuses_a_sandbox_preference_given_again(tmp_path, monkeypatch):
    """A stored run keeps its tier: --sandbox-prefer with --resume is refused as --sandbox
    is, not silently left unused."""
    from judge.commands.options import refuse_with_resume
    from judge.games.base import InputError

    args = parsed(tmp_path, monkeypatch, "run", "--resume", "1", "--sandbox-prefer", "gvisor")
    with pytest.raises(InputError, match="drop --sandbox-prefer"):
        refuse_with_resume(args)
