"""A self-contained HTML report of a stored grading run, tournament or match.

`render_report(store, run_id)` gives one page: summaries, charts, the run's settings and how
to reproduce it, the list of games, and a viewer that steps through any game move by move.
The styles and the viewer's script are inlined (the page loads nothing). Each game's data is
a ``<script type="application/json" id="game-N">`` block that the browser does not parse
until the viewer opens game N, so a run of many thousands of games opens quickly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from judge.games.base import InputError
from judge.html.boards import board_meta, inline_scripts
from judge.html.pages import about, game_payload, json_block
from judge.kinds import KINDS
from judge.kinds.grading import GradingPlan, grading_rows, schedule_places
from judge.kinds.nimbatch import NimBatchPlan
from judge.records import PlayedGame, ViewedGame
from judge.report import printable
from judge.results import memory_text, seconds_text
from judge.summaries import View

__all__ = ["render_nim_batch", "render_report"]

#: rows per table of the game list: a browser lays out only the tables in view
CHUNK = 250


#: what every page of the report may do (a Content-Security-Policy): load nothing, send
#: nothing, keep its own inline styles; a page with the viewer also runs its one inline
#: script, named by its hash (`policy`), and no other
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
          "form-action 'none'")


def policy(script: str | None = None) -> str:
    """The page's Content-Security-Policy: `POLICY`, and `script` allowed by its SHA-256."""
    if script is None:
        return POLICY
    import base64
    import hashlib

    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    return f"{POLICY}; script-src 'sha256-{digest}'"


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
    env.globals["csp"] = POLICY
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
    """One self-contained HTML page for the stored run `run_id` (its kind's page: a grading
    run, a tournament, a match) of `store`, as `view` shows it (a grading run: at its
    feedback, shared or not); with `bot` (a grading run's), the page for its author: only
    its line and its games (numbered as in the whole run), and the command that grades it
    alone. `records`: the run's games, if already read."""
    info = store.run(run_id)
    plan = info.plan
    view = view or View.of(plan)
    records = store.games(run_id) if records is None else records
    # every game by its number in the whole run (`judge show RUN --game N`), on any page
    numbered = list(enumerate(KINDS[info.kind].numbered_games(plan, records), 1))
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
        "chunk": CHUNK,
    }
    # the one script of the page (renderers, viewer, game list), allowed by its hash
    code = "".join(f"{s}\n" for s in (*inline_scripts(game), _static("viewer.js"),
                                       _static("gamelist.js")))
    context.update(code=Markup(code), csp=policy(code))  # noqa: S704 - our own scripts
    if bot is not None:
        context["about"]["page_of"] = view.names.get(bot, bot)
    kind = KINDS[info.kind]
    if kind.page is None:
        raise InputError(f"run {run_id} is a {plan.kind}: its HTML report is not made yet "
                         "(give --format table, json, csv or markdown)")
    page = kind.page(store, info, game, records, view, numbered)
    context.update(page.context, data=_data_blocks(game, page.viewed, plan.opponent, view))
    context["meta"] = json_block({"kind": info.kind, "board": board_meta(game),
                                  "games": len(context["games"]), "run": run_id})
    text = _environment().get_template(page.template).render(context)
    # a bot's text may hold lone surrogates (bytes that were not UTF-8): keep the page writable
    return text.encode("utf-8", "replace").decode("utf-8")


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


def _data_blocks(game: Any, listed: Sequence[tuple[int, tuple[PlayedGame, int | None]]],
                 opponent: str = "optimal", view: View | None = None) -> Markup:
    """The per-game JSON blocks of `listed`: (its number, (record, graded seat)); the
    moves' names once for the page (``move-labels``) where a move's text alone decides its
    name in every game (Nim, Ioiwari), else in each game's block."""
    payloads = [game_payload(game, rec, n, graded, opponent, view)
                for n, (rec, graded) in listed]
    parts, names = [], shared_labels(payloads)
    if names:
        payloads = [replace(p, labels=None) for p in payloads]
        parts.append(f'<script type="application/json" id="move-labels">{json_block(names)}'
                     "</script>\n")
    for payload in payloads:
        parts.append(f'<script type="application/json" id="game-{payload.number}">'
                     f"{json_block(payload.to_json())}</script>\n")
    return Markup("".join(parts))


def shared_labels(payloads: Sequence[ViewedGame]) -> dict[str, str] | None:
    """The moves' names by their texts where a move's text alone decides its name in every
    game of `payloads` (Nim's, Ioiwari's: the smaller page); None where it does not (a
    tic-tac-toe "5" is X's or O's) or no move has a name of its own."""
    names: dict[str, str] = {}
    for p in payloads:
        for move, label in zip(p.moves, p.labels or (), strict=False):
            if names.setdefault(move.move, label) != label:
                return None
    return names if any(p.labels for p in payloads) else None  # noqa: S704 - json_block escapes every payload


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
