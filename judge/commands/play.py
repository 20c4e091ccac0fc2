"""`judge play`: one game move by move, boards drawn, each bot move judged by the solver."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from judge.analysis import MoveReview, review
from judge.commands.common import (
    add_game_options,
    add_harness_options,
    check_bots,
    game_from_args,
    harness_setup,
)
from judge.games.base import Game, InputError
from judge.players.base import Played, Player
from judge.report import to_json
from judge.schedule import OPTIMAL
from judge.solvers.base import order


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `play` subcommand."""
    p = sub.add_parser(
        "play",
        help="play one game and see it move by move, every bot move judged",
        description="Play one game between BOT and an opponent (the optimal player by default, "
        "another bot, or you at the terminal) and print it move by move with the board drawn. "
        "Each move of a bot is judged against perfect play: optimal, or a mistake with the "
        "value before and after and the moves that were right. Human players may type "
        "'hint', 'undo' and 'redo'.",
        epilog="examples:\n  judge play --game ioiwari bots/ioiwari/greedy.py\n"
        "  judge play --game nim --start '3 4 5' --vs human bots/nim/optimal.py\n"
        "  judge play --game ioiwari --vs bots/ioiwari/random.py bots/ioiwari/greedy.py\n"
        "  judge play --game chopsticks --vs human optimal",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(p)
    p.add_argument("bot", metavar="BOT", help="a bot program, 'optimal' or 'human'")
    p.add_argument("--vs", default=OPTIMAL, metavar="OPPONENT",
                   help="optimal (default), human, or another bot program")
    p.add_argument("--start", metavar="POS", help="the start position (default: the game's)")
    p.add_argument("--seat", type=int, choices=(1, 2), default=1,
                   help="BOT's seat: 1 moves first at the start (default), 2 second")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument("--pty", action="store_true",
                   help="talk to bots through a pseudo-terminal instead of pipes")
    add_harness_options(p)
    p.set_defaults(func=run)


def make_player(who: str, setup: dict[str, Any], pty: bool) -> Player:
    """A player from a command-line name: optimal, human, or a bot path."""
    if who == OPTIMAL:
        from judge.players.optimal import OptimalPlayer

        return OptimalPlayer(setup["seed"])
    if who == "human":
        from judge.players.human import HumanPlayer

        return HumanPlayer()
    from judge.players.bot import BotPlayer
    from judge.sandbox import Limits

    return BotPlayer(who, limits=Limits(**setup["limits"]), sandbox=setup["sandbox"], pty=pty,
                     name=who)


def run(args: argparse.Namespace) -> int:
    """Play the game and print it."""
    game = game_from_args(args)
    start = game.parse_position(args.start) if args.start else game.start()
    if game.is_over(start):
        raise InputError("the start position is already the end of the game")
    names = [args.bot, args.vs]
    programs = [n for n in names if n not in (OPTIMAL, "human")]
    if programs:
        check_bots(programs)
    setup = harness_setup(args)
    bot_seat = game.mover(start) if args.seat == 1 else 1 - game.mover(start)
    seated = names if bot_seat == 0 else names[::-1]
    players = [make_player(n, setup, args.pty) for n in seated]
    if "human" in names:
        record = play_interactive(game, players, start)
    else:
        from judge.referee import play_game
        from judge.sandbox import Limits

        record = play_game(game, players, start, Limits(**setup["limits"])).to_dict()
    record["players"] = seated
    reviews = review(game, start, [m["move"] for m in record["moves"]])
    if args.format == "json":
        sys.stdout.write(to_json(play_json(record, reviews, bot_seat)))
    else:
        sys.stdout.write(play_text(game, start, record, reviews, seated, bot_seat))
    return 0


def play_interactive(game: Game, players: list[Player], start: Any) -> dict[str, Any]:
    """A game with a human at the terminal: undo and redo move whole turns."""
    from judge.players.human import HELP, HumanPlayer, Redo, Undo

    human = next(i for i, p in enumerate(players) if isinstance(p, HumanPlayer))
    for seat, p in enumerate(players):
        p.begin(game, seat)
    history: list[tuple[Any, Any]] = []  # (position before, move)
    undone: list[tuple[Any, Any]] = []
    pos = start
    print(f"{game.describe()}: you are player {human + 1}; {HELP}")
    while not game.is_over(pos):
        seat = game.mover(pos)
        if seat == human:
            print(game.render(pos))
        last = Played(*history[-1]) if history else None
        try:
            move = players[seat].choose(pos, last)
        except Undo:
            mine = [i for i, (p, _) in enumerate(history) if game.mover(p) == human]
            if not mine:
                print("  nothing to undo")
                continue
            undone.extend(reversed(history[mine[-1]:]))  # the earliest taken back is redone first
            del history[mine[-1]:]
            pos = _replay(game, start, history)
            continue
        except Redo:
            if not undone:
                print("  nothing to redo")
                continue
            history.append(undone.pop())
            pos = _replay(game, start, history)
            continue
        if seat != human:
            print(f"  {players[seat].name} plays {game.format_move(move, pos)}")
        history.append((pos, move))
        undone.clear()
        pos = game.play(pos, move)
    print(game.render(pos))
    winner = game.winner(pos)
    results = [("tie" if winner is None else "win" if winner == s else "loss") for s in (0, 1)]
    return {"game": game.describe(), "start": game.format_position(start),
            "moves": [{"seat": game.mover(p), "move": game.format_move(m, p), "seconds": None}
                      for p, m in history],
            "results": results, "verdict": {"code": "ok", "message": "", "seat": None},
            "stderr": [None, None], "final": game.format_position(pos),
            "score": game.score(pos)}


def _replay(game: Game, start: Any, history: list[tuple[Any, Any]]) -> Any:
    pos = start
    for _, move in history:
        pos = game.play(pos, move)
    return pos


def judged(r: MoveReview) -> str:
    """`optimal`, or the mistake with its values and the right moves."""
    if r.slow:
        return (f"slow: still wins, but in {r.move_remoteness} moves instead of "
                f"{r.remoteness}; fastest: {', '.join(r.best_moves)}")
    if not r.mistake:
        return "optimal"
    lost = ""
    if r.changed_result:
        won = order(r.before) + r.lead > 0 if isinstance(r.before, int) else r.before == "win"
        lost = " (this move threw away the win)" if won else " (this move lost the game)"
    return (f"MISTAKE{lost}: value {r.before} -> {r.after}; "
            f"right: {', '.join(r.best_moves)}")


def play_text(game: Game, start: Any, record: dict[str, Any], reviews: list[MoveReview],
              names: list[str], bot_seat: int) -> str:
    """The game as text: boards, moves with times and judgements, result and verdict."""
    out = [f"{game.describe()}: player 1 {names[0]}, player 2 {names[1]}",
           f"start: {game.format_position(start)}", game.render(start), ""]
    pos = start
    judged_seats = {s for s, n in enumerate(names) if n != OPTIMAL}
    for i, m in enumerate(record["moves"]):
        seat = m["seat"]
        secs = "" if m.get("seconds") is None else f"  ({m['seconds']:.3f} s)"
        line = f"{i + 1}. player {seat + 1} ({names[seat]}): {m['move']}{secs}"
        if i < len(reviews) and seat in judged_seats:
            line += f"  {judged(reviews[i])}"
        out.append(line)
        if i < len(reviews):
            pos = game.play(pos, game.parse_move(m["move"], pos))
            out.append(game.render(pos))
        out.append("")
    results = record["results"]
    if results[0] == "none":
        out.append(f"result: void (judge error: {record['verdict']['message']})")
    else:
        mine = results[bot_seat]
        score = record.get("score")
        extra = f" {score[bot_seat]}-{score[1 - bot_seat]}" if score else ""
        verb = {"win": "wins", "loss": "loses", "tie": "ties"}[mine]
        out.append(f"result: {names[bot_seat]} {verb}{extra}")
    verdict = record["verdict"]
    failed = verdict["seat"]
    who = f" (player {failed + 1}, {names[failed]})" if failed is not None else ""
    message = f": {verdict['message']}" if verdict["message"] else ""
    out.append(f"verdict: {verdict['code']}{who}{message}")
    for seat, tail in enumerate(record.get("stderr") or []):
        if tail:
            out.append(f"stderr of player {seat + 1} (last lines):\n{tail}")
    return "\n".join(out) + "\n"


def play_json(record: dict[str, Any], reviews: list[MoveReview], bot_seat: int) -> dict:
    """The JSON record: the first bot's result and verdict on top, then the details."""
    results = record["results"]
    moves = []
    for i, m in enumerate(record["moves"]):
        entry = dict(m, ply=i + 1, seat=m["seat"] + 1)
        if i < len(reviews):
            entry["review"] = {k: v for k, v in reviews[i].to_dict().items()
                               if k not in ("ply", "seat", "move")}  # said by the move
        moves.append(entry)
    return {
        "result": "void" if results[bot_seat] == "none" else results[bot_seat],
        "verdict": record["verdict"]["code"],
        "message": record["verdict"]["message"],
        "game": record["game"],
        "start": record["start"],
        "seat": bot_seat + 1,
        "players": [{"name": n, "seat": s + 1,
                     "result": results[s],
                     "stderr_tail": (record.get("stderr") or [None, None])[s]}
                    for s, n in enumerate(record["players"])],
        "moves": moves,
        "final": record.get("final"),
        "score": record.get("score"),
    }
