"""`judge games`: the installed games, their rules and variants, and where each comes from."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import judge.games
from judge.games import GameLoadError, game_class
from judge.report import FORMATS, WIDTH, printable, render_rows, to_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `games` subcommand."""
    p = sub.add_parser(
        "games",
        help="list the installed games, their --rules keys and variants",
        description="List every installed game: the judge's own and those that installed "
        "packages register under the entry-point group 'judge.games'. For each: its --rules "
        "keys with their defaults, its named variants, and the package and class it comes "
        "from. A game whose package cannot be loaded is listed with the reason.",
        epilog="example:\n  judge games\n  judge games --format json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.set_defaults(func=run)


def game_row(name: str) -> dict[str, Any]:
    """What `judge games` says of game `name` (a broken one's `error` says why)."""
    source = judge.games.GAMES.sources()[name]
    row: dict[str, Any] = {"game": name, "rules": "", "variants": "", "from": source.package,
                           "class": source.target, "error": None}
    try:
        cls = game_class(name)
    except GameLoadError as exc:
        row["error"] = str(exc)
        return row
    row["rules"] = " ".join(f"{k}={v}" for k, v in cls.defaults.items())
    row["variants"] = ", ".join(f"{n} ({r})" for n, r in cls.variants.items())
    return row


def game_block(row: dict[str, Any]) -> str:
    """A game as the table format says it: its name and origin, then its rules and
    variants, each wrapped within 80 columns."""
    import textwrap

    lines = [f"{row['game']}  (from {row['from']}, {row['class']})"]
    said = [("rules", row["rules"] or "none"), ("variants", row["variants"])]
    if row["error"] is not None:
        said = [("broken", row["error"])]
    for label, text in said:
        if text:
            lines += textwrap.wrap(text, WIDTH, initial_indent=f"  {label:<10}",
                                   subsequent_indent=" " * 12, break_on_hyphens=False)
    return printable("\n".join(lines)) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the installed games; status 1 when one of them cannot be loaded."""
    registry = judge.games.GAMES  # (read here: a test may put another in its place)
    rows = [game_row(name) for name in registry]
    if args.format == "json":
        sys.stdout.write(to_json(rows))
    elif args.format == "table":  # a block per game, within 80 columns
        sys.stdout.write("".join(game_block(r) for r in rows))
    else:
        shown = [{**r, "rules": r["rules"] if r["error"] is None else "(broken)"} for r in rows]
        sys.stdout.write(render_rows(shown, args.format,
                                     ["game", "rules", "variants", "from", "class"]))
        for name, source in registry.shadowed:
            print(f"judge: note: {source.package} registers a game {name!r} ({source.target}),"
                  " which is not used: the judge has a game of that name", file=sys.stderr)
    for row in rows:
        if row["error"] is not None:
            print(f"judge: error: {row['error']}", file=sys.stderr)
    return 1 if any(r["error"] is not None for r in rows) else 0
