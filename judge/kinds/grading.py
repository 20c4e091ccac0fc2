"""A grading run (`judge run`): each bot against the perfect player on the starts of a test
set. Its schedule (with --fail-fast, each bot's first games first), its rows (a line per
bot, a row per game), its numbering of games, its text, its HTML page and its command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from judge import similarity, verdicts
from judge.exports import Gradescope
from judge.games.base import InputError
from judge.kinds.base import (
    AllGames,
    Command,
    Inputs,
    Kind,
    Numbered,
    Options,
    Output,
    Page,
    Text,
    run_state,
)
from judge.plan import OPTIMAL, PLANS, GameSpec, Plan
from judge.report import (
    Fit,
    notes,
    outcome,
    printable_line,
    render_rows,
    rules_line,
    shortened,
    to_json,
    wrapped,
    write_files,
    write_tables,
    wtl,
)
from judge.results import (
    Feedback,
    compile_errors_text,
    failures_text,
    first_mistake,
    game_message,
    memory_text,
    not_graded_text,
    points_of,
    seconds_text,
    slow_moves,
    slow_text,
    twin_groups,
    twin_marks,
    usage_cells,
)
from judge.similarity import COMMON
from judge.store import Store, StoredRun
from judge.summaries import BotRow, GradedGame, View, summarise

if TYPE_CHECKING:
    from judge.games.base import Game
    from judge.records import PlayedGame


@PLANS.register
@dataclass(frozen=True, kw_only=True)
class GradingPlan(Plan):
    """`judge run`: each bot against the perfect player, on the starts of each graded seat."""

    kind: ClassVar[str] = "run"
    bots: tuple[str, ...]
    #: the file the starts came from (None: the game's standard set)
    tests: str | None = None
    #: "first" or "both"
    seats: str = "first"
    #: per graded seat ("first", "second"): the starts, in the game's notation
    starts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: a bot whose first N games all end with the same failure on its first move has its
    #: other games recorded as not played, and lost (None: every game is played)
    fail_fast: int | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.bots

    def schedule(self) -> list[GameSpec]:
        """Every (bot, start, seat) game, in a fixed order: by seat, start, then bot."""
        game = self.load_game()
        specs = []
        for seat_name, texts in self.starts.items():
            first = seat_name == "first"
            for text in texts:
                mover = game.mover(game.parse_position(text))
                bot_seat = mover if first else 1 - mover
                for bot in self.bots:
                    players = (bot, OPTIMAL) if bot_seat == 0 else (OPTIMAL, bot)
                    specs.append(GameSpec(self.key(bot, text, seat_name), players, text))
        return specs

    @staticmethod
    def key(bot: str, start: str, seat: str) -> str:
        """The key of `bot`'s game from `start` in the graded `seat` ("first", "second")."""
        return f"{bot}|{start}|{seat}"

    def _own_config(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "tests": self.tests, "seats": self.seats,
                "starts": {seat: list(texts) for seat, texts in self.starts.items()},
                "fail_fast": self.fail_fast}

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> GradingPlan:
        c = config
        return cls(**common, bots=tuple(c["bots"]), tests=c.get("tests"),
                   seats=c.get("seats") or "first", fail_fast=c.get("fail_fast"),
                   starts={s: tuple(t) for s, t in (c.get("starts") or {}).items()})

    def _own_argv(self) -> list[str]:
        words = ["--tests", self.tests] if self.tests else []
        if self.seats != "first":
            words += ["--seats", self.seats]
        if self.opponent != OPTIMAL:
            words += ["--opponent", self.opponent]
        if self.fail_fast is not None:
            words += ["--fail-fast", str(self.fail_fast)]
        if self.common != COMMON:
            words += ["--common", f"{self.common:g}"]
        return words + (["--base", *(s.path for s in self.base)] if self.base else [])

    def argv_alone(self, bot: str, tests: str | None) -> list[str]:
        """The command line that grades `bot` alone as this run graded its bots, from any
        folder: the same game, rules, seats, opponent, fail-fast, seed and limits, the
        starts read from the file `tests` (None: the game's standard set, as the run had),
        and the confinement left to the judge where it runs (no --sandbox)."""
        words = replace(self, bots=(bot,), tests=tests, base=()).to_argv()
        at = words.index("--sandbox")
        return words[:at] + words[at + 2:]


class FailFast(AllGames):
    """A grading run's games; with --fail-fast N, each bot's games N at a time, in the
    schedule's order: a bot whose N games of a turn all ended with the same failure (on its
    first move or a later one: it does not compile, or times out at every second move) has
    its other games recorded as not played, and lost, rather than each failing the same way
    again. The turns are the schedule's, whatever --jobs: the same games are played."""

    def __init__(self, plan: Plan, store: Store, run_id: int) -> None:
        super().__init__(plan, store, run_id)
        assert isinstance(plan, GradingPlan)
        self.fail_fast = plan.fail_fast
        #: each bot's games, in the schedule's order
        self.games: dict[str, list[GameSpec]] = {}
        for spec in self.specs:
            self.games.setdefault(bot_of(spec), []).append(spec)
        #: the games stored, by key (read from the store at the first turn, then kept)
        self.ended: dict[str, PlayedGame] | None = None

    def next(self, done: set[str]) -> list[GameSpec]:
        n = self.fail_fast
        if not n:
            return super().next(done)
        if self.ended is None:
            self.ended = self.store.games(self.run_id)
        turn: list[GameSpec] = []
        for bot, specs in self.games.items():
            todo = [s for s in specs if s.key not in done]
            reason = self.reason(bot, specs, n)
            turn += ([s._replace(not_played=reason) for s in todo] if reason else todo[:n])
        return self.counted(turn, done)

    def reason(self, bot: str, specs: list[GameSpec], n: int) -> str:
        """Why `bot`'s games not stored yet are not played (`given_up`, at the end of a turn
        of its games, the first on), or ""."""
        assert self.ended is not None
        played = []
        for spec in specs:
            if spec.key not in self.ended:
                break
            played.append(self.ended[spec.key])
            if len(played) % n == 0:
                why = given_up(bot, played[-n:], n, first=len(played) == n)
                if why:
                    return why
        return ""

    def stored(self, spec: GameSpec, record: Any) -> None:
        super().stored(spec, record)
        if self.ended is not None:
            self.ended[spec.key] = record


def bot_of(spec: GameSpec) -> str:
    """The graded bot of a grading game."""
    return spec.players[1] if spec.players[0] == OPTIMAL else spec.players[0]


def given_up(bot: str, records: list[PlayedGame], n: int, first: bool = True) -> str | None:
    """Why the rest of `bot`'s games are not played: its last `n` games (`records`, its
    `first` ones or not) all ended with the same failure charged to it, on any move; None
    if they did not."""
    seats = [rec.seat_of(bot) for rec in records]
    codes = {rec.verdict.code if rec.verdict.seat == seat else None
             for rec, seat in zip(records, seats, strict=True)}
    code = codes.pop() if len(codes) == 1 else None
    if len(records) < n or code in (None, verdicts.NOT_PLAYED, verdicts.OK):
        return None
    assert code is not None
    moved = {rec.first_move_failure(seat) is None for rec, seat in zip(records, seats,
                                                                        strict=True)}
    where = moved.pop() if len(moved) == 1 else None
    if first and where is False:  # it never moved: its first games, as ever
        return verdicts.failed_first(code, n)
    return verdicts.failed_alike(code, n, False, where)


def schedule_places(plan: GradingPlan) -> dict[str, int]:
    """Each game of a grading run by its key (which the records keep: a bot's path may hold
    any character): its start's place in the schedule (from 0, the graded seats in turn,
    each's starts in order), the same for every bot. A bot graded alone on these starts
    numbers its games by it (from 1)."""
    places = [(seat, text) for seat, texts in plan.starts.items() for text in texts]
    return {plan.key(bot, text, seat): n for bot in plan.bots
            for n, (seat, text) in enumerate(places)}


def graded_games(plan: GradingPlan, records: dict[str, PlayedGame]
                 ) -> list[tuple[str, list[tuple[PlayedGame, int]]]]:
    """Per bot of a grading run, its games (record, the bot's seat), in the order the
    details list them (numbered from 1 across the bots: `judge show RUN --game N`)."""
    order = schedule_places(plan)

    def place(rec: PlayedGame) -> int:
        return order.get(rec.key or "", len(order))

    return [(bot, sorted(((rec, rec.seat_of(bot)) for rec in records.values()
                          if bot in rec.players), key=lambda rs: place(rs[0])))
            for bot in plan.bots]


def grading_rows(plan: GradingPlan, records: dict[str, PlayedGame]
                 ) -> tuple[list[BotRow], list[GradedGame]]:
    """The per-bot summaries and per-game rows of a grading run."""
    points = points_of(plan.game)
    bots: list[BotRow] = []
    games: list[GradedGame] = []
    played = graded_games(plan, records)
    same_file, same_mistaken = plan.identical(), same_mistakes(played)
    same_source = similarity.groups(list(plan.compared().pairs), list(plan.bots))

    def others(bot: str, groups: list[tuple[str, ...]]) -> tuple[str, ...]:
        return next((tuple(b for b in g if b != bot) for g in groups if bot in g), ())

    for bot, mine in played:
        bots.append(summarise(bot, mine, points)._replace(
            same_file=others(bot, same_file), same_source=others(bot, same_source),
            same_mistakes=others(bot, same_mistaken)))
        games.extend(GradedGame(bot, rec.start, seat + 1, rec.result_for(seat) or "void",
                                rec.verdict.code, game_message(rec), first_mistake(rec, seat),
                                rec.move_texts, tuple(slow_moves(rec, seat)),
                                rec.usage[seat] if rec.usage else None, rec.clocks)
                     for rec, seat in mine)
    return bots, games


#: the fewest mistakes that bots must share, and make alone, to be marked as one program
SAME_MISTAKES = 3


def same_mistakes(played: list[tuple[str, list[tuple[PlayedGame, int]]]]
                  ) -> list[tuple[str, ...]]:
    """The groups of two or more bots (of a grading run's games per bot) that made the
    same mistakes in the same positions: each mistake its position (the start, the seat,
    the moves before it) and its move, the same set for all of them. Bots that made no
    mistake are no group: perfect play is the same in every correct program; nor are bots
    with fewer than `SAME_MISTAKES` mistakes (two programs written apart that each make one
    mistake and stop, a move many would make, are no evidence of one program)."""
    groups: dict[frozenset, list[str]] = {}
    for bot, mine in played:
        mistakes = frozenset((rec.start, seat, tuple(rec.move_texts[:r.ply - 1]), r.move)
                             for rec, seat in mine for r in rec.review
                             if r.seat == seat and r.mistake)
        if len(mistakes) >= SAME_MISTAKES:
            groups.setdefault(mistakes, []).append(bot)
    return [tuple(bots) for bots in groups.values() if len(bots) > 1]


def numbered_games(plan: Plan, records: dict[str, PlayedGame]) -> Numbered:
    """A grading run's games by bot in the order given, each bot's by its place in the
    schedule, each with the graded bot's seat."""
    assert isinstance(plan, GradingPlan)
    return [game for _, mine in graded_games(plan, records) for game in mine]


#: the bot table at 80 columns: wins, ties and losses in one column, long names shortened
NARROW_BOTS = (["bot", "points", "w/t/l", "accuracy", "slow", "cpu", "memory", "failures"],
               Fit({"bot": "path", "failures": "text"}, drop=("slow",),
                   optional=("cpu", "memory")))


#: the games at 80 columns: result and verdict in one column, the messages under it
NARROW_GAMES = (["game", "bot", "seat", "start", "result", "first_mistake", "slow", "cpu",
                 "memory", "moves"],
                Fit({"moves": "text", "first_mistake": "wrap", "slow": "text", "start": "text",
                     "bot": "path"}, drop=("moves", "slow", "first_mistake"),
                    optional=("cpu", "memory")))


def quoted(name: str) -> str:
    """A name in a list of names: in double quotes when it holds a comma, a quote or
    spaces at its ends (`"Bella, Student"`), as it is otherwise."""
    if "," in name or '"' in name or name != name.strip():
        return '"' + name.replace('"', '\\"') + '"'
    return name


def twins_text(twins: list[tuple[str, str, tuple[str, ...]]], narrow: bool,
               name: Callable[[str], str] = str,
               short: Callable[[str], str] = str) -> str:
    """The note under the bot table for each group of bots flagged as one program, each
    bot as `name` shows it, quoted when it holds a comma (at 80 columns when `narrow`: a
    name over 40 columns by its distinguishing part, `short`, the lines wrapped)."""
    lines = []
    for mark, what, group in twins:
        names = [quoted(printable_line(name(bot) if not narrow or len(name(bot)) <= 40
                                       else shortened(short(bot), 40))) for bot in group]
        line = f"{mark}: {', '.join(names)} {what}: the same program?"
        lines.append(wrapped(line) if narrow else line + "\n")
    return "\n" + "".join(lines) if lines else ""


def print_run(store: Store, run_id: int, fmt: str, details: bool,
              output_dir: str | None = None, wide: bool = False, report: bool = True,
              output: Output | None = None) -> Text:
    """A stored grading run as text in the chosen format (CSV: one table), showing what
    `output` lets through; a `table` fits 80 columns unless `wide`. With `output_dir`, its
    files are written there (every table; gradescope: a results.json per bot), and the run
    given as text only if `report`."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, GradingPlan)
    records = store.games(run_id)
    bots, games = grading_rows(plan, records)
    state = run_state(store, info, len(records))
    opponent = plan.opponent
    output = output or Output()
    view = output.view(plan)
    if fmt in ("gradebook", "gradescope"):
        return export(plan, records, (bots, games), fmt, view, output_dir, output.gradescope)
    if fmt == "json":
        return Text(to_json({"run": run_id, "game": info.game, "state": state,
                             "tier": plan.harness.tier, "opponent": opponent,
                             "bots": [view.bot_json(b) for b in bots],
                             "games": [{"game": n, **view.game_json(g)}
                                       for n, g in enumerate(games, 1)]}))
    twins = [] if view.share else twin_groups(bots)  # (the teacher's, never shared)
    marks = twin_marks(twins)
    rows = [dict(view.bot_json(b), points=f"{b.points:g}/{b.max_points:g}",
                 accuracy="" if b.accuracy is None else f"{100 * b.accuracy:.1f}%",
                 **{"w/t/l": wtl(b.wins, b.ties, b.losses)},
                 slow=b.slow_moves, cpu=seconds_text(b.max_cpu_seconds),
                 memory=memory_text(b.max_memory_bytes),
                 failures=failures_text(b.failures, b.judge_errors)) for b in bots]
    headers = view.headers(["bot", "games", "wins", "ties", "losses", "points", "accuracy",
                            "slow", "cpu", "memory", "failures"])
    detail_headers = view.headers(["game", "bot", "start", "seat", "result", "verdict",
                                   "message", "first_mistake", "slow", "cpu", "wall",
                                   "memory", "moves"])
    detail = [dict(view.game_json(g), moves=", ".join(g.moves), game=n,
                   first_mistake=view.mistake_text(g), slow=slow_text(g.slow),
                   **usage_cells(g.usage))
              for n, g in enumerate(games, 1)]
    narrow = fmt == "table" and not wide
    out: list[str] = []
    written = [] if output_dir is None else write_tables(
        output_dir, fmt, {"bots": (rows, headers), "games": (detail, detail_headers)})
    if not report:
        return Text("".join(out), tuple(written))
    if fmt == "csv":  # one table: the games with --details, else the bots
        out.append(render_rows(detail, fmt, detail_headers) if details
                   else render_rows(rows, fmt, headers))
        return Text("".join(out), tuple(written))
    if fmt == "table":
        against = "" if opponent == "optimal" else f", against the {opponent} opponent"
        out.append(f"run {run_id}: {plan.game if narrow else info.game} (confinement "
                   f"{plan.harness.tier}{against})\n")
    # a bot flagged as one program with another: its marks after its name, a note below
    shown = [dict(row, bot=f"{row['bot']} {marks[b.bot]}" if b.bot in marks else row["bot"])
             for row, b in zip(rows, bots, strict=True)]
    # cut at 80 columns, a bot keeps its distinguishing part (its folder or display name)
    # and its marks whole: `…/main.py =1` would not say whose
    short: dict[str, tuple[str, str]] = {}
    for b in bots:
        part = view.names.get(b.bot, b.bot)
        short[view.name(b.bot)] = (part, "")
        if b.bot in marks:
            short[f"{view.name(b.bot)} {marks[b.bot]}"] = (part, marks[b.bot])
    if narrow:
        out.append(rules_line(info.game))
        narrow_headers, fit = NARROW_BOTS
        out.append(render_rows(shown, fmt, view.headers(narrow_headers),
                               fit._replace(short=short)))
    else:
        out.append(render_rows(shown, fmt, headers))
    out.append(twins_text(twins, narrow, view.name, lambda b: view.names.get(b, b)))
    if fmt in ("table", "markdown"):  # CSV stays one table; JSON has compile_error
        out.append(compile_errors_text(
            (shortened(r.bot, 64, keep_end=True) if narrow else r.bot, r.compile_error)
            for r in map(view.bot_row, bots)))
        out.append(not_graded_text({view.name(g.bot): g.message for g in games
                                    if g.verdict == verdicts.NOT_GRADED}))
    if details:
        out.append("\n")
        if not narrow:
            out.append(render_rows(detail, fmt, detail_headers))
            return Text("".join(out), tuple(written))
        for row, g in zip(detail, games, strict=True):
            row["result"] = outcome(g.result, g.verdict)
        headers, fit = NARROW_GAMES
        headers = view.headers(h for h in headers if h != "seat" or plan.seats == "both")
        out.append(render_rows(detail, fmt, headers, fit._replace(short=short)))
        out.append(notes([(row["game"], row["message"]) for row in detail]))
    return Text("".join(out), tuple(written))


def export(plan: GradingPlan, records: dict[str, PlayedGame],
           rows: tuple[list[BotRow], list[GradedGame]], fmt: str, view: View,
           output_dir: str | None, how: Gradescope) -> Text:
    """The grade book's CSV, or Gradescope's results.json (cut and shown as `how` says):
    of the one bot as text, or of each bot into `output_dir`/NAME.json."""
    bots, games = rows
    from judge.exports import file_names, gradebook, gradescope

    if fmt == "gradebook":
        return Text(gradebook(bots, view))
    # each game by its number in the whole run (`judge show RUN --game N`)
    numbered = [(n, g, rec, seat) for n, (g, (rec, seat))
                in enumerate(zip(games, numbered_games(plan, records), strict=True), 1)]
    results = [to_json(gradescope(plan.game, bot, [game for game in numbered
                                                   if game[1].bot == bot.bot], view, how))
               for bot in bots]
    if output_dir is None:
        return Text(results[0])
    names = file_names([view.names.get(b.bot, b.bot) for b in bots])
    return Text(written=tuple(write_files(output_dir, {
        f"{name}.json": text for name, text in zip(names, results, strict=True)})))


#: the game list's columns: (key, header, widest in ch; None takes the rest of the width)
RUN_COLUMNS = [("n", "#", 9), ("bot", "bot", 40), ("start", "start", 30), ("seat", "seat", 6),
               ("result", "result", 8), ("perfect", "perfect", 8), ("verdict", "verdict", 16),
               ("mistake", "first mistake", None), ("moves", "moves", 8), ("seed", "seed", 13)]


#: the game list's columns each feedback level leaves out
HIDDEN = {Feedback.FULL: (), Feedback.MISTAKES: ("perfect",),
          Feedback.RESULTS: ("perfect", "mistake")}


def page_context(game: Game, plan: GradingPlan, records: dict[str, PlayedGame], view: View,
                 numbered: list[tuple[int, tuple[PlayedGame, int]]]) -> dict[str, Any]:
    """The bots' summaries and the games of a grading run (`numbered`: in `numbered_games`'
    order, each with its number in the whole run, as `judge show --game` takes it), as
    `view` shows them: at `mistakes` no result under perfect play and first mistakes
    without the right moves, at `results` neither first mistakes nor accuracy."""
    from judge.html.pages import column_widths

    bots, rows = grading_rows(plan, records)
    games = []
    for row, (n, (rec, seat)) in zip(rows, numbered, strict=True):
        mistake = row.first_mistake if view.feedback.mistakes else None
        games.append({
            "n": n, "bot": view.name(row.bot), "start": row.start, "seat": row.seat,
            "result": row.result, "verdict": row.verdict,
            "perfect": (rec.perfect or ("", ""))[seat] if view.feedback.solution else "",
            "mistake": view.mistake_text(row),
            "lost": bool(mistake and mistake.changed_result),
            "moves": len(row.moves), "seed": rec.seed,
        })
    columns = [c for c in RUN_COLUMNS if c[0] not in HIDDEN[view.feedback]]
    shown = [view.bot_row(b) for b in bots]
    twins = twin_groups(shown)  # (by the names shown: no path when shared)
    return {"bots": shown, "games": games,
            "twins": twins, "marks": twin_marks(twins),
            "columns": column_widths(games, columns),
            "shown": {key for key, *_ in columns} | ({"accuracy"} if view.feedback.mistakes
                                                      else set())
            | ({"slow"} if view.feedback.solution else set())}


def page(store: Store, info: StoredRun, game: Game, records: dict[str, PlayedGame],
         view: View, listed: list[tuple[int, tuple[PlayedGame, int]]]) -> Page:
    """A grading run's HTML report (`page_context`), the viewer stepping through every
    game from the graded bot's seat."""
    plan = info.plan
    assert isinstance(plan, GradingPlan)
    return Page("run.html.j2", page_context(game, plan, records, view, listed), listed)


# --- its command: judge run -----------------------------------------------------------

def arguments(p: argparse.ArgumentParser, options: Options) -> None:
    """The arguments of `judge run`."""
    options.add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bot programs: a source file in one of the languages below, or any "
                   "executable; or a folder, one student's submission: its entry (main.*, "
                   "its only program, or --entry NAME) with every file of the folder beside "
                   "it, compiled together where the language does")
    p.add_argument("--tests", metavar="FILE",
                   help="start positions, one per line (default: the game's standard set)")
    p.add_argument("--seats", choices=("first", "both"), default="first",
                   help="grade the bot as the first player only (default), or in both seats")
    p.add_argument("--fail-fast", type=fail_fast_count, metavar="N",
                   help="play each bot's games N at a time; when N in a row all end with the "
                   "same failure, on any move (it does not compile, crashes at start, times "
                   "out at its second move), record its other games as not played, and lost "
                   "(verdict not-played), instead of playing each to the same end")
    p.add_argument("--names", metavar="FILE",
                   help="the bots' display names (shown with --share, in the grade book, the "
                   "pages per bot and `judge show`'s list): one bot a line, PATH<TAB>NAME, "
                   "PATH,NAME or PATH;NAME (a CSV row), PATH relative to the names file's "
                   "folder; default: where each bot has a folder of its own "
                   "(alice/main.c, bob/main.c) the folder's name, else the file name")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue an interrupted run, playing only its missing games")
    options.add_copy_options(p, "for the marks of bots with most of their source in "
                             "common, and `judge show RUN --similar`")
    options.add_opponent_option(p)
    options.add_harness_options(p, entry=True, clocks=True)
    options.add_output_options(p, extra=("html", *options.EXPORTS))
    options.add_feedback_options(p)


def fail_fast_count(text: str) -> int:
    """The N of --fail-fast: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games (1 or more)")
    return n


def test_starts(game: Game, tests_file: str | None, seats: str, inputs: Inputs
                ) -> dict[str, tuple[str, ...]]:
    """The starts a grading run plays, per graded seat ("first", "second"), as texts."""
    from judge.testsets import default_tests

    starts = {}
    for first in (True, False) if seats == "both" else (True,):
        if tests_file:
            starts[SEATS[first]] = tuple(inputs.load_starts(game, tests_file))
        else:
            starts[SEATS[first]] = tuple(game.format_position(p)
                                         for p in default_tests(game, first))
            if not starts[SEATS[first]]:
                raise InputError(f"no standard start of {game.describe()} is won (or held) by "
                                 f"the {SEATS[first]} player: give --tests FILE")
    if tests_file and all_lost(game, starts):
        print(f"judge: warning: every start of {tests_file} is lost for the graded seat "
              f"({' and '.join(starts)} player) against perfect play, so the most a bot can "
              f"score is 0 (0/0): give --tests FILE with starts that seat can win"
              + (", or --seats both to grade the second seat too" if seats == "first" else ""),
              file=sys.stderr)
    return starts


def all_lost(game: Game, starts: dict[str, tuple[str, ...]]) -> bool:
    """Whether perfect play loses every start for the seat it is graded in (no point to win)."""
    from judge.analysis import perfect_results

    for seat_name, texts in starts.items():
        for text in texts:
            pos = game.parse_position(text)
            seat = game.mover(pos) if seat_name == "first" else 1 - game.mover(pos)
            if perfect_results(game, pos)[seat] != "loss":
                return False
    return True


SEATS = {True: "first", False: "second"}


def new_plan(args: argparse.Namespace, inputs: Inputs
             ) -> tuple[GradingPlan, list[str]]:
    """The plan of a new grading run, and the messages of bots skipped."""
    if not args.bots:
        raise InputError("name at least one BOT to grade, or the course file's submissions "
                         "(submissions = [\"class/*/\"] in judge.toml)" + (
                             " (--base takes every file after it: give the bots before "
                             "--base, or after --)" if args.base else ""))
    game = inputs.game_from_args(args)
    harness = inputs.harness_setup(args)
    starts = test_starts(game, args.tests, args.seats, inputs)
    given = inputs.as_given(args.bots)
    names = inputs.display_names(args.names, given) if args.names else {}
    bots, skipped = inputs.check_bots(given, folders=True, entry=harness.entry)
    inputs.check_export(args.format, len(bots), args.output_dir)
    plan = GradingPlan(
        game=game.name, rules=game.rules_string(), harness=harness, opponent=args.opponent,
        directory=os.getcwd(), sources=inputs.sources(bots), bots=tuple(bots), tests=args.tests,
        seats=args.seats, starts=starts, fail_fast=args.fail_fast,
        names={bot: name for bot, name in names.items() if bot in bots},
        base=inputs.base_files(args.base), common=COMMON if args.common is None else args.common)
    return replace(plan, planned=len(plan.schedule())), skipped


def resuming(args: argparse.Namespace, inputs: Inputs, stored: Callable[[], Plan]) -> None:
    """Refuse a --resume whose --format gradescope the stored run's bots cannot make."""
    if args.format == "gradescope":
        inputs.check_export(args.format, len(stored().players), args.output_dir)


COMMAND = Command(
    help="grade bots against the optimal opponent on a test set",
    description="Grade each BOT against the optimal opponent on every start of a test set. "
    "Each game earns the bot the points its game gives a win, a tie and a loss (judge "
    "games lists them). The default test set holds starts that the graded seat can win (or "
    "hold, in games with draws), so every lost point is the bot's doing. Every game is stored "
    "in the results database as it ends: an interrupted run continues with --resume.",
    epilog="examples:\n  judge run --game ioiwari bots/ioiwari/*\n"
    "  judge run --game nim --rules misere=on --seats both bots/nim/optimal_misere.py\n"
    "  judge run --resume 3            (continue run 3 of judge-results.sqlite)\n"
    "  judge show 3 --details          (show it again without playing)\n"
    "  judge show 3 --feedback mistakes --share --format html --output class.html "
    "--output-dir pages\n"
    "                                  (for the class, and a page per student)",
    arguments=arguments,
    fixed=("--game", "--rules", "--tests", "--seats", "--fail-fast", "--names", "--base",
           "--common", "--entry"),
    new_plan=new_plan,
    resuming=resuming,
)


KIND = Kind("run", numbered_games, print_run, page,
            lambda plan, store, run_id, backend: FailFast(plan, store, run_id), grades=True,
            command=COMMAND)
