"""`judge solve`: value, remoteness, best moves and outcome class of positions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from judge.commands.inputs import game_from_args, read_lines
from judge.commands.options import add_game_options
from judge.games.base import Game, InputError
from judge.report import FORMATS, render_rows, to_json
from judge.solvers import solver_for
from judge.solvers.base import Solver


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `solve` subcommand."""
    p = sub.add_parser(
        "solve",
        help="value, remoteness and best moves of positions",
        description="Solve positions with perfect play. The value is for the player to move:\n"
        "win/loss/draw, or for a game that keeps a score the best score difference it can\n"
        "force. Remoteness counts moves to the end (the winner hurries, the loser delays).\n\n"
        "A POSITION is written in the game's notation: judge games says each game's, and\n"
        "what its values mean beyond win, loss and draw.",
        epilog='examples:\n  judge solve --game ioiwari "4 3 2 4 2 3 2"\n'
        '  judge solve --game nim --rules misere=on "1 1 1" "3 4 5"\n'
        '  judge solve --game chopsticks --rules "hands=2 fingers=5" "(L 1 1 1 1)"\n'
        "  judge solve --game chopsticks --stats",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p)
    p.add_argument("positions", nargs="*", metavar="POSITION", help="positions to solve")
    p.add_argument("--positions", dest="positions_file", type=Path, metavar="FILE",
                   help="a file of positions, one per line ('#' starts a comment)")
    p.add_argument("--stats", action="store_true",
                   help="count the positions reachable from the start (or the given "
                   "positions) that are won, lost and drawn for the player to move")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format")
    p.set_defaults(func=run)


def solve_entry(game: Game, solver: Solver, pos: Any) -> dict[str, Any]:
    """One position's JSON record (the contract of `judge solve --format json`)."""
    ev = solver.evaluate(pos)
    entry: dict[str, Any] = {
        "position": game.format_position(pos),
        "value": ev.value,
        "remoteness": ev.remoteness,
        "best_moves": [game.format_move(m, pos) for m in ev.best_moves],
    }
    if (outcome := solver.outcome(pos)) is not None:
        entry["outcome"] = outcome
    entry["game"] = game.describe_at(pos)
    return entry


def run(args: argparse.Namespace) -> int:
    """Solve the positions given on the command line and in `--positions`."""
    game = game_from_args(args)
    texts = list(args.positions)
    positions = [game.parse_position(t) for t in texts]
    if args.positions_file is not None:
        lines = read_lines(args.positions_file)  # its errors name the file
        try:
            listed = game.parse_positions(lines)
        except InputError as exc:
            raise InputError(f"{args.positions_file}: {exc}") from None
        if not listed:
            raise InputError(f"{args.positions_file}: no positions in the file")
        positions += listed
    for text, pos in zip(texts, positions, strict=False):
        note = game.position_note(pos, args.rules)
        if note is not None:
            print(f"judge: note: {text} {note}", file=sys.stderr)
    solver = solver_for(game)
    targets = positions or [game.start()]
    solver.check(targets)
    if args.stats:
        counts = solver.stats(targets)
        # the counts are of the positions' own hand counts (research notation), if they agree
        shapes = {getattr(p, "shape", None) for p in targets}
        described = game.describe_at(targets[0]) if len(shapes) == 1 else game.describe()
        record = {"game": described, **counts}
        if args.format == "json":
            sys.stdout.write(to_json(record))
        else:
            sys.stdout.write(render_rows([record], args.format, list(record)))
        return 0
    if not positions:
        raise InputError("give at least one POSITION or --positions FILE (or --stats)")
    entries = [solve_entry(game, solver, pos) for pos in positions]
    if args.format == "json":
        sys.stdout.write(to_json(entries))
    else:
        headers = [h for h in ("position", "value", "remoteness", "best_moves", "outcome")
                   if h in entries[0]]
        sys.stdout.write(render_rows(entries, args.format, headers))
    return 0

