"""What every kind of stored run has: the `Kind` each module of `judge.kinds` defines (its
schedule, its numbering of games, its text, its HTML page and its `Command`, or its
`Subcommands`), the schedule of a run that plays every game of its plan, what a rendering
lets through, and a run's state; and what a kind's command is given from the commands'
layer above (`Options`, `Inputs`, `Runs`), which it never imports."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from judge.exports import Gradescope
from judge.games.base import InputError
from judge.plan import BotSource, GameSpec, Harness, Plan
from judge.report import plural
from judge.results import Feedback
from judge.store import Store, StoredRun
from judge.summaries import View

if TYPE_CHECKING:
    from judge.backends import Backend
    from judge.games.base import Game
    from judge.records import PlayedGame

#: a run's games in the one order every output numbers them, each with the graded seat
Numbered = list[tuple["PlayedGame", int]]


def resume_hint(store: Store, info: StoredRun) -> str:
    """How to continue the stored run `info` (its kind is the command's name)."""
    return f"continue with: judge {info.kind} --resume {info.id} --db {store.path}"


class Kind(NamedTuple):
    """A kind of stored run: its name (its command, and its kind in the database), how its
    games are numbered, its text, its HTML page, what it plays next and its command."""

    name: str
    #: its stored games in the one order every output numbers them (game N is the N-th,
    #: from 1: `--details`, JSON, CSV, transcripts, the HTML report, Gradescope, `judge
    #: show RUN --game N` and `judge serve`'s links), each with the graded bot's seat (0
    #: where no bot is graded)
    numbered_games: Callable[[Plan, dict[str, PlayedGame]], Numbered]
    #: a stored run as text: (store, run, format, details, output folder, tables in full,
    #: the report given too, what the output lets through); writes the folder's files
    text: Callable[[Store, int, str, bool, str | None, bool, bool, Output], Text]
    #: its HTML report from (store, run, its game, its games, the view, its games
    #: numbered); None: its text writes its page itself
    page: Callable[[Store, StoredRun, Game, dict[str, PlayedGame], View,
                    list[tuple[int, tuple[PlayedGame, int]]]], Page] | None = None
    #: what it plays next, given its store and backend (None: its command makes its
    #: schedule, as a league's does with its --games)
    schedule: Callable[[Plan, Store, int, Backend], Schedule] | None = None
    #: its results are a grading's: shown at a --feedback, shared, exported, a page per bot
    grades: bool = False
    #: it never finishes on its own (a league): played until its schedule's budget or a
    #: stop, and never marked finished
    endless: bool = False
    #: how to continue a stopped run of it (its command's --resume)
    resume: Callable[[Store, StoredRun], str] = resume_hint
    #: its command, `judge NAME`: one that makes a plan and plays it (`Command`), or one of
    #: actions of its own (`Subcommands`, a league's); None: it has no command (stored and
    #: shown only)
    command: Command | Subcommands | None = None


class Options(Protocol):
    """The option groups the commands share (`judge.commands.options`), for a kind's
    `Command.arguments` to ask for."""

    @property
    def EXPORTS(self) -> tuple[str, ...]:
        """The formats a course takes from a grading run (gradebook, gradescope)."""
        ...

    def add_game_options(self, p: argparse.ArgumentParser, required: bool = True) -> None:
        """`--game` and `--rules`."""
        ...

    def add_opponent_option(self, p: argparse.ArgumentParser) -> None:
        """`--opponent`."""
        ...

    def add_harness_options(self, p: argparse.ArgumentParser, *, jobs: bool = True,
                            entry: bool = False, clocks: bool = False) -> None:
        """How bots are run (with `jobs`, --jobs; with `entry`, --entry; with `clocks`, the
        clocks)."""
        ...

    def add_clock_options(self, p: argparse.ArgumentParser, odds: str | None = ...,
                          who: str = ...) -> None:
        """`--tc`, `--tc-for` (where `odds` says what it names) and `--tell-time`."""
        ...

    def add_credentials_option(self, p: argparse.ArgumentParser) -> None:
        """`--credentials DIR`: the cluster's credentials folder."""
        ...

    def add_output_options(self, p: argparse.ArgumentParser,
                           extra: tuple[str, ...] = ("html",)) -> None:
        """`--format` (the table formats and `extra`), `--output`, `--db`, ..."""
        ...

    def add_copy_options(self, p: argparse.ArgumentParser, what: str) -> None:
        """`--base` and `--common` (`what` says when they are used)."""
        ...

    def add_feedback_options(self, p: argparse.ArgumentParser) -> None:
        """`--feedback` and `--share`."""
        ...


class Inputs(Protocol):
    """From arguments to the parts of a plan (`judge.commands.inputs`), for a kind's
    `Command.new_plan`."""

    @property
    def NothingToGrade(self) -> type[InputError]:
        """The error of a run left with no bot to play (exit status: skipped)."""
        ...

    def game_from_args(self, args: argparse.Namespace) -> Game:
        """The game of --game under --rules."""
        ...

    def harness_setup(self, args: argparse.Namespace) -> Harness:
        """How the bots are run: limits checked, the tier chosen, the languages read."""
        ...

    def check_bots(self, paths: list[str], folders: bool = False, entry: str | None = None
                   ) -> tuple[list[str], list[str]]:
        """The bots that can be played (compiled once), and the messages of those skipped."""
        ...

    def sources(self, bots: list[str]) -> tuple[BotSource, ...]:
        """The bots' files, fingerprinted."""
        ...

    def paired_starts(self, game: Game, path: str | None) -> list[str]:
        """A tournament's starts: from `path`, or the game's own set."""
        ...

    def load_starts(self, game: Game, path: str) -> list[str]:
        """The starts of a file, checked."""
        ...

    def display_names(self, path: str, bots: list[str]) -> dict[str, str]:
        """The bots' display names from a --names file."""
        ...

    def as_given(self, paths: list[str]) -> list[str]:
        """The bots as named (a folder of submissions as its folders)."""
        ...

    def base_files(self, paths: list[str] | None) -> tuple[BotSource, ...]:
        """The --base files, fingerprinted."""
        ...

    def check_export(self, fmt: str, bots: int, output_dir: str | None) -> None:
        """Refuse an export the run's bots cannot make (Gradescope: one bot, or a folder)."""
        ...


class Runs(Protocol):
    """How a run is stored, played and shown (`judge.commands.runs`), for a kind's
    `Subcommands`."""

    def open_store(self, path: str, must_exist: bool = False, read_only: bool = False
                   ) -> Store:
        """The results database at `path`."""
        ...

    def backend_for(self, args: argparse.Namespace, plan: Plan) -> Backend:
        """Where the games are played: --jobs processes here, or --cluster's workers."""
        ...

    def play(self, store: Store, run_id: int, plan: Plan, backend: Backend,
             schedule: Schedule) -> None:
        """Play the games `schedule` asks for on `backend`, storing each as it ends."""
        ...

    def write_output(self, path: str | None, text: str) -> None:
        """A command's output: to stdout, or to `path` (--output) whole."""
        ...


@dataclass(frozen=True)
class Command:
    """A kind's command, `judge NAME`, as data: `judge.commands.kinds` builds its parser
    and runs it (`execute`: the plan made, or the run of --resume, played, stored and
    shown)."""

    #: its line in `judge --help`
    help: str
    #: what its --help says above the options, and the examples below them
    description: str
    epilog: str
    #: adds its own arguments to its parser, and the shared groups through `Options`
    arguments: Callable[[argparse.ArgumentParser, Options], None]
    #: the options that set up a run: given again with --resume, they are refused
    fixed: tuple[str, ...]
    #: the plan of a new run from the arguments, and the messages of bots skipped
    new_plan: Callable[[argparse.Namespace, Inputs], tuple[Plan, list[str]]]
    #: a check of a --resume before anything is played, given the stored run's plan (read
    #: only when it is asked for)
    resuming: Callable[[argparse.Namespace, Inputs, Callable[[], Plan]], None] | None = None


@dataclass(frozen=True)
class Subcommands:
    """A kind's command of actions of its own (`judge league new`, `add`, ...), as data:
    `judge.commands.kinds` makes its parser, and `actions` its actions' parsers, each with
    its `func`."""

    #: its line in `judge --help`
    help: str
    #: what its --help says above the actions, and the examples below them
    description: str
    epilog: str
    #: adds the actions' parsers under its parser, given what the commands' layer lends
    actions: Callable[[argparse.ArgumentParser, Options, Inputs, Runs], None]


class Text(NamedTuple):
    """A stored run as its kind's text gives it: what the command prints (to stdout or
    --output), and the names of the files written into --output-dir."""

    text: str = ""
    written: tuple[str, ...] = ()


class Page(NamedTuple):
    """A kind's HTML report: its template, what the template shows, and the games the
    viewer steps through (each with its number, its record and the graded seat, if any)."""

    template: str
    context: dict[str, Any]
    viewed: Sequence[tuple[int, tuple[PlayedGame, int | None]]]


def by_key(plan: Plan, records: dict[str, PlayedGame]) -> Numbered:
    """The games numbered by their keys (a tournament's, a league's)."""
    return [(records[key], 0) for key in sorted(records)]


def run_state(store: Store, info: StoredRun, stored: int) -> str:
    """``finished``, ``running`` (a judge plays it now), or ``interrupted`` with a warning on
    stderr: the figures are partial."""
    if info.finished:
        return "finished"
    if store.running(info.id):
        print(f"judge: note: {info.kind} {info.id} is being played right now: these "
              f"results are partial ({plural(stored, 'game')} stored so far)", file=sys.stderr)
        return "running"
    print(f"judge: warning: {info.kind} {info.id} was interrupted: these results are "
          f"partial ({plural(stored, 'game')} stored); {resume_hint(store, info)}", file=sys.stderr)
    return "interrupted"


class Wait(NamedTuple):
    """A schedule's answer that it has no game to play now but is not over (a league with
    fewer than two bots to match, until one is added): said once, asked again after
    `seconds`."""

    why: str
    seconds: float


class Schedule(Protocol):
    """What a kind of run plays next, and how its progress shows."""

    #: its games are handed to the backend one at a time, each slot given the next as its
    #: last one ends (a league's, matched as it plays); else a batch at a time, each played
    #: whole before the next is asked for
    one_by_one: bool

    @property
    def plan(self) -> Plan:
        """The plan its games are played under now (a league's members change as it plays)."""
        ...

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        """The line on stderr before the games (the run, its games, its tier, its store)."""
        ...

    def next(self, done: set[str]) -> list[GameSpec] | Wait:
        """The games to play next, given the keys of those stored; none: the run is over."""
        ...

    def stored(self, spec: GameSpec, record: Any) -> None:
        """A game ended and was stored."""
        ...

    def stored_text(self, done: int) -> str:
        """How many games are stored, in words ("12 games" or "12 of 357 games")."""
        ...

    def close(self) -> None:
        """The games are over (or stopped): end the progress shown."""
        ...


def clock_words(plan: Plan) -> str:
    """The run's clocks for its header line (``, tc 10+0.1``), or "" without."""
    clocks = plan.harness.clocks
    return f", {clocks.text(plan.display_names())}" if clocks.any else ""


class AllGames:
    """Every game of the plan's schedule that is not stored yet, at once, with a progress
    bar on a terminal (a grading run, a tournament)."""

    one_by_one = False

    def __init__(self, plan: Plan, store: Store, run_id: int) -> None:
        self.plan, self.store, self.run_id = plan, store, run_id
        self.specs = plan.schedule()
        self.bar: Any = None

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        todo = sum(s.key not in done for s in self.specs)
        seed = f", seed {self.plan.seed}" if self.plan.seed is not None else ""
        return (f"{self.plan.kind} {run_id}: {self.plan.game}: "
                f"{plural(len(self.specs), 'game')}, {todo} to play{seed}"
                f"{clock_words(self.plan)}, confinement {self.plan.harness.tier} ({store.path})")

    def next(self, done: set[str]) -> list[GameSpec]:
        return self.counted([s for s in self.specs if s.key not in done], done)

    def counted(self, specs: list[GameSpec], done: set[str]) -> list[GameSpec]:
        """`specs`, the progress bar shown (on a terminal) from the first batch of the run
        to its last game (the games not in `done` when it starts)."""
        if specs and self.bar is None and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=len(self.specs) - len(done), unit="game", file=sys.stderr,
                            dynamic_ncols=True)
        return specs

    def stored(self, spec: GameSpec, record: Any) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def stored_text(self, done: int) -> str:
        return f"{done} of {plural(len(self.specs), 'game')}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Output(NamedTuple):
    """What a rendering lets through (`--feedback`, `--share`) and how Gradescope's tests
    are cut: built once from the command line, turned into the run's
    `judge.summaries.View` by the renderer."""

    feedback: Feedback = Feedback.FULL
    share: bool = False
    #: how Gradescope's results.json is cut and shown
    gradescope: Gradescope = Gradescope()

    @classmethod
    def of(cls, args: argparse.Namespace) -> Output:
        """The choice the command line made (the defaults where it has no such options)."""
        share, fmt = bool(getattr(args, "share", False)), getattr(args, "format", "")
        pages = fmt == "html" and getattr(args, "output_dir", None) is not None
        return cls(Feedback.chosen(getattr(args, "feedback", None),
                                   share or pages or fmt == "gradescope"),
                   share,
                   Gradescope(getattr(args, "gradescope_tests", None) or "game",
                              getattr(args, "gradescope_visibility", None) or "visible"))

    def view(self, plan: Plan) -> View:
        """The `judge.summaries.View` of `plan`'s run."""
        return View.of(plan, self.feedback, self.share)
