"""`judge opponent`: the optimal opponent speaking the bot protocol on its own stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from judge.commands.inputs import game_from_args, start_from
from judge.commands.options import add_game_options, add_opponent_option
from judge.games.base import Game, InputError, MoveError
from judge.solvers import solver_for

#: your moves before a loopy game stops as a tie (the judge's default move limit, halved)
MOVE_LIMIT = 100


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
        "status 1.",
        epilog="example:\n  judge opponent --game ioiwari --start '4 3 2 4 2 3 2'\n"
        "  mkfifo p; python3 bots/ioiwari/greedy.py < p | judge opponent --game ioiwari > p",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p)
    add_opponent_option(p)
    p.add_argument("--start", metavar="POS", help="the start position (default: the game's)")
    p.add_argument("--seat", type=int, choices=(1, 2), default=1,
                   help="YOUR seat: 1 moves first (default), 2 lets the opponent open")
    p.set_defaults(func=run)


def _send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Serve one game on stdin/stdout."""
    game = game_from_args(args)
    pos = start_from(game, args.start)
    solver = solver_for(game)
    if args.opponent == "tricky":
        from judge.players.tricky import tricky_move

        def choose(p: Any) -> Any:
            return tricky_move(solver, p)
    else:
        def choose(p: Any) -> Any:
            return solver.choose(p)
    you = (game.mover(pos) + args.seat - 1) % 2
    if game.mover(pos) != you and not game.is_over(pos):
        pos = game.play(pos, choose(pos))
    if game.is_over(pos):
        if args.start and game.is_over(game.parse_position(args.start)):
            raise InputError("the start position is already the end of the game")
        return _finish(game, pos, you)
    for line in game.wire_start(pos):
        _send(line)
    moves = 0
    while True:
        raw = sys.stdin.readline()
        if not raw:
            print("opponent: your input ended before the game did", file=sys.stderr)
            return 1
        try:
            move = game.parse_move(raw.rstrip("\n"), pos)
        except MoveError as exc:
            print(f"opponent: {exc.code}: {exc}", file=sys.stderr)
            return 1
        pos = game.play(pos, move)
        moves += 1
        if game.is_over(pos) or (game.loopy and moves >= MOVE_LIMIT):
            return _finish(game, pos, you)
        reply = choose(pos)
        text = game.format_move(reply, pos)
        pos = game.play(pos, reply)
        if game.is_over(pos):  # as the judge does: the ending move is played, not sent
            print(f"opponent: plays {text}, which ends the game", file=sys.stderr)
            return _finish(game, pos, you)
        _send(text)


def _finish(game: Game, pos: Any, you: int) -> int:
    winner = game.winner(pos) if game.is_over(pos) else None
    result = "tie" if winner is None else ("you win" if winner == you else "you lose")
    score = game.score(pos)
    extra = f" ({score[you]} to {score[1 - you]})" if score else ""
    print(f"opponent: game over, {result}{extra}", file=sys.stderr)
    sys.stdout.close()
    return 0
