"""Copies found by their source, as MOSS and JPlag find them: each program read as tokens
(Python by the standard library's tokenizer, the other languages by Pygments) with names,
numbers and strings made alike and comments dropped (a renamed copy is the same stream),
then every pair of programs of one language tiled with their common runs of at least `RUN`
tokens by greedy string tiling (Wise's, as JPlag uses it: the longest common runs of what
is left are marked, then what is left is searched again, until no run is left; the runs
found where Karp-Rabin hashes of their first `RUN` tokens meet). A pair's similarity is
the share of both programs' counted tokens inside common runs; the runs are the regions a
teacher compares side by side.

Passages that are nobody's own do not count, on either side: those of base files (the
starter code the class was given: JPlag's `-bc`, MOSS's `-b`) and those found in more than
a share of the run's programs (MOSS's `-m`, Dolos's maximum fingerprint share).

Why not a library: copydetect does this (with winnowing) but needs matplotlib; Pygments is
the part that is hard to write, and it is used here directly."""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from itertools import combinations
from pathlib import Path, PurePath

from judge.folders import folder_digest, folder_files, read_file

#: the fewest tokens in a common run (JPlag's minimum match length, 12 of its coarser
#: tokens for Python and C; Dolos's k-grams are 23): shorter ones are the language's idioms
#: (`N = int ( N ( ) )` is 7), not a copy; on the calibration set 14 keeps programs written
#: apart furthest from versions of one program (12: 53% and 57%, 14: 49% and 57%, 16:
#: disguised copies down to 66%)
RUN = 14
#: the least similarity that flags a pair: on the calibration set (tests/similar_sets.py,
#: docs/grading.md) programs written apart share at most 49%, one program's versions at
#: least 57%, disguised copies at least 74%: the threshold halfway
THRESHOLD = 0.53
#: passages found in more than this share of a run's programs of one language (and in
#: `FEWEST` at least) are common ground, not counted: the starter code all were given, or
#: the statement's idioms (three copies among five programs are still copies)
COMMON = 0.75
#: the fewest programs a passage is in to be common ground: a passage in two programs is
#: what a copy is
FEWEST = 3
#: a run of tokens seen more often than this in either program is no match: it is that
#: program's own repetition (and following it would cost the square of its length)
CROWD = 64

#: Pygments' lexer for each language of the table (the same family compared together:
#: a C program renamed .cpp is a copy)
LEXERS = {".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".C": "cpp",
          ".c++": "cpp", ".pas": "delphi", ".pp": "delphi", ".dpr": "delphi",
          ".lpr": "delphi", ".java": "java", ".rs": "rust", ".go": "go",
          ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
          ".py": "python", ".py2": "python2"}
FAMILIES = {"cpp": "c", "python2": "python"}

#: the most CPU seconds Pygments may take to read a program: a second, and this much per
#: byte of it (a program reads at 7 to 10 us a byte; a crafted one at the square of its
#: length: 256 KiB of Pascal's `{`, each comment begun searched to the end, in minutes)
LEXING = (1.0, 40e-6)

#: Karp-Rabin's base and modulus (a Mersenne prime: 61 bits, collisions left to chance)
BASE, MODULUS = 1_000_003, (1 << 61) - 1
#: each kind of token's number, the same for every program (from 1)
_CODES: dict[str, int] = {}


@dataclass(frozen=True)
class Tokens:
    """A program as compared: its normalised tokens and the line each starts on."""

    family: str
    kinds: tuple[str, ...]
    lines: tuple[int, ...]

    @cached_property
    def codes(self) -> tuple[int, ...]:
        """Each token's kind as a number."""
        return tuple(_CODES.setdefault(kind, len(_CODES) + 1) for kind in self.kinds)

    @cached_property
    def hashes(self) -> tuple[int, ...]:
        """The Karp-Rabin hash of each run of `RUN` tokens, by where it starts."""
        codes = self.codes
        if len(codes) < RUN:
            return ()
        h = 0
        for code in codes[:RUN]:
            h = (h * BASE + code) % MODULUS
        found = [h]
        top = pow(BASE, RUN - 1, MODULUS)
        for gone, code in zip(codes, codes[RUN:], strict=False):
            h = ((h - gone * top) * BASE + code) % MODULUS
            found.append(h)
        return tuple(found)


class TooSlow(Exception):
    """Pygments took more than its `LEXING` time to read a program."""


class Why(StrEnum):
    """Why a passage of a program is not counted."""

    BASE = "base"  # it is in a base file
    COMMON = "common"  # it is in more than the --common share of the run's programs


@dataclass(frozen=True)
class Passage:
    """Lines of one program not counted (`why`): its first and last line and its tokens."""

    first: int
    last: int
    tokens: int
    why: Why


@dataclass(frozen=True)
class Program:
    """A program ready to compare: its tokens, which of them do not count (1: base or
    common ground), and where each counted run of `RUN` tokens starts, by its hash."""

    tokens: Tokens
    excluded: bytes
    places: dict[int, list[int]]
    #: how many of its tokens are in a run of `RUN` seen more than `CROWD` times
    crowded: int = 0

    @classmethod
    def of(cls, tokens: Tokens, excluded: bytes | None = None) -> Program:
        """`tokens` with the `excluded` ones (default: none) left out of every run."""
        excluded = excluded or bytes(len(tokens.kinds))
        places: dict[int, list[int]] = defaultdict(list)
        for i, h in enumerate(tokens.hashes):
            if excluded.find(1, i, i + RUN) < 0:
                places[h].append(i)
        crowded = bytearray(len(excluded))
        for starts in places.values():
            if len(starts) > CROWD:
                for i in starts:
                    crowded[i:i + RUN] = b"\x01" * RUN
        return cls(tokens, excluded, {h: p for h, p in places.items() if len(p) <= CROWD},
                   crowded.count(1))

    @cached_property
    def counted(self) -> int:
        """How many of its tokens count."""
        return len(self.excluded) - self.excluded.count(1)

    def passages(self, why: Why, marks: bytes | bytearray) -> list[Passage]:
        """Its runs of tokens marked in `marks`, as passages not counted for `why`."""
        lines, found, i = self.tokens.lines, [], marks.find(1)
        while i >= 0:
            end = marks.find(0, i)
            end = len(marks) if end < 0 else end
            found.append(Passage(lines[i], lines[end - 1], end - i, why))
            i = marks.find(1, end)
        return found


@dataclass(frozen=True)
class Region:
    """A run of tokens the two programs have in common: its first and last line in each
    (from 1)."""

    first: tuple[int, int]
    last: tuple[int, int]
    tokens: int


@dataclass(frozen=True)
class Pair:
    """Two programs and how much of them is common: `similarity` of both together, and
    the share of each one's counted tokens (`shares`) inside the common `regions`; each
    one's `discounted` passages are not counted."""

    bots: tuple[str, str]
    similarity: float
    shares: tuple[float, float]
    regions: tuple[Region, ...]
    discounted: tuple[tuple[Passage, ...], tuple[Passage, ...]] = ((), ())


def lexer(name: str) -> str | None:
    """Pygments' lexer of a file, by its suffix (`LEXERS`); None: not a language compared."""
    suffix = PurePath(name).suffix
    return LEXERS.get(suffix) or LEXERS.get(suffix.lower())


def family(name: str) -> str | None:
    """The family a file is compared in, by its suffix; None: not a language compared."""
    found = lexer(name)
    return FAMILIES.get(found, found) if found else None


def tokens(text: str, name: str) -> Tokens | None:
    """`text` (the file `name`) as tokens to compare, or None for a file of no language
    compared. Names are `N`, numbers `0`, a string `S`; comments (with C's preprocessor
    lines) and white space are dropped; keywords, operators and punctuation stay.
    `TooSlow` if Pygments takes more than its `LEXING` time."""
    lexer_name = lexer(name)
    if lexer_name is None:
        return None
    if lexer_name == "python":
        found = python_tokens(text)
        if found is not None:
            return found
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Comment, Literal, Name, Number, String, Text, Whitespace

    kinds: list[str] = []
    lines: list[int] = []
    line = 1
    until = time.thread_time() + LEXING[0] + LEXING[1] * len(text)
    lexed = get_lexer_by_name(lexer_name, stripnl=False).get_tokens(text)
    for n, (kind, value) in enumerate(lexed):
        if not n % 64 and time.thread_time() > until:
            raise TooSlow(name)
        here, line = line, line + value.count("\n")
        if kind in Comment or kind in Text or kind in Whitespace or not value.strip():
            continue
        if kind in String:
            word = "S"
            if kinds and kinds[-1] == "S":  # one string, lexed in pieces
                continue
        elif kind in Number:
            word = "0"
        elif kind in Name or (kind in Literal and kind not in String):
            word = "N"
        else:
            word = value.strip()
        kinds.append(word)
        lines.append(here)
    return Tokens(FAMILIES.get(lexer_name, lexer_name), tuple(kinds), tuple(lines))


def python_tokens(text: str) -> Tokens | None:
    """Python's `text` as `tokens` gives it, read by the standard library's tokenizer
    (four times Pygments' speed), or None where it stops (a program that does not
    parse: Pygments reads it)."""
    import io
    import keyword
    import tokenize

    kinds: list[str] = []
    lines: list[int] = []
    words = (tokenize.NAME, tokenize.NUMBER, tokenize.STRING, tokenize.OP)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type not in words:
                continue  # comments, ends of lines, indentation
            if token.type == tokenize.STRING:
                if kinds and kinds[-1] == "S":  # "one " "string"
                    continue
                word = "S"
            elif token.type == tokenize.NUMBER:
                word = "0"
            elif token.type == tokenize.NAME:
                word = token.string if keyword.iskeyword(token.string) else "N"
            else:
                word = token.string
            kinds.append(word)
            lines.append(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        return None
    return Tokens("python", tuple(kinds), tuple(lines))


def tiles(a: Program, b: Program) -> list[tuple[int, int, int]]:
    """Greedy string tiling of `a` and `b`: their common runs of at least `RUN` counted
    tokens, each token in at most one, as (length, start in a, start in b). Each round
    finds the maximal common runs of what is not yet tiled (from the places where their
    first `RUN` tokens' hashes meet) and tiles them longest first, leaving out a run that
    overlaps one tiled before it in the round: the next round searches what is left of it
    again. The rounds end when no run is found."""
    shared = a.places.keys() & b.places.keys()
    if not shared:  # (most pairs of a class: nothing in common at all)
        return []
    ca, cb = a.tokens.codes, b.tokens.codes
    ha, hb = a.tokens.hashes, b.tokens.hashes
    na, nb = len(ca), len(cb)
    used_a, used_b = bytearray(a.excluded), bytearray(b.excluded)
    starts = [(i, j) for h in shared for i in a.places[h] for j in b.places[h]]
    found: list[tuple[int, int, int]] = []
    while starts:
        runs = []
        for i, j in starts:
            if (i and j and ha[i - 1] == hb[j - 1] and ha[i - 1] in shared
                    and not used_a[i - 1] and not used_b[j - 1]):
                continue  # inside a run found from its own start
            if (ca[i:i + RUN] != cb[j:j + RUN] or used_a.find(1, i, i + RUN) >= 0
                    or used_b.find(1, j, j + RUN) >= 0):
                continue  # (most: the idioms, compared at C's speed)
            n = RUN
            while (i + n < na and j + n < nb and ca[i + n] == cb[j + n]
                   and not used_a[i + n] and not used_b[j + n]):
                n += 1
            runs.append((n, i, j))
        if not runs:
            break
        for n, i, j in sorted(runs, key=lambda r: (-r[0], r[1], r[2])):
            if used_a.find(1, i, i + n) < 0 and used_b.find(1, j, j + n) < 0:
                used_a[i:i + n] = used_b[j:j + n] = b"\x01" * n
                found.append((n, i, j))
        starts = [(i, j) for i, j in starts if not used_a[i] and not used_b[j]]
    return found


def ceiling(a: Program, b: Program) -> float:
    """The most similarity `a` and `b` can have, found without tiling them: a tile's
    tokens are each in one of its runs of `RUN` (at most `RUN` a run), and a run of a hash
    is in as many tiles at most as the fewer of the two programs has places of it (the
    tokens of runs too crowded to follow aside)."""
    meets = sum(min(len(a.places[h]), len(b.places[h]))
                for h in a.places.keys() & b.places.keys())
    total = a.counted + b.counted
    return 2 * (RUN * meets + a.crowded + b.crowded) / total if total else 0.0


def compare(a: Tokens | Program, b: Tokens | Program, names: tuple[str, str]) -> Pair:
    """How much `a` and `b` have in common, by greedy string tiling (`tiles`)."""
    one = a if isinstance(a, Program) else Program.of(a)
    two = b if isinstance(b, Program) else Program.of(b)
    placed = tiles(one, two)
    common = sum(n for n, _, _ in placed)
    la, lb = one.tokens.lines, two.tokens.lines
    regions = [Region((la[i], lb[j]), (la[i + n - 1], lb[j + n - 1]), n)
               for n, i, j in placed]
    total = one.counted + two.counted
    return Pair(names, round(2 * common / total, 4) if total else 0.0,
                (round(common / one.counted, 4) if one.counted else 0.0,
                 round(common / two.counted, 4) if two.counted else 0.0),
                tuple(sorted(regions, key=lambda r: r.first)))


def covered(program: Tokens, hashes: set[int] | frozenset[int]) -> bytearray:
    """Which tokens of `program` lie in a run of `RUN` tokens whose hash is in `hashes`."""
    marks = bytearray(len(program.kinds))
    if hashes:
        for i, h in enumerate(program.hashes):
            if h in hashes:
                marks[i:i + RUN] = b"\x01" * RUN
    return marks


def prepared(programs: dict[str, Tokens], bases: list[Tokens], common: float = COMMON
             ) -> dict[str, tuple[Program, tuple[Passage, ...]]]:
    """Each program (bot -> tokens) ready to compare, with its passages not counted: those
    in a run of `RUN` tokens also in a base file of its family (`bases`), and those in a run
    found in more than `common` of the programs of its family and in `FEWEST` at least."""
    base: dict[str, set[int]] = defaultdict(set)
    for kept in bases:
        base[kept.family].update(kept.hashes)
    seen: dict[str, Counter[int]] = defaultdict(Counter)
    for program in programs.values():
        seen[program.family].update(set(program.hashes) - base[program.family])
    size = Counter(program.family for program in programs.values())
    crowded = {name: frozenset(h for h, n in counts.items()
                               if n > max(common * size[name], FEWEST - 1))
               for name, counts in seen.items()}
    ready = {}
    for bot, program in programs.items():
        in_base = covered(program, base[program.family])
        in_common = covered(program, crowded[program.family])
        if any(in_base):  # (each byte 0 or 1: the bits of one integer, per byte)
            ones = int.from_bytes(b"\x01" * len(in_base))
            in_common[:] = (int.from_bytes(in_common) & (ones ^ int.from_bytes(in_base))
                            ).to_bytes(len(in_base))
        excluded = (int.from_bytes(in_base) | int.from_bytes(in_common)).to_bytes(len(in_base))
        shell = Program.of(program, excluded)
        ready[bot] = shell, tuple(sorted(shell.passages(Why.BASE, in_base)
                                         + shell.passages(Why.COMMON, in_common),
                                         key=lambda p: p.first))
    return ready


def similar_pairs(programs: dict[str, Tokens], threshold: float = THRESHOLD,
                  bases: list[Tokens] | None = None, common: float = COMMON,
                  ready: dict[str, tuple[Program, tuple[Passage, ...]]] | None = None
                  ) -> list[Pair]:
    """Every pair of `programs` (bot -> tokens) of one family at `threshold` or above,
    the most similar first, base files' and common passages not counted (`ready`: the
    programs as `prepared` gives them, if done already)."""
    ready = ready or prepared(programs, bases or [], common)
    pairs = []
    for x, y in combinations(programs, 2):
        if programs[x].family == programs[y].family \
                and ceiling(ready[x][0], ready[y][0]) >= threshold:
            pair = compare(ready[x][0], ready[y][0], (x, y))
            if pair.similarity >= threshold:
                pairs.append(Pair(pair.bots, pair.similarity, pair.shares, pair.regions,
                                  (ready[x][1], ready[y][1])))
    return sorted(pairs, key=lambda p: (-p.similarity, p.bots))


@dataclass(frozen=True)
class Comparison:
    """The programs of a run compared: the `pairs` at the threshold or above, the
    `texts` read (bot -> source), the bots not compared with why (`unread`), the base
    files used (`bases`), the share that makes a passage common ground (`common`) and
    each program's passages not counted (`passages`, bot -> passages)."""

    pairs: tuple[Pair, ...] = ()
    texts: dict[str, str] = field(default_factory=dict)
    unread: tuple[tuple[str, str], ...] = ()
    bases: tuple[str, ...] = ()
    common: float = COMMON
    passages: dict[str, tuple[Passage, ...]] = field(default_factory=dict)

    def discounted(self) -> dict[Why, int]:
        """How many passages of the programs compared are not counted, by why."""
        return {why: sum(1 for passages in self.passages.values() for p in passages
                         if p.why == why) for why in Why}


#: the most a file is read for comparing (a submission is a few kilobytes; Pygments reads
#: a hundred kilobytes of Python in about a second)
MOST = 256 << 10


def read_text(path: str, fingerprint: str) -> tuple[str | None, str]:
    """The text of the file at `path` if its content still has the SHA-256 `fingerprint`,
    else None and why it was not read."""
    try:
        data = read_file(path, MOST)
    except OSError as exc:
        return None, f"cannot be read now ({exc.strerror or exc})"
    if len(data) > MOST:
        return None, "over 256 KiB"
    if hashlib.sha256(data).hexdigest() != fingerprint:
        return None, "changed since the run"
    return decoded(data), ""


def decoded(data: bytes) -> str:
    """A source's text: UTF-8, or Latin-1 where it is not."""
    try:
        return data.decode()
    except UnicodeDecodeError:
        return data.decode("latin-1")


@dataclass(frozen=True)
class Entry:
    """The file a bot given as a folder is run from, as the run finds it (by `--entry
    NAME`, else by convention): its `name`, or why it has none (`why`: not graded)."""

    name: str = ""
    why: str = ""


def folder_text(path: str, fingerprint: str, entry: Entry) -> tuple[str | None, str, str]:
    """A bot given as a folder, as one text to compare: its files of its `entry`'s
    language, in name order, if the folder still has the digest `fingerprint`; with the
    entry's name (whose suffix names the language), or None and why it was not read."""
    try:
        given = folder_files(Path(path))
    except OSError as exc:
        return None, "", f"cannot be read now ({os.strerror(exc.errno or 0)})"
    if folder_digest(given) != fingerprint:
        return None, "", "changed since the run"
    if entry.why:
        return None, "", f"not graded: {entry.why}"
    kind = family(entry.name)
    if kind is None:
        return None, "", "not a language compared"
    data = b"\n".join(data for name, data in given.items() if family(name) == kind)
    if len(data) > MOST:
        return None, "", "over 256 KiB"
    return decoded(data), entry.name, ""


#: why a program Pygments reads too slowly (`TooSlow`) is not compared
SLOW = "Pygments took too long to read it"


@lru_cache(maxsize=8)
def compare_files(files: tuple[tuple[str, str, str], ...], threshold: float = THRESHOLD,
                  bases: tuple[tuple[str, str, str], ...] = (), common: float = COMMON,
                  entries: tuple[tuple[str, Entry], ...] = ()) -> Comparison:
    """The run's programs compared, from `files` (bot, path to read, the SHA-256 its
    content had when the run started), a bot given as a folder in the language of its
    entry (`entries`: bot -> entry): a file changed since, gone, too big, not text or of
    no language compared, or a folder not graded, is named in `unread`, not compared.
    `bases` are the base files (name, path, SHA-256), whose passages do not count; one
    not read is named in `unread` too (as `--base NAME`)."""
    programs: dict[str, Tokens] = {}
    texts: dict[str, str] = {}
    unread: list[tuple[str, str]] = []
    found: list[tuple[str, str, str, str | None]] = []  # bot, name, fingerprint, its text
    entry_of = dict(entries)
    for bot, path, fingerprint in files:
        if not os.path.isdir(path):
            found.append((bot, path, fingerprint, None))
            continue
        text, name, why = folder_text(path, fingerprint,
                                      entry_of.get(bot, Entry(why="its entry is not known")))
        if text is None:
            unread.append((bot, why))
        else:
            found.append((bot, name, fingerprint, text))
    families = [family(name) for _, name, _, _ in found]
    for (bot, name, fingerprint, text), kind in zip(found, families, strict=True):
        if kind is None:
            unread.append((bot, "not a language compared"))
            continue
        if families.count(kind) < 2:
            continue  # nothing to compare it with (and Pygments not loaded for it)
        if text is None:
            text, why = read_text(name, fingerprint)
            if text is None:
                unread.append((bot, why))
                continue
        try:
            programs[bot], texts[bot] = tokens(text, name), text  # type: ignore[assignment]
        except TooSlow:
            unread.append((bot, SLOW))
    kept: list[Tokens] = []
    for name, path, fingerprint in bases:
        text, why = read_text(path, fingerprint)
        try:
            read = tokens(text, path) if text is not None else None
        except TooSlow:
            read, why = None, SLOW
        if read is None:
            unread.append((f"--base {name}", why or "not a language compared"))
        else:
            kept.append(read)
    ready = prepared(programs, kept, common)
    return Comparison(tuple(similar_pairs(programs, threshold, ready=ready)), texts,
                      tuple(unread), tuple(name for name, _, _ in bases), common,
                      {bot: passages for bot, (_, passages) in ready.items()})


def groups(pairs: list[Pair], order: list[str]) -> list[tuple[str, ...]]:
    """The bots that `pairs` join, as groups (each in `order`), the groups in the order
    of their first bot."""
    parent = {bot: bot for bot in order}

    def root(bot: str) -> str:
        while parent[bot] != bot:
            parent[bot] = parent[parent[bot]]
            bot = parent[bot]
        return bot

    for pair in pairs:
        parent[root(pair.bots[0])] = root(pair.bots[1])
    joined: dict[str, list[str]] = {}
    for bot in order:
        joined.setdefault(root(bot), []).append(bot)
    return [tuple(group) for group in joined.values() if len(group) > 1]
