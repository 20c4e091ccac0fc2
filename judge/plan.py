"""What a run plays, decided once from its command line: what every kind of run's plan has.

A plan holds the game and its rules, the starts, the bots (with their fingerprints), the
limits, the confinement tier, the seed and the opponent. Each kind's plan is a `Plan` in
its module of `judge.kinds` (`GradingPlan`, `TournamentPlan`, `MatchPlan`, `LeaguePlan`),
registered in `PLANS`. It is built by its command, stored with the run as versioned JSON
(`to_config`; `from_config` reads every version: the fields every kind has here, its own
by its class's `rebuild`), handed to the execution and to the reports, and gives back the
command line that plays it again (`to_argv`).
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import os
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, TypeVar

from judge.clock import Clocks
from judge.folders import MOST_BYTES, read_file
from judge.games import load_game
from judge.games.base import Game, InputError, Stopped
from judge.sandbox.limits import Limits
from judge.sandbox.program import NotGradable, folder_digest, folder_files
from judge.similarity import COMMON, THRESHOLD, Comparison, Entry, compare_files

#: the version of the JSON that `to_config` writes (runs stored before have none: 1; 3
#: added the bots' display names, `names`; 4 the clocks, `clocks`; 5 a Swiss's game pairs
#: per pairing, `pairs`, where before a pairing played one)
PLAN_VERSION = 5

#: the perfect player's place in a schedule ("optimal" whatever its kind: see `opponent`)
OPTIMAL = "optimal"


def is_program(who: str) -> bool:
    """Whether a player of a schedule is a bot's program: not the perfect player, nor a
    weaker level (``level:N``, which the judge plays itself)."""
    from judge.players.level import is_level

    return who != OPTIMAL and not is_level(who)


#: (flag, Limits field, units of the field per unit of the flag, help)
LIMIT_OPTIONS = [
    ("--move-time", "move_seconds", 1, "wall-clock seconds per move"),
    ("--first-move-time", "first_move_seconds", 1, "wall-clock seconds for the first move"),
    ("--cpu-time", "cpu_seconds", 1, "CPU seconds per game"),
    ("--memory", "memory_bytes", 1 << 20, "memory in MiB (with cgroups: all of the bot's "
     "processes and its files in tmpfs; else address space per process)"),
    ("--processes", "processes", 1, "processes and threads at once"),
    ("--output-limit", "output_bytes", 1 << 10, "KiB of output per game"),
    ("--disk", "disk_bytes", 1 << 20, "MiB the bot may store in its work dir and /tmp"),
    ("--game-time", "game_seconds", 1, "wall-clock seconds for a bot's whole game"),
    ("--move-limit", "move_limit", 1, "moves before a loopy game is a tie"),
]


def limit_flags(limits: Limits) -> list[str]:
    """The limit options that differ from the judge's defaults, as command-line words."""
    defaults = Limits()
    words = []
    for flag, name, scale, _ in LIMIT_OPTIONS:
        value = getattr(limits, name)
        if value != getattr(defaults, name):
            words += [flag, f"{value / scale:g}"]
    return words


def clock_flags(clocks: Clocks) -> list[str]:
    """The clock options of `clocks`, as command-line words."""
    words = ["--tc", clocks.default.text()] if clocks.default else []
    for bot, clock in clocks.by_bot.items():
        words += ["--tc-for", f"{bot}={clock.text() if clock else 'inf'}"]
    return words + (["--tell-time"] if clocks.tell else [])


@dataclass(frozen=True)
class Harness:
    """How bots are run: the same for every game of a run."""

    limits: Limits = field(default_factory=Limits)
    #: "bwrap" or "none" (what `--sandbox auto` resolved to)
    sandbox: str = "none"
    #: the confinement tier's name (e.g. ``bwrap+uid+cgroups``) and its guarantees
    tier: str = "unknown"
    guarantees: dict[str, bool] = field(default_factory=dict)
    #: games played at once (a resumed run may change it: no game depends on it)
    jobs: int = 1
    seed: int | None = None
    #: the run's changes to the language table (see `judge.sandbox.languages`)
    languages: dict[str, Any] = field(default_factory=dict)
    #: the entry of each bot given as a folder (--entry NAME), else found by convention
    entry: str | None = None
    #: the bots' clocks (--tc, --tc-for, --tell-time; none: the move and game limits alone)
    clocks: Clocks = field(default_factory=Clocks)

    def seeded(self) -> Harness:
        """This harness with a seed: its own, else one drawn now (recorded with the run, so
        that a run whose schedule is shuffled plays the same games when resumed)."""
        return self if self.seed is not None else replace(self, seed=random.randrange(2**31))


@dataclass(frozen=True)
class BotSource:
    """A bot's file as the run found it: its path (as given) and the SHA-256 of its content
    (of a bot given as a folder, of its files' names and contents: `folder_digest`)."""

    path: str
    fingerprint: str

    @classmethod
    def read(cls, path: str) -> BotSource:
        """The bot at `path` now; `OSError` if it cannot be read (a folder that cannot be
        read is a row of the run, not-graded: its fingerprint is that of the reason)."""
        if os.path.isdir(path):
            try:
                return cls(path, folder_digest(folder_files(Path(path))))
            except OSError as exc:
                return cls(path, hashlib.sha256(f"unread: {exc}".encode()).hexdigest())
        data = read_file(path, MOST_BYTES)
        if len(data) > MOST_BYTES:
            raise OSError(errno.EFBIG, f"over {MOST_BYTES >> 20} MiB")
        return cls(path, hashlib.sha256(data).hexdigest())

    def check(self) -> None:
        """`Stopped` if the file is gone or changed since the run started: its games would be
        another program's (the games stored so far are kept). The one rule for a bot that
        changed, at a resume and between games; a file left as it was is not read again."""
        try:
            if os.path.isdir(self.path):  # (a file in it may change, the folder's stat not)
                if BotSource.read(self.path).fingerprint != self.fingerprint:
                    raise self._changed()
                return
            st = os.stat(self.path)
            version = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            same = _verified.get(self.path) == (version, self.fingerprint)
            if not same:
                with open(self.path, "rb") as fh:
                    same = hashlib.sha256(fh.read()).hexdigest() == self.fingerprint
                if same:
                    _verified[self.path] = (version, self.fingerprint)
        except OSError:
            same = False
        if not same:
            raise self._changed()

    def content(self) -> bytes:
        """The file's content, which must still be the run's (else `Stopped`, as `check`):
        what a cluster's workers get."""
        if os.path.isdir(self.path):
            raise InputError(f"bot {self.path} is a folder, which a cluster's workers are not "
                             f"sent: give its entry file, or play without --cluster")
        try:
            data = Path(self.path).read_bytes()
        except OSError:
            raise self._changed() from None
        if hashlib.sha256(data).hexdigest() != self.fingerprint:
            raise self._changed()
        return data

    def placed(self, content: bytes) -> str:
        """The path of this machine's copy of the bot from `content` (what a cluster's
        worker is sent), kept under its fingerprint with the bot's own file name (so that
        its language is the same) and written once; `Stopped` if `content` is not the
        run's."""
        from judge.solvers.cache import cache_dir

        if hashlib.sha256(content).hexdigest() != self.fingerprint:
            raise self._changed()
        top = cache_dir() / "cluster-bots"
        folder = top / self.fingerprint[:32]
        path = folder / Path(self.path).name
        if not path.exists():
            # the judge's user's alone (0700): a bot under a uid of its own reads no other
            # contestant's file here (each is shown its own file alone)
            top.mkdir(mode=0o700, parents=True, exist_ok=True)
            if top.stat().st_mode & 0o077:
                os.chmod(top, 0o700)
            folder.mkdir(exist_ok=True)
            tmp = folder / f".{path.name}.{os.getpid()}"
            tmp.write_bytes(content)
            runnable = content[:2] == b"#!" or content[:4] == b"\x7fELF"
            os.chmod(tmp, 0o755 if runnable else 0o644)
            os.replace(tmp, path)
        return str(path)

    def _changed(self) -> Stopped:
        return Stopped(f"bot {self.path} changed (or went) during the run, so its next "
                       f"games would be another program's; the games played are stored: "
                       f"put the bot back as it was and continue with --resume, or start a "
                       f"new run")


#: bot file -> (its stat when its content was last found to have the digest, the digest)
_verified: dict[str, tuple[tuple[int, ...], str]] = {}


def default_names(paths: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Each bot's display name when none is given: where each bot of several has a folder
    of its own (a class's ``alice/main.c``, ``bob/solution.py``), the folder's name
    (``alice``); else its file name (``greedy.py``), or where that is shared, its path as
    given."""
    folders = [os.path.dirname(os.path.abspath(p)) for p in paths]
    files = [os.path.basename(p) for p in paths]
    own = len(paths) > 1 and len(set(folders)) == len(folders) and \
        len({os.path.basename(f) for f in folders}) == len(folders)
    return {path: os.path.basename(folder) if own and os.path.basename(folder)
            else file if files.count(file) == 1 else path
            for path, folder, file in zip(paths, folders, files, strict=True)}


def identical(sources: tuple[BotSource, ...]) -> list[tuple[str, ...]]:
    """The groups of two or more `sources` with the same content, in their order."""
    groups: dict[str, list[str]] = {}
    for source in sources:
        groups.setdefault(source.fingerprint, []).append(source.path)
    return [tuple(paths) for paths in groups.values() if len(paths) > 1]


class GameSpec(NamedTuple):
    """One scheduled game: who sits in each seat, from which start. `key` names it in the
    run (for resume); the game's seed comes from `seed_key` (the same for the two games of a
    match's pair), by default the key."""

    key: str
    players: tuple[str, str]  # per seat: a bot path, "optimal" or "level:N"
    start: str  # the start position in the game's notation
    seed_key: str = ""
    #: why the game is not played but lost by its bot (--fail-fast); "": it is played
    not_played: str = ""

    @property
    def seeded_by(self) -> str:
        """The key the game's seed is derived from."""
        return self.seed_key or self.key


@dataclass(frozen=True, kw_only=True)
class Plan:
    """What every kind of run has."""

    #: the command that plays it (and the run's kind in the database)
    kind: ClassVar[str] = ""
    game: str
    rules: str = ""
    harness: Harness = field(default_factory=Harness)
    #: which perfect player sits where the schedule says "optimal" (optimal or tricky)
    opponent: str = OPTIMAL
    #: the folder the run was started in (its bot paths may be relative to it)
    directory: str = ""
    #: the bots' files (not the perfect player)
    sources: tuple[BotSource, ...] = ()
    #: how many games the run plays (a match: at most)
    planned: int = 0
    #: display names of the bots given with --names (path -> name); the others take
    #: `default_names`
    names: dict[str, str] = field(default_factory=dict)
    #: the base files (--base: starter code) whose passages never count as copied
    base: tuple[BotSource, ...] = ()
    #: passages in more than this share of the programs of a language do not count
    #: (--common; 1: every passage counts)
    common: float = COMMON

    @property
    def players(self) -> tuple[str, ...]:
        """Who plays: bot paths, and OPTIMAL where the perfect player takes part."""
        raise NotImplementedError

    @property
    def seed(self) -> int | None:
        return self.harness.seed

    def load_game(self) -> Game:
        """The game under the run's rules."""
        return load_game(self.game, self.rules)

    def shown_name(self, who: str) -> str:
        """A player as it played: the perfect player under its kind, a bot by its path."""
        return self.opponent if who == OPTIMAL else who

    def display_names(self) -> dict[str, str]:
        """Every player's display name: the bots' given or default names (see
        `default_names`), the perfect player under its kind."""
        bots = tuple(p for p in self.players if is_program(p))
        names = {**default_names(bots), **self.names}
        return {who: names.get(who, self.shown_name(who)) for who in self.players}

    def fingerprints(self) -> dict[str, str]:
        return {s.path: s.fingerprint for s in self.sources}

    def seat_clocks(self) -> Clocks:
        """The bots' clocks by what sits in a game's seat (a bot's path, as --tc-for names
        it here)."""
        return self.harness.clocks

    def identical(self) -> list[tuple[str, ...]]:
        """The groups of bots whose files have the same content (two names, one program),
        in the order the bots are given."""
        return identical(self.sources)

    def compared(self, threshold: float = THRESHOLD) -> Comparison:
        """The bots' sources compared (pairs at `threshold` or above, base files' and
        common passages not counted): each file as it was when the run started, read from
        the run's folder; a bot given as a folder in the language of its entry, found as
        the run found it (`folder_entry`: --entry NAME, else by convention)."""
        from judge.sandbox.build import folder_entry
        from judge.sandbox.languages import Table

        def files(sources: tuple[BotSource, ...]) -> tuple[tuple[str, str, str], ...]:
            return tuple((s.path, os.path.join(self.directory, s.path), s.fingerprint)
                         for s in sources)

        def entry(folder: str) -> Entry:
            try:
                return Entry(folder_entry(Path(folder), self.harness.entry, table).name)
            except NotGradable as exc:
                return Entry(why=str(exc))

        given, table = files(self.sources), Table(self.harness.languages)
        entries = tuple((bot, entry(path)) for bot, path, _ in given if os.path.isdir(path))
        return compare_files(given, threshold, files(self.base), self.common, entries)

    def check_resumable(self, run_id: int) -> None:
        """`InputError` unless the run can go on from here with its bots as they were."""
        relative = [s.path for s in self.sources if not os.path.isabs(s.path)]
        where = self.directory
        if relative and where and os.path.realpath(where) != os.path.realpath(os.getcwd()):
            raise InputError(f"run {run_id} was started in {where}, and its bot paths "
                             f"({', '.join(relative[:3])}) are relative to it: resume it from "
                             f"there (cd {where})")
        for source in self.sources:
            if not os.path.exists(source.path):
                hint = f" (the run was started in {where})" if where and \
                    where != os.getcwd() else ""
                raise InputError(f"run {run_id}: bot {source.path} is not there any more{hint}")
            try:
                source.check()
            except Stopped:
                raise InputError(f"run {run_id}: bot {source.path} has changed since the run "
                                 f"started, so its remaining games would be another "
                                 f"program's: start a new run") from None

    # --- stored as JSON --------------------------------------------------------------
    def to_config(self) -> dict[str, Any]:
        """The plan as the database keeps it (the keys of every version so far)."""
        h = self.harness
        return {"version": PLAN_VERSION, "game": self.game, "rules": self.rules,
                **self._own_config(), "limits": dataclasses.asdict(h.limits),
                "sandbox": h.sandbox, "tier": {"name": h.tier, "guarantees": h.guarantees},
                "jobs": h.jobs, "seed": h.seed, "languages": h.languages, "entry": h.entry,
                "clocks": h.clocks.to_config(),
                "opponent": self.opponent, "directory": self.directory,
                "fingerprints": self.fingerprints(), "planned": self.planned,
                "names": dict(self.names),
                "base": {s.path: s.fingerprint for s in self.base}, "common": self.common}

    def _own_config(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> Plan:
        """The plan of a stored run of this kind, from the fields every kind has
        (`common`, read by `from_config`) and its JSON of any version (older runs lack
        some keys: their defaults are what those runs did)."""
        raise NotImplementedError

    def schedule(self) -> list[GameSpec]:
        """Every game of the run, in the order they are played."""
        raise NotImplementedError

    # --- its command line --------------------------------------------------------------
    def to_argv(self) -> list[str]:
        """The command line that plays this run again (from its folder)."""
        h = self.harness
        words = ["judge", self.kind, "--game", self.game]
        if self.rules:
            words += ["--rules", self.rules]
        words += self._own_argv()
        words += ["--sandbox", h.sandbox]
        if h.seed is not None:
            words += ["--seed", str(h.seed)]
        if h.entry is not None:
            words += ["--entry", h.entry]
        return words + limit_flags(h.limits) + clock_flags(h.clocks) + self._bot_args()

    def _own_argv(self) -> list[str]:
        raise NotImplementedError

    def _bot_args(self) -> list[str]:
        return [p for p in self.players if p != OPTIMAL]


P = TypeVar("P", bound=type[Plan])


class Plans(Mapping[str, type[Plan]]):
    """Each kind of stored run's plan class, by the kind's name in the database, filled by
    the kinds: each module of `judge.kinds` registers its plan (`register`) as it is
    imported, and `judge.kinds` sets `load`, which imports a kind's module the first time
    a run of it is read (this layer, below the kinds, imports none of them)."""

    def __init__(self) -> None:
        self._plans: dict[str, type[Plan]] = {}
        #: imports the module of the kind named, which registers its plan (None: the
        #: kinds are not imported in this process)
        self.load: Callable[[str], object] | None = None

    def register(self, cls: P) -> P:
        """Register `cls` as the plan of its kind (a class decorator)."""
        self._plans[cls.kind] = cls
        return cls

    def __getitem__(self, kind: str) -> type[Plan]:
        if kind not in self._plans and self.load is not None:
            self.load(kind)
        return self._plans[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._plans)

    def __len__(self) -> int:
        return len(self._plans)


#: every kind of stored run's plan class, by the kind's name in the database
PLANS = Plans()


def from_config(kind: str, config: dict[str, Any]) -> Plan:
    """The plan of a stored run of `kind`, from the JSON of any version (older runs lack
    some keys: their defaults are what those runs did): the fields every kind has read
    here, its own by its plan class (`Plan.rebuild`)."""
    try:
        plan = PLANS[kind]
    except KeyError:
        raise InputError(f"a stored run of an unknown kind {kind!r}") from None
    c = config
    known = {f.name for f in dataclasses.fields(Limits)}
    tier = c.get("tier") or {}
    harness = Harness(
        limits=Limits(**{k: v for k, v in (c.get("limits") or {}).items() if k in known}),
        sandbox=c.get("sandbox") or "none", tier=tier.get("name") or c.get("sandbox")
        or "unknown", guarantees=dict(tier.get("guarantees") or {}),
        jobs=int(c.get("jobs") or 1), seed=c.get("seed"), languages=c.get("languages") or {},
        entry=c.get("entry"), clocks=Clocks.from_config(c.get("clocks") or {}))
    common: dict[str, Any] = dict(
        game=c["game"], rules=c.get("rules") or "", harness=harness,
        opponent=c.get("opponent") or OPTIMAL, directory=c.get("directory") or "",
        sources=tuple(BotSource(p, d) for p, d in (c.get("fingerprints") or {}).items()),
        planned=int(c.get("planned") or 0), names=dict(c.get("names") or {}),
        base=tuple(BotSource(p, d) for p, d in (c.get("base") or {}).items()),
        common=float(c.get("common") or COMMON))
    return plan.rebuild(common, c)
