"""`judge show`: a stored run again without playing it (any kind, any format), one of its
games move by move, the list of runs, transcripts checked against the rules, or a copy of
the whole database."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from judge.commands.inputs import base_files, check_export
from judge.commands.options import (
    EXPORTS,
    add_copy_options,
    add_feedback_options,
    add_output_options,
    given_here,
    remember_defaults,
)
from judge.commands.runs import (
    Output,
    check_output,
    check_output_dir,
    open_store,
    render_stored,
    rendered,
    write_output,
)
from judge.exits import ExitStatus
from judge.games.base import InputError
from judge.kinds import KINDS
from judge.report import Fit, printable_line, render_rows, to_json
from judge.similarity import THRESHOLD, Comparison, Why
from judge.store import Store


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `show` subcommand."""
    s = sub.add_parser("show", help="show a stored run again without playing it",
                       description="Print the results of a stored run (grading or tournament).")
    s.add_argument("run_id", type=int, nargs="?", metavar="RUN",
                   help="the run number (default: list the runs)")
    s.add_argument("--game", type=int, metavar="N", dest="game_number",
                   help="replay game N of the run (its number in --details) move by move, "
                        "with the boards and every bot move judged, as `judge play` does")
    add_output_options(s, extra=("html", "jsonl", *EXPORTS))
    s.add_argument("--replay", metavar="FILE",
                   help="replay the transcripts of FILE (lines of --format jsonl) through the "
                   "rules and say whether each is consistent")
    s.add_argument("--export-db", metavar="FILE",
                   help="copy the whole results database (--db) into the new file FILE, "
                   "consistent even while a judge plays a run in it (the copy of a file "
                   "alone may miss the last games); FILE is written whole or not at all, "
                   "and never over an existing file")
    s.add_argument("--similar", type=percent, nargs="?", const=100 * THRESHOLD,
                   metavar="PERCENT",
                   help="the run's pairs of programs with at least PERCENT (default "
                   f"{100 * THRESHOLD:g}) of their source in common, as MOSS finds copies: "
                   "tokens compared with names, numbers and strings made alike and comments "
                   "and spacing dropped (a renamed copy is found), one language at a time; "
                   "with --format html the common parts side by side (the teacher's: not "
                   "with --share)")
    add_copy_options(s, "with --similar, instead of the run's own")
    add_feedback_options(s)
    remember_defaults(s)  # (what a course file gives is no option given here)
    s.set_defaults(func=show)


def percent(text: str) -> float:
    """A percentage from 1 to 100 (for argparse)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give a percentage from 1 to 100")
    return value


def show(args: argparse.Namespace) -> int:
    """Print a stored run, list the runs, replay transcripts, or copy the database."""
    check_output_dir(args.output_dir, args.format, "")
    check_output(args.output, [args.db], args.force)
    if args.replay is not None:
        if (args.run_id is not None or args.game_number is not None or args.output
                or args.format != "table" or args.output_dir or args.details
                or args.export_db is not None):
            raise InputError("--replay checks a file of transcripts: give it alone")
        return replay_file(args.replay)
    if args.export_db is not None:
        if (args.run_id is not None or args.game_number is not None or args.output
                or args.format != "table" or args.output_dir or args.details):
            raise InputError("--export-db copies the whole database: give it alone (with "
                             "--db)")
        with open_store(args.db, must_exist=True, read_only=True) as store:
            return export_db(store, args.export_db)
    if args.similar is not None:
        return show_similar(args)
    if given_here(args, "base") or given_here(args, "common"):
        # (a course file's are for --similar: they go with no other view)
        raise InputError("--base and --common go with --similar (a run keeps its own, given "
                         "to judge run)")
    if args.run_id is None and (args.format in ("html", "jsonl", *EXPORTS) or args.output_dir):
        what = "--output-dir" if args.output_dir else f"--format {args.format}"
        raise InputError(f"{what} writes one run: give the RUN (`judge show` alone lists "
                         "them)")
    if args.game_number is not None:
        if args.run_id is None:
            raise InputError("--game N replays a game of a run: give the RUN too")
        if args.format != "table" or args.output_dir:
            raise InputError("--game N prints the game as text; for a machine, give "
                             "--format jsonl (every game) or json without --game")
    with open_store(args.db, must_exist=True, read_only=True) as store:
        if args.run_id is None or args.format == "jsonl":
            write_output(args.output, listed_text(store, args))
            return 0
        if args.game_number is not None:
            write_output(args.output, game_text(store, args))
            from judge.commands.serve import stored_game_link

            print(f"judge: to take over at any move in the browser: "
                  f"{stored_game_link(args.db, args.run_id, args.game_number)} "
                  f"(?move=K stands after move K)", file=sys.stderr)
            return 0
        info = store.run(args.run_id)
        refuse_outside_grading(info.kind, args)
        check_export(args.format, len(info.plan.players), args.output_dir)
        check_output(args.output, [os.path.join(info.plan.directory, s.path)
                                   for s in info.plan.sources], args.force)  # its bots
        rendered(args, lambda report: render_stored(store, args.run_id, args, report))
    return 0


def show_similar(args: argparse.Namespace) -> int:
    """The pairs of a run's programs with at least `args.similar` percent of their source
    in common: as text, JSON, or a page with the common parts side by side."""
    if args.run_id is None:
        raise InputError("--similar compares the programs of a run: give the RUN")
    if args.format not in ("table", "json", "html") or args.share or args.output_dir \
            or args.details or args.game_number is not None:
        raise InputError("--similar gives a table, --format json or --format html, with "
                         "--output FILE at most: it is the teacher's (no --share)")
    with open_store(args.db, must_exist=True, read_only=True) as store:
        info = store.run(args.run_id)
        plan = info.plan
        if args.base:
            plan = dataclasses.replace(plan, base=base_files([os.path.abspath(p)
                                                              for p in args.base]))
        if args.common is not None:
            plan = dataclasses.replace(plan, common=args.common)
        found = plan.compared(args.similar / 100)
        if args.format == "html":
            from judge.html.similar import render_similar

            text = render_similar(info, found, args.similar)
        elif args.format == "json":
            text = to_json({
                "run": args.run_id, "threshold": args.similar / 100,
                "base": list(found.bases), "common": found.common,
                "discounted": found.discounted(),
                "pairs": [dataclasses.asdict(p) for p in found.pairs],
                "not_compared": [{"bot": bot, "why": why} for bot, why in found.unread]})
        else:
            text = similar_text(args.run_id, found, args.similar)
    write_output(args.output, text)
    return 0


def similar_text(run_id: int, found: Comparison, least: float) -> str:
    """The pairs as text: each with its percentage, then its common line ranges."""
    pairs = found.pairs
    lines = [f"run {run_id}: {len(pairs)} pair{'' if len(pairs) == 1 else 's'} of programs "
             f"with {least:g}% or more of their source in common\n"]
    discounted = found.discounted()
    if any(discounted.values()):
        lines.append(f"not counted, in the {len(found.passages)} programs: "
                     f"{discounted[Why.BASE]} passages of the base files (--base),\n  "
                     f"{discounted[Why.COMMON]} found in more than {found.common:g} of the "
                     "programs of their language (--common)\n")
    for pair in pairs:
        one, two = (printable_line(bot) for bot in pair.bots)
        lines.append(f"\n{100 * pair.similarity:3.0f}%  {one} ({100 * pair.shares[0]:.0f}% "
                     f"of it), {two} ({100 * pair.shares[1]:.0f}% of it)\n")
        lines += [f"      lines {r.first[0]}-{r.last[0]} ~ lines {r.first[1]}-{r.last[1]}"
                  f" ({r.tokens} tokens)\n" for r in pair.regions]
        for bot, passages in zip(pair.bots, pair.discounted, strict=True):
            for why in Why:
                mine = [p for p in passages if p.why == why]
                if mine:
                    lines.append(textwrap.fill(
                        f"not counted ({WHY[why]}): {printable_line(bot)} lines "
                        + ", ".join(f"{p.first}-{p.last}" for p in mine)
                        + f" ({sum(p.tokens for p in mine)} tokens)", 80,
                        initial_indent=" " * 6, subsequent_indent=" " * 8,
                        break_on_hyphens=False) + "\n")
    if found.unread:
        lines.append("\nnot compared: " + "; ".join(
            f"{printable_line(bot)} ({printable_line(why)})" for bot, why in found.unread) + "\n")
    if pairs:
        lines.append("\n(names, numbers and strings made alike, comments and spacing "
                     "dropped;\n --format html shows the common parts side by side)\n")
    return "".join(lines)


#: why a passage is not counted, in words
WHY = {Why.BASE: "in a base file", Why.COMMON: "common to most programs"}


def export_db(store: Store, target: str) -> int:
    """Copy the database whole into the new file `target`, saying so in one line."""
    runs, games = store.copy_to(target)
    print(f"judge: wrote {printable_line(target)}: a copy of {printable_line(str(store.path))} "
          f"with {runs} run{'s' if runs != 1 else ''} and {games} game"
          f"{'s' if games != 1 else ''}")
    return 0


def listed_text(store: Store, args: argparse.Namespace) -> str:
    """The list of runs, or (with a RUN) its transcripts, a line per game."""
    if args.run_id is None:
        rows = [dict(r._asdict(), state=("finished" if r.finished else "running"
                                       if store.running(r.id) else "interrupted"))
                for r in store.runs()]
        if args.format == "json":
            return to_json(rows)
        narrow = args.format == "table" and not args.wide
        shown = [dict(r, date=time.strftime("%m-%d %H:%M" if narrow else "%Y-%m-%d %H:%M",
                                            time.localtime(r["created"])),
                      game=r["game"].partition(" ")[0] if narrow else r["game"],
                      bots=", ".join(r["names"]),
                      progress=progress(r["games"], r["planned"])) for r in rows]
        return render_rows(  # narrow: the rules and the year left out
            shown, args.format, ["id", "kind", "date", "game", "bots", "progress", "state"],
            Fit({"bots": "text"}) if narrow else None)
    info = store.run(args.run_id)
    refuse_outside_grading(info.kind, args)
    check_export(args.format, len(info.plan.players), args.output_dir)
    from judge.transcripts import transcript_lines

    return "".join(line + "\n" for line in
                   transcript_lines(store, args.run_id, Output.of(args).view(info.plan)))


def game_text(store: Store, args: argparse.Namespace) -> str:
    """Game N of a run (--game N) move by move."""
    info = store.run(args.run_id)
    refuse_outside_grading(info.kind, args)
    check_export(args.format, len(info.plan.players), args.output_dir)
    return replay_text(store, args.run_id, args.game_number)


def progress(games: int, planned: int) -> str:
    """A run's games of those planned; a knockout's deciders (the pairs a tie plays on, not
    planned) apart: 10 (2 + 8 deciders), not 10/2."""
    if planned and games > planned:
        return f"{games} ({planned} + {games - planned} deciders)"
    return f"{games}/{planned or '?'}"


def refuse_outside_grading(kind: str, args: argparse.Namespace) -> None:
    """Refuse what only a grading run's results take (--feedback, --share, the exports, a
    page per bot) for another kind of run, and --feedback or --share with --game N (which
    shows every move judged)."""
    chosen = [(f"--feedback {args.feedback}", args.feedback not in (None, "full")),
              ("--share", args.share), ("--format " + args.format, args.format in EXPORTS),
              ("--output-dir with --format html",
               bool(args.output_dir) and args.format == "html")]
    asked = [flag for flag, given in chosen if given]
    if asked and not KINDS[kind].grades:
        raise InputError(f"{', '.join(asked)}: only for a grading run's results, and run "
                         f"{args.run_id} is a {kind}")
    if args.game_number is not None and (args.feedback not in (None, "full") or args.share):
        raise InputError("--game N shows every move judged: drop --feedback and --share")


def replay_text(store: Any, run_id: int, number: int) -> str:
    """Game `number` (as --details numbers them) of a stored run, move by move."""
    from judge.analysis import review
    from judge.commands.play import play_text

    info = store.run(run_id)
    plan = info.plan
    listed = KINDS[info.kind].numbered_games(plan, store.games(run_id))
    if not 1 <= number <= len(listed):
        raise InputError(f"run {run_id} has {len(listed)} stored games: give --game 1 to "
                         f"{len(listed)}" if listed else f"run {run_id} has no stored games")
    rec, seat = listed[number - 1]
    game = plan.load_game()
    start = game.parse_position(rec.start)
    reviews = review(game, start, rec.move_texts)
    labels = plan.display_names()  # as the report's viewer names them
    names = [labels.get(who, plan.shown_name(who)) for who in rec.players]
    return play_text(game, start, rec, reviews, names, seat)



def replay_file(path: str) -> int:
    """Check every transcript line of `path` against the rules; print what is wrong.

    A line that is not a transcript is named and the others still checked: the status is
    INCONSISTENT when a transcript is, else BAD_INPUT when a line is not one (a file with
    no transcript at all is refused as bad input)."""
    from judge.commands.inputs import read_lines
    from judge.report import printable_line
    from judge.transcripts import check_line

    lines = [(n, line) for n, line in enumerate(read_lines(Path(path)), 1) if line.strip()]
    if not lines:
        raise InputError(f"{path}: no transcript lines in the file")
    said: list[str] = []  # what is wrong, in the order of the lines
    bad, corrupt = 0, 0
    for n, line in lines:
        try:
            problems = check_line(line)
        except InputError as exc:
            corrupt += 1
            said.append(f"{path}, line {n}: {printable_line(str(exc))}")
            continue
        bad += bool(problems)
        said += [f"{path}, line {n}: inconsistent: {printable_line(p)}" for p in problems]
    if corrupt == len(lines):
        raise InputError(said[0] + (", as is every other line" if corrupt > 1 else ""))
    print("".join(f"{message}\n" for message in said), end="")
    good = len(lines) - bad - corrupt
    if corrupt:
        print(f"{good} of {len(lines)} lines replay as recorded: {bad} inconsistent, "
              f"{corrupt} not a transcript")
        print(f"judge: error: {corrupt} of {len(lines)} lines of {path} "
              f"{'is' if corrupt == 1 else 'are'} not a transcript", file=sys.stderr)
    else:
        print(f"{good} of {len(lines)} transcripts replay as recorded")
    return (ExitStatus.INCONSISTENT if bad else ExitStatus.BAD_INPUT if corrupt
            else ExitStatus.OK)
