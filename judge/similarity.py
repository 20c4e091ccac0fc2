"""Copies found by their source, as MOSS and JPlag find them: each program read as tokens
by Pygments with names, numbers, strings and comments made alike (a renamed copy is the
same stream), then every pair of programs of one language tiled with their common runs of
at least `RUN` tokens (JPlag's greedy string tiling). A pair's similarity is the share of
both programs' tokens inside common runs; the runs are the regions a teacher compares side
by side.

Why not a library: copydetect does this (with winnowing) but needs matplotlib; Pygments is
the part that is hard to write, and it is used here directly."""

from __future__ import annotations

import hashlib
import os
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations
from pathlib import PurePath

#: the fewest tokens in a common run: shorter ones are the language's idioms
#: (`N = int ( N ( ) )` is 7), not a copy
RUN = 12
#: the least similarity that flags a pair: over the class of tests/data/class-nim (25
#: programs in 8 languages), separately written solutions shared at most 36% and disguised
#: copies (names changed, functions moved, a statement split) at least 69%
THRESHOLD = 0.5
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


@dataclass(frozen=True)
class Tokens:
    """A program as compared: its normalised tokens and the line each starts on."""

    family: str
    kinds: tuple[str, ...]
    lines: tuple[int, ...]

    @cached_property
    def hashes(self) -> tuple[int, ...]:
        """The hash of each run of `RUN` tokens, by where it starts."""
        return tuple(zlib.crc32("\x00".join(self.kinds[i:i + RUN]).encode())
                     for i in range(len(self.kinds) - RUN + 1))


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
    the share of each one's tokens (`shares`) inside the common `regions`."""

    bots: tuple[str, str]
    similarity: float
    shares: tuple[float, float]
    regions: tuple[Region, ...]


def family(name: str) -> str | None:
    """The family a file is compared in, by its suffix; None: not a language compared."""
    suffix = PurePath(name).suffix
    lexer = LEXERS.get(suffix) or LEXERS.get(suffix.lower())
    return FAMILIES.get(lexer, lexer) if lexer else None


def tokens(text: str, name: str) -> Tokens | None:
    """`text` (the file `name`) as tokens to compare, or None for a file of no language
    compared. Names are `N`, numbers `0`, a string `S`; comments (with C's preprocessor
    lines) and white space are dropped; keywords, operators and punctuation stay."""
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Comment, Literal, Name, Number, String, Text, Whitespace

    suffix = PurePath(name).suffix
    lexer_name = LEXERS.get(suffix) or LEXERS.get(suffix.lower())
    if lexer_name is None:
        return None
    kinds: list[str] = []
    lines: list[int] = []
    line = 1
    for kind, value in get_lexer_by_name(lexer_name, stripnl=False).get_tokens(text):
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


def compare(a: Tokens, b: Tokens, names: tuple[str, str]) -> Pair:
    """How much `a` and `b` have in common: the longest common runs first, each token in
    at most one run (greedy string tiling with runs of at least `RUN` tokens)."""
    ha, hb = a.hashes, b.hashes
    where: dict[int, list[int]] = defaultdict(list)
    for j, h in enumerate(hb):
        where[h].append(j)
    if where.keys().isdisjoint(ha):  # (most pairs: nothing in common at all)
        return Pair(names, 0.0, (0.0, 0.0), ())
    crowded = {h for h, n in Counter(ha).items() if n > CROWD}
    runs = []
    for i, h in enumerate(ha):
        if h in crowded or len(where.get(h, ())) > CROWD:
            continue
        for j in where.get(h, ()):
            if i and j and ha[i - 1] == hb[j - 1] and a.kinds[i - 1] == b.kinds[j - 1]:
                continue  # inside a run found from its start
            n = 0
            while (i + n < len(a.kinds) and j + n < len(b.kinds)
                   and a.kinds[i + n] == b.kinds[j + n]):
                n += 1
            if n >= RUN:
                runs.append((n, i, j))
    used_a, used_b = bytearray(len(a.kinds)), bytearray(len(b.kinds))
    regions = []
    for n, i, j in sorted(runs, key=lambda r: (-r[0], r[1], r[2])):
        if any(used_a[i:i + n]) or any(used_b[j:j + n]):
            continue
        used_a[i:i + n] = b"\x01" * n
        used_b[j:j + n] = b"\x01" * n
        regions.append(Region((a.lines[i], b.lines[j]),
                              (a.lines[i + n - 1], b.lines[j + n - 1]), n))
    common_a, common_b = sum(used_a), sum(used_b)
    total = len(a.kinds) + len(b.kinds)
    return Pair(names, round((common_a + common_b) / total, 4) if total else 0.0,
                (round(common_a / len(a.kinds), 4) if a.kinds else 0.0,
                 round(common_b / len(b.kinds), 4) if b.kinds else 0.0),
                tuple(sorted(regions, key=lambda r: r.first)))


def similar_pairs(programs: dict[str, Tokens], threshold: float = THRESHOLD) -> list[Pair]:
    """Every pair of `programs` (bot -> tokens) of one family at `threshold` or above,
    the most similar first."""
    pairs = [compare(programs[x], programs[y], (x, y))
             for x, y in combinations(programs, 2)
             if programs[x].family == programs[y].family]
    return sorted((p for p in pairs if p.similarity >= threshold),
                  key=lambda p: (-p.similarity, p.bots))


@dataclass(frozen=True)
class Comparison:
    """The programs of a run compared: the `pairs` at the threshold or above, the
    `texts` read (bot -> source), and the bots not compared with why (`unread`)."""

    pairs: tuple[Pair, ...] = ()
    texts: dict[str, str] = field(default_factory=dict)
    unread: tuple[tuple[str, str], ...] = ()


#: the most a file is read for comparing (a submission is a few kilobytes; Pygments reads
#: a hundred kilobytes of Python in about a second)
MOST = 256 << 10


@lru_cache(maxsize=8)
def compare_files(files: tuple[tuple[str, str, str], ...],
                  threshold: float = THRESHOLD) -> Comparison:
    """The run's programs compared, from `files` (bot, path to read, the SHA-256 its
    content had when the run started): a file changed since, gone, too big, not text or of
    no language compared is named in `unread`, not compared."""
    programs: dict[str, Tokens] = {}
    texts: dict[str, str] = {}
    unread: list[tuple[str, str]] = []
    families = [family(path) for _, path, _ in files]
    for (bot, path, fingerprint), kind in zip(files, families, strict=True):
        if kind is None:
            unread.append((bot, "not a language compared"))
            continue
        if families.count(kind) < 2:
            continue  # nothing to compare it with (and Pygments not loaded for it)
        try:
            with open(path, "rb") as fh:  # (a folder or a device: an error or too big)
                data = fh.read(MOST + 1)
        except OSError as exc:
            unread.append((bot, f"cannot be read now ({os.strerror(exc.errno or 0)})"))
            continue
        if len(data) > MOST:
            unread.append((bot, "over 256 KiB"))
            continue
        if hashlib.sha256(data).hexdigest() != fingerprint:
            unread.append((bot, "changed since the run"))
            continue
        try:
            text = data.decode()
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        programs[bot], texts[bot] = tokens(text, path), text  # type: ignore[assignment]
    return Comparison(tuple(similar_pairs(programs, threshold)), texts, tuple(unread))


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
