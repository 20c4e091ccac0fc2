"""Tables, JSON and CSV for every command's results.

Every CSV cell passes `spreadsheet_text` (a spreadsheet reads text as text, never a
formula), every Markdown cell escapes `|`, and every cell escapes control characters and
newlines (`printable_line`): `render_rows` is the one writer of all three."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NamedTuple

from judge.words import plural

__all__ = ["plural"]  # (for the commands: one import for their words and tables)

FORMATS = ("table", "json", "csv", "markdown")
#: the columns a `table` fits in (a terminal's usual width), unless --wide
WIDTH = 80
#: the fewest columns a shortened cell keeps
NARROWEST = 12
#: control characters (C0 but tab and newline, DEL, C1) as \xNN: what a bot wrote cannot
#: move the cursor, recolour or repaint what the terminal shows; and the bidirectional
#: controls (embeddings, overrides, isolates, marks) as \uNNNN: it cannot reverse the text
#: that follows it in a terminal or a page either
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if c not in (9, 10)}
_CONTROL.update({c: f"\\u{c:04x}" for c in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                              *range(0x2066, 0x206A)]})


#: what a spreadsheet takes for the start of a formula (OWASP's CSV injection list)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class Number(str):
    """A number the judge wrote as text itself, as a table shows it (a rating `-12`, an LLR
    `-1.25`): a spreadsheet reads it as the number it is, so CSV writes it as it is."""

    __slots__ = ()


def spreadsheet_text(text: str) -> str:
    """`text` as a CSV cell that a spreadsheet reads as text, never as a formula: led by a
    `'` when it starts with `=`, `+`, `-`, `@`, a tab or a carriage return (`-3 points`
    becomes `'-3 points`). For text only: the judge's numbers stay numbers."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def printable(text: str) -> str:
    """`text` safe for a terminal or a page: control characters and bidirectional controls
    escaped, tabs and newlines kept."""
    return text.translate(_CONTROL)


def printable_line(text: str) -> str:
    """`text` safe for one cell or line: newlines escaped too."""
    return printable(text).replace("\n", "\\n")


def to_json(data: Any) -> str:
    """Indented JSON with a trailing newline."""
    return json.dumps(data, indent=2) + "\n"


class Fit(NamedTuple):
    """How a `table` is narrowed to `WIDTH` columns: the long cells of the columns in
    `shorten` are cut, in that order, as their kind says ("path": the end kept,
    `…/alice/main.c`; "text": the start kept, `move 7: 3 (ri…`; "wrap": on lines of their
    own, nothing cut, as a first mistake's right moves); when that is not enough,
    the columns of `drop` are left out, in that order. The columns of `optional` (figures
    that `--wide` and the other formats give) are left out first, in that order, while the
    table is wider than `WIDTH` with no cell cut."""

    shorten: dict[str, str]
    drop: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    #: a cell's text -> what it becomes when it must be cut: its distinguishing part (a
    #: bot's folder or display name, its start kept) and an end never cut (marks)
    short: Mapping[str, tuple[str, str]] = {}


def render_rows(rows: Sequence[dict[str, Any]], fmt: str, headers: Sequence[str],
                fit: Fit | None = None) -> str:
    """Rows of dicts as a table (`table`, `markdown`) or CSV, columns in `headers` order;
    a `table` is narrowed to `WIDTH` columns as `fit` says (other formats keep it all)."""
    matrix = [[_cell(row.get(h), fmt == "csv") for h in headers] for row in rows]
    if fit is not None and fmt == "table":
        matrix, headers = fitted(matrix, headers, fit)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        # a row with a cell holding another separator a spreadsheet may split on (`;` in
        # much of Europe, tab) is quoted whole: `a;=1+1` stays one cell, not a formula
        quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
        for row in [[spreadsheet_text(h) for h in headers], *matrix]:
            (quoted if any(";" in c or "\t" in c for c in row) else writer).writerow(row)
        return out.getvalue()
    if fmt != "markdown":
        return simple_table(matrix, list(headers)) + "\n"
    from tabulate import tabulate

    # a '|' inside a cell would end it: escape it as Markdown does
    matrix = [[cell.replace("|", "\\|") for cell in row] for row in matrix]
    return tabulate(matrix, headers=list(headers), tablefmt="github", disable_numparse=True) + "\n"


def simple_table(matrix: Sequence[Sequence[str]], headers: Sequence[str]) -> str:
    """The table exactly as tabulate's "simple" format draws it (a test holds them equal),
    drawn here because importing tabulate costs a one-game run a sixth of its time."""
    rows = [list(headers), *([cell.strip() for cell in row] for row in matrix)]
    widths = [max(_width(h) + 2, *(_width(row[i]) for row in rows)) for i, h in enumerate(rows[0])]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c + " " * (w - _width(c)) for c, w in zip(cells, widths, strict=True))

    rule = "  ".join("-" * w for w in widths)
    body = []
    for row in rows[1:]:  # a wrapped cell (`fitted`) takes as many lines as it needs
        parts = [cell.split("\n") for cell in row]
        for k in range(max(map(len, parts), default=1)):
            body.append(line([p[k] if k < len(p) else "" for p in parts]).rstrip())
    return "\n".join([line(rows[0]).rstrip(), rule, *body])


def fitted(matrix: Sequence[Sequence[str]], headers: Sequence[str], fit: Fit,
           width: int = WIDTH) -> tuple[list[list[str]], list[str]]:
    """The table's cells and headers narrowed to `width` columns as `fit` says (as far as
    its columns can give way)."""
    heads = list(headers)
    cells = [list(row) for row in matrix]

    def widths() -> list[int]:
        return [max(_width(h) + 2, *(_width(row[i]) for row in cells)) for i, h in
                enumerate(heads)]

    def least() -> list[int]:  # each column as narrow as it may become
        return [min(w, max(_width(h) + 2, NARROWEST)) if h in fit.shorten else w
                for h, w in zip(heads, widths(), strict=True)]

    def total(ws: list[int]) -> int:
        return sum(ws) + 2 * (len(ws) - 1)

    def leave_out(name: str) -> None:
        if name in heads:
            i = heads.index(name)
            del heads[i]
            for row in cells:
                del row[i]

    for name in fit.optional:
        if total(widths()) <= width:
            break
        leave_out(name)
    for name in fit.drop:
        if total(least()) <= width:
            break
        leave_out(name)
    # the widest column that may give way gives a column, until the table fits
    target = dict(zip(heads, widths(), strict=True))
    floor = dict(zip(heads, least(), strict=True))
    order = [name for name in fit.shorten if name in heads]
    for _ in range(total(list(target.values())) - width):
        widest = max(order, key=lambda n: (target[n] - floor[n] > 0, target[n]), default=None)
        if widest is None or target[widest] <= floor[widest]:
            break
        target[widest] -= 1
    for name in order:
        i = heads.index(name)
        for row in cells:
            row[i] = cut(row[i].strip(), target[name], fit.shorten[name], fit.short)
    return cells, heads


def cut(text: str, width: int, kind: str, short: Mapping[str, tuple[str, str]]) -> str:
    """A cell in at most `width` columns, as `fitted` cuts it: "wrap" on lines of that
    width, nothing lost; else by `short` when it has the cell (cut as `kind` says if that
    keeps the distinguishing part, else that part; then the end, never cut), else as `kind`
    says."""
    if kind == "wrap":
        import textwrap

        return "\n".join(textwrap.wrap(text, width)) if _width(text) > width else text
    if _width(text) <= width or text not in short:
        return shortened(text, width, keep_end=kind == "path")
    name, end = short[text]
    room = max(width - _width(end) - 1 if end else width, 4)
    whole = shortened(text[:len(text) - len(end) - 1] if end else text, room,
                      keep_end=kind == "path")
    return (whole if name in whole else shortened(name, room)) + (" " + end if end else "")


def shortened(text: str, width: int, keep_end: bool = False) -> str:
    """`text` in at most `width` columns: its start and "…" (`keep_end`: "…" and its end,
    from a "/" when one is left: `…/alice/main.c`)."""
    if _width(text) <= width:
        return text
    if not keep_end:
        while text and _width(text) > width - 1:
            text = text[:-1]
        return text + "…"
    while text and _width(text) > width - 1:
        text = text[1:]
    slash = text.find("/")
    return "…" + (text[slash:] if slash > 0 and len(text) - slash > 1 else text)


def wrapped(text: str, width: int = WIDTH, indent: str = "  ") -> str:
    """`text` in lines of at most `width` columns, broken between words, the lines after
    the first indented (a word longer than a line is cut)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, subsequent_indent=indent,
                                   break_on_hyphens=False)) + "\n"


def _width(text: str) -> int:
    """Columns `text` takes on a terminal: wide East Asian characters take two; of a cell
    on several lines, its widest line."""
    if "\n" in text:
        return max(map(_width, text.split("\n")))
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _cell(value: Any, spreadsheet: bool = False) -> str:
    """A value as a cell; text (not a number of the judge's) as `spreadsheet_text` makes it
    when the cell is for a `spreadsheet` (before its control characters are escaped)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    text = ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
    if spreadsheet and not isinstance(value, int | Number):
        text = spreadsheet_text(text)
    return printable_line(text)


def render_table(table: tuple[Sequence[dict[str, Any]], Sequence[str]], fmt: str) -> str:
    """A (rows, headers) pair rendered as `render_rows` does."""
    return render_rows(table[0], fmt, table[1])


def write_tables(folder: str, fmt: str,
                 tables: Mapping[str, tuple[Sequence[dict[str, Any]], Sequence[str]]]
                 ) -> list[str]:
    """Each table into `folder`/NAME.csv (or .md, .txt), written whole or not at all;
    returns the names of the files."""
    suffix = {"csv": ".csv", "markdown": ".md"}.get(fmt, ".txt")
    shown = fmt if fmt in ("csv", "markdown") else "table"
    return write_files(folder, {name + suffix: render_table(table, shown)
                                for name, table in tables.items()})


def write_files(folder: str, files: dict[str, str]) -> list[str]:
    """Each text into `folder`/NAME (each written whole or not at all), once none of them
    would replace a file it may not (`check_replace`: then nothing is written); returns
    the names of the files (the caller says what was written)."""
    import os

    from judge.games.base import InputError

    for name in files:
        why = replace_refused(os.path.join(folder, name))
        if why:
            raise InputError(f"--output-dir {folder}: {os.path.join(folder, name)} {why}: "
                             f"give another folder, or --force to replace it")
    try:
        os.makedirs(folder, exist_ok=True)
        for name, text in files.items():
            write_whole(os.path.join(folder, name), text)
    except OSError as exc:
        raise InputError(f"--output-dir {folder}: {exc.strerror or exc}") from None
    return list(files)


#: whether --output and --output-dir may replace any file (--force), for the command
#: being run (`forcing`)
FORCE: ContextVar[bool] = ContextVar("FORCE", default=False)
#: the record of the files the judge wrote, in its cache: a line each, the SHA-256 of what
#: it wrote and the file's real path; the newest kept
WRITTEN = "written.txt"
WRITTEN_KEPT = 4000


@contextmanager
def forcing(force: bool) -> Iterator[None]:
    """Let the block's outputs replace any file (--force), or only the judge's own."""
    token = FORCE.set(force)
    try:
        yield
    finally:
        FORCE.reset(token)


def replace_refused(path: str) -> str:
    """Why writing `path` would lose data (a source file of a known language, a file the
    judge did not write, or that was changed since it did), or "" when it may be written:
    it is not there, it is empty, the judge wrote it as it is, or --force (`FORCE`)."""
    import os

    if FORCE.get() or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return ""
    from judge.sandbox.context import sandbox_context

    suffix = os.path.splitext(path)[1]
    if suffix and suffix in sandbox_context().languages.suffixes():
        return f"is a source file ({suffix})"
    if _record_line(path) not in _written():
        return "exists and the judge did not write it (or it was changed since)"
    return ""


def _record_line(path: str, data: bytes | None = None) -> str:
    """The line of the record of written files for `path` holding `data` (or what it holds
    now; "" when it cannot be read)."""
    import hashlib
    import os

    try:
        if data is None:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError:
        return ""
    return f"{hashlib.sha256(data).hexdigest()}\t{os.path.realpath(path)}"


def _written() -> set[str]:
    """The lines of the record of the files the judge wrote."""
    from judge.solvers.cache import cache_dir

    try:
        return set((cache_dir() / WRITTEN).read_text(errors="replace").splitlines())
    except OSError:
        return set()


def _remember(path: str, data: bytes) -> None:
    """Add `path`, holding `data`, to the record of the files the judge wrote (its newest
    lines kept); a record that cannot be written only makes --force needed later."""
    import os

    from judge.solvers.cache import cache_dir

    record = cache_dir() / WRITTEN
    try:
        with open(record, "a", encoding="utf-8") as fh:
            fh.write(_record_line(path, data) + "\n")
        if record.stat().st_size > WRITTEN_KEPT * 200:
            lines = record.read_text(errors="replace").splitlines()[-WRITTEN_KEPT // 2:]
            fresh = record.with_name(f".{WRITTEN}-{os.getpid()}")
            fresh.write_text("".join(line + "\n" for line in lines))
            os.replace(fresh, record)
    except OSError:
        pass


def write_whole(path: str, text: str) -> None:
    """`text` into the file `path`, whole or not at all: written beside it, given the mode a
    plain open() would give it, then put in its place (a failure leaves nothing behind);
    recorded as the judge's (`replace_refused`)."""
    import os
    import tempfile

    folder, name = os.path.split(path)
    fh = tempfile.NamedTemporaryFile("w", dir=folder or ".", prefix=f".{name}-",
                                     delete=False, encoding="utf-8", newline="")
    try:
        with fh:
            fh.write(text)
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(fh.name, 0o666 & ~mask)
        os.replace(fh.name, path)
    except OSError:
        if os.path.exists(fh.name):
            os.unlink(fh.name)
        raise
    _remember(path, text.encode("utf-8"))


def rules_line(game: str) -> str:
    """The rules of `game` (a run's game and rules, "nim misere=on") on lines of their own,
    for a table's heading at `WIDTH` columns; empty when it has none."""
    rules = game.partition(" ")[2]
    return wrapped(f"rules: {printable_line(rules)}") if rules else ""


def wtl(wins: int, ties: int, losses: int) -> str:
    """Wins, ties and losses in one narrow cell: `20/0/4`."""
    return f"{wins}/{ties}/{losses}"


def outcome(result: str, verdict: str) -> str:
    """A game's result and verdict in one narrow cell: `loss`, `loss (crash)`."""
    from judge.verdicts import OK

    return result if verdict == OK else f"{result} ({verdict})"


def notes(numbered: Sequence[tuple[int, str]], width: int = WIDTH) -> str:
    """The messages of a narrowed games table, under it: `game 3: message`, wrapped at
    `width` columns, for the games that have one."""
    lines = "".join(wrapped(f"game {n}: {printable_line(text)}", width)
                    for n, text in numbered if text)
    return lines and "\n" + lines
