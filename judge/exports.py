"""What a course takes from a grading run: a grade book's CSV (name, score, max) and
Gradescope's autograder `results.json` (a test per game), both drawn from the run's typed
rows as the run's `View` shows them (display names, the feedback level)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from judge.report import plural, render_rows
from judge.results import points_of

if TYPE_CHECKING:
    from judge.records import PlayedGame
    from judge.summaries import BotRow, GradedGame, View

#: the visibilities Gradescope's autograder specification gives a test or a result
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


class Gradescope(NamedTuple):
    """How Gradescope's results.json is cut and shown: a test per "game" or per graded
    "seat", and when students see the tests and the score (one of `VISIBILITIES`)."""

    tests: str = "game"
    visibility: str = "visible"


def gradebook(bots: list[BotRow], view: View) -> str:
    """The CSV a grade book imports: a line per bot, `name,score,max` (display names)."""
    shown = replace(view, share=True)
    rows = [{"name": shown.name(b.bot), "score": b.points, "max": b.max_points} for b in bots]
    return render_rows(rows, "csv", ["name", "score", "max"])


def gradescope(game: str, bot: BotRow, games: list[tuple[int, GradedGame, PlayedGame, int]],
               view: View, how: Gradescope) -> dict[str, Any]:
    """Gradescope's `results.json` for one bot: its score of the most perfect play scores,
    and a test per game (its start and seat), or per graded seat (the first or second
    player) as `how` says, with the points, the most it could score there, and what
    happened as the view's feedback level words it. `games`: (its number in the whole run,
    as `judge show RUN --game N` takes it; the row; the record; the bot's seat)."""
    shown = replace(view, share=True)
    points = points_of(game)
    tests: list[dict[str, Any]] = []
    for n, row, rec, seat in games:
        perfect = None if rec.void else (rec.perfect or ("win", "win"))[seat]
        test: dict[str, Any] = {"name": f"game {n}: start {row.start}, as player {row.seat}",
                "score": points.get(row.result, 0.0),
                "max_score": 0.0 if perfect is None else points[perfect],
                "output": f"game {n}: {_game_output(row, shown)}", "number": str(n)}
        group = f"as the {str(rec.key).rsplit('|', 1)[-1]} player"
        same = [t for t in tests if t["name"] == group]
        if how.tests == "seat" and same:
            for key in ("score", "max_score"):
                same[0][key] += test[key]
            same[0]["output"] += "\n" + test["output"]
        else:
            # a seat's test: numbered 1, 2 (its games by their numbers in its output)
            tests.append(dict(test, name=group, number=str(len(tests) + 1))
                         if how.tests == "seat" else test)
    for test in tests:
        test.update(status="passed" if test["score"] >= test["max_score"] else "failed",
                    visibility=how.visibility)
    failures = ", ".join(f"{code} {n}" for code, n in bot.failures.items())
    return {
        "score": bot.points, "max_score": bot.max_points,
        "output": f"{shown.name(bot.bot)}: {bot.points:g} of {bot.max_points:g} points in "
                  f"{plural(bot.games, 'game')} ({bot.wins} won, {bot.ties} tied, "
                  f"{bot.losses} lost"
                  + (f"; failures: {failures}" if failures else "") + ")"
                  + (f"\n\ncompile error:\n{shown.text(bot.compile_error)}"
                     if bot.compile_error else ""),
        "visibility": how.visibility, "stdout_visibility": "hidden", "tests": tests,
    }


def _game_output(row: GradedGame, view: View) -> str:
    """One game's text in a Gradescope test: the result, the verdict, and the first
    mistake as far as the feedback level shows it."""
    text = f"{row.result}, verdict {row.verdict}"
    message = view.text(row.message)
    if message:
        text += f": {message}"
    mistake = view.mistake_text(row)
    return text + (f"; first mistake: {mistake}" if mistake else "")


def file_names(names: list[str]) -> list[str]:
    """A file name (without suffix) for each display name: letters, digits, `.`, `-` and
    `_` kept, anything else `_`, never hidden, led by `-` (an option to a shell's command)
    or empty, and made unique by a number."""
    out: list[str] = []
    for name in names:
        stem = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_"
                       for c in name).lstrip(".-") or "bot"
        candidate, n = stem, 1
        while candidate.lower() in (o.lower() for o in out) or candidate == "index":
            n += 1
            candidate = f"{stem}-{n}"
        out.append(candidate)
    return out
