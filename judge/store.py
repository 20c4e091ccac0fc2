"""SQLite storage of runs and their games, committed game by game so a run can resume."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from judge.games.base import InputError
from judge.plan import OPTIMAL, Plan, default_names, from_config, is_program
from judge.words import plural

if TYPE_CHECKING:
    from judge.records import PlayedGame

#: a kind of plan (`Store.change_plan`)
PlanT = TypeVar("PlanT", bound=Plan)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    kind     TEXT NOT NULL,            -- 'run' (grading) or 'tournament'
    game     TEXT NOT NULL,            -- the exact game and rules
    config   TEXT NOT NULL,            -- JSON: bots, starts, seats, limits, seed
    created  REAL NOT NULL,
    finished REAL                      -- set when every scheduled game is stored
);
CREATE TABLE IF NOT EXISTS games (
    run_id   INTEGER NOT NULL REFERENCES runs(id),
    key      TEXT NOT NULL,            -- the game's place in the schedule
    record   TEXT NOT NULL,            -- JSON: the whole game record
    stored   REAL NOT NULL,
    PRIMARY KEY (run_id, key)
);
"""

#: the columns of each table, to recognise a database written by something else
COLUMNS = {
    "runs": {"id", "kind", "game", "config", "created", "finished"},
    "games": {"run_id", "key", "record", "stored"},
}


#: how long closing a database waits for another program's reads to let its log be copied
CHECKPOINT_WAIT_MS = 5000


def _put_in_place(temporary: Path, target: Path) -> None:
    """Give the whole file `temporary` the name `target`, which must not exist (a hard link,
    which never replaces a file; where links cannot be made, a rename after a check)."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if target.exists():
            raise FileExistsError(target) from None
        os.rename(temporary, target)
        return
    temporary.unlink()


def keep_private(path: Path) -> None:
    """Make `path` (a file or a folder, followed if a link) its owner's alone, with no
    permission for its group or others (as root: a bot runs under a uid of its own, which
    must not read what the judge keeps; the owner stays whoever it is, a user whose database
    root opened keeps it). `InputError` where it cannot be."""
    try:
        st = os.stat(path)
        if st.st_mode & 0o077 and (st.st_uid == os.geteuid() or os.geteuid() == 0):
            os.chmod(path, st.st_mode & 0o700)
    except OSError as exc:
        raise InputError(f"cannot make {path} private to the judge's user: "
                         f"{exc.strerror or exc}") from None


#: what SQLite says of a file that is damaged, or not a database at all
DAMAGE = ("database disk image is malformed", "file is not a database")


def damage_of(exc: BaseException) -> str | None:
    """SQLite's words when `exc` says a database file is damaged, else None."""
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and any(d in text for d in DAMAGE):
        return text
    return None


def damaged(path: Path | str, why: str) -> InputError:
    """The one-line error of a damaged database, with what may save the rest."""
    return InputError(f"the results database {path} is damaged ({why}): `judge show "
                      f"--export-db COPY --db {path}` copies what can still be read, and "
                      f"sqlite3's .recover may save more")


class StoredRun(NamedTuple):
    """A run as the database holds it: its plan and its state."""

    id: int
    #: "run" (grading), "tournament" or "match": the command that plays it
    kind: str
    #: the game and its rules, as people read them
    game: str
    plan: Plan
    created: float
    #: when its last scheduled game was stored (None: not finished)
    finished: float | None


class RunSummary(NamedTuple):
    """One line of the list of runs."""

    id: int
    kind: str
    game: str
    created: float
    finished: float | None
    #: games stored, and planned (a match: at most)
    games: int
    planned: int | None
    #: who plays: bot paths, and "optimal" for the perfect player (of kind `opponent`)
    bots: list[str]
    opponent: str
    #: the players' display names, in the order of `bots`
    names: list[str]


class Store:
    """A results database: every call commits, so a killed judge loses only games in flight.

    Write-ahead logging with synchronous=NORMAL survives the judge being killed at any moment
    (only a power cut can lose the last commits); it saves an fsync per game, and lets
    `judge show` read while a judge plays. `close` (or leaving a `with` block) copies the
    log into the database file, so that the file alone holds every game.
    """

    def __init__(self, path: Path | str, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._locks: dict[int, tuple[int, Path]] = {}
        self._closed = False
        if self.path.is_dir():
            raise InputError(f"--db {self.path} is a folder: give the database file in it")
        folder = self.path.parent
        if not folder.is_dir():
            raise InputError(f"--db {self.path}: the folder {folder} does not exist")
        if self.path.exists() and not os.access(self.path, os.R_OK):
            raise InputError(f"the results database {self.path} cannot be read: permission "
                             f"denied (its owner or mode): give another --db")
        if read_only:
            self._open_read_only()
            return
        if self.path.exists() and not os.access(self.path, os.R_OK | os.W_OK):
            raise InputError(f"the results database {self.path} cannot be written (its mode "
                             f"or owner): give another --db, or `judge show` to read it")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise InputError(f"the folder of the results database {self.path} cannot be "
                             f"written (the database needs its journal beside it): give "
                             f"another --db, or `judge show` to read it")
        made = False
        try:  # readable by the judge's user only: a bot under another uid cannot open it
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            made = True
        except FileExistsError:
            pass
        except OSError as exc:
            raise InputError(f"cannot create the results database {self.path}: "
                             f"{exc.strerror}") from None
        if not made:  # (one made by an older judge or by hand: it and its log beside it)
            for end in ("", "-wal", "-shm"):
                kept = self.path.with_name(self.path.name + end)
                if not end or kept.exists():
                    keep_private(kept)
        try:
            self.db = sqlite3.connect(self.path, timeout=30)
        except sqlite3.Error as exc:
            if made:
                self.path.unlink(missing_ok=True)
            raise InputError(f"cannot open {self.path} as a results database: {exc}") from None
        try:
            self._check_schema()
            if not made:
                self.check()  # found now, not as a game is stored
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except (sqlite3.DatabaseError, InputError) as exc:
            self.db.close()
            if made:
                self.path.unlink(missing_ok=True)
            if isinstance(exc, InputError):
                raise
            if damage_of(exc):
                raise damaged(self.path, str(exc)) from None
            raise InputError(f"cannot use {self.path} as a results database: {exc}") from None

    def check(self) -> None:
        """`InputError` when SQLite's quick_check finds the database damaged (a reader
        meets the damage only at the page it reads: a page of games)."""
        try:
            faults = self._faults("quick_check")
        except sqlite3.DatabaseError as exc:
            if damage_of(exc):
                raise damaged(self.path, str(exc)) from None
            raise
        if faults:
            raise damaged(self.path, faults)

    def _faults(self, check: str, db: sqlite3.Connection | None = None) -> str:
        """The first faults SQLite's `check` (quick_check, integrity_check) of the database
        (or of `db`) finds, in one line; "" when it is whole."""
        found = [line for row in (db or self.db).execute(f"PRAGMA {check}(3)")
                 for line in str(row[0]).splitlines() if not line.startswith("***")]
        return "" if found == ["ok"] else f"{DAMAGE[0]}: {'; '.join(found)}"

    def _open_read_only(self) -> None:
        """Open to read, even in a folder (or of a file) that cannot be written."""
        if not self.path.exists():
            raise InputError(f"no results database {self.path} (give --db FILE)")
        uri = self.path.resolve().as_uri()
        try:
            self.db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30)
            self._check_schema()
            self.db.execute("SELECT COUNT(*) FROM runs").fetchone()
        except sqlite3.DatabaseError:
            # a WAL database in a read-only folder cannot make its shared-memory file:
            # read the file as it is (nothing writes it, or the folder would be writable)
            try:
                self.db = sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=30)
                self._check_schema()
                self.db.execute("SELECT COUNT(*) FROM runs").fetchone()
            except sqlite3.DatabaseError as exc:
                if damage_of(exc):
                    raise damaged(self.path, str(exc)) from None
                raise InputError(f"cannot read {self.path} as a results database: {exc}"
                                 ) from None

    def _lock_path(self, run_id: int) -> Path:
        return self.path.with_name(f"{self.path.name}.run{run_id}.lock")

    def lock_run(self, run_id: int) -> None:
        """Hold run `run_id` for this process while it plays (released at `close` or exit);
        `InputError` when another judge plays it now."""
        path = self._lock_path(run_id)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            raise InputError(f"run {run_id} is being played by another judge right now"
                             f"{f' (process {holder})' if holder else ''}: wait for it to "
                             f"end, or look at it with `judge show {run_id}`") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._locks[run_id] = (fd, path)

    def unlock_run(self, run_id: int) -> None:
        """Let go of a run this process held."""
        held = self._locks.pop(run_id, None)
        if held is not None:
            fd, path = held
            with contextlib.suppress(OSError):
                path.unlink()
            os.close(fd)

    def running(self, run_id: int) -> bool:
        """Whether a judge plays run `run_id` now (this one or another)."""
        if run_id in self._locks:
            return True
        try:
            fd = os.open(self._lock_path(run_id), os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def _check_schema(self) -> None:
        """Refuse a database that holds anything but the judge's own tables, as they are."""
        tables = {row[0] for row in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        if not tables:
            return
        mine = {"runs": COLUMNS["runs"], "games": COLUMNS["games"]}
        if tables != set(mine):
            self.db.close()
            raise InputError(f"{self.path} is not a judge results database (it holds the "
                             f"tables {', '.join(sorted(tables))}); give another --db FILE")
        for table, columns in mine.items():
            found = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            if found != columns:
                self.db.close()
                raise InputError(f"{self.path}: table {table} has the columns "
                                 f"{', '.join(sorted(found))}, not the judge's "
                                 f"{', '.join(sorted(columns))}")

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """A write that another program holds up too long is an `InputError`."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise InputError(f"cannot write to the results database {self.path}: {exc}"
                             ) from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (once; again is nothing), letting go of the runs held. A
        database opened to write is first left whole: its write-ahead log copied into the
        file (`checkpoint`), so that the file alone holds every game stored."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.read_only and not self.checkpoint():
                print(f"judge: warning: the last games stored are still in "
                      f"{self.path.name}-wal beside {self.path} (another program holds it "
                      f"open): copy the database with `judge show --export-db FILE --db "
                      f"{self.path}`, not the file alone", file=sys.stderr)
        finally:
            for run_id in list(self._locks):
                self.unlock_run(run_id)
            self.db.close()

    def checkpoint(self) -> bool:
        """Copy the write-ahead log into the database file and empty it (what SQLite does
        itself only when its last connection closes, and not at all for a judge that never
        gets to close); whether the file now holds every commit. Another program reading
        the database may hold this up for a few seconds, after which what it could not
        copy stays in the log."""
        try:
            if self.db.in_transaction:  # (a write cut short: nothing of it was stored)
                self.db.rollback()
            (waits,) = self.db.execute("PRAGMA busy_timeout").fetchone()
            self.db.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
            try:
                busy, logged, copied = self.db.execute(
                    "PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                self.db.execute(f"PRAGMA busy_timeout = {int(waits)}")
        except sqlite3.Error:
            return False
        return not busy or logged == copied

    def copy_to(self, target: Path | str) -> tuple[int, int]:
        """A consistent copy of the database, as it is at this moment even while a judge
        plays it (SQLite's online backup), into the new file `target`: written beside it and
        then put in its place, so that `target` is whole or absent, readable by the judge's
        user only; an existing `target` is refused. Returns the copy's runs and games. A
        copy that SQLite's integrity check finds damaged is replaced by the runs that can
        still be read (`_salvage`), and an `InputError` says what was not copied."""
        target = Path(target)
        if target.exists() or target.is_symlink():
            raise InputError(f"--export-db {target} exists: give a new file (the judge does not "
                             f"overwrite a file with a database)")
        folder = target.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise InputError(f"--export-db {target}: {folder} is not a folder that can be "
                             f"written")
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}-", suffix=".tmp")
        except OSError as exc:
            raise InputError(f"--export-db {target}: {exc.strerror or exc}") from None
        os.close(fd)
        temporary = Path(name)
        lost: list[str] = []
        try:
            copy = sqlite3.connect(temporary)
            try:
                self.db.backup(copy)  # in one step: one snapshot of the database
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no log beside it
                faults = self._faults("integrity_check", copy)
                if faults:  # the copy holds the damage: only what can be read instead
                    copy.close()
                    lost = [faults, *self._salvage(temporary)]
                    copy = sqlite3.connect(temporary)
                runs, games = copy.execute(
                    "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM games)"
                ).fetchone()
            finally:
                copy.close()
            with open(temporary, "rb+") as fh:
                os.fsync(fh.fileno())
            _put_in_place(temporary, target)
        except (OSError, sqlite3.Error) as exc:
            temporary.unlink(missing_ok=True)
            if isinstance(exc, FileExistsError):
                raise InputError(f"--export-db {target} exists: give a new file") from None
            why = exc.strerror if isinstance(exc, OSError) else exc
            raise InputError(f"--export-db {target}: {why or exc}") from None
        if lost:
            raise InputError(f"the results database {self.path} is damaged ({lost[0]}): "
                              f"wrote {target} with what could be read, "
                              f"{plural(int(runs), 'run')} and {plural(int(games), 'game')}; "
                              f"not copied: " + ("; ".join(lost[1:]) or "nothing of a run"))
        return int(runs), int(games)

    def _salvage(self, target: Path) -> list[str]:
        """Write into the new database `target` (emptied first) the runs and games of this
        damaged one that can still be read, each run with all of its games or none; what
        could not be read, a phrase each."""
        target.write_bytes(b"")
        lost: list[str] = []
        with contextlib.closing(sqlite3.connect(target)) as copy, copy:
            copy.executescript(SCHEMA)
            try:
                runs = self.db.execute("SELECT id, kind, game, config, created, finished "
                                       "FROM runs ORDER BY id").fetchall()
            except sqlite3.DatabaseError:
                return ["the list of runs could not be read"]
            for run in runs:
                games = None
                for scan in ("", " NOT INDEXED"):
                    with contextlib.suppress(sqlite3.DatabaseError):
                        games = self.db.execute(f"SELECT run_id, key, record, stored FROM "
                                                f"games{scan} WHERE run_id = ?",
                                                (run[0],)).fetchall()
                        break
                if games is None:
                    lost.append(f"run {run[0]}: its games could not be read")
                    games = []
                copy.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)", run)
                copy.executemany("INSERT INTO games VALUES (?, ?, ?, ?)", games)
            copy.execute("PRAGMA journal_mode=DELETE")
        return lost

    def create_run(self, plan: Plan) -> int:
        """A new run of `plan`; returns its number."""
        with self._writing(), self.db:
            cur = self.db.execute(
                "INSERT INTO runs (kind, game, config, created) VALUES (?, ?, ?, ?)",
                (plan.kind, plan.load_game().describe(), json.dumps(plan.to_config()),
                 time.time()),
            )
        return int(cur.lastrowid or 0)

    def change_plan(self, run_id: int, plan_type: type[PlanT],
                    change: Callable[[PlanT], PlanT]) -> PlanT:
        """Replace run `run_id`'s plan, a `plan_type`, by `change(plan)`, read and written in
        one transaction (a league's members, changed while it plays); what `change` raises
        leaves the plan as it was, and so does `InputError` for a plan of another type."""
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            kind, config = self.db.execute("SELECT kind, config FROM runs WHERE id = ?",
                                           (run_id,)).fetchone()
            stored = from_config(kind, json.loads(config))
            if not isinstance(stored, plan_type):
                raise InputError(f"run {run_id} is of kind {kind}, not {plan_type.kind}")
            plan = change(stored)
            self.db.execute("UPDATE runs SET config = ? WHERE id = ?",
                            (json.dumps(plan.to_config()), run_id))
        return plan

    def run(self, run_id: int) -> StoredRun:
        """A run's kind, game, plan and state; `InputError` if there is no such run."""
        if not 0 <= run_id < 1 << 63:
            raise InputError(f"there is no run {run_id} in {self.path}")
        row = self.db.execute(
            "SELECT id, kind, game, config, created, finished FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise InputError(f"there is no run {run_id} in {self.path}")
        return StoredRun(row[0], row[1], row[2], from_config(row[1], json.loads(row[3])),
                         row[4], row[5])

    def runs(self) -> list[RunSummary]:
        """Every run, oldest first, with its count of stored games."""
        rows = self.db.execute(
            "SELECT r.id, r.kind, r.game, r.created, r.finished, COUNT(g.key), r.config "
            "FROM runs r LEFT JOIN games g ON g.run_id = r.id GROUP BY r.id ORDER BY r.id"
        ).fetchall()
        out = []
        for r in rows:
            config = json.loads(r[6])
            opponent = config.get("opponent") or OPTIMAL
            bots = config.get("bots") or config.get("entrants") or []
            shown = {**default_names([b for b in bots if is_program(b)]),
                     **(config.get("names") or {})}
            out.append(RunSummary(r[0], r[1], r[2], r[3], r[4], r[5], config.get("planned"),
                                  list(bots), opponent,
                                  [opponent if b == OPTIMAL else shown.get(b, b) for b in bots]))
        return out

    def done_keys(self, run_id: int) -> set[str]:
        """The schedule keys of the games already stored for a run."""
        rows = self.db.execute("SELECT key FROM games WHERE run_id = ?", (run_id,))
        return {r[0] for r in rows}

    def add_game(self, run_id: int, key: str, record: PlayedGame) -> None:
        """Store one finished game (committed at once; a replayed key replaces the old one)."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO games (run_id, key, record, stored) VALUES (?, ?, ?, ?)",
                (run_id, key, json.dumps(record.to_json()), time.time()),
            )

    def count_verdict(self, run_id: int, code: str) -> int:
        """How many stored games of a run ended with the verdict `code` (counted by SQLite,
        without reading every record)."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM games WHERE run_id = ? "
            "AND json_extract(record, '$.verdict.code') = ?", (run_id, code)).fetchone()
        return int(row[0])

    def games(self, run_id: int) -> dict[str, PlayedGame]:
        """Every stored game of a run, by schedule key."""
        from judge.records import PlayedGame  # (only once records are read: start-up)

        rows = self.db.execute("SELECT key, record FROM games WHERE run_id = ?", (run_id,))
        return {key: PlayedGame.from_json(json.loads(rec)) for key, rec in rows}

    def games_since(self, run_id: int, after: int = 0
                    ) -> list[tuple[int, str, PlayedGame]]:
        """A run's games stored after the row `after` (0: all), in the order they were
        stored, each with its row number: what a reader that keeps up adds."""
        from judge.records import PlayedGame

        rows = self.db.execute("SELECT rowid, key, record FROM games WHERE run_id = ? "
                               "AND rowid > ? ORDER BY rowid", (run_id, after))
        return [(n, key, PlayedGame.from_json(json.loads(rec))) for n, key, rec in rows]

    def finish(self, run_id: int) -> None:
        """Mark a run complete."""
        with self._writing(), self.db:
            self.db.execute("UPDATE runs SET finished = ? WHERE id = ?", (time.time(), run_id))
