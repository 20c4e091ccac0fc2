"""`judge games`: the installed games, their rules, variants, points and position notation,
and where each comes from."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import judge.games
from judge.games import GameLoadError, InputError, game_class
from judge.report import FORMATS, WIDTH, printable, render_rows, to_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `games` subcommand."""
    p = sub.add_parser(
        "games",
        help="list the installed games, their --rules keys, variants, points and notation",
        description="List every installed game: the judge's own and those that installed "
        "packages register under the entry-point group 'judge.games'. For each: its --rules "
        "keys with their defaults, its named variants, the points a graded game earns (win/"
        "tie/loss), how a position is written (and what a solved value means, where the "
        "game says more), and the package and class it comes from. A game whose package "
        "cannot be loaded is listed with the reason.",
        epilog="examples:\n  judge games\n  judge games --format json\n"
        "  judge games --protocol nim > nim.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.add_argument("--protocol", metavar="GAME",
                   help="print the protocol page of GAME instead (Markdown, for contestants: "
                   "what a bot reads and writes, with a worked transcript)")
    p.set_defaults(func=run)


def game_row(name: str) -> dict[str, Any]:
    """What `judge games` says of game `name` (a broken one's `error` says why)."""
    source = judge.games.GAMES.sources()[name]
    row: dict[str, Any] = {"game": name, "rules": "", "variants": "", "points": "",
                           "position": "", "values": "", "from": source.package,
                           "class": source.target, "error": None}
    try:
        cls = game_class(name)
    except GameLoadError as exc:
        row["error"] = str(exc)
        return row
    row["rules"] = " ".join(f"{k}={v}" for k, v in cls.defaults.items())
    row["variants"] = ", ".join(f"{n} ({r or 'the defaults'})" for n, r in cls.variants.items())
    row["points"] = cls.points.text()
    row["position"] = cls.position_syntax()
    row["values"] = cls.value_notes
    return row


def game_block(row: dict[str, Any]) -> str:
    """A game as the table format says it: its name and origin, then its rules, variants,
    points, position notation and what its values mean, each wrapped within 80 columns."""
    import textwrap

    lines = [f"{row['game']}  (from {row['from']}, {row['class']})"]
    said = [("rules", row["rules"] or "none"), ("variants", row["variants"]),
            ("points", row["points"]), ("position", row["position"]), ("values", row["values"])]
    if row["error"] is not None:
        said = [("broken", row["error"])]
    for label, text in said:
        if text:
            lines += textwrap.wrap(text, WIDTH, initial_indent=f"  {label:<10}",
                                   subsequent_indent=" " * 12, break_on_hyphens=False)
    return printable("\n".join(lines)) + "\n"


def print_protocol(name: str) -> int:
    """Print game `name`'s protocol page; raises `InputError` for an unknown game or one
    without a page."""
    cls = game_class(name)
    text = cls.protocol_text()
    if text is None:
        raise InputError(f"game {cls.name!r} has no protocol page (its package ships no "
                         "protocol.md)")
    sys.stdout.write(text)
    return 0


def run(args: argparse.Namespace) -> int:
    """Print the installed games; status 1 when one of them cannot be loaded."""
    if args.protocol is not None:
        return print_protocol(args.protocol)
    registry = judge.games.GAMES  # (read here: a test may put another in its place)
    rows = [game_row(name) for name in registry]
    if args.format == "json":
        sys.stdout.write(to_json(rows))
    elif args.format == "table":  # a block per game, within 80 columns
        sys.stdout.write("".join(game_block(r) for r in rows))
    else:
        shown = [{**r, "rules": r["rules"] if r["error"] is None else "(broken)"} for r in rows]
        sys.stdout.write(render_rows(shown, args.format,
                                     ["game", "rules", "variants", "points", "position",
                                      "from", "class"]))
    for name, source in registry.shadowed:
        print(f"judge: note: {source.package} registers a game {name!r} ({source.target}),"
              " which is not used: the judge has a game of that name", file=sys.stderr)
    for row in rows:
        if row["error"] is not None:
            print(f"judge: error: {row['error']}", file=sys.stderr)
    return 1 if any(r["error"] is not None for r in rows) else 0
