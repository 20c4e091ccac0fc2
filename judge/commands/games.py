"""`judge games`: the installed games, their rules, variants, points and position notation,
and where each comes from."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import judge.games
from judge.games import GameLoadError, InputError, game_class, load_game
from judge.report import FORMATS, WIDTH, printable, printable_line, render_rows, to_json
from judge.words import plural


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
        "  judge games --protocol nim > nim.md\n"
        '  judge games --check connect4 --rules "rows=3 cols=4 connect=3"',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.add_argument("--protocol", metavar="GAME",
                   help="print the protocol page of GAME instead (Markdown, for contestants: "
                   "what a bot reads and writes, with a worked transcript)")
    p.add_argument("--check", metavar="GAME",
                   help="run the generic game suite on GAME instead (any installed game, a "
                   "plugin's too): random playouts against its rules, its notation and wire "
                   "read back, its solver's values, perfect play from won positions, a "
                   "whole game through a bot process in each seat and the transcripts of its "
                   "protocol page; each failure is said with its position and move; exit "
                   "status 1 when one fails")
    p.add_argument("--rules", default=None, metavar='"KEY=VALUE ..."',
                   help="with --check: the rules to check the game under (default: its own)")
    p.add_argument("--seed", type=int, default=0,
                   help="with --check: the seed of the random playouts (default 0)")
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


def check_game(name: str, rules: str, seed: int) -> int:
    """Run the generic game suite on game `name` under `rules`, a line per check as it ends
    (a progress line on a terminal's stderr); status 1 when a check fails."""
    from judge.gamecheck import SAID, Check, Suite

    game = load_game(name, rules)
    package = judge.games.GAMES.sources()[game.name].package
    print(printable_line(f"checking {game.describe()} (from {package})"), flush=True)
    checks, tty = list(Check), sys.stderr.isatty()

    def progress(number: int) -> None:
        """Say on a terminal which check runs now (none after the last)."""
        if tty and number < len(checks):
            print(f"checking {number + 1} of {len(checks)}: {checks[number].value} ...",
                  end="", file=sys.stderr, flush=True)

    failed, skipped = 0, None
    progress(0)
    for number, outcome in enumerate(Suite(game, seed).run()):
        check = outcome.check
        state = "skipped" if outcome.skipped is not None else (
            "FAILED" if outcome.failures else "ok")
        why = "(as above)" if skipped and outcome.skipped == skipped else outcome.skipped
        said = f"{state:<8} {check.value:<14} " + (why or plural(outcome.tried, check.unit))
        skipped = outcome.skipped
        if outcome.failures:
            said += f", {plural(len(outcome.failures), 'failure')}"
        if tty:
            print(f"\r{'':{WIDTH}}\r", end="", file=sys.stderr, flush=True)
        print(printable_line(said), flush=True)
        for failure in outcome.failures[:SAID]:
            print("  " + printable_line(failure.text()))
        if len(outcome.failures) > SAID:
            print(f"  ... and {len(outcome.failures) - SAID} more")
        failed += bool(outcome.failures)
        progress(number + 1)
    if failed:
        said = f"judge: {game.name}: {failed} of {plural(len(checks), 'check')} failed"
        print(printable_line(said), file=sys.stderr)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    """Print the installed games; status 1 when one of them cannot be loaded."""
    if args.check is None and (args.rules is not None or args.seed):
        raise InputError("--rules and --seed go with --check GAME")
    if args.protocol is not None:
        return print_protocol(args.protocol)
    if args.check is not None:
        return check_game(args.check, args.rules or "", args.seed)
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
