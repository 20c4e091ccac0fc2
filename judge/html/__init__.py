"""A self-contained HTML report of a stored grading run or tournament.

`render_report(store, run_id)` gives one page: summaries, charts, the run's settings and how
to reproduce it, the list of games, and a viewer that steps through any game move by move.
The styles and the viewer's script are inlined (the page loads nothing). Each game's data is
a ``<script type="application/json" id="game-N">`` block that the browser does not parse
until the viewer opens game N, so a run of many thousands of games opens quickly.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from judge.games.base import InputError
from judge.html.boards import board_meta
from judge.html.pages import (
    about,
    column_widths,
    crosstable,
    failure_totals,
    game_payload,
    json_block,
    rating_chart,
    result_words,
    tournament_result,
)
from judge.plan import GradingPlan, MatchPlan, NimBatchPlan, TournamentPlan
from judge.records import PlayedGame
from judge.report import printable
from judge.results import Feedback, memory_text, seconds_text, twin_groups, twin_marks
from judge.summaries import (
    View,
    grading_rows,
    match_data,
    numbered_games,
    schedule_places,
    standings,
)

__all__ = ["render_nim_batch", "render_report"]

#: the game list's columns: (key, header, widest in ch; None takes the rest of the width)
RUN_COLUMNS = [("n", "#", 9), ("bot", "bot", 40), ("start", "start", 30), ("seat", "seat", 6),
               ("result", "result", 8), ("perfect", "perfect", 8), ("verdict", "verdict", 16),
               ("mistake", "first mistake", None), ("moves", "moves", 8), ("seed", "seed", 13)]
TOURNAMENT_COLUMNS = [("n", "#", 9), ("one", "player 1", 40), ("two", "player 2", 40),
                      ("start", "start", 30), ("result", "result", 8),
                      ("verdict_text", "verdict", 26), ("moves", "moves", 8),
                      ("twin", "repeats", None), ("seed", "seed", 13)]
#: the game list's columns each feedback level leaves out
HIDDEN = {Feedback.FULL: (), Feedback.MISTAKES: ("perfect",),
          Feedback.RESULTS: ("perfect", "mistake")}
#: rows per table of the game list: a browser lays out only the tables in view
CHUNK = 250


@cache
def _environment() -> Any:
    """The templates' environment (made once): autoescaped, undefined names are errors."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("judge.html", "templates"),
        autoescape=True,  # every string is escaped unless it is our own Markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters["path"] = _breakable
    env.filters["percent"] = lambda v: "" if v is None else f"{100 * v:.1f}%"
    env.filters["seconds"] = seconds_text
    env.filters["memory"] = memory_text
    return env


def _shown(value: Any) -> Any:
    """Every value a template writes: a string (a bot's name, a compiler's message) with its
    control and bidirectional characters escaped, as in the terminal (`printable`), so that
    none can reorder or hide the text around it; our own markup as it is."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return printable(value)
    return value


def _breakable(text: str) -> Markup:
    """A bot's path, escaped, with a line-break opportunity after each slash."""
    return Markup("/<wbr>").join(escape(printable(part)) for part in str(text).split("/"))


@cache
def _static(name: str) -> Markup:
    """Our own script or stylesheet, to inline (never bot text)."""
    text = files("judge.html").joinpath("static", name).read_text(encoding="utf-8")
    closing = "</script" if name.endswith(".js") else "</style"
    if closing in text.lower():
        raise ValueError(f"static/{name} must not contain {closing}")
    return Markup(text)  # noqa: S704 - a file of this package


def render_report(store: Any, run_id: int, view: View | None = None,
                  bot: str | None = None,
                  records: dict[str, PlayedGame] | None = None) -> str:
    """One self-contained HTML page for the stored run `run_id` (a grading run or a
    tournament) of `store`, as `view` shows it (a grading run: at its feedback, shared or
    not); with `bot` (a grading run's), the page for its author: only its line and its
    games (numbered as in the whole run), and the command that grades it alone. `records`:
    the run's games, if already read."""
    info = store.run(run_id)
    plan = info.plan
    view = view or View.of(plan)
    records = store.games(run_id) if records is None else records
    # every game by its number in the whole run (`judge show RUN --game N`), on any page
    numbered = list(enumerate(numbered_games(plan, records), 1))
    yours: list[tuple[int, int]] | None = None
    if bot is not None:
        assert isinstance(plan, GradingPlan)
        numbered = [(n, game) for n, game in numbered if bot in game[0].players]
        records = {k: r for k, r in records.items() if bot in r.players}
        plan = replace(plan, bots=(bot,), sources=tuple(s for s in plan.sources
                                                        if s.path == bot))
        plan = replace(plan, planned=len(plan.schedule()))
        info = info._replace(plan=plan)
    if isinstance(plan, GradingPlan) and len(plan.bots) == 1:
        # the number each game has when its bot is graded alone (the shared reproduce)
        places = schedule_places(plan)
        yours = [(n, places[rec.key] + 1) for n, (rec, _) in numbered if rec.key in places]
    game = plan.load_game()
    context: dict[str, Any] = {
        # absolute: the page may be read anywhere, the command run from any folder
        "about": about(info, str(Path(store.path).resolve()), view, yours),
        "stored": len(records),
        "css": _static("report.css"),
        "js": _static("viewer.js"),
        "list_js": _static("gamelist.js"),
        "chunk": CHUNK,
    }
    if bot is not None:
        context["about"]["page_of"] = view.names.get(bot, bot)
    if isinstance(plan, TournamentPlan):
        context.update(_tournament(game, plan, records))
        template = "tournament.html.j2"
    elif isinstance(plan, GradingPlan):
        context.update(_grading(game, plan, records, view, numbered))
        template = "run.html.j2"
    elif isinstance(plan, MatchPlan):
        context.update(_match(plan, records, store.running(run_id)
                              or info.finished is not None))
        template = "match.html.j2"
    else:
        raise InputError(f"run {run_id} is a {plan.kind}: its HTML report is not made yet "
                         "(give --format table, json, csv or markdown)")
    context["meta"] = json_block({"kind": info.kind, "board": board_meta(game),
                                  "games": len(context["games"]), "run": run_id})
    page = _environment().get_template(template).render(context)
    # a bot's text may hold lone surrogates (bytes that were not UTF-8): keep the page writable
    return page.encode("utf-8", "replace").decode("utf-8")


def render_nim_batch(plan: NimBatchPlan, programs: list[dict[str, Any]]) -> str:
    """One self-contained HTML page of a nim-batch grading: each program's score, verdict,
    first wrong line and notes (`programs`: the rows of the table, each with its `lines`,
    every line graded and how), then every line of each program."""
    import judge

    page = _environment().get_template("nimbatch.html.j2").render({
        "about": {"version": judge.__version__, "tier": plan.harness.tier,
                  "input": plan.input_file or "the standard nim.txt", "cases": len(plan.cases),
                  "strict": plan.strict, "per_case": plan.per_case},
        "programs": programs, "css": _static("report.css"),
    })
    return page.encode("utf-8", "replace").decode("utf-8")


def _data_blocks(game: Any, listed: list[tuple[int, tuple[PlayedGame, int | None]]],
                 opponent: str = "optimal", view: View | None = None) -> Markup:
    """The per-game JSON blocks of `listed`: (its number, (record, graded seat))."""
    parts = []
    for n, (rec, graded) in listed:
        payload = game_payload(game, rec, n, graded, opponent, view)
        parts.append(f'<script type="application/json" id="game-{n}">'
                     f"{json_block(payload)}</script>\n")
    return Markup("".join(parts))  # noqa: S704 - json_block escapes every payload


def _grading(game: Any, plan: GradingPlan, records: dict[str, PlayedGame], view: View,
             numbered: list[tuple[int, tuple[PlayedGame, int]]]) -> dict[str, Any]:
    """The bots' summaries and the games of a grading run (`numbered`: in `numbered_games`'
    order, each with its number in the whole run, as `judge show --game` takes it), as
    `view` shows them: at `mistakes` no result under perfect play and first mistakes
    without the right moves, at `results` neither first mistakes nor accuracy."""
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
            "data": _data_blocks(game, numbered, plan.opponent, view),
            "twins": twins, "marks": twin_marks(twins),
            "columns": column_widths(games, columns),
            "shown": {key for key, *_ in columns} | ({"accuracy"} if view.feedback.mistakes
                                                      else set())
            | ({"slow"} if view.feedback.solution else set())}


def _tournament(game: Any, plan: TournamentPlan, records: dict[str, PlayedGame]
                ) -> dict[str, Any]:
    """Standings, rating chart, crosstable heat map and games of a tournament."""
    data = standings(plan, records)
    table = data.standings
    names = [s.row.bot for s in table]
    number = {g.key: n for n, g in enumerate(data.games, 1)}
    games = []
    for n, g in enumerate(data.games, 1):
        games.append({
            "n": n, "players": list(g.players), "start": g.start,
            "result": tournament_result(g.results), "verdict": g.verdict,
            "verdict_text": _verdict_text(g.verdict, records[g.key].verdict.seat),
            "moves": len(g.moves), "seed": g.seed,
            "twin": number.get(g.identical_to) if g.identical_to else None,
            "results": [result_words(g.results, s) for s in (0, 1)],
        })
    listed = [(n, (records[g.key], None)) for n, g in enumerate(data.games, 1)]
    return {
        "standings": [s.to_json() for s in table],
        "chart": rating_chart(table),
        "cross": crosstable(names, records, data.crosstable),
        "names": names,
        "failures": failure_totals(table),
        "identical": data.identical_games,
        "games": games,
        "data": _data_blocks(game, listed),
        "columns": column_widths([dict(g, one=g["players"][0], two=g["players"][1])
                                  for g in games], TOURNAMENT_COLUMNS),
    }


def _match(plan: MatchPlan, records: dict[str, PlayedGame], finished: bool
           ) -> dict[str, Any]:
    """A match's statistics, its SPRT's decision and its games (numbered by --details)."""
    data, listed = match_data(plan, records)
    a, b = (plan.shown_name(who) for who in plan.bots)
    lower, upper = data.llr_bounds
    decision = {"H1": f"H1 accepted: {a} is stronger than {b}",
                "H0": f"H0 accepted: {a} is not stronger than {b} by {plan.sprt.elo1:g} Elo",
                None: "no decision" if finished else "no decision yet"}[data.decision]
    number = {g.key: n for n, g in enumerate(listed, 1)}
    games = [{"n": n, "pair": g.pair, "players": [plan.shown_name(w) for w in g.players],
              "start": g.start, "result": tournament_result(g.results), "verdict": g.verdict,
              "verdict_text": _verdict_text(g.verdict, records[g.key].verdict.seat),
              "moves": len(g.moves), "seed": g.seed,
              "twin": number.get(g.identical_to) if g.identical_to else None,
              "results": [result_words(g.results, s) for s in (0, 1)]}
             for n, g in enumerate(listed, 1)]
    game = plan.load_game()
    return {"bots": (a, b), "stats": data, "sprt": plan.sprt.text(), "decision": decision,
            "bounds": (lower, upper), "games": games,
            "data": _data_blocks(game, [(n, (records[g.key], None))
                                        for n, g in enumerate(listed, 1)], plan.opponent),
            "columns": column_widths([dict(g, one=g["players"][0], two=g["players"][1])
                                      for g in games], TOURNAMENT_COLUMNS)}


def _verdict_text(code: str, seat: int | None) -> str:
    """`garbage (player 2)`: the verdict and the seat it was charged to."""
    return code if code == "ok" or seat is None else f"{code} (player {seat + 1})"


def render_pages(store: Any, run_id: int, view: View) -> dict[str, str]:
    """A grading run's page per bot for its author (`render_report` with `bot`), named
    by its display name, and an index of them: {file name: page}."""
    from judge.exports import file_names

    plan = store.run(run_id).plan
    assert isinstance(plan, GradingPlan)
    records = store.games(run_id)
    bots, _ = grading_rows(plan, records)
    names = [view.names.get(b.bot, b.bot) for b in bots]
    files = [f"{stem}.html" for stem in file_names(names)]
    pages = {file: render_report(store, run_id, view, b.bot, records)
             for file, b in zip(files, bots, strict=True)}
    index = _environment().get_template("index.html.j2").render(
        about=about(store.run(run_id), "", view), css=_static("report.css"),
        bots=[{"name": name, "file": file, "row": b}
              for name, file, b in zip(names, files, bots, strict=True)])
    return {"index.html": index, **pages}
