"""The language table: every language's sample bot graded, compile errors once per bot, a
missing toolchain named, compilation confined, and the user's own table and flags.

A test of a language is skipped (with the reason) only where its toolchain is missing here;
CI installs them all.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import missing_toolchain

from judge.games.base import InputError
from judge.sandbox.context import sandbox_context
from judge.sandbox.languages import Table, read_overrides
from tests.command import judge

#: slow: every language's toolchain compiles its bots (`-m slow` runs them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "bots" / "languages"
TABLE = Table()


def need(key: str) -> None:
    """Skip unless the toolchain of language `key` is installed here (as the marker
    `needs_toolchain(key)` does, for a test of each language)."""
    reason = missing_toolchain(key)
    if reason is not None:
        pytest.skip(reason)


def folder(parent: Path, name: str) -> Path:
    (parent / name).mkdir()
    return parent / name


def grade(tmp_path: Path, game: str, *bots: Path | str, extra: tuple[str, ...] = (),
          starts: str | None = None) -> tuple[subprocess.CompletedProcess, dict | None]:
    """`judge run --format json` of `bots` (on `starts`, one per line, if given)."""
    args = ["run", "--game", game, "--db", str(tmp_path / "r.db"), "--format", "json",
            "--jobs", "2", *extra]
    if starts is not None:
        (tmp_path / "starts.txt").write_text(starts)
        args += ["--tests", str(tmp_path / "starts.txt")]
    out = judge(*args, *map(str, bots), cwd=tmp_path)
    return out, (json.loads(out.stdout) if out.stdout.startswith("{") else None)


# --- the table --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, key", [
    ("a.c", "c"), ("a.C", "cpp"), ("a.cc", "cpp"), ("a.cxx", "cpp"), ("a.cpp", "cpp"),
    ("a.CPP", "cpp"), ("a.pas", "pascal"), ("a.dpr", "pascal"), ("Main.java", "java"),
    ("a.rs", "rust"), ("a.go", "go"), ("a.js", "javascript"), ("a.py", "python3"),
    ("a.py2", "python2"),
])
def test_each_suffix_names_its_language(name: str, key: str, tmp_path: Path) -> None:
    (tmp_path / name).write_text("")
    lang = TABLE.for_file(tmp_path / name)
    assert lang is not None and lang.key == key


@pytest.mark.parametrize("name", ["a.c", "a.C", "a.CPP", "a.pas", "Main.java", "a.py",
                                  "a.PY", "a.py2", "a.txt", "Makefile", "a.", ".py"])
def test_a_source_is_known_by_its_suffix_alone_as_for_file_finds_it(name: str,
                                                                   tmp_path: Path) -> None:
    # (what a folder's entry is chosen among: the file is never opened)
    (tmp_path / name).write_text('print "hello"\n')
    assert TABLE.knows(name) == (TABLE.for_file(tmp_path / name) is not None)
    assert WITH_PY2.knows(name) == TABLE.knows(name)


#: tables with a Python 2 interpreter (a stand-in: detection only asks that it exists) and
#: without one
WITH_PY2 = Table({"python2": {"run": ["/bin/true", "{src}"], "find": []}})
WITHOUT_PY2 = Table({"python2": {"run": ["no-such-python2", "{src}"], "find": []}})


@pytest.mark.parametrize("text, key", [
    ('print "hello"\n', "python2"),
    ("try:\n    pass\nexcept ValueError, e:\n    pass\n", "python2"),
    ("#!/usr/bin/env python2\nprint('hello')\n", "python2"),
    ("print('hello')\n", "python3"),
    ("def broken(:\n    pass\n", "python3"),  # a broken Python 3 bot stays Python 3
])
def test_a_py_file_in_python_2_is_told_from_python_3(text: str, key: str,
                                                     tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(text)
    assert WITH_PY2.for_file(bot).key == key
    # without an interpreter only an explicit python2 first line makes it Python 2
    explicit = text.startswith("#!") and "python2" in text.splitlines()[0]
    assert WITHOUT_PY2.for_file(bot).key == ("python2" if explicit else "python3")


@pytest.mark.parametrize("content, message", [
    ("[c]\nflags = '-O2'\n", "languages.toml: language c: flags must be a list of strings"),
    ("[c]\nflavour = ['x']\n", "unknown key 'flavour'"),
    ("[cobol]\nsuffixes = ['.cob']\n", "cobol: name is missing"),
    ("[c]\nsuffixes = ['c']\n", "starts with a dot"),
    ("[c\n", "not a TOML file"),
    ("[c]\nsyscalls = ['threads', 'sockets']\n",
     "language c: syscalls has an unknown group 'sockets' \\(known: threads, events, jit\\)"),
])
def test_a_wrong_languages_file_is_refused_with_the_reason(content: str, message: str,
                                                           tmp_path: Path) -> None:
    path = tmp_path / "languages.toml"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_overrides(str(path), None)


def test_flags_are_refused_for_a_language_the_table_lacks() -> None:
    with pytest.raises(InputError, match="no language 'cobol'"):
        read_overrides(None, ["cobol=-O2"])
    with pytest.raises(InputError, match="LANGUAGE=FLAGS"):
        read_overrides(None, ["-O2"])
    assert read_overrides(None, ["cpp=-std=c++98 -fpermissive"]) == {
        "cpp": {"flags": ["-std=c++98", "-fpermissive"]}}


def test_help_lists_every_language_with_its_extra_limits(tmp_path: Path) -> None:
    out = judge("run", "--help", cwd=tmp_path)
    assert out.returncode == 0
    for lang in TABLE.languages.values():
        assert f"{lang.key}: {lang.name} (" in out.stdout
    java = out.stdout[out.stdout.index("java: Java"):]
    assert "+5 s first move" in " ".join(java.split()[:60])
    # and the system calls each may make beyond the base set (`syscalls`)
    for key, groups in (("c", "base, threads"), ("java", "base, threads, jit"),
                        ("go", "base, threads, events")):
        line = " ".join(out.stdout[out.stdout.index(f"  {key}: "):].split()[:60])
        assert f"system calls: {groups};" in line, (key, line)


# --- sample bots in every language ---------------------------------------------------------------

IOIWARI_STARTS = "4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n1 2 3 4 5 1 2\n5 5 1 1 1 1 4\n"


@pytest.mark.parametrize("bot, key", [("ioiwari/greedy.pas", "pascal"),
                                      ("ioiwari/Greedy.java", "java")])
def test_ioiwari_samples_play_as_the_c_greedy_does(bot: str, key: str, tmp_path: Path) -> None:
    need(key)
    c_bot = ROOT / "bots" / "ioiwari" / "greedy.c"
    out, run = grade(tmp_path, "ioiwari", SAMPLES / bot, c_bot, starts=IOIWARI_STARTS)
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["failures"] == {}, run["games"][:2]
    moves = {}
    for g in run["games"]:
        moves.setdefault(g["start"], {})[Path(g["bot"]).suffix] = g["moves"]
    for start, by in moves.items():  # the same player, move for move
        assert len(set(map(tuple, by.values()))) == 1, (start, by)
    mine, c = run["bots"]
    assert (mine["wins"], mine["ties"], mine["losses"]) == (c["wins"], c["ties"], c["losses"])


@pytest.mark.parametrize("bot, key", [("nim/optimal.rs", "rust"), ("nim/optimal.go", "go"),
                                      ("nim/optimal.js", "javascript")])
def test_nim_samples_win_every_won_start_as_the_c_bot_does(bot: str, key: str,
                                                           tmp_path: Path) -> None:
    need(key)
    c_bot = ROOT / "bots" / "nim" / "optimal.c"
    out, run = grade(tmp_path, "nim", SAMPLES / bot, c_bot, extra=("--seats", "both"))
    assert out.returncode == 0, out.stderr
    assert run is not None
    mine, c = run["bots"]
    assert mine["games"] > 0 and mine["losses"] == 0 and mine["failures"] == {}
    moves: dict[tuple, set] = {}
    for g in run["games"]:
        moves.setdefault((g["start"], g["seat"]), set()).add(tuple(g["moves"]))
    assert all(len(both) == 1 for both in moves.values())  # move for move
    assert mine["accuracy"] == c["accuracy"]


@pytest.mark.needs_toolchain("python2")
def test_python_2_bots_run_where_an_interpreter_exists(tmp_path: Path) -> None:
    bot = tmp_path / "nim2.py"
    bot.write_text(
        "import sys\n"
        "def main():\n"
        "    line = sys.stdin.readline()\n"
        "    while line:\n"
        "        print '1 1'\n"  # a Python 2 statement: always one counter from heap 1
        "        sys.stdout.flush()\n"
        "        line = sys.stdin.readline()\n"
        "main()\n")
    out, run = grade(tmp_path, "nim", bot, starts="1\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["games"]


# --- compile errors: once per bot, with the compiler's message -----------------------------------

BROKEN = {
    "c": ("broken.c", "int main(void) { return undeclared_name; }\n", "undeclared_name"),
    "cpp": ("broken.cc", "int main() { return undeclared_name; }\n", "undeclared_name"),
    "pascal": ("broken.pas", "program p;\nbegin\n  writeln(undeclared_name);\nend.\n",
               "undeclared_name"),
    "java": ("Broken.java", "public class Broken { public static void main(String[] a) "
             "{ int x = undeclared_name; } }\n", "undeclared_name"),
    "rust": ("broken.rs", "fn main() { let x = undeclared_name; }\n", "undeclared_name"),
    "go": ("broken.go", "package main\nfunc main() { x := undeclared_name }\n",
           "undeclared_name"),
    # Python's compiling is its syntax check: one compile error, not a crash in every game
    "python3": ("broken.py", "import sys\nx = (undeclared_name\n", "undeclared_name"),
}


@pytest.mark.parametrize("key", sorted(BROKEN))
def test_a_bot_that_does_not_compile_gets_compile_error_once(key: str, tmp_path: Path) -> None:
    need(key)
    name, source, word = BROKEN[key]
    bot = tmp_path / "bots" / name
    bot.parent.mkdir()
    bot.write_text(source)
    starts = "4 3 2 4 2 3 2\n2 2 2 2 2 2 2\n"
    out, run = grade(tmp_path, "ioiwari", bot, starts=starts)
    assert out.returncode == 0, out.stderr
    assert run is not None
    entry = run["bots"][0]
    assert entry["failures"] == {"compile-error": 2} and entry["losses"] == 2
    assert word in entry["compile_error"] and name in entry["compile_error"]
    assert all(g["verdict"] == "compile-error" and word not in g["message"]
               for g in run["games"])
    table = judge("show", "1", "--db", str(tmp_path / "r.db"), "--details", "--wide",
                  cwd=tmp_path)
    assert table.stdout.count(f"{bot}: compile error:") == 1
    first = next(line for line in entry["compile_error"].splitlines() if word in line)
    assert table.stdout.count(first.strip()) == 1  # the message once, not once per game



def test_a_python_syntax_error_is_shown_once_escaped(tmp_path: Path) -> None:
    bot = tmp_path / "painted.py"
    bot.write_text("print('\x1b[2Jcleared' +\n")
    out, run = grade(tmp_path, "nim", bot, extra=("--format", "table", "--wide"),
                     starts="1\n2\n")
    assert out.returncode == 0, out.stderr
    assert "compile-error 2" in out.stdout and "SyntaxError" in out.stdout
    assert out.stdout.count(f"{bot}: compile error:") == 1
    assert "\x1b" not in out.stdout and "\\x1b[2Jcleared" in out.stdout


@pytest.mark.needs_toolchain("pascal")
def test_a_pascal_compile_error_starts_with_the_error_not_the_compilers_banner(
    tmp_path: Path
) -> None:
    need("pascal")
    from judge.sandbox.build import CompileError, compiled

    bot = tmp_path / "broken.pas"
    bot.write_text(BROKEN["pascal"][1])
    with pytest.raises(CompileError) as caught:
        compiled(bot)
    message = str(caught.value)
    assert message.splitlines()[0].startswith("broken.pas(3,"), message
    assert "Copyright" not in message and "Free Pascal Compiler version" not in message

def test_a_missing_toolchain_skips_the_bot_with_the_package_to_install(tmp_path: Path) -> None:
    table = tmp_path / "languages.toml"
    table.write_text('[pascal]\ncompile = ["no-such-pascal-compiler", "{src}"]\n')
    pas = tmp_path / "bot.pas"
    pas.write_text("program p; begin end.\n")
    ok = ROOT / "bots" / "ioiwari" / "greedy.py"
    out, run = grade(tmp_path, "ioiwari", pas, ok, extra=("--languages", str(table)),
                     starts="4 3 2 4 2 3 2\n")
    assert out.returncode == 3, out.stderr
    assert "no Pascal compiler (no-such-pascal-compiler): install fp-compiler" in out.stderr
    assert run is not None and [b["bot"] for b in run["bots"]] == [str(ok)]
    assert all(g["bot"] == str(ok) for g in run["games"])  # never charged a game
    alone, _ = grade(folder(tmp_path, "again"), "ioiwari", pas,
                     extra=("--languages", str(table)), starts="4 3 2 4 2 3 2\n")
    # the machine lacks a toolchain: status 3 as above, not 2 (bad input); nothing stored
    assert alone.returncode == 3 and "Traceback" not in alone.stderr
    assert alone.stderr.count("install fp-compiler") == 1  # named once
    assert "nothing to grade" in alone.stderr
    assert not (tmp_path / "again" / "r.db").exists()


@pytest.mark.parametrize("command", [
    ("tournament", "--game", "nim"),
    ("match", "--game", "nim"),
    ("play", "--game", "nim", "--start", "3 4 5", "--vs", "optimal"),
])
def test_a_command_left_without_its_bots_by_a_missing_toolchain_exits_3(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    table = tmp_path / "languages.toml"
    table.write_text('[pascal]\ncompile = ["no-such-pascal-compiler", "{src}"]\n')
    pas = tmp_path / "bot.pas"
    pas.write_text("program p; begin end.\n")
    ok = ROOT / "bots" / "nim" / "optimal.py"
    play = command[0] == "play"
    bots = (str(pas),) if play else ("--db", str(tmp_path / "r.db"), str(pas), str(ok))
    out = judge(*command, "--languages", str(table), *bots, cwd=tmp_path)
    assert out.returncode == 3, out.stderr
    assert "install fp-compiler" in out.stderr and "Traceback" not in out.stderr


# --- compilation is confined ----------------------------------------------------------------


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A secret outside the submission, in a folder only the judge's user may enter."""
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    secret = folder / "secret.txt"
    secret.write_text("PLANTED-SECRET-8d1f\n")
    return secret


LEAKS = {
    "cpp": ("leak.cpp", '#include "{path}"\nint main() {{ return 0; }}\n'),
    "pascal": ("leak.pas", "program leak;\n{{$I {path}}}\nbegin\nend.\n"),
    "rust": ("leak.rs", 'fn main() {{ let s = include_str!("{path}"); let x: u8 = s; }}\n'),
}


@pytest.mark.parametrize("key", sorted(LEAKS))
@pytest.mark.parametrize("target", [
    # in a folder only the judge's user may enter: hidden by bubblewrap, or by a uid of
    # the compiler's own
    pytest.param("planted", marks=pytest.mark.needs_guarantee("filesystem", "uid")),
    # readable by every user: only hidden by bubblewrap
    pytest.param("/etc/passwd", marks=pytest.mark.needs_guarantee("filesystem")),
])
def test_a_source_cannot_bring_a_file_that_is_not_its_own_into_the_message(
    key: str, target: str, planted: Path, tmp_path: Path
) -> None:
    need(key)
    path = planted if target == "planted" else Path(target)
    name, source = LEAKS[key]
    bot = tmp_path / "bots" / name
    bot.parent.mkdir()
    bot.write_text(source.format(path=path))
    out, run = grade(tmp_path, "ioiwari", bot, starts="4 3 2 4 2 3 2\n")
    assert run is not None, out.stderr
    message = run["bots"][0]["compile_error"]
    assert message, run["games"]
    assert "PLANTED-SECRET" not in message and "root:x:0" not in message
    assert "PLANTED-SECRET" not in out.stdout + out.stderr


@pytest.mark.needs_toolchain("c")
def test_a_program_larger_than_the_compile_output_cap_is_a_compile_error(
    tmp_path: Path
) -> None:
    bot = tmp_path / "huge.c"
    bot.write_text("char big[100 << 20] = {1};\nint main(void) { return big[5]; }\n")
    out, run = grade(tmp_path, "ioiwari", bot, starts="4 3 2 4 2 3 2\n")
    assert run is not None, out.stderr
    assert "larger than 64 MiB" in run["bots"][0]["compile_error"]



@pytest.mark.needs_toolchain("c")
def test_a_program_whose_object_file_exceeds_the_file_size_cap_is_said_to(
    tmp_path: Path
) -> None:
    need("c")
    from judge.sandbox.build import COMPILE_LIMITS, CompileError, compiled

    bot = tmp_path / "huge.c"  # a few lines of assembly, then 1 GiB of .data
    bot.write_text("char big[1ULL << 30] = {1};\nint main(void) { return big[5]; }\n")
    with pytest.raises(CompileError) as caught:
        compiled(bot)
    cap = COMPILE_LIMITS["file_bytes"] >> 20
    assert f"wrote a file larger than {cap} MiB" in str(caught.value), str(caught.value)

# --- the user's flags and table -------------------------------------------------------------------


@pytest.mark.needs_toolchain("cpp")
def test_old_cpp_compiles_with_the_headers_and_flags_it_needs(tmp_path: Path) -> None:
    bot = tmp_path / "old.cpp"
    bot.write_text(
        "#include <iostream.h>\n"  # pre-standard: no such header in a C++ compiler today
        "#include <stdlib.h>\n"
        "int main() {\n"
        "    long *heap = malloc(sizeof(long));\n"  # C's way: refused without -fpermissive
        "    while (cin >> *heap) cout << \"1 \" << *heap << endl;\n"
        "    return 0;\n"
        "}\n")
    out, run = grade(tmp_path, "nim", bot, starts="5\n")
    assert run is not None, out.stderr
    assert "invalid conversion from" in (run["bots"][0]["compile_error"] or "")
    again, run = grade(folder(tmp_path, "flags"), "nim", bot, starts="5\n",
                       extra=("--flags", "cpp=-O2 -std=c++98 -fpermissive"))
    assert again.returncode == 0, again.stderr
    assert run is not None and run["bots"][0]["compile_error"] is None, run["bots"]
    assert run["bots"][0]["wins"] == 1, run["games"]  # takes the whole heap


@pytest.mark.needs_toolchain("java")
def test_a_java_bot_runs_whatever_its_file_and_classes_are_called(tmp_path: Path) -> None:
    bot = tmp_path / "my-nim bot.java"
    bot.write_text(
        "import java.io.*;\n"
        "class Helper { static String move() { return \"1 1\"; } }\n"
        "class Player {\n"
        "    public static void main(String[] args) throws IOException {\n"
        "        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));\n"
        "        while (in.readLine() != null) {\n"
        "            System.out.println(Helper.move());\n"
        "            System.out.flush();\n"
        "        }\n"
        "    }\n"
        "}\n")
    out, run = grade(tmp_path, "nim", bot, starts="1\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["games"]


@pytest.mark.parametrize("key, name, source", [
    ("java", "Throw.java", "public class Throw {\n"
     "    public static void main(String[] a) throws Exception {\n"
     "        Thread.sleep(400);  // long enough for the judge to look at its memory\n"
     "        throw new NumberFormatException(\"For input string: 18446744073709551617\");\n"
     "    }\n}\n"),
    ("javascript", "throw.js", "setTimeout(() => { throw new RangeError('too big'); }, 400);\n"),
])
def test_a_managed_runtime_bot_that_throws_is_a_crash_not_a_memory_limit(
        key: str, name: str, source: str, tmp_path: Path) -> None:
    # the JVM and node reserve gigabytes of address space, which they are not limited in
    need(key)
    bot = tmp_path / name
    bot.write_text(source)
    out, run = grade(tmp_path, "nim", bot, starts="1 2 4\n", extra=("--memory", "256"))
    assert out.returncode == 0, out.stderr
    assert run is not None, out.stderr
    game = run["games"][0]
    assert game["verdict"] == "crash", game
    assert game["message"].startswith("move 1: exited with status 1"), game


@pytest.mark.needs_toolchain("c")
def test_the_compile_cache_is_keyed_by_the_flags(tmp_path: Path) -> None:
    from judge.sandbox import compiled

    bot = tmp_path / "bot.c"
    bot.write_text("int main(void) { return 0; }\n")
    first, _ = compiled(bot)
    assert compiled(bot)[0] == first
    try:
        sandbox_context().configure_languages(read_overrides(None, ["c=-O0"]))
        assert compiled(bot)[0] != first
    finally:
        sandbox_context().configure_languages(None)
    assert compiled(bot)[0] == first


def test_a_program_in_the_users_own_language_runs(tmp_path: Path) -> None:
    table = tmp_path / "languages.toml"
    table.write_text(
        "[shell]\nname = 'POSIX shell'\nsuffixes = ['.sh']\nrun = ['sh', '{src}']\n"
        "package = 'dash'\n")
    bot = tmp_path / "bot.sh"
    bot.write_text("while read line; do echo '1 1'; done\n")
    os.chmod(bot, 0o644)  # not executable: run through the table's command
    out, run = grade(tmp_path, "nim", bot, starts="1\n", extra=("--languages", str(table)))
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["games"]


# --- found by a hostile audit ---------------------------------------------------------------


@pytest.mark.needs_toolchain("rust")
def test_a_source_that_builds_no_program_is_a_compile_error_not_a_skip(tmp_path: Path) -> None:
    lib = tmp_path / "lib.rs"
    lib.write_text('#![crate_type = "lib"]\npub fn f() -> i32 { 1 }\n')
    out, run = grade(tmp_path, "nim", lib, starts="1\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["failures"] == {"compile-error": 1}
    assert "no program to run" in run["bots"][0]["compile_error"]


#: Nim bots as contestants write them in Free Pascal's modes: Delphi's (the judge's default:
#: Result, dynamic arrays, no directive) and objfpc's, which the program asks for
PASCAL_MODES = {"delphi.dpr": "nim_delphi.dpr", "objfpc.pas": "nim_objfpc.pas"}


@pytest.mark.parametrize("name", sorted(PASCAL_MODES))
@pytest.mark.needs_toolchain("pascal")
def test_pascal_in_delphi_and_objfpc_modes_compiles_and_plays(name: str, tmp_path: Path) -> None:
    bot = tmp_path / name
    bot.write_bytes((ROOT / "tests" / "bots" / PASCAL_MODES[name]).read_bytes())
    out, run = grade(tmp_path, "nim", bot, starts="3 4 5\n1 2 4 8\n")
    assert run is not None, out.stderr
    assert run["bots"][0]["compile_error"] is None
    assert run["bots"][0]["wins"] == 2, run["games"]


#: an IOI-style Nim bot in Pascal that writes its moves with writeln and never flushes
PASCAL_NO_FLUSH = """program noflush;
var
  h: array[1..64] of longint;
  n, i, x: longint;
begin
  n := 0;
  while not eoln do begin inc(n); read(h[n]); end;
  readln;
  while true do begin
    x := 0;
    for i := 1 to n do x := x xor h[i];
    i := 1;
    if x <> 0 then
      while (h[i] xor x) >= h[i] do inc(i)
    else
      while h[i] = 0 do inc(i);
    if x = 0 then x := h[i] - 1 else x := h[i] xor x;
    writeln(i, ' ', h[i] - x);
    h[i] := x;
    if eof then halt;
    read(i, x);
    readln;
    h[i] := h[i] - x;
  end;
end.
"""


@pytest.mark.needs_toolchain("pascal")
def test_a_pascal_bot_that_never_flushes_still_moves(tmp_path: Path) -> None:
    # output to a pipe is buffered in Free Pascal: without the judge's flush at every write
    # (the compat unit judgeflush) this bot would lose every game on time
    bot = tmp_path / "noflush.pas"
    bot.write_text(PASCAL_NO_FLUSH)
    out, run = grade(tmp_path, "nim", bot, starts="3 4 5\n1 2 4 8\n")
    assert run is not None, out.stderr
    assert run["bots"][0]["wins"] == 2, run["games"]


@pytest.mark.needs_toolchain("c")
def test_flags_that_cannot_build_any_program_are_refused_before_any_game(
    tmp_path: Path
) -> None:
    out, run = grade(tmp_path, "nim", ROOT / "bots" / "nim" / "optimal.c",
                     extra=("--flags", "c=-O2 -c"), starts="1\n")
    assert out.returncode == 2 and run is None
    assert "cannot build even a minimal program" in out.stderr
    assert not (tmp_path / "r.db").exists()


def test_a_stray_python_2_line_without_python_2_here_is_a_compile_error(
        tmp_path: Path) -> None:
    table = tmp_path / "languages.toml"
    table.write_text('[python2]\nrun = ["no-such-python2", "{src}"]\nfind = []\n')
    bot = tmp_path / "typo.py"
    bot.write_text("heaps = input()\nprint(f'1 {heaps}')\nprint 'debug'\n")
    out, run = grade(tmp_path, "nim", bot, starts="1\n", extra=("--languages", str(table)))
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["failures"] == {"compile-error": 1}
    assert "typo.py\", line 3" in run["bots"][0]["compile_error"]


@pytest.mark.parametrize("memory", ["256", "512"])
@pytest.mark.needs_toolchain("javascript")
def test_the_javascript_sample_runs_under_small_memory_limits(memory: str,
                                                              tmp_path: Path) -> None:
    out, run = grade(tmp_path, "nim", SAMPLES / "nim" / "optimal.js", starts="3 4 5\n",
                     extra=("--memory", memory))
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["games"]


def test_a_link_to_a_file_other_users_may_not_read_is_refused(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    secret = private / "settings.py"
    secret.write_text('print("TOPSECRET-91c2")\n')
    secret.chmod(0o600)
    link = tmp_path / "eve.py"
    link.symlink_to(secret)
    out, run = grade(tmp_path, "nim", link, starts="1\n")
    assert out.returncode == 2 and "other users may not read" in out.stderr
    assert "TOPSECRET" not in out.stdout + out.stderr


@pytest.mark.parametrize("name", ["crt.pas", "math.pas", "system.pas"])
@pytest.mark.needs_toolchain("pascal")
def test_a_pascal_file_named_like_a_unit_compiles(name: str, tmp_path: Path) -> None:
    bot = tmp_path / name
    bot.write_text("program p;\nuses math;\nvar heaps: string;\nbegin\n  readln(heaps);\n"
                   "  writeln('1 ', heaps);\n  flush(output);\nend.\n")
    out, run = grade(tmp_path, "nim", bot, starts="7\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["bots"][0]["compile_error"]


@pytest.mark.parametrize("source", [
    # a public class after a class with a nested public enum
    "class Board { public enum Cell { EMPTY } }\n"
    "public class Sol { public static void main(String[] a) throws Exception {\n"
    "  java.io.BufferedReader in = new java.io.BufferedReader(\n"
    "    new java.io.InputStreamReader(System.in));\n"
    "  while (in.readLine() != null) { System.out.println(\"1 1\"); System.out.flush(); }\n"
    "} }\n",
    # two mains: the public class is the program; a string that looks like a class
    "class Aaa { public static void main(String[] a) { System.out.println(\"9 9\"); } }\n"
    "public class TwoMains { static String s = \"public class Fake /*\";\n"
    "  public static void main(String[] a) throws Exception {\n"
    "  java.io.BufferedReader in = new java.io.BufferedReader(\n"
    "    new java.io.InputStreamReader(System.in));\n"
    "  while (in.readLine() != null) { System.out.println(\"1 1\"); System.out.flush(); }\n"
    "} }\n",
], ids=["nested-enum", "two-mains"])
@pytest.mark.needs_toolchain("java")
def test_java_runs_the_public_class_with_main(source: str, tmp_path: Path) -> None:
    bot = tmp_path / "submission.java"
    bot.write_text(source)
    out, run = grade(tmp_path, "nim", bot, starts="1\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, (run["bots"], run["games"])


@pytest.mark.needs_toolchain("javascript")
def test_braces_in_a_bot_path_are_not_placeholders(tmp_path: Path) -> None:
    folder = tmp_path / "d{heap}{src}"
    folder.mkdir()
    bot = folder / "b{heap}.js"
    bot.write_text((SAMPLES / "nim" / "optimal.js").read_text())
    out, run = grade(tmp_path, "nim", bot, starts="3 4 5\n")
    assert out.returncode == 0, out.stderr
    assert run is not None and run["bots"][0]["wins"] == 1, run["games"]


def test_a_compile_that_runs_out_of_memory_is_tried_again_next_time(tmp_path: Path) -> None:
    table = tmp_path / "languages.toml"
    table.write_text(
        "[hog]\nname = 'Hog'\nsuffixes = ['.hog']\naddress_space = false\n"
        "compile = ['python3', '-c', 'x = bytearray(3 << 30); x[::4096] = "
        "bytes(len(x) // 4096)', '{src}']\nrun = ['{dir}/bot']\n")
    bot = tmp_path / "bot.hog"
    bot.write_text("anything\n")
    from judge.solvers.cache import cache_dir

    began = time.time()
    out, run = grade(tmp_path, "nim", bot, starts="1\n", extra=("--languages", str(table)))
    assert run is not None, out.stderr
    assert "ran out of memory" in run["bots"][0]["compile_error"], run["bots"]
    kept = [p for p in (cache_dir() / "bots").glob("*.err") if p.stat().st_mtime >= began - 1
            and "ran out of memory" in p.read_text()]
    assert kept == []  # not kept as the bot's lasting failure


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe[c]\n", "not a TOML file"),
    (b"[c]\ncpu_seconds = nan\n", "cpu_seconds must be a number"),
    (b"[c]\nprocesses = -100\n", "processes must be a number from 0"),
    (b"[c]\ncompile = []\n", "compile is empty"),
    (b"[c]\ncompile = ['gcc', '{unknown}']\n", "unknown placeholder {unknown}"),
])
def test_more_wrong_tables_are_refused_with_the_reason(content: bytes, message: str,
                                                       tmp_path: Path) -> None:
    path = tmp_path / "languages.toml"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        read_overrides(str(path), None)


def test_flags_for_a_language_whose_commands_take_none_are_refused() -> None:
    with pytest.raises(InputError, match="take no flags"):
        read_overrides(None, ["python3=-O"])


def test_a_users_own_language_wins_the_suffix_it_claims(tmp_path: Path) -> None:
    table = Table({"mine": {"name": "Mine", "suffixes": [".py"], "run": ["sh", "{src}"]}})
    (tmp_path / "a.py").write_text("")
    assert table.for_file(tmp_path / "a.py").key == "mine"


def games_stored(db: Path) -> int:
    """How many games the results database `db` holds (0 before it is made)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    try:
        return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        con.close()


def test_a_bot_changed_during_a_run_stops_it(tmp_path: Path) -> None:
    bot = tmp_path / "slow.py"
    bot.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.3)\n"
                   "    print(1, line.split()[0], flush=True)\n")
    starts = "".join(f"{n}\n" for n in range(1, 31))
    (tmp_path / "starts.txt").write_text(starts)
    judge_run = subprocess.Popen(
        [sys.executable, "-m", "judge", "run", "--game", "nim", "--jobs", "1", "--db",
         str(tmp_path / "r.db"), "--tests", str(tmp_path / "starts.txt"), str(bot)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not games_stored(tmp_path / "r.db"):  # (the run under way: the bot read)
        assert time.monotonic() < deadline and judge_run.poll() is None
        time.sleep(0.1)
    bot.write_text(bot.read_text().replace("print(1,", "print(2,"))
    _, err = judge_run.communicate(timeout=120)
    assert judge_run.returncode == 1, err
    assert "changed (or went) during the run" in err
