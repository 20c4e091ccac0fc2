"""The command line's own messages: a misspelt option or command, the tier's warnings, the
browser app's database, counts in words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.commands import inputs
from judge.games.base import InputError
from judge.report import plural
from judge.sandbox.tiers import Tier
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = str(ROOT / "bots" / "nim" / "optimal.py")


# --- a misspelt option or command -------------------------------------------------------------


#: (the arguments, the one line of stderr before its hint): each usage error is that line and
#: the command whose --help says more, with status 2 and nothing stored
USAGE_ERRORS = [
    (["run", "--game", "nim", "--fail-fats", "3", OPTIMAL],
     "unrecognized option --fail-fats: did you mean --fail-fast? (judge run"),
    # a misspelt required option is named rather than the option it leaves out
    (["run", "--gmae", "nim", OPTIMAL],
     "unrecognized option --gmae: did you mean --game? (judge run"),
    (["run", "--game", "nim", "--seats", "three", OPTIMAL],
     "argument --seats: invalid choice: 'three' (choose from 'first', 'both') (judge run"),
    # with its value after an equals sign, the option is named alone
    (["show", "--detials=yes"],
     "unrecognized option --detials: did you mean --details? (judge show"),
    (["show", "1", "2"], "unrecognized arguments: 2 (judge show"),
    (["run", "--game", "nim", "--opponent", "level:11", OPTIMAL],
     "argument --opponent: a weaker opponent is level:N with N from 0 (random play) to 10 "
     "(perfect play), not 'level:11' (judge run"),
    (["rnu", "--game", "nim"], "unknown command rnu: did you mean run? (judge"),
    # before the command, the top level's
    (["--verison"], "unrecognized option --verison: did you mean --version? (judge"),
]


@pytest.mark.parametrize("args, said", USAGE_ERRORS)
def test_a_usage_error_is_one_line_with_the_commands_help_not_the_usage_block(tmp_path, args,
                                                                              said):
    out = judge(*args, cwd=tmp_path)
    assert out.returncode == 2
    what = "commands" if said.endswith("(judge") else "options"
    assert out.stderr.splitlines() == [f"judge: error: {said} --help lists the {what})"]
    assert not (tmp_path / "judge-results.sqlite").exists()


# --- the tier's warnings ----------------------------------------------------------------------

#: an ordinary user's tier with bubblewrap: three guarantees do not hold
BWRAP = Tier("bwrap", uid=False, cgroups=False, helper=True, landlock=True)
#: a tier that lacks one guarantee (fair CPU)
ALL_BUT_FAIR = Tier("bwrap", uid=True, cgroups=True, helper=True, cgroup_version=1,
                    cgroup_limits=True, fair=False, landlock=True)


@pytest.fixture
def tier_here(monkeypatch):
    """Make `tier_for` give the tier passed to the returned function."""
    def use(tier: Tier) -> None:
        monkeypatch.setattr("judge.sandbox.tier_for", lambda mode: tier)
        monkeypatch.setattr("judge.sandbox.waiting.blind_reason", lambda tier: None)

    yield use
    inputs._tier_report.clear()


def test_the_tiers_warnings_are_one_line_that_counts_them(tier_here, capsys):
    tier_here(BWRAP)
    assert len(BWRAP.warnings()) == 3
    inputs.tier_for_run("auto")
    assert capsys.readouterr().err == ""  # nothing until bots are to run
    inputs.report_tier()
    assert capsys.readouterr().err == ("judge: warning: confinement bwrap: 3 guarantees "
                                       "missing here (judge doctor says which)\n")
    inputs.report_tier()
    assert capsys.readouterr().err == ""  # once


def test_verbose_gives_each_missing_guarantee_in_full(tier_here, capsys):
    tier_here(BWRAP)
    inputs.tier_for_run("auto", verbose=True)
    inputs.report_tier()
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["judge: warning: confinement bwrap: 3 guarantees missing here:",
                     *(f"judge: warning: {line}" for line in BWRAP.warnings())]


def test_one_missing_guarantee_is_one_guarantee(tier_here, capsys):
    tier_here(ALL_BUT_FAIR)
    inputs.tier_for_run("bwrap")
    inputs.report_tier()
    assert "confinement bwrap+uid+cgroups: 1 guarantee missing here (" in capsys.readouterr().err


def test_a_missing_bot_file_is_not_preceded_by_the_tiers_warnings(tier_here, capsys,
                                                                  tmp_path):
    tier_here(BWRAP)
    inputs.tier_for_run("auto")
    with pytest.raises(InputError, match="no such file"):
        inputs.check_bots([str(tmp_path / "nosuch.py")])
    assert capsys.readouterr().err == ""
    assert inputs.check_bots([OPTIMAL]) == ([OPTIMAL], [])  # bots to run: now it is said
    assert "3 guarantees missing here" in capsys.readouterr().err


@pytest.fixture
def weak_tier() -> Tier:
    """The tier of `--sandbox none` here, which lacks at least the filesystem's guarantee."""
    from judge.sandbox import tier_for

    try:
        tier = tier_for("none")
    except InputError as exc:
        pytest.skip(f"--sandbox none does not run here: {exc}")
    assert tier.warnings()
    return tier


def test_a_command_line_error_comes_alone(weak_tier, tmp_path):
    out = judge("run", "--game", "nim", "--sandbox", "none", "nosuch.py", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == "judge: error: bot nosuch.py: no such file\n"


def test_a_run_says_the_tiers_warnings_in_one_line_and_in_full_with_verbose(weak_tier,
                                                                          tmp_path):
    (tmp_path / "starts.txt").write_text("3 4 5\n")
    run = ("run", "--game", "nim", "--sandbox", "none", "--tests", "starts.txt", "--db",
           "r.db", OPTIMAL)
    out = judge(*run, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stderr.splitlines() if "guarantee" in line]
    count = plural(len(weak_tier.warnings()), "guarantee")
    assert said == [f"judge: warning: confinement {weak_tier.name}: {count} missing here "
                    f"(judge doctor says which)"]
    out = judge(*run, "--verbose", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for line in weak_tier.warnings():
        assert f"judge: warning: {line}\n" in out.stderr


# --- judge serve ------------------------------------------------------------------------------


def test_serve_help_still_works_and_names_its_default_database(tmp_path):
    out = judge("serve", "--help", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: judge serve ")
    assert "judge-results.sqlite in this directory" in " ".join(out.stdout.split())


def test_serve_opens_the_results_database_of_this_directory_as_show_does(tmp_path,
                                                                        monkeypatch):
    from judge.commands.options import DEFAULT_DB
    from judge.commands.serve import database

    monkeypatch.chdir(tmp_path)
    assert database(None) is None  # none here: the app opens no stored games
    (tmp_path / DEFAULT_DB).write_bytes(b"")
    assert DEFAULT_DB == "judge-results.sqlite"
    assert database(None) == Path("judge-results.sqlite")
    assert database(Path("other.db")) == Path("other.db")  # --db wins


def test_serve_on_a_busy_port_says_so_in_one_line_with_the_way_out(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = judge("serve", "--port", str(port), "--no-browser", cwd=tmp_path, timeout=60)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1] == (
        f"judge: error: --port {port}: another program listens on 127.0.0.1:{port}: give "
        f"another port, or --port 0 for any free one")
    assert "Traceback" not in out.stderr and "ERROR" not in out.stderr


@pytest.mark.parametrize("share", ["0", "9", "many"])
def test_serve_refuses_a_share_of_the_bot_games_it_cannot_give_in_one_line(tmp_path, share):
    out = judge("serve", "--bot-games-per-address", share, "--port", "0", "--no-browser",
                cwd=tmp_path, timeout=60)
    assert out.returncode == 2
    assert out.stderr.count("\n") <= 2 and "Traceback" not in out.stderr
    assert "--bot-games-per-address" in out.stderr.splitlines()[-1]
    assert "1 to 8" in out.stderr or "invalid int" in out.stderr


def test_no_command_but_serve_loads_the_web_app():
    check = ("import sys; from judge.cli import build_parser; build_parser([]); "
             "build_parser(['run']); "
             "print(sorted(m for m in ('starlette', 'uvicorn', 'judge.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_browser_apps_packages_are_the_judges_own_and_the_web_extra_still_names_them():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("=")[0].lower() for d in project["dependencies"]}
    assert {"starlette", "uvicorn", "websockets"} <= names
    assert "web" in project["optional-dependencies"]
    assert not any(d.startswith("distributed") for d in project["dependencies"])


# --- counts in words --------------------------------------------------------------------------


@pytest.mark.parametrize("n, words", [(0, "0 games"), (1, "1 game"), (2, "2 games")])
def test_a_count_takes_the_singular_only_for_one(n, words):
    assert plural(n, "game") == words


def test_an_irregular_plural_is_given():
    assert plural(1, "data set", "data sets") == "1 data set"
    assert plural(3, "match", "matches") == "3 matches"


@pytest.mark.parametrize("args", [
    ["run", "--game", "nim", "\x1b[2Jx.py"],
    ["run", "--game", "nim", "--tests", "\x1b]0;t\x07\nx.txt", "bots/nim/greedy.py"],
])
def test_an_error_naming_a_path_reaches_the_terminal_escaped(args):
    """(A missing bot or test file's name reached the terminal as it was: its escape
    sequences cleared the screen.)"""
    out = judge(*args, "--db", "/nonexistent/r.db")
    assert out.returncode == 2
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr
    assert len(out.stderr.splitlines()) == 1 and "\\x1b" in out.stderr


@pytest.mark.parametrize("option, name", [("--tests", "fifo"), ("--names", "fifo"),
                                          ("--tests", "zero"), ("--names", "huge")])
def test_a_file_of_an_option_that_is_no_file_or_huge_is_one_line(tmp_path, option, name):
    """(A FIFO given as --tests or --names hung the judge; /dev/zero filled its memory.)"""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    with open(tmp_path / "huge", "wb") as fh:
        fh.truncate(2 << 30)
    bot = str(Path(__file__).resolve().parent.parent / "bots/nim/greedy.py")
    out = judge("run", "--game", "nim", option, name, "--db", "r.db", bot, cwd=tmp_path,
                timeout=60)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1, out.stderr
    why = "over 64 MiB" if name == "huge" else "not a file"
    assert out.stderr.startswith("judge: error: ")
    assert out.stderr.endswith(f"cannot read {name}: {why}\n")


def test_a_bot_file_of_gigabytes_is_refused_by_its_size(tmp_path):
    """(A sparse bot file of 2 GiB took 4 GB of the judge's memory.)"""
    with open(tmp_path / "big.py", "wb") as fh:
        fh.truncate(2 << 30)
    out = judge("run", "--game", "nim", "--db", "r.db", "big.py", cwd=tmp_path, timeout=60)
    assert out.returncode == 2
    assert out.stderr == "judge: error: bot big.py: over 64 MiB, a bot's disk quota\n"
