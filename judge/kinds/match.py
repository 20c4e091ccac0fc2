"""A match (`judge match`): two bots play paired games until a sequential probability ratio
test decides which is stronger (or a bound on the games is reached). Its schedule (batches
of pairs until the SPRT decides), its rows (the pentanomial and what follows from it), its
numbering of games (by pair), its text, its HTML page and its command."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from judge.games.base import InputError
from judge.kinds.base import (
    Command,
    Inputs,
    Kind,
    Numbered,
    Options,
    Page,
    Text,
    clock_words,
    run_state,
)
from judge.kinds.tournament import TOURNAMENT_COLUMNS, narrow_games, verdict_text
from judge.plan import OPTIMAL, PLANS, GameSpec, Plan, is_program
from judge.players.level import PREFIX, is_level, parse_level
from judge.report import (
    Fit,
    Number,
    plural,
    printable_line,
    render_rows,
    render_table,
    rules_line,
    shortened,
    to_json,
    wrapped,
    write_tables,
    wtl,
)
from judge.results import compile_error, compile_errors_text
from judge.store import Store, StoredRun
from judge.summaries import ListedGame, MatchStats, View, listed_games, pair_number

if TYPE_CHECKING:
    from judge.backends import Backend
    from judge.games.base import Game
    from judge.records import PlayedGame
    from judge.sprt import SprtParams  # imported when a match is planned or read


def _sprt(given: dict[str, Any]) -> SprtParams:
    """A match's SPRT settings from their stored form (the defaults for `{}`)."""
    from judge.sprt import SprtParams

    return SprtParams(**given)


@PLANS.register
@dataclass(frozen=True, kw_only=True)
class MatchPlan(Plan):
    """`judge match`: two bots, in pairs of games with seats swapped, until the SPRT decides."""

    kind: ClassVar[str] = "match"
    #: BOT_A and BOT_B (OPTIMAL for the perfect player)
    bots: tuple[str, str]
    starts_file: str | None = None
    start_positions: tuple[str, ...] = ()
    sprt: SprtParams = field(default_factory=lambda: _sprt({}))
    max_games: int = 2

    @property
    def players(self) -> tuple[str, ...]:
        return self.bots

    def pair_games(self, pair: int) -> list[GameSpec]:
        """The two games of pair number `pair` (from 0), seats swapped.

        Round r = pair // len(starts) + 1 plays every start once, in an order shuffled by
        the run's seed and r. Both games are seeded by the pair key ``r|start`` (so both get
        the same seed); their keys start with the pair's number from 1, then the pair key
        and the seats.
        """
        starts = list(self.start_positions)
        rnd, index = divmod(pair, len(starts))
        random.Random(f"{self.seed}|round {rnd + 1}").shuffle(starts)
        text = starts[index]
        pair_key = f"{rnd + 1}|{text}"
        a, b = self.bots
        return [GameSpec(f"{pair + 1}|{pair_key}|{first}|{second}", (first, second), text,
                         pair_key) for first, second in ((a, b), (b, a))]

    def _own_config(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "starts": self.starts_file,
                "start_positions": list(self.start_positions), "sprt": self.sprt.to_dict(),
                "max_games": self.max_games}

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> MatchPlan:
        c = config
        return cls(**common, bots=tuple(c["bots"]), starts_file=c.get("starts"),
                   start_positions=tuple(c.get("start_positions") or ()),
                   sprt=_sprt(c.get("sprt") or {}), max_games=int(c.get("max_games") or 2))

    def _own_argv(self) -> list[str]:
        words = ["--starts", self.starts_file] if self.starts_file else []
        return words + ["--sprt", self.sprt.text(), "--max-games", str(self.max_games)]

    def _bot_args(self) -> list[str]:
        return [self.opponent if b == OPTIMAL else b for b in self.bots]


#: pairs scheduled at once, per job: the SPRT is checked between batches
PAIRS_PER_JOB = 2


def match_stats(plan: MatchPlan, records: dict[str, PlayedGame]) -> MatchStats:
    """The pentanomial of the complete pairs stored (BOT_A's view) and what follows from it
    (see `judge.sprt.summary`), with BOT_A's wins, ties and losses in those pairs' games.

    A pair with a void game (a judge error) counts for no one (`void_pairs`); a pair whose
    second game is not stored yet is left out.
    """
    from judge.sprt import pair_score, pentanomial, summary  # a match's only

    a = plan.bots[0]
    by_pair: dict[int, list[PlayedGame]] = defaultdict(list)
    for key, rec in records.items():
        by_pair[pair_number(key)].append(rec)
    scores = []
    results: dict[str, int] = {"win": 0, "tie": 0, "loss": 0}
    void = 0
    for recs in by_pair.values():
        if len(recs) < 2:
            continue
        mine = [r for rec in recs if (r := rec.result_for(rec.seat_of(a))) is not None]
        if len(mine) < len(recs):
            void += 1
            continue
        scores.append(pair_score(mine))
        for r in mine:
            results[r] += 1
    return MatchStats(**summary(pentanomial(scores), plan.sprt), wins=results["win"],
                      ties=results["tie"], losses=results["loss"], void_pairs=void)


def ordered_records(plan: MatchPlan,
                    records: dict[str, PlayedGame]) -> list[tuple[str, PlayedGame]]:
    """The stored games as (key, record) in the order they were scheduled: by pair, BOT_A
    in the first seat first. Game N of `--details` is the N-th."""
    return sorted(records.items(), key=lambda item: (pair_number(item[0]),
                                                     item[1].players != plan.bots))


def match_data(plan: MatchPlan, records: dict[str, PlayedGame]
               ) -> tuple[MatchStats, list[ListedGame]]:
    """The match's statistics and its games, in the order they were scheduled."""
    return match_stats(plan, records), listed_games(ordered_records(plan, records), paired=True)


def numbered_games(plan: Plan, records: dict[str, PlayedGame]) -> Numbered:
    """A match's games by pair, BOT_A in the first seat first."""
    assert isinstance(plan, MatchPlan)
    return [(rec, 0) for _, rec in ordered_records(plan, records)]


def live_line(stats: MatchStats) -> str:
    """One line of a match's state: pairs, pentanomial, Elo, LOS, LLR and its bounds."""
    lower, upper = stats.llr_bounds
    ptnml = " ".join(map(str, stats.pentanomial))
    elo = ("Elo -" if stats.elo is None or stats.los is None
           else f"Elo {stats.elo:+.1f} ± {stats.elo_error:.1f}, LOS {100 * stats.los:.1f}%")
    return (f"{stats.pairs} pairs, ptnml(0-2) {ptnml}, {elo}, LLR {stats.llr:.2f} "
            f"[{lower:.2f}, {upper:.2f}]")


class Live:
    """The match's state on one line of stderr, redrawn as pairs end (a terminal only)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.line = ""

    def show(self, stats: MatchStats) -> None:
        """Redraw the line (when it changed), cut to the terminal's width: a line that
        wrapped would not be redrawn in place but printed anew at every pair."""
        line = live_line(stats)
        width = shutil.get_terminal_size().columns - 1
        if len(line) > width:
            line = line[:max(width - 1, 0)] + "…"
        if self.enabled and line != self.line:
            sys.stderr.write(f"\r{line}\x1b[K")
            sys.stderr.flush()
            self.line = line

    def end(self) -> None:
        """Leave the line as it is and go on below it."""
        if self.line:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.line = ""


class Pairs:
    """A match's games: batches of pairs, until the SPRT decides or the match has played
    its --max-games, with the match's state on one line of stderr.

    The pairs are numbered in one fixed sequence (`MatchPlan.pair_games`), so a resumed
    match plays the games missing from the batches already begun, then goes on where it
    stopped. The SPRT is checked before each batch, of `PAIRS_PER_JOB` pairs per game slot
    of the backend (this machine's jobs, or the cluster's workers).
    """

    one_by_one = False

    def __init__(self, plan: Plan, store: Store, run_id: int, backend: Backend) -> None:
        assert isinstance(plan, MatchPlan)
        self.plan = plan
        self.per_batch = max(1, PAIRS_PER_JOB * backend.slots)
        self.pair = 0
        self.records: dict[str, PlayedGame] = {}
        self.live = Live(sys.stderr.isatty())

    def header(self, run_id: int, store: Store, done: set[str]) -> str:
        self.records.update(store.games(run_id))  # the run is held: read once
        plan = self.plan
        a, b = (plan.shown_name(who) for who in plan.bots)
        return (f"match {run_id}: {plan.game}: {a} vs {b}, SPRT {plan.sprt.text()}, at most "
                f"{plan.max_games} games, {len(self.records)} stored, seed {plan.seed}"
                f"{clock_words(plan)}, confinement {plan.harness.tier} ({store.path})")

    def next(self, done: set[str]) -> list[GameSpec]:
        max_pairs = self.plan.max_games // 2
        while True:
            stats = match_stats(self.plan, self.records)
            self.live.show(stats)
            if stats.decision is not None or self.pair >= max_pairs:
                return []
            end = min(self.pair + self.per_batch, max_pairs)
            specs = [spec for n in range(self.pair, end)
                     for spec in self.plan.pair_games(n) if spec.key not in done]
            self.pair = end
            if specs:
                return specs

    def stored(self, spec: GameSpec, record: PlayedGame) -> None:
        self.records[spec.key] = record
        if self.live.enabled:
            self.live.show(match_stats(self.plan, self.records))

    def stored_text(self, done: int) -> str:
        return plural(done, "game")

    def close(self) -> None:
        self.live.end()  # the live line ends before any message below it


def decision_text(plan: MatchPlan, data: MatchStats, state: str) -> str:
    """What the SPRT concluded, in words."""
    p = plan.sprt
    a, b = (plan.shown_name(who) for who in plan.bots)
    lower, upper = data.llr_bounds
    if data.decision == "H1":
        return (f"H1 accepted: {a} is stronger than {b} (Elo {p.elo1:g} rather than "
                f"{p.elo0:g}; LLR {data.llr:.2f} >= {upper:.2f})")
    if data.decision == "H0":
        return (f"H0 accepted: {a} is not stronger than {b} by {p.elo1:g} Elo (Elo "
                f"{p.elo0:g} rather than {p.elo1:g}; LLR {data.llr:.2f} <= {lower:.2f})")
    if state == "finished":
        return (f"no decision: --max-games {plan.max_games} reached with LLR "
                f"{data.llr:.2f} inside ({lower:.2f}, {upper:.2f})")
    return f"no decision yet (the match is {state})"


#: the match at 80 columns: the bots in the heading, wins, ties and losses in one column,
#: the interval, the bounds and the decision in the SPRT's line below
NARROW_MATCH = (["pairs", "w/t/l", "pentanomial", "score", "elo", "los", "llr"], Fit({}))


#: the games at 80 columns (as a tournament's, with the pair)
NARROW_GAMES = (["game", "pair", "players", "results", "moves"],
                Fit({"moves": "text", "players": "text", "results": "text"}))


def match_text(store: Store, run_id: int, fmt: str, details: bool,
               output_dir: str | None = None, wide: bool = False,
               report: bool = True) -> Text:
    """A stored match as text (CSV: one table); a `table` fits 80 columns unless `wide`.
    With `output_dir`, every table is written there as a file, and the match given as text
    only if `report`."""
    info = store.run(run_id)
    plan = info.plan
    assert isinstance(plan, MatchPlan)
    records = store.games(run_id)
    data, listed = match_data(plan, records)
    state = run_state(store, info, len(records))
    # a bot that did not compile: the compiler's message once, not in each of its games
    errors = [(plan.shown_name(who),
               compile_error([(rec, rec.seat_of(who)) for rec in records.values()]))
              for who in plan.bots]
    if fmt not in ("table", "json", "csv", "markdown"):
        raise InputError(f"a match is shown as table, json, csv, markdown or html, not {fmt}")
    if fmt == "json":
        return Text(to_json({"run": run_id, "game": info.game, "state": state,
                             "seed": plan.seed, "tier": plan.harness.tier,
                             "bots": [plan.shown_name(who) for who in plan.bots],
                             "opponent": plan.opponent,
                             "sprt": plan.sprt.to_dict(),
                             "max_games": plan.max_games,
                             "compile_errors": {bot: error for bot, error in errors
                                                if error},
                             **data.to_json(),
                             "games": [{"game": n, **g.to_json()}
                                       for n, g in enumerate(listed, 1)]}))
    a, b = (plan.shown_name(who) for who in plan.bots)
    interval = "" if data.elo is None else f"[{data.elo_low:.1f}, {data.elo_high:.1f}]"
    row = {"bot_a": a, "bot_b": b, "pairs": data.pairs, "games": len(records),
           "wins": data.wins, "ties": data.ties, "losses": data.losses,
           "pentanomial": " ".join(map(str, data.pentanomial)),
           "score": "" if data.score is None else f"{data.score:.3f}",
           "elo": "" if data.elo is None else f"{data.elo:+.1f} ± {data.elo_error:.1f}",
           "interval": interval,
           "los": "" if data.los is None else f"{100 * data.los:.1f}%",
           "llr": Number(f"{data.llr:.2f}"),
           "bounds": f"[{data.llr_bounds[0]:.2f}, {data.llr_bounds[1]:.2f}]",
           "decision": data.decision or "", "w/t/l": wtl(data.wins, data.ties, data.losses)}
    games = [dict(g.to_json(), game=n,
                  players=" vs ".join(plan.shown_name(who) for who in g.players),
                  results="-".join(g.results), moves=", ".join(g.moves))
             for n, g in enumerate(listed, 1)]
    tables = {
        "match": ([row], ["bot_a", "bot_b", "pairs", "games", "wins", "ties", "losses",
                          "pentanomial", "score", "elo", "interval", "los", "llr", "bounds",
                          "decision"]),
        "games": (games, ["game", "pair", "key", "players", "results", "verdict", "message",
                          "moves"]),
    }
    out: list[str] = []
    written = [] if output_dir is None else write_tables(output_dir, fmt, tables)
    if not report:
        return Text("".join(out), tuple(written))
    if fmt == "csv":  # one table: the games with --details, else the match
        out.append(render_table(tables["games" if details else "match"], fmt))
        return Text("".join(out), tuple(written))
    narrow = fmt == "table" and not wide
    if narrow:
        a, b = (shortened(printable_line(name), 36, keep_end=True) for name in (a, b))
        out.append(f"match {run_id}: {plan.game} (seed {plan.seed}, confinement "
                   f"{plan.harness.tier})\n{rules_line(info.game)}{a} vs {b}\n"
                   f"wins, ties, losses and Elo are {a}'s\n")
        out.append(render_rows([row], fmt, *NARROW_MATCH))
    elif fmt == "table":
        out.append(f"match {run_id}: {info.game} (seed {plan.seed}, "
                   f"confinement {plan.harness.tier}); wins, ties, losses and Elo "
                   f"are {a}'s\n")
    if not narrow:
        out.append(render_table(tables["match"], fmt))
    out.append(compile_errors_text((shortened(who, 64, keep_end=True) if narrow else who,
                                    error) for who, error in errors))
    sprt = f"SPRT {plan.sprt.text()} (pentanomial, logistic Elo):"
    decision = decision_text(plan, data, state)
    out.append(f"\n{sprt}\n{wrapped(decision)}" if narrow else f"\n{sprt} {decision}\n")
    if data.void_pairs:
        out.append(f"{plural(data.void_pairs, 'pair')} had a void game (judge error) "
                   f"and count for neither bot\n")
    if details:
        out.append("\n")
        if narrow:
            out.append(narrow_games(games, [tuple(map(plan.shown_name, g.players))
                                            for g in listed],
                                    [(g.results, g.verdict) for g in listed], NARROW_GAMES))
        else:
            out.append(render_table(tables["games"], fmt))
    return Text("".join(out), tuple(written))


def page(store: Store, info: StoredRun, game: Game, records: dict[str, PlayedGame],
         view: View, numbered: list[tuple[int, tuple[PlayedGame, int]]]) -> Page:
    """A match's statistics, its SPRT's decision and its games (numbered by --details)."""
    from judge.html.pages import column_widths, result_words, tournament_result

    plan = info.plan
    assert isinstance(plan, MatchPlan)
    finished = store.running(info.id) or info.finished is not None
    data, listed = match_data(plan, records)
    a, b = (plan.shown_name(who) for who in plan.bots)
    lower, upper = data.llr_bounds
    decision = {"H1": f"H1 accepted: {a} is stronger than {b}",
                "H0": f"H0 accepted: {a} is not stronger than {b} by {plan.sprt.elo1:g} Elo",
                None: "no decision" if finished else "no decision yet"}[data.decision]
    number = {g.key: n for n, g in enumerate(listed, 1)}
    games: list[dict[str, Any]] = [
        {"n": n, "pair": g.pair, "players": [plan.shown_name(w) for w in g.players],
         "start": g.start, "result": tournament_result(g.results), "verdict": g.verdict,
         "verdict_text": verdict_text(g.verdict, records[g.key].verdict.seat),
         "moves": len(g.moves), "seed": g.seed,
         "twin": number.get(g.identical_to) if g.identical_to else None,
         "results": [result_words(g.results, s) for s in (0, 1)]}
        for n, g in enumerate(listed, 1)]
    viewed: list[tuple[int, tuple[PlayedGame, int | None]]] = [
        (n, (records[g.key], None)) for n, g in enumerate(listed, 1)]
    return Page("match.html.j2", {
        "bots": (a, b), "stats": data, "sprt": plan.sprt.text(), "decision": decision,
        "bounds": (lower, upper), "games": games,
        "columns": column_widths([dict(g, one=g["players"][0], two=g["players"][1])
                                  for g in games], TOURNAMENT_COLUMNS)}, viewed)


# --- its command: judge match ---------------------------------------------------------

#: the names of the perfect player among the bots (its kind: `--opponent`, or tricky)
PERFECT = (OPTIMAL, "tricky")
#: --max-games when it is not given
DEFAULT_MAX_GAMES = 2000


def default_sprt() -> str:
    """--sprt when it is not given."""
    from judge.sprt import DEFAULTS

    return " ".join(f"{k}={v:g}" for k, v in DEFAULTS.items())


def arguments(p: argparse.ArgumentParser, options: Options) -> None:
    """The arguments of `judge match`."""
    options.add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="the two bots, BOT_A then BOT_B (Elo and the SPRT are BOT_A's "
                   "view): a source file in one of the languages below, or any executable; "
                   "or one of them 'optimal' (the perfect player of --opponent) or 'tricky'; "
                   "or a weaker level, level:N from 0 (random play) to 10 (perfect play)")
    p.add_argument("--starts", metavar="FILE",
                   help="start positions, one per line (default: the tournament's, which "
                   "the game chooses: 12 of its test positions unless it says otherwise, "
                   "less any whose result no move of either player changes)")
    p.add_argument("--sprt", metavar='"elo0=E0 elo1=E1 alpha=A beta=B"', default=None,
                   help="the test, in logistic Elo of BOT_A over BOT_B: H0 Elo = elo0 "
                   "against H1 Elo = elo1, error rates alpha and beta; keys left out keep "
                   f"their defaults (default: {default_sprt()!r})")
    p.add_argument("--max-games", type=int, default=None, metavar="N",
                   help=f"stop without a decision after N games, N/2 pairs (an even number; "
                   f"default {DEFAULT_MAX_GAMES})")
    p.add_argument("--resume", type=int, metavar="RUN",
                   help="continue a stopped match until the SPRT decides or --max-games")
    options.add_opponent_option(p)
    options.add_harness_options(p, clocks=True)
    options.add_output_options(p)


def sprt_from(text: str | None) -> SprtParams:
    """The SPRT of --sprt (its default when None); `InputError` naming what is wrong."""
    from judge.sprt import parse_sprt

    try:
        return parse_sprt(default_sprt() if text is None else text)
    except ValueError as exc:
        raise InputError(f"--sprt {text!r}: {exc}") from None


def new_plan(args: argparse.Namespace, inputs: Inputs) -> tuple[MatchPlan, list[str]]:
    """The plan of a new match (no bot is skipped: a match needs both)."""
    if len(args.bots) != 2:
        raise InputError(f"a match is between two bots, BOT_A and BOT_B (given "
                         f"{len(args.bots)})")
    params = sprt_from(args.sprt)  # bad input is refused before any bot is compiled
    max_games = DEFAULT_MAX_GAMES if args.max_games is None else args.max_games
    if max_games < 2 or max_games % 2:
        raise InputError(f"--max-games {max_games}: games are played in pairs, so it "
                         f"must be an even number of at least 2")
    perfect = [name for name in args.bots if name in PERFECT]
    if len(perfect) > 1:
        raise InputError("a match needs a bot program: name one, the perfect player "
                         "may be the other")
    opponent = "tricky" if "tricky" in perfect else args.opponent
    levels = [f"{PREFIX}{parse_level(n)}" for n in args.bots if is_level(n)]
    if len(set(levels)) < len(levels):
        raise InputError(f"a match between {levels[0]} and itself decides nothing")
    harness = inputs.harness_setup(args)  # the language table first: bots are compiled next
    names = [n for n in args.bots if n not in PERFECT and is_program(n)]
    programs, skipped = inputs.check_bots(names) if names else ([], [])
    if len(programs) + len(perfect) + len(levels) != 2:
        error = inputs.NothingToGrade if skipped else InputError
        raise error("a match needs both bots: " + "; ".join(skipped or
                                                            ["a bot was skipped"]))
    # the schedule seats the perfect player as "optimal"; the run records its kind
    bots = [OPTIMAL if n in PERFECT else levels.pop(0) if is_level(n) else programs.pop(0)
            for n in args.bots]
    game = inputs.game_from_args(args)
    plan = MatchPlan(
        game=game.name, rules=game.rules_string(), harness=harness.seeded(),
        opponent=opponent, directory=os.getcwd(),
        sources=inputs.sources(list(filter(is_program, bots))), planned=max_games,
        bots=(bots[0], bots[1]), starts_file=args.starts,
        start_positions=tuple(inputs.paired_starts(game, args.starts)), sprt=params,
        max_games=max_games)
    return plan, []


COMMAND = Command(
    help="two bots play paired games until an SPRT decides (like fishtest, fastchess)",
    description="BOT_A and BOT_B play each start twice, seats swapped, with the same\n"
    "seed (a pair), in batches, until a sequential probability ratio test on the\n"
    "pairs (the pentanomial model and logistic Elo of fishtest and fastchess) accepts\n"
    "H1 (BOT_A is stronger: Elo elo1 rather than elo0) or H0 (Elo elo0 rather than\n"
    "elo1), or --max-games is reached. Starts repeat in rounds, each round in an order\n"
    "and with seeds of its own. Every game is stored as it ends; --resume continues.",
    epilog="examples:\n  judge match --game nim bots/nim/optimal.py bots/nim/random.py\n"
    "  judge match --game ioiwari --opponent tricky bots/ioiwari/greedy.py optimal\n"
    "  judge match --game ioiwari --sprt 'elo0=0 elo1=5' --max-games 10000 new.py old.py\n"
    "  judge match --resume 4 --format json",
    arguments=arguments,
    fixed=("--game", "--rules", "--starts", "--sprt", "--max-games"),
    new_plan=new_plan,
)


KIND = Kind("match", numbered_games,
            lambda store, run_id, fmt, details, folder, wide, report, output:
            match_text(store, run_id, fmt, details, folder, wide, report),
            page, Pairs, command=COMMAND)
