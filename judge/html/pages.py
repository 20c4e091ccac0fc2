"""What a report page shows, as plain data for the templates: summaries, charts, the viewer's
compact per-game JSON, the run's settings and how to reproduce it.

Everything a bot wrote (names, moves, messages, stderr) stays plain text here: the templates
escape it (autoescape), and `json_block` escapes the JSON embedded in the page.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, Protocol, runtime_checkable

from markupsafe import Markup

import judge
from judge.analysis import MoveReview
from judge.analysis import replay as played
from judge.games.base import Game, M, P
from judge.html.boards import columns, replay
from judge.html.teaching import Teaching
from judge.plan import Harness, Plan
from judge.players.base import Table
from judge.records import Judgement, PlayedGame, ViewedGame, ViewedMove
from judge.report import printable
from judge.results import Feedback, game_message, memory_text, seconds_text, slow_moves, slow_text
from judge.sandbox.limits import Usage
from judge.store import StoredRun
from judge.summaries import Standing, View
from judge.verdicts import MEANINGS


def json_block(data: Any) -> Markup:
    """`data` as compact JSON that is safe inside a ``<script type="application/json">``:
    ASCII only, and ``<``, ``>`` and ``&`` written as ``\\u`` escapes, so no text in it can
    close the element or open a comment, whatever a bot wrote."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)  # noqa: S704 - escaped just above: JSON.parse gives the text back


def judgement(r: MoveReview) -> tuple[Judgement, str]:
    """The judgement of one stored review entry, and its text as `judge play` words it
    (empty for an optimal move)."""
    from judge.analysis import judged

    if r.optimal:
        return Judgement.OPTIMAL, ""
    code = (Judgement.SLOW if r.slow else Judgement.LOST if r.lost_game
            else Judgement.DREW if r.changed_result else Judgement.MISTAKE)
    return code, judged(r)


#: the judgements of a move that was not among the best and not a slow win
MISTAKES = (Judgement.MISTAKE, Judgement.LOST, Judgement.DREW)


def shown_judgement(r: MoveReview, feedback: Feedback) -> tuple[Judgement, str]:
    """The judgement and text of a move as `feedback` shows it: at full as `judgement`; at
    mistakes a mistake's judgement alone (its text names the values and right moves; an
    optimal or slow move's mark would tell what was right), at results nothing."""
    code, text = judgement(r)
    if feedback.solution:
        return code, text
    if feedback.mistakes and code in MISTAKES:
        return code, ""
    return Judgement.UNJUDGED, ""


def seconds_ms(value: float | None) -> float | None:
    """Seconds as milliseconds with one decimal (compact), or None."""
    if value is None or not math.isfinite(value):
        return None
    return round(value * 1000, 1)


def game_payload(game: Game, rec: PlayedGame, number: int, graded: int | None,
                 opponent: str = "optimal", view: View | None = None) -> ViewedGame:
    """The viewer's record of one stored game (`ViewedGame`; its JSON is described by the
    schema ``static/game-record.schema.json``).

    As `view` shows it (`shown_judgement`): at `mistakes` feedback the mistakes marked
    without their texts, and no results under perfect play nor slow moves; at `results` no
    judgement; shared: players by display name, no paths in the texts; a compile error's
    message (long, and the same in every game) only in the bot's summary.
    """
    view = view or View()
    start = game.parse_position(rec.start)
    states, touched, broken = replay(game, start, rec.move_texts)
    reviews = {r.ply: r for r in rec.review}
    moves = []
    for ply, m in enumerate(rec.moves, 1):
        if broken is not None and ply >= broken:
            code, text = Judgement.ILLEGAL, ""
        elif ply in reviews:
            code, text = shown_judgement(reviews[ply], view.feedback)
        else:
            code, text = Judgement.UNJUDGED, ""
        moves.append(ViewedMove(printable(m.move), m.seat, seconds_ms(m.seconds), code, text))
    labels = move_labels(game, start, rec.move_texts)
    tails = tuple(printable(view.text(t)) if t else "" for t in rec.stderr)
    slow = tuple(slow_text(slow_moves(rec, seat)) if view.feedback.solution else ""
                 for seat in (0, 1))
    return ViewedGame(
        number=number,
        players=tuple(printable(opponent if who == "optimal" else view.name(who))
                      for who in rec.players),
        graded=graded,
        start=rec.start,
        moves=tuple(moves),
        boards=columns(states),
        touched=touched,
        results=rec.results,
        verdict=rec.verdict._replace(message=printable(view.text(game_message(rec)))),
        broken=broken,
        perfect=rec.perfect if view.feedback.solution else None,
        score=rec.score,
        final=rec.final,
        seed=rec.seed,
        stderr=tails if any(tails) else None,
        usage=(tuple(usage_text(u) for u in rec.usage)
               if rec.usage is not None and any(rec.usage) else None),
        slow=slow if any(slow) else None,
        labels=labels,
        clocks=None if rec.clocks is None else tuple(
            None if c is None else round(c, 3) for c in rec.clocks),
    )


class Labelled(Table[P, M], Teaching[P, M], Protocol[P, M]):
    """What naming a stored game's moves reads: the game, to replay them, and its teaching
    facet, by which it names them. Every `Game` is one."""


def move_labels(game: Labelled[Any, Any], start: Any, texts: Sequence[str]
                ) -> tuple[str, ...] | None:
    """Each move as the game names it, as far as the moves could be played; None where
    every name is the move's own text."""
    named = [(printable(game.format_move(m, p)), printable(game.move_label(m, p)))
             for p, m in played(game, start, texts)]
    return None if all(a == b for a, b in named) else tuple(label for _, label in named)


def usage_text(usage: Usage | None) -> str | None:
    """`CPU 0.013 s, wall 0.019 s, memory 4.5 MiB` (and that the kernel killed it for
    memory), or None."""
    if usage is None:
        return None
    killed = " (killed for memory)" if usage.oom_killed else ""
    return (f"CPU {seconds_text(usage.cpu_seconds)}, wall {seconds_text(usage.wall_seconds)},"
            f" memory {memory_text(usage.memory_bytes) or 'not known'}{killed}")


def when(stamp: float | None) -> str:
    """A stored time as a local date and time, or empty."""
    return "" if stamp is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp))


def limit_rows(limits: dict[str, Any]) -> list[dict[str, str]]:
    """Every recorded limit with the option that sets it (if any), its value in its unit
    (`256 MiB`, `1.5 s`), named without the unit its field carries."""
    from judge.plan import LIMIT_OPTIONS

    flags = {field: (flag, text) for flag, field, _, text in LIMIT_OPTIONS}
    rows = []
    for field, value in limits.items():
        flag, text = flags.get(field, ("", ""))
        name = field.removesuffix("_bytes").removesuffix("_seconds").replace("_", " ")
        if isinstance(value, bool) or not isinstance(value, int | float):
            shown = str(value)
        elif field.endswith("_bytes"):
            shown = memory_text(int(value))
        elif field.endswith("_seconds"):
            shown = f"{value:g} s"
        else:
            shown = f"{value:g}"
        rows.append({"name": name, "value": shown, "option": flag, "meaning": text})
    return rows


def reproduce(plan: Plan, view: View | None = None, run_id: int = 1,
              yours: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """How to play the run again: the command line (run from its folder), and notes on what
    a command line cannot carry; `show`: the command that shows its results, when not the
    organiser's. Shared (`view`), a grading run's games as a student plays them again in a
    folder of their own (`shared_reproduce`)."""
    view = view or View()
    if view.share and isinstance(plan, Alone):
        return shared_reproduce(plan, run_id, yours)
    notes = []
    if plan.harness.languages:
        notes.append(_languages_note(plan.harness))
    if getattr(plan, "tests", None) or getattr(plan, "starts_file", None):
        notes.append("the start positions were read from a file; the report lists them")
    command = shlex.join(plan.to_argv())
    folder = plan.directory
    return {"command": f"cd {shlex.quote(folder)} && {command}" if folder else command,
            "notes": notes, "show": [], "numbering": ""}


def _languages_note(harness: Harness) -> str:
    return ("the run changed the language table (--languages/--flags): "
            + json.dumps(harness.languages, sort_keys=True))


#: in a shared page of several bots' games, where a student puts their own file's name
YOUR_FILE = "YOUR_FILE"


@runtime_checkable
class Alone(Protocol):
    """A plan whose bots a student plays again alone (a grading run's,
    `judge.kinds.grading.GradingPlan`, a layer above): what their command is made of."""

    @property
    def bots(self) -> tuple[str, ...]: ...

    @property
    def tests(self) -> str | None: ...

    @property
    def starts(self) -> dict[str, tuple[str, ...]]: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def harness(self) -> Harness: ...

    def argv_alone(self, bot: str, tests: str | None) -> list[str]: ...


def shared_reproduce(plan: Alone, run_id: int,
                     yours: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """The command a student runs in a folder holding only their own file to play their
    games of run `run_id` again: their file by its name alone (on the page of one bot's
    games; else `YOUR_FILE`), the run's starts in its order (saved to a file by the first
    lines: `judge run` reads them from one), rules, seats, opponent, fail-fast, seed and
    limits, and a database of their own, where their run is run 1 and their games are
    numbered from 1 (`yours`: of each game here, (its number, theirs))."""
    db = f"judge-run{run_id}.sqlite"
    bot = os.path.basename(plan.bots[0]) if len(plan.bots) == 1 else YOUR_FILE
    if bot.startswith("-"):  # a file, not an option
        bot = "./" + bot
    notes = []
    lines: list[str] = []
    tests = None
    if plan.tests:
        tests = f"judge-run{run_id}-starts.txt"
        lines = [f"cat > {tests} <<'END'", *next(iter(plan.starts.values()), ()), "END"]
        notes.append(f"the first lines save the run's starts, in its order, to {tests}, "
                     "which the last reads")
    else:
        notes.append("the run played the game's standard starts, which `judge run` plays "
                     "when given no --tests")
    argv = plan.argv_alone(bot, tests)
    lines.append(shlex.join([*argv[:-1], "--db", db, bot]))
    if bot == YOUR_FILE:
        notes.append(f"put your own file's name in place of {YOUR_FILE}")
    if plan.seed is not None:
        notes.append("each game's seed (--seed) comes from the run's seed and the bot's file "
                     "as the run named it, so with your file's name the opponent may choose "
                     "other moves among equally good ones, and your bot gets another "
                     "BOT_SEED, than in the games here: the starts, rules and limits are the "
                     "same")
    if plan.harness.languages:
        notes.append(_languages_note(plan.harness))
    show = ["judge", "show", "1", "--db", db]
    return {"command": "\n".join(lines), "notes": notes, "show": show,
            "numbering": _your_numbers(show, yours)}


def _your_numbers(show: list[str], yours: list[tuple[int, int]] | None) -> str:
    """How the games of a student's own run (`show`: the command that shows it) are
    numbered against this page's (`yours`: of each game here, (its number, theirs))."""
    text = (f"In {show[-1]} (a new file in your folder) your run is run 1, and your games "
            "are numbered from 1")
    if not yours:
        return text + ", in the order of your games here: your first game here is your game 1."
    offsets = {here - theirs for here, theirs in yours}
    if len(offsets) != 1:
        return text + ": your game with the same start and seat as a game here is that game."
    here, theirs = yours[1] if len(yours) > 1 else yours[0]
    offset = offsets.pop()
    same = "the same numbers as here" if not offset else f"your game N is game N + {offset} here"
    return (text + f": {same} ({shlex.join([*show, '--game', str(theirs)])} replays game "
            f"{here} of this page).")


def about(info: StoredRun, db_path: str, view: View | None = None,
          yours: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """The run's identity: rules, judge version, confinement, seeds, times, reproduction
    (shared, `view`: with no folder, nor the database's path, but the student's own
    command and database, whose game numbers `yours` maps: see `shared_reproduce`)."""
    view = view or View()
    plan = info.plan
    rules = [dict(zip(("key", "value"), t.split("=", 1), strict=False))
             for t in plan.rules.split()]
    return {
        "id": info.id,
        "kind": info.kind,
        "game": info.game,
        "game_name": plan.game,
        "rules": rules,
        "rules_string": plan.rules,
        "version": judge.__version__,
        "tier": plan.harness.tier,
        "guarantees": plan.harness.guarantees,
        "seed": plan.seed,
        "created": when(info.created),
        "finished": when(info.finished),
        "state": "finished" if info.finished else "unfinished (partial results)",
        "planned": plan.planned or None,
        "opponent": plan.opponent,
        "limits": limit_rows(asdict(plan.harness.limits)),
        "reproduce": (again := reproduce(plan, view, info.id, yours)),
        "show": shlex.join(again["show"] or ["judge", "show", str(info.id),
                                             *([] if view.share else ["--db", db_path])]),
        "verdicts": MEANINGS,
        #: the bot whose own page this is (see `render_report`), or empty
        "page_of": "",
    }


def result_words(results: Sequence[str], seat: int) -> str:
    """`win` / `tie` / `loss` of a seat, or `void`."""
    result = results[seat]
    return "void" if result == "none" else result


def tournament_result(results: Sequence[str]) -> str:
    """`1-0`, `½-½`, `0-1` or `void` for seat 1 against seat 2."""
    return {"win": "1-0", "tie": "½-½", "loss": "0-1"}.get(results[0], "void")


def _nice_step(span: float) -> float:
    """A round tick step giving about six ticks over `span`."""
    raw = span / 6 or 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def rating_chart(rows: list[Standing]) -> dict[str, Any] | None:
    """An error-bar chart of the ratings with their 95% intervals (SVG coordinates), one bar
    per entrant that has a rating, best first; None when nobody has one."""
    rated = [(r, r.rating, r.rating_low, r.rating_high) for r in rows
             if r.rating is not None and r.rating_low is not None and r.rating_high is not None]
    if not rated:
        return None
    width, label, right, row_h, top, axis = 760, 260, 70, 30, 12, 34
    low = min(lo for _, _, lo, _ in rated)
    high = max(hi for _, _, _, hi in rated)
    pad = max((high - low) * 0.05, 10.0)
    low, high = low - pad, high + pad
    plot = width - label - right

    def x(v: float) -> float:
        return round(label + (v - low) / (high - low) * plot, 1)

    bars = []
    for i, (r, rating, rating_low, rating_high) in enumerate(rated):
        y = top + i * row_h + row_h / 2
        name = r.row.bot
        short = name if len(name) <= 34 else "…" + name[-33:]
        bars.append({"bot": name, "label": short, "y": y, "x": x(rating),
                     "x1": x(rating_low), "x2": x(rating_high),
                     "rating": rating, "low": rating_low, "high": rating_high})
    step = _nice_step(high - low)
    first = math.ceil(low / step) * step
    ticks = []
    v = first
    while v <= high:
        ticks.append({"x": x(v), "value": f"{v:g}"})
        v += step
    height = top + len(rated) * row_h + axis
    return {"width": width, "height": height, "bars": bars, "ticks": ticks,
            "axis_y": top + len(rated) * row_h, "label": label, "right": width - right,
            "base": x(1500.0) if low <= 1500 <= high else None}


def heat_colour(share: float) -> str:
    """A cell colour for a score share from 0 (red) through 0.5 (yellow) to 1 (green)."""
    share = min(max(share, 0.0), 1.0)
    return f"hsl({round(share * 120)}, 70%, {round(82 - 8 * abs(share - 0.5))}%)"


def crosstable(names: list[str], records: dict[str, PlayedGame],
               cross: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """The crosstable as heat-map rows: each cell the points, the games and the share."""
    played: dict[str, Counter[str]] = defaultdict(Counter)
    for rec in records.values():
        if not rec.void:
            a, b = rec.players
            played[a][b] += 1
            played[b][a] += 1
    rows = []
    for a in names:
        cells: list[dict[str, Any]] = []
        for b in names:
            n = played[a][b]
            if a == b or not n:
                cells.append({"self": a == b, "games": n})
                continue
            points = cross.get(a, {}).get(b, 0.0)
            share = points / n
            cells.append({"self": False, "games": n, "points": f"{points:g}",
                          "share": round(share, 3), "colour": heat_colour(share),
                          "against": b})
        rows.append({"bot": a, "cells": cells})
    return rows


def failure_totals(rows: list[Standing]) -> list[tuple[str, int, str]]:
    """(verdict, games, meaning) over every participant's failures, most frequent first."""
    totals: Counter[str] = Counter()
    for r in rows:
        totals.update(r.row.failures)
    return [(code, n, MEANINGS.get(code, "")) for code, n in totals.most_common()]


def column_widths(rows: list[dict[str, Any]], columns: list[tuple[str, str, int | None]]
                  ) -> list[dict[str, Any]]:
    """The game list's columns with widths in `ch` from their longest text (at most the
    column's cap; a cap of None leaves the column the rest of the width). The list is cut
    into tables of fixed layout that must share these widths to line up."""
    out: list[dict[str, Any]] = []
    for key, header, cap in columns:
        if cap is None:
            out.append({"key": key, "header": header, "width": None})
            continue
        longest = max((len(str(r.get(key) if r.get(key) is not None else "")) for r in rows),
                      default=0)
        out.append({"key": key, "header": header,
                    "width": min(max(longest, len(header)) + 3, cap)})
    return out
