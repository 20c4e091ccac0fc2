"""A class as folders: `judge run class/*/` grades each folder as one student, its entry
found by convention (main.*, or its only program; --entry NAME), every file of the folder
with it, compiled together where the language does; a folder it cannot grade is still a
row, with a verdict that says why, and the exit status says so."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
OPTIMAL = (ROOT / "bots" / "nim" / "optimal.py").read_text()
STARTS = "1 2\n3 4 5\n2 3\n"

#: the sample bot in two files: Bouton's move in a module of its own, which its entry
#: imports
STRATEGY = "from functools import reduce\nfrom operator import xor\n\n\n" + \
    OPTIMAL[OPTIMAL.index("def choose"):OPTIMAL.index("def main")]
ENTRY = OPTIMAL.replace(STRATEGY[STRATEGY.index("def choose"):],
                        "from strategy import choose\n\n\n")
#: the same in C, in two files and a header
C_MAIN = '''#include <stdio.h>
#include "strategy.h"

int main(void)
{
    long heaps[64];
    int n = 0, c;
    long value = 0;
    int digits = 0;
    while ((c = getchar()) != EOF && c != '\\n') {
        if (c >= '0' && c <= '9') { value = value * 10 + c - '0'; digits = 1; }
        else if (digits) { heaps[n++] = value; value = 0; digits = 0; }
    }
    if (digits) heaps[n++] = value;
    for (;;) {
        long heap, take, left = 0;
        for (int i = 0; i < n; i++) left += heaps[i];
        if (!left) return 0;
        choose(heaps, n, &heap, &take);
        printf("%ld %ld\\n", heap + 1, take);
        fflush(stdout);
        heaps[heap] -= take;
        for (left = 0, c = 0; c < n; c++) left += heaps[c];
        if (!left) return 0;
        if (scanf("%ld %ld", &heap, &take) != 2) return 0;
        heaps[heap - 1] -= take;
    }
}
'''
C_STRATEGY = '''#include "strategy.h"

void choose(const long *heaps, int n, long *heap, long *take)
{
    long sum = 0;
    int largest = 0;
    for (int i = 0; i < n; i++) sum ^= heaps[i];
    for (int i = 0; i < n; i++) {
        if ((heaps[i] ^ sum) < heaps[i]) { *heap = i; *take = heaps[i] - (heaps[i] ^ sum); return; }
        if (heaps[i] > heaps[largest]) largest = i;
    }
    *heap = largest;
    *take = heaps[largest];
}
'''
C_HEADER = "void choose(const long *heaps, int n, long *heap, long *take);\n"


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, dict]:
    """A class of five folders graded by `judge run --game nim class/*/`: (the folder,
    the run's completed process, its JSON)."""
    top = tmp_path_factory.mktemp("course")
    write(top / "class" / "alice", {"main.py": ENTRY, "strategy.py": STRATEGY})
    write(top / "class" / "bob", {"main.c": C_MAIN, "strategy.c": C_STRATEGY,
                                  "strategy.h": C_HEADER})
    write(top / "class" / "carol", {"main.py": OPTIMAL, "main.c": C_MAIN})
    write(top / "class" / "dan", {"Main.kt": "fun main() {}\n", "README.md": "mine\n"})
    write(top / "class" / "erin", {"bot.py": OPTIMAL, "notes.txt": "my notes\n"})
    (top / "starts.txt").write_text(STARTS)
    folders = sorted(str(p.relative_to(top)) + "/" for p in (top / "class").iterdir())
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--db", "r.db", *folders,
                cwd=top)
    shown = judge("show", "1", "--db", "r.db", "--format", "json", "--details", cwd=top)
    assert shown.returncode == 0, shown.stderr
    return top, out, json.loads(shown.stdout)


def test_every_folder_is_a_row_named_by_the_folder(graded) -> None:
    top, _, data = graded
    assert [b["bot"] for b in data["bots"]] == ["class/alice", "class/bob", "class/carol",
                                                "class/dan", "class/erin"]
    shared = judge("show", "1", "--db", "r.db", "--format", "json", "--share", cwd=top)
    assert [b["bot"] for b in json.loads(shared.stdout)["bots"]] == [
        "alice", "bob", "carol", "dan", "erin"]


def bot(data: dict, name: str) -> dict:
    """The row of the bot of folder class/NAME."""
    return next(b for b in data["bots"] if b["bot"] == f"class/{name}")


def test_a_python_bot_in_two_files_plays(graded) -> None:
    _, _, data = graded
    alice = bot(data, "alice")
    assert alice["points"] == alice["max_points"] == 3 and alice["failures"] == {}


def test_a_c_bot_in_two_files_and_a_header_is_compiled_together(graded) -> None:
    _, _, data = graded
    bob = bot(data, "bob")
    assert bob["points"] == 3 and bob["failures"] == {}


def test_a_folder_with_its_only_program_plays_and_its_other_files_are_no_bots(graded) -> None:
    _, _, data = graded
    erin = bot(data, "erin")
    assert erin["points"] == 3
    assert len(data["bots"]) == 5  # notes.txt, README.md and strategy.* are no rows


def test_a_folder_that_cannot_be_graded_is_a_row_with_a_verdict_naming_why(graded) -> None:
    _, out, data = graded
    verdicts = {g["bot"]: (g["verdict"], g["message"]) for g in data["games"]}
    assert verdicts["class/carol"] == ("not-graded", "two candidate entries main.c, main.py "
                                       "(--entry NAME chooses one)")
    assert verdicts["class/dan"][0] == "not-graded"
    assert "no program of a language this judge knows" in verdicts["class/dan"][1]
    assert "Main.kt" in verdicts["class/dan"][1]
    assert out.returncode == 3, out.stderr  # some were not graded
    assert "not-graded" in out.stdout


@pytest.mark.parametrize("files, said", [
    # a zip unpacked into a folder of its own: the student's folder holds only that folder
    ({"nim-bot/main.py": "print(1)\n"}, "no file at the top of the folder; its "
     "subfolders are not graded: nim-bot/main.py is in one"),
    # a Cargo project: the program is in src/
    ({"Cargo.toml": "[package]\n", "src/main.rs": "fn main() {}\n"},
     "no program of a language this judge knows at the top of the folder (Cargo.toml); its "
     "subfolders are not graded: src/main.rs is in one"),
])
def test_a_folder_whose_program_is_in_a_subfolder_says_where_it_is(
        tmp_path: Path, files: dict[str, str], said: str) -> None:
    for name, text in files.items():
        (tmp_path / "frank" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "frank" / name).write_text(text)
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--format", "json",
                "frank/", cwd=tmp_path)
    assert out.returncode == 3, out.stderr
    assert said in json.loads(out.stdout)["games"][0]["message"]


def test_a_fifo_below_a_folder_is_named_never_opened(tmp_path: Path) -> None:
    # its language is known by its name: opening it would wait for a writer for ever
    (tmp_path / "frank" / "nim-bot").mkdir(parents=True)
    os.mkfifo(tmp_path / "frank" / "nim-bot" / "main.py")
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--format", "json",
                "frank/", cwd=tmp_path, timeout=20)
    assert out.returncode == 3, out.stderr
    assert "nim-bot/main.py is in one" in json.loads(out.stdout)["games"][0]["message"]


def test_a_tournament_takes_a_folder_per_student(tmp_path: Path) -> None:
    write(tmp_path / "class" / "alice", {"main.py": ENTRY, "strategy.py": STRATEGY})
    write(tmp_path / "class" / "bob", {"bot.py": OPTIMAL, "README.md": "notes\n"})
    write(tmp_path / "class" / "carol", {"notes.txt": "none yet\n"})
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("tournament", "--game", "nim", "--starts", "starts.txt", "--format", "json",
                "class/alice/", "class/bob/", "class/carol/", cwd=tmp_path)
    assert out.returncode == 3, out.stderr  # carol: not graded
    rows = {r["bot"]: r for r in json.loads(out.stdout)["standings"]}
    assert set(rows) == {"class/alice", "class/bob", "class/carol"}
    # alice's main.py imports strategy.py beside it; both play perfectly: each wins the
    # first seat of the three starts against the other, and all six against carol
    assert rows["class/alice"]["wins"] == rows["class/bob"]["wins"] == 3 + 6, rows
    assert rows["class/alice"]["failures"] == {} and rows["class/carol"]["wins"] == 0


def test_a_tournament_of_folders_takes_their_entry_by_name(tmp_path: Path) -> None:
    # each folder has two programs and no main.*: --entry names the one that plays
    for name in ("alice", "bob"):
        write(tmp_path / name, {"bot.py": OPTIMAL, "old.py": "print('draft')\n"})
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("tournament", "--game", "nim", "--starts", "starts.txt", "--format", "json",
                "--entry", "bot.py", "alice/", "bob/", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = {r["bot"]: r for r in json.loads(out.stdout)["standings"]}
    assert rows["alice"]["wins"] == rows["bob"]["wins"] == 3, rows


def test_a_folder_given_to_a_match_is_skipped_naming_the_file_to_give(tmp_path: Path) -> None:
    write(tmp_path / "alice", {"main.py": ENTRY, "strategy.py": STRATEGY})
    write(tmp_path / "bob", {"bot.py": OPTIMAL})
    out = judge("match", "--game", "nim", "alice/", "bob/", cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert ("judge: skipping alice/: a folder (only judge run and judge tournament take a "
            "folder per student: give a bot's file, alice/main.py here, which plays without "
            "the folder's other files)") in out.stderr
    assert "give a bot's file, bob/bot.py here)" in out.stderr


def test_entry_chooses_the_program_of_a_folder(tmp_path: Path) -> None:
    write(tmp_path / "carol", {"main.py": OPTIMAL, "main.c": C_MAIN, "other.py": "x = (\n"})
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--entry", "main.py",
                "--format", "json", "carol/", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bots"][0]["points"] == 3


def test_a_changed_file_beside_the_entry_is_a_changed_bot(tmp_path: Path) -> None:
    write(tmp_path / "alice", {"main.py": ENTRY, "strategy.py": STRATEGY})
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "alice", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (tmp_path / "alice" / "strategy.py").write_text(STRATEGY + "\n# changed\n")
    resumed = judge("run", "--resume", "1", cwd=tmp_path)
    assert resumed.returncode == 2 and "has changed since the run started" in resumed.stderr


def test_files_given_one_by_one_are_bots_of_their_own(tmp_path: Path) -> None:
    write(tmp_path / "alice", {"main.py": OPTIMAL, "random.py": OPTIMAL})
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--format", "json",
                "alice/main.py", "alice/random.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [b["bot"] for b in json.loads(out.stdout)["bots"]] == ["alice/main.py",
                                                                 "alice/random.py"]


JAVA = '''import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        List<Long> heaps = new ArrayList<>();
        for (String t : in.nextLine().trim().split("\\\\s+")) heaps.add(Long.parseLong(t));
        while (true) {
            long[] move = Strategy.choose(heaps);
            System.out.println(move[0] + " " + move[1]);
            System.out.flush();
            heaps.set((int) move[0] - 1, heaps.get((int) move[0] - 1) - move[1]);
            if (heaps.stream().allMatch(h -> h == 0) || !in.hasNextLong()) return;
            int h = in.nextInt();
            long k = in.nextLong();
            heaps.set(h - 1, heaps.get(h - 1) - k);
        }
    }
}
'''
JAVA_STRATEGY = '''import java.util.List;

class Strategy {
    static long[] choose(List<Long> heaps) {
        long sum = 0;
        int largest = 0;
        for (long h : heaps) sum ^= h;
        for (int i = 0; i < heaps.size(); i++) {
            long h = heaps.get(i);
            if ((h ^ sum) < h) return new long[] {i + 1, h - (h ^ sum)};
            if (h > heaps.get(largest)) largest = i;
        }
        return new long[] {largest + 1, heaps.get(largest)};
    }
}
'''
GO_MAIN = '''package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	line, _ := in.ReadString('\\n')
	var heaps []int64
	for _, t := range strings.Fields(line) {
		v, _ := strconv.ParseInt(t, 10, 64)
		heaps = append(heaps, v)
	}
	for {
		h, k := choose(heaps)
		fmt.Printf("%d %d\\n", h+1, k)
		heaps[h] -= k
		left := int64(0)
		for _, x := range heaps {
			left += x
		}
		if left == 0 {
			return
		}
		var oh, ok int64
		if n, _ := fmt.Fscan(in, &oh, &ok); n != 2 {
			return
		}
		heaps[oh-1] -= ok
	}
}
'''
GO_STRATEGY = '''package main

func choose(heaps []int64) (int, int64) {
	var sum int64
	largest := 0
	for _, h := range heaps {
		sum ^= h
	}
	for i, h := range heaps {
		if h^sum < h {
			return i, h - (h ^ sum)
		}
		if h > heaps[largest] {
			largest = i
		}
	}
	return largest, heaps[largest]
}
'''
RUST_MAIN = '''mod strategy;
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut heaps: Vec<u64> = lines.next().unwrap().unwrap().split_whitespace()
        .map(|t| t.parse().unwrap()).collect();
    loop {
        let (h, k) = strategy::choose(&heaps);
        println!("{} {}", h + 1, k);
        io::stdout().flush().unwrap();
        heaps[h] -= k;
        if heaps.iter().all(|&x| x == 0) { return; }
        let line = match lines.next() { Some(Ok(l)) => l, _ => return };
        let v: Vec<u64> = line.split_whitespace().map(|t| t.parse().unwrap()).collect();
        heaps[v[0] as usize - 1] -= v[1];
    }
}
'''
RUST_STRATEGY = '''pub fn choose(heaps: &[u64]) -> (usize, u64) {
    let sum = heaps.iter().fold(0, |a, &h| a ^ h);
    let mut largest = 0;
    for (i, &h) in heaps.iter().enumerate() {
        if h ^ sum < h { return (i, h - (h ^ sum)); }
        if h > heaps[largest] { largest = i; }
    }
    (largest, heaps[largest])
}
'''


@pytest.mark.slow
@pytest.mark.parametrize("tool, files", [
    ("javac", {"Main.java": JAVA, "Strategy.java": JAVA_STRATEGY}),
    ("go", {"main.go": GO_MAIN, "strategy.go": GO_STRATEGY}),
    ("rustc", {"main.rs": RUST_MAIN, "strategy.rs": RUST_STRATEGY}),
])
def test_java_go_and_rust_folders_are_compiled_together(tmp_path: Path, tool: str,
                                                        files: dict[str, str]) -> None:
    if shutil.which(tool, path="/usr/local/bin:/usr/bin:/bin") is None:
        pytest.skip(f"{tool} is not installed")
    write(tmp_path / "student", files)
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--format", "json",
                "student", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)["bots"][0]
    assert row["points"] == 3, row


def test_a_folder_too_large_is_not_graded_and_never_read(tmp_path: Path) -> None:
    """A sparse file of 2 GiB, or thousands of files: the folder is not-graded, by their
    sizes, without reading them (the judge read 2 GiB into memory); a FIFO and a link
    beside a program are not read (they would hang it, or show another's file)."""
    write(tmp_path / "alice", {"main.py": OPTIMAL})
    with open(tmp_path / "alice" / "big.txt", "wb") as fh:
        fh.truncate(2 << 30)
    write(tmp_path / "bob", {"main.py": OPTIMAL, **{f"f{i}.txt": "x" for i in range(1001)}})
    write(tmp_path / "carol", {"main.py": OPTIMAL})
    os.mkfifo(tmp_path / "carol" / "fifo.py")
    (tmp_path / "carol" / "link.py").symlink_to(tmp_path / "alice" / "main.py")
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "--format", "json",
                "alice/", "bob/", "carol/", cwd=tmp_path, timeout=120)
    assert out.returncode == 3, out.stderr
    games = json.loads(out.stdout)["games"]
    verdicts = {g["bot"]: (g["verdict"], g["message"]) for g in games}
    assert verdicts["alice"] == ("not-graded", "the folder cannot be read: its files hold "
                                 "2048 MiB, more than 64 MiB")
    assert verdicts["bob"] == ("not-graded", "the folder cannot be read: more than 1000 files")
    assert {g["verdict"] for g in games if g["bot"] == "carol"} == {"ok"}


def test_a_path_not_utf8_is_one_line_and_status_2(tmp_path: Path) -> None:
    """A folder or file named in bytes that are not UTF-8 cannot be stored: said in one
    line before any game (the judge crashed with a traceback at the first game stored); a
    file of the folder so named is only part of its digest."""
    write(tmp_path / "alice", {"main.py": OPTIMAL})
    (tmp_path / "alice" / os.fsdecode(b"n\xffo\n\x1b[2J.txt")).write_bytes(b"x")
    os.mkdir(os.fsencode(tmp_path) + b"/b\xffb\x1b[31m")
    (tmp_path / "starts.txt").write_text(STARTS)
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "alice/", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    bad = os.fsdecode(b"b\xffb\x1b[31m/")
    out = judge("run", "--game", "nim", "--tests", "starts.txt", "alice/", bad,
                cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == ("judge: error: b\\udcffb\\x1b[31m: its name is not UTF-8 text; "
                          "rename it\n")
