"""`judge opponent`: the optimal opponent speaking the bot protocol on its own stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from judge.commands.inputs import game_from_args, start_from
from judge.commands.options import add_game_options, add_opponent_option
from judge.games import load_game
from judge.games.base import Game, InputError
from judge.interactor import CONTRACTS, run_contract, serve
from judge.solvers import solver_for


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `opponent` subcommand."""
    p = sub.add_parser(
        "opponent",
        help="be the optimal opponent over stdin/stdout, to try a bot by hand",
        description="Play the judge's side of the protocol with perfect play, as the program "
        "the IOI 2001 task shipped: it writes the opening lines, then reads your moves from "
        "stdin and answers each with its own. Connect a bot to it, or type moves yourself. "
        "As the judge does, it closes its output instead of sending a move that ends the "
        "game; that move and the result go to stderr. An illegal move ends the game with "
        "status 1. --format kattis, testlib or cms speaks a contest system's interactor "
        "contract instead, for a case file that judge export writes (docs/export.md).",
        epilog="example:\n  judge opponent --game ioiwari --start '4 3 2 4 2 3 2'\n"
        "  mkfifo p; python3 bots/ioiwari/greedy.py < p | judge opponent --game ioiwari > p\n"
        "  judge opponent --format kattis case.in case.ans feedback/ < p | bot > p",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p, required=False)
    add_opponent_option(p)
    p.add_argument("--start", metavar="POS", help="the start position (default: the game's)")
    p.add_argument("--seat", type=int, choices=(1, 2), default=1,
                   help="YOUR seat: 1 moves first (default), 2 lets the opponent open")
    p.add_argument("--format", choices=("plain", *CONTRACTS), default="plain",
                   help="plain (default): the protocol alone; kattis: Kattis's and "
                   "DOMjudge's interactor (FILES: INPUT ANSWER FEEDBACK_DIR; exit 42 "
                   "accepted, 43 wrong answer, judgemessage.txt); testlib: testlib's "
                   "(FILES: INPUT OUTPUT [ANSWER]; exit 0 ok, 1 wrong answer, 3 failure, 7 "
                   "partial points); cms: CMS's Communication manager (the case on stdin, "
                   "FILES: FROM_BOT TO_BOT, its FIFOs; the share of the points on stdout)")
    p.add_argument("files", nargs="*", metavar="FILES",
                   help="the contract's files: the case (judge export writes them), ...")
    p.set_defaults(func=run)


def _send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def chooser(game: Game, kind: str) -> Callable[[Any], Any]:
    """The opponent's move at a position: the solver's best, or the tricky opponent's."""
    solver = solver_for(game)
    if kind == "tricky":
        from judge.players.tricky import tricky_move

        return lambda p: tricky_move(solver, p)
    return solver.choose


def run(args: argparse.Namespace) -> int:
    """Serve one game on stdin/stdout, as the program of a task or as a contest system's
    interactor (`--format`)."""
    if args.format != "plain":
        return _contract(args)
    if args.files:
        raise InputError(f"FILES are the files of --format testlib or kattis, not of "
                         f"--format plain: {args.files[0]}")
    if args.game is None:
        raise InputError("--game is needed (judge games lists them)")
    game = game_from_args(args)
    pos = start_from(game, args.start)
    if game.is_over(pos):
        raise InputError("the start position is already the end of the game")
    you = (game.mover(pos) + args.seat - 1) % 2
    outcome = serve(game, pos, you, chooser(game, args.opponent), sys.stdin.readline, _send)
    if outcome.verdict:
        print(f"opponent: {outcome.verdict}: {outcome.message}", file=sys.stderr)
        return 1
    if outcome.ending:
        print(f"opponent: plays {outcome.ending}, which ends the game", file=sys.stderr)
    print(f"opponent: game over, {outcome.message}", file=sys.stderr)
    sys.stdout.close()
    return 0


def _contract(args: argparse.Namespace) -> int:
    """Judge one case under a contest system's contract: the game and rules from the case
    file (which `--game` and `--rules`, when given, must match)."""

    def opponent(name: str, rules: str) -> tuple[Game, Callable[[Any], Any]]:
        if args.game is not None and name and name != args.game:
            raise InputError(f"the case is of {name}, not of --game {args.game}")
        game = load_game(name or args.game or "", args.rules or rules)
        return game, chooser(game, args.opponent)

    return run_contract(args.format, args.files, opponent)
