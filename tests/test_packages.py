"""`judge export`: contest packages whose interactor is the judge's opponent, run without
the judge, judging each sample bot as `judge run` does; and `judge opponent --format`."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
#: a few starts of each game, for both seats (the default test sets are long to play)
STARTS = {"nim": ["3 4 5", "1 2 3", "2 2 3"],
          "ioiwari": ["4 3 2 4 2 3 2", "2 2 2 2 4 4 4", "0 0 3 2 5 5 5"],
          "chopsticks": ["(L 2 1 1 2 1 1)", "(R 1 3 1 5 1 1)", "(R 2 1 1 2 3 1)"]}
#: the Python an exported interactor runs with: the system's, without the judge installed
PYTHON = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
#: how a bot is run, by its file's suffix
RUN = {".py": [sys.executable]}


def export(tmp_path: Path, game: str, *args: str) -> Path:
    """A Kattis package of `game` on the `STARTS`, both seats, written to tmp_path/GAME."""
    tests = tmp_path / f"{game}.txt"
    tests.write_text("\n".join(STARTS[game]) + "\n")
    out = judge("export", "kattis", game, "--tests", str(tests), "--seats", "both",
                "--output", str(tmp_path / game), *args)
    assert out.returncode == 0, out.stderr
    return tmp_path / game


RANK = {"loss": 0, "tie": 1, "win": 2}


def cases(package: Path) -> dict[tuple[str, int], str]:
    """The package's cases: the result perfect play gets, by (start, seat)."""
    found = {}
    for case in (package / "data").glob("*/*.in"):
        lines = dict(line.split(" ", 1) for line in case.read_text().splitlines())
        found[(lines["start"], int(lines["seat"]))] = lines["expected"]
    return found


def graded(tmp_path: Path, game: str, bot: Path) -> dict[tuple[str, int], bool]:
    """Whether `judge run` gave `bot` the result perfect play gets, by (start, seat)."""
    out = judge("run", "--game", game, "--tests", str(tmp_path / f"{game}.txt"), "--seats",
                "both", "--db", str(tmp_path / "r.db"), "--format", "json", str(bot))
    assert out.returncode == 0, out.stderr
    perfect = cases(tmp_path / game)
    return {(g["start"], g["seat"]): RANK[g["result"]] >= RANK[perfect[g["start"], g["seat"]]]
            for g in json.loads(out.stdout)["games"]}


def interact(validator: Path, case: Path, bot: list[str], feedback: Path) -> int:
    """The package's interactor (Kattis's contract) run on `case` against `bot`, with the
    system's Python and no judge on its path: its exit status."""
    feedback.mkdir(exist_ok=True)
    return connect([PYTHON, "main.py", str(case), str(case.with_suffix(".ans")), str(feedback)],
                   bot, cwd=validator, env={"PATH": "/usr/bin:/bin"})


def connect(interactor: list[str], bot: list[str], **how: object) -> int:
    """`interactor` run with `bot`'s output as its input and its output as `bot`'s input
    (`how`: more of Popen's arguments): the interactor's exit status."""
    player = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert player.stdin is not None and player.stdout is not None
    inter = subprocess.Popen(interactor, stdin=player.stdout, stdout=player.stdin,
                             **how)  # type: ignore[call-overload]
    player.stdin.close()
    player.stdout.close()
    status = inter.wait(timeout=60)
    player.wait(timeout=60)
    return int(status)


@pytest.mark.parametrize("game", ["nim", "ioiwari", "chopsticks"])
def test_the_interactor_judges_each_sample_bot_as_judge_run_does(tmp_path: Path,
                                                                 game: str) -> None:
    package = export(tmp_path, game)
    bots = sorted((package / "submissions").glob("*/*.py"))
    assert {b.parent.name for b in bots} == {"accepted", "wrong_answer"}
    cases = sorted((package / "data").glob("*/*.in"))
    assert len(cases) == 2 * len(STARTS[game])
    for bot in bots:
        expected = graded(tmp_path, game, bot)
        got = {}
        for case in cases:
            lines = dict(line.split(" ", 1) for line in case.read_text().splitlines())
            status = interact(package / "output_validators" / "interactor", case,
                              [sys.executable, str(bot)], tmp_path / "feedback")
            assert status in (42, 43), (bot, case)
            got[(lines["start"], int(lines["seat"]))] = status == 42
        assert got == expected, bot
        assert all(got.values()) == (bot.parent.name == "accepted"), bot


def test_a_wrong_move_is_a_wrong_answer_with_the_reason_in_the_feedback(tmp_path: Path) -> None:
    package = export(tmp_path, "nim")
    case = package / "data" / "sample" / "seat1-001.in"
    status = interact(package / "output_validators" / "interactor", case,
                      ["sh", "-c", "read x; echo '1 9'; sleep 1"], tmp_path / "fb")
    assert status == 43
    message = (tmp_path / "fb" / "judgemessage.txt").read_text()
    assert "illegal-move" in message or "heap" in message, message
    assert "start 3 4 5, seat 1" in message


def test_a_line_of_megabytes_is_quoted_short_in_the_feedback(tmp_path: Path) -> None:
    """(The judge message quoted the bot's line whole: 1 MiB of it.)"""
    package = export(tmp_path, "nim")
    case = package / "data" / "sample" / "seat1-001.in"
    bot = "import sys\nsys.stdout.write('1' * 50_000_000 + '\\n')\n"
    got = interact(package / "output_validators" / "interactor", case,
                   [sys.executable, "-c", bot], tmp_path / "fb")
    message = (tmp_path / "fb" / "judgemessage.txt").read_text()
    assert got == 43 and len(message) < 400, message[:400]
    assert "'" + "1" * 100 + "...' (1048576 characters)" in message


def test_the_case_validator_accepts_the_cases_and_refuses_a_finished_start(tmp_path: Path) -> None:
    package = export(tmp_path, "nim")
    validator = package / "input_validators" / "cases"
    for case in (package / "data").glob("*/*.in"):
        ok = subprocess.run([PYTHON, "main.py"], cwd=validator, stdin=case.open(),
                            capture_output=True)
        assert ok.returncode == 42, ok.stderr
    done = subprocess.run([PYTHON, "main.py"], cwd=validator, input=b"start 0 0\nseat 1\n",
                          capture_output=True)
    assert done.returncode == 43 and b"end of a game" in done.stderr


def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = judge("export", "kattis", "nimm", "--output", str(tmp_path / "p"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "did you mean nim" in out.stderr
    assert not (tmp_path / "p").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep")
    out = judge("export", "kattis", "nim", "--output", str(tmp_path / "full"))
    assert out.returncode == 2 and "--force" in out.stderr and out.stderr.count("\n") == 1
    assert os.listdir(tmp_path / "full") == ["mine.txt"]
    bad = tmp_path / "bad.txt"
    bad.write_text("3 x 5\n")
    out = judge("export", "kattis", "nim", "--tests", str(bad), "--output", str(tmp_path / "q"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    out = judge("export", "gradescope", "nim", "--bot-file", "../x.py", "--output",
                str(tmp_path / "q"))
    assert out.returncode == 2 and "a file name, not a path" in out.stderr
    assert sorted(os.listdir(tmp_path)) == ["bad.txt", "full"]  # no staging folder left


def test_force_replaces_the_folder_whole(tmp_path: Path) -> None:
    (tmp_path / "nim").mkdir()
    (tmp_path / "nim" / "old.txt").write_text("old")
    export(tmp_path, "nim", "--force")
    assert not (tmp_path / "nim" / "old.txt").exists()
    assert (tmp_path / "nim" / "problem.yaml").read_text().count("validation: custom interactive")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nim", "nim.txt"]


def opponent(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`judge opponent ARGS` with `stdin` as the bot's moves."""
    return subprocess.run([sys.executable, "-m", "judge", "opponent", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_opponent_speaks_kattis_and_testlib_contracts(tmp_path: Path) -> None:
    case = tmp_path / "c.in"
    case.write_text("game nim\nstart 3 4 5\nseat 1\nexpected win\n")
    (tmp_path / "c.ans").write_text("win\n")
    (tmp_path / "fb").mkdir()
    kattis = ["--format", "kattis", str(case), str(tmp_path / "c.ans"), str(tmp_path / "fb")]
    lost = opponent("3 5\n", *kattis)  # empties heap 3: a lost position for the bot
    assert lost.returncode == 43
    assert "you lose" in (tmp_path / "fb" / "judgemessage.txt").read_text() or \
        "input ended" in (tmp_path / "fb" / "judgemessage.txt").read_text()
    testlib = ["--format", "testlib", str(case), str(tmp_path / "out")]
    illegal = opponent("4 1\n", *testlib)
    assert illegal.returncode == 1 and illegal.stderr.startswith("wrong answer")
    assert (tmp_path / "out").read_text().startswith("loss\n")
    (tmp_path / "bad.in").write_text("start 3 4 5\n")
    broken = opponent("", "--format", "testlib", str(tmp_path / "bad.in"), str(tmp_path / "o"))
    assert broken.returncode == 3 and "not a case file" in broken.stderr


def test_opponent_kattis_accepts_a_perfect_bot(tmp_path: Path) -> None:
    case = tmp_path / "c.in"
    case.write_text("game nim\nstart 2 2 3\nseat 1\n")
    (tmp_path / "c.ans").write_text("win\n")
    (tmp_path / "fb").mkdir()
    # the bot empties heap 3, then copies each of the opponent's moves on the other heap
    script = "read s; echo '3 3'; while read h k; do echo \"$((3 - h)) $k\"; done"
    status = connect([sys.executable, "-m", "judge", "opponent", "--format", "kattis",
                      str(case), str(tmp_path / "c.ans"), str(tmp_path / "fb")],
                     ["sh", "-c", script])
    assert status == 42
    assert "you win" in (tmp_path / "fb" / "judgemessage.txt").read_text()


#: problemtools' Python 3 runs PyPy; where only CPython is installed it is run instead
LANGUAGES = """python3:
    compile: '{python} -m py_compile {{files}}'
    run: '{python} "{{mainfile}}"'
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("verifyproblem") is None,
                    reason="Kattis problemtools (pip install problemtools) is not installed")
@pytest.mark.parametrize("game", ["nim", "ioiwari", "chopsticks"])
def test_problemtools_verifies_the_package_and_judges_the_bots_as_judge_run(
        tmp_path: Path, game: str) -> None:
    package = export(tmp_path, game)
    env = dict(os.environ)
    if shutil.which("pypy3") is None:
        config = tmp_path / "config" / "problemtools"
        config.mkdir(parents=True)
        (config / "languages.yaml").write_text(LANGUAGES.format(python=PYTHON))
        env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    parts = ["config", "data", "validators", "submissions"]
    if shutil.which("pdflatex") and shutil.which("dvisvgm") and shutil.which("pandoc"):
        parts.append("statement")
    out = subprocess.run(["verifyproblem", str(package), "-p", *parts], capture_output=True,
                         text=True, env=env, timeout=1800)
    report = out.stdout + out.stderr
    assert " 0 errors" in report, report
    for bot in sorted((package / "submissions").glob("*/*.py")):
        perfect = all(graded(tmp_path, game, bot).values())
        assert (bot.parent.name == "accepted") == perfect, bot
        assert f"{bot.parent.name}/{bot.name} (" in report and "OK: " in report


def autograder(tmp_path: Path, *args: str) -> Path:
    """A Gradescope autograder of Nim on `STARTS`, unzipped where Gradescope unzips it:
    ROOT/source, beside ROOT/submission and ROOT/results."""
    tests = tmp_path / "nim.txt"
    tests.write_text("\n".join(STARTS["nim"]) + "\n")
    out = judge("export", "gradescope", "nim", "--tests", str(tests), "--output",
                str(tmp_path / "export"), *args)
    assert out.returncode == 0, out.stderr
    root = tmp_path / "autograder"
    with zipfile.ZipFile(tmp_path / "export" / "autograder.zip") as zf:
        zf.extractall(root / "source")
    (root / "submission").mkdir()
    return root


def run_autograder(root: Path) -> dict[str, Any]:
    """run_autograder as Gradescope runs it (with the judge these tests run): the
    results.json it writes."""
    env = dict(os.environ, AUTOGRADER_ROOT=str(root),
               JUDGE=str(Path(sys.executable).parent / "judge"))
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return dict(json.loads((root / "results" / "results.json").read_text()))


def test_the_gradescope_autograder_grades_the_submission_as_judge_run(tmp_path: Path) -> None:
    root = autograder(tmp_path)
    shutil.copy(ROOT / "bots" / "nim" / "greedy.py", root / "submission" / "mybot.py")
    results = run_autograder(root)
    run = judge("run", "--game", "nim", "--tests", str(tmp_path / "nim.txt"), "--db",
                str(tmp_path / "r.db"), "--format", "json", str(root / "submission" / "mybot.py"))
    row = json.loads(run.stdout)["bots"][0]
    assert (results["score"], results["max_score"]) == (row["points"], row["max_points"])
    assert len(results["tests"]) == len(STARTS["nim"])
    # feedback level mistakes: where the bot went wrong, not the right moves
    assert "first mistake" in results["tests"][0]["output"]
    assert "right" not in json.dumps(results["tests"])


def test_the_autograder_takes_the_named_file_and_refuses_a_missing_one(tmp_path: Path) -> None:
    root = autograder(tmp_path, "--bot-file", "bot.py")
    shutil.copy(ROOT / "bots" / "nim" / "optimal.py", root / "submission" / "bot.py")
    (root / "submission" / "notes.txt").write_text("my notes")
    results = run_autograder(root)
    assert results["score"] == results["max_score"] > 0  # (1 2 3 is lost: no points)
    (root / "submission" / "bot.py").unlink()
    (root / "submission" / "other.py").write_text("")
    results = run_autograder(root)
    assert results["score"] == 0 and "submit one file named bot.py" in results["output"]


#: Python as Ubuntu 22.04's python3.11 (3.11.0rc1, what setup.sh installs on Gradescope's
#: image) and 3.10.0 to 3.10.6 are: without sys.set_int_max_str_digits (no limit to lift)
WITHOUT_DIGITS_LIMIT = "import sys; del sys.set_int_max_str_digits; "


def test_nim_and_its_sample_bots_run_on_a_python_without_the_digits_limit() -> None:
    # the judge's game: the autograder's judge, and the exported interactors' copy of it
    load = subprocess.run([sys.executable, "-c", WITHOUT_DIGITS_LIMIT + "import judge.games.nim"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert load.returncode == 0, load.stderr
    for bot in sorted((ROOT / "bots" / "nim").glob("*.py")):
        play = subprocess.run(
            [sys.executable, "-c", WITHOUT_DIGITS_LIMIT
             + f"import runpy; runpy.run_path({str(bot)!r}, run_name='__main__')"],
            input="3 4 5\n", capture_output=True, text=True, timeout=60)
        assert re.fullmatch(r"[123] [1-5]\n", play.stdout), (bot.name, play.stderr)


def test_the_autograder_carries_the_judge_source_and_a_setup_that_installs_it(
        tmp_path: Path) -> None:
    autograder(tmp_path, "--apt", "default-jdk-headless")
    with zipfile.ZipFile(tmp_path / "export" / "autograder.zip") as zf:
        names = set(zf.namelist())
        setup = zf.read("setup.sh").decode()
        mode = zf.getinfo("run_autograder").external_attr >> 16
    assert {"setup.sh", "run_autograder", "tests.txt", "judge-src/pyproject.toml",
            "judge-src/judge/cli.py", "judge-src/judge/sandbox/languages.toml"} <= names
    assert mode & 0o111
    assert "default-jdk-headless" in setup
    assert 'pip install -q "/autograder/source/judge-src"' in setup
    assert subprocess.run(["bash", "-n", str(tmp_path / "export" / "setup.sh")]).returncode == 0


def test_the_autograder_s_setup_installs_only_what_it_uses(tmp_path: Path) -> None:
    autograder(tmp_path, "--apt", "g++")
    setup = (tmp_path / "export" / "setup.sh").read_text()
    installed = {word for line in setup.splitlines() if "apt-get install" in line
                 for word in shlex.split(line.split("apt-get install")[1].split(">")[0])
                 if not word.startswith("-")}
    # (not software-properties-common, 90 more packages on Ubuntu 22.04 with systemd and
    # PackageKit, for add-apt-repository, which it does not call)
    assert installed == {"gcc", "bubblewrap", "g++", "python3.11", "python3.11-venv",
                         "$python-venv"}


@pytest.mark.slow
def test_the_bundled_source_installs_a_judge_that_grades(tmp_path: Path) -> None:
    root = autograder(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-q",
                              str(root / "source" / "judge-src")], capture_output=True,
                             text=True, timeout=1200)
    assert install.returncode == 0, install.stderr
    shutil.copy(ROOT / "bots" / "nim" / "optimal.py", root / "submission" / "bot.py")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), JUDGE=str(venv / "bin" / "judge"))
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == results["max_score"] > 0


def domjudge_import(package: Path, into: Path) -> Path:
    """The output validator as DOMjudge's problem import stores it
    (ImportProblemService::searchAndAddValidator): every file under output_validators/ by
    its base name in one folder (a later file of the same name replaces an earlier one),
    the import refused when a file is not under the first one's folder; `build` and `run`
    made executable. The folder it wrote."""
    files = sorted(p for p in (package / "output_validators").rglob("*") if p.is_file())
    first = files[0].parent
    assert all(f.is_relative_to(first) for f in files), "Found multiple custom output validators."
    into.mkdir()
    for file in files:
        shutil.copyfile(file, into / file.name)
        if file.name in ("build", "run"):
            (into / file.name).chmod(0o755)
    return into


def test_the_domjudge_package_s_validator_runs_as_domjudge_imports_it(tmp_path: Path) -> None:
    tests = tmp_path / "nim.txt"
    tests.write_text("3 4 5\n")
    out = judge("export", "domjudge", "nim", "--tests", str(tests), "--output",
                str(tmp_path / "dj"))
    assert out.returncode == 0, out.stderr
    package = tmp_path / "dj"
    assert "timelimit = " in (package / "domjudge-problem.ini").read_text()
    assert "validation: custom interactive" in (package / "problem.yaml").read_text()
    validator = domjudge_import(package, tmp_path / "validator")
    case = package / "data" / "sample" / "seat1-001.in"
    (tmp_path / "fb").mkdir()
    for bot, status in (("optimal.py", 42), ("greedy.py", 43)):
        got = connect([str(validator / "run"), str(case), str(case.with_suffix(".ans")),
                       str(tmp_path / "fb")], [sys.executable, str(ROOT / "bots" / "nim" / bot)],
                      env={"PATH": "/usr/bin:/bin"}, stderr=subprocess.DEVNULL)
        assert got == status, bot


def drawn_line(game_name: str, start: str) -> list[str]:
    """The bot's moves (player 1) of a game from `start` against the optimal opponent where
    the bot gives a won game away to a tie at its first move and then keeps the tie."""
    from judge.games import load_game
    from judge.solvers import solver_for
    from judge.solvers.base import order

    game = load_game(game_name)
    solver = solver_for(game)
    pos, moves = game.parse_position(start), []
    while not game.is_over(pos):
        if game.mover(pos) == 0:
            move = next(m.move for m in solver.move_values(pos) if order(m.value) == 0)
            moves.append(game.format_move(move, pos))
        else:
            move = solver.choose(pos)
        pos = game.play(pos, move)
    return moves


def test_a_dmoj_case_tied_where_it_could_be_won_earns_the_tie_s_partial_points(
        tmp_path: Path) -> None:
    start = "x../o../..."  # won for X, to move
    (tmp_path / "t.txt").write_text(start + "\n")
    out = judge("export", "dmoj", "tictactoe", "--tests", str(tmp_path / "t.txt"), "--output",
                str(tmp_path / "dm"))
    assert out.returncode == 0, out.stderr
    init = (tmp_path / "dm" / "init.yml").read_text()
    assert "points: 2}" in init  # a win is 1 point, a tie 0.5: counted in halves
    moves = drawn_line("tictactoe", start)
    bot = ["sh", "-c", "".join(f"read line; echo {m}; " for m in moves) + "cat >/dev/null"]
    done = tmp_path / "stderr"
    with done.open("w") as err:
        status = connect([PYTHON, "interactor.py", "seat1-001.in", "/dev/null",
                          "seat1-001.ans"], bot, cwd=tmp_path / "dm", stderr=err,
                         env={"PATH": "/usr/bin:/bin"})
    assert status == 7 and done.read_text().startswith("points 1\n"), done.read_text()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("dmoj-cli") is None,
                    reason="DMOJ's judge (pip install dmoj; it builds against libseccomp-dev) "
                    "is not installed")
@pytest.mark.parametrize("game", ["nim", "ioiwari", "chopsticks"])
def test_dmoj_grades_the_exported_problem_as_judge_run(tmp_path: Path, game: str) -> None:
    tests = tmp_path / f"{game}.txt"
    tests.write_text("\n".join(STARTS[game]) + "\n")
    problems = tmp_path / "problems"
    out = judge("export", "dmoj", game, "--tests", str(tests), "--seats", "both", "--output",
                str(problems / game))
    assert out.returncode == 0, out.stderr
    (tmp_path / game).mkdir()  # (where `graded` finds the cases)
    shutil.copytree(problems / game, tmp_path / game / "data" / "secret", dirs_exist_ok=True)
    config = tmp_path / "dmoj.yml"
    config.write_text(f"problem_storage_globs:\n  - {problems}/*\n"
                      f"runtime:\n  python3: {PYTHON}\n")
    order = re.findall(r"in: (seat(\d)-\d+)\.in", (problems / game / "init.yml").read_text())
    for bot in sorted((ROOT / "bots" / game).glob("*.py")):
        done = subprocess.run(["dmoj-cli", "-c", str(config), "-e", "PY3", "--no-ansi",
                               "--skip-self-test", "submit", game, "PY3", str(bot)],
                              capture_output=True, text=True, timeout=1200, cwd=tmp_path)
        verdicts = re.findall(r"^Test case +\d+ (\w+) .*?\(#ansi\[(\w+)", done.stdout, re.M)
        assert len(verdicts) == len(order), done.stdout + done.stderr
        got = {}
        for (name, _), (_, said) in zip(order, verdicts, strict=True):
            lines = dict(line.split(" ", 1) for line in
                         (problems / game / f"{name}.in").read_text().splitlines())
            got[(lines["start"], int(lines["seat"]))] = said == "ok"
        assert got == graded(tmp_path, game, bot), bot


def cms_evaluate(task: Path, number: int, bot: list[str], tmp_path: Path) -> tuple[str, str]:
    """Case `number` of a CMS task evaluated as CMS's Communication task type does: the
    manager on the case (stdin) and two FIFOs, the bot on the other ends as its stdin and
    stdout: the manager's stdout (the outcome) and stderr (the text)."""
    fifos = tmp_path / f"fifo{number}"
    fifos.mkdir(parents=True)
    to_manager, to_bot = fifos / "u0_to_m", fifos / "m_to_u0"
    os.mkfifo(to_manager)
    os.mkfifo(to_bot)
    with (task / "input" / f"input{number}.txt").open() as case:
        manager = subprocess.Popen([str(task / "check" / "manager"), str(to_manager),
                                    str(to_bot)], stdin=case, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True,
                                   env={"PATH": "/usr/bin:/bin"})
        script = 'a=$1 b=$2; shift 2; exec "$@" < "$a" > "$b"'
        player = subprocess.Popen(["sh", "-c", script, "sh", str(to_bot), str(to_manager),
                                   *bot], stderr=subprocess.DEVNULL)
        out, err = manager.communicate(timeout=60)
        player.wait(timeout=60)
    assert manager.returncode == 0, err
    return out.strip(), err


def test_the_cms_task_has_the_sol_folder_cms_s_loader_lists(tmp_path: Path) -> None:
    # CMS's Italian YAML loader lists sol/ of a Communication task for its stubs and headers
    # (os.listdir: cmsImportTask stops at FileNotFoundError without it); no file there
    # may be named stub.* (the task would take a stub)
    out = judge("export", "cms", "nim", "--output", str(tmp_path / "nim"))
    assert out.returncode == 0, out.stderr
    sol = tmp_path / "nim" / "sol"
    names = sorted(p.name for p in sol.iterdir())
    assert names == ["greedy.py", "optimal.c", "optimal.py", "random.py"]  # (the sample bots)
    assert not any(name.startswith("stub.") for name in names)
    assert "token_mode: disabled" in (tmp_path / "nim" / "task.yaml").read_text()


def test_the_cms_manager_scores_each_sample_bot_as_judge_run(tmp_path: Path) -> None:
    tests = tmp_path / "nim.txt"
    tests.write_text("\n".join(STARTS["nim"]) + "\n")
    out = judge("export", "cms", "nim", "--tests", str(tests), "--seats", "both", "--output",
                str(tmp_path / "nim"))
    assert out.returncode == 0, out.stderr
    task = tmp_path / "nim"
    assert "n_input: 6" in (task / "task.yaml").read_text()
    starts = []
    for number in range(6):
        lines = dict(line.split(" ", 1) for line in
                     (task / "input" / f"input{number}.txt").read_text().splitlines())
        starts.append((lines["start"], int(lines["seat"])))
    (task / "data" / "secret").mkdir(parents=True)  # (where `graded` finds the cases)
    for number in range(6):
        shutil.copy(task / "input" / f"input{number}.txt",
                    task / "data" / "secret" / f"{number}.in")
    for name in ("optimal.py", "greedy.py"):
        bot = ROOT / "bots" / "nim" / name
        got = {}
        for number in range(6):
            outcome, text = cms_evaluate(task, number, [sys.executable, str(bot)], tmp_path / name)
            assert outcome in ("1.0", "0.0") and "perfect play" in text
            got[starts[number]] = outcome == "1.0"
        assert got == graded(tmp_path, "nim", bot), name


def tied_task(tmp_path: Path) -> tuple[Path, list[str]]:
    """A CMS task of tic-tac-toe from a start won for X (tmp_path/task), and the moves of X
    that tie it against the optimal opponent."""
    start = "x../o../..."  # won for X, to move
    (tmp_path / "t.txt").write_text(start + "\n")
    out = judge("export", "cms", "tictactoe", "--tests", str(tmp_path / "t.txt"), "--output",
                str(tmp_path / "task"))
    assert out.returncode == 0, out.stderr
    return tmp_path / "task", drawn_line("tictactoe", start)


def test_a_cms_case_tied_where_it_could_be_won_scores_the_tie_s_share(tmp_path: Path) -> None:
    _, moves = tied_task(tmp_path)
    bot = ["sh", "-c", "".join(f"read line; echo {m}; " for m in moves) + "cat >/dev/null"]
    outcome, text = cms_evaluate(tmp_path / "task", 0, bot, tmp_path)
    assert (outcome, "tie" in text) == ("0.5", True), text


def test_the_classroom_workflow_grades_the_student_repository_with_the_judge(
        tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    tests = tmp_path / "nim.txt"
    tests.write_text("\n".join(STARTS["nim"]) + "\n")
    out = judge("export", "classroom", "nim", "--tests", str(tests), "--seats", "both",
                "--output", str(tmp_path / "repo"))
    assert out.returncode == 0, out.stderr
    repo = tmp_path / "repo"
    flow = yaml.safe_load((repo / ".github" / "workflows" / "classroom.yml").read_text())
    steps = flow["jobs"]["run-autograding-tests"]["steps"]
    tests_ = [s for s in steps if s.get("uses", "").startswith(
        "classroom-resources/autograding-command-grader@")]
    report = steps[-1]
    assert report["uses"].startswith("classroom-resources/autograding-grading-reporter@")
    assert report["with"]["runners"].split(",") == [s["id"] for s in tests_]
    assert sum(s["with"]["max-score"] for s in tests_) == len(STARTS["nim"])
    assert (repo / ".judge" / "judge-src" / "pyproject.toml").is_file()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    passed = {}
    for bot in ("optimal.py", "greedy.py"):
        shutil.copy(ROOT / "bots" / "nim" / bot, repo / "bot.py")
        passed[bot] = [subprocess.run(["bash", "-c", s["with"]["command"]], cwd=repo, env=env,
                                      capture_output=True, timeout=600).returncode == 0
                       for s in tests_]
    assert all(passed["optimal.py"]) and not all(passed["greedy.py"])
    # a group passes when judge run gave the bot every point of its starts
    export(tmp_path, "nim")  # (the cases, with the result perfect play gets, for `graded`)
    graded_greedy = graded(tmp_path, "nim", ROOT / "bots" / "nim" / "greedy.py")
    for test, ok in zip(tests_, passed["greedy.py"], strict=True):
        starts = (repo / test["with"]["command"].split("--tests ")[1].split()[0]).read_text()
        assert ok == all(v for (start, _), v in graded_greedy.items()
                         if start in starts.splitlines())
