"""`judge play`: one game move by move, boards drawn, each bot move judged by the solver."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from judge.analysis import MoveReview, judged, perfect_results, review
from judge.clock import Clock, SeatClock, reading
from judge.commands.inputs import (
    NothingToGrade,
    check_bots,
    game_from_args,
    harness_setup,
    start_from,
)
from judge.commands.options import (
    add_clock_options,
    add_game_options,
    add_harness_options,
    add_opponent_option,
)
from judge.games.base import Game, InputError, MoveError
from judge.plan import OPTIMAL, Harness
from judge.players.base import Played, Player, PlayerFailure
from judge.players.level import is_level
from judge.records import MoveRecord, PlayedGame, Verdict
from judge.report import printable, printable_line, to_json
from judge.verdicts import JUDGE_ERROR, OK, RESIGNED, TIME_FORFEIT

if TYPE_CHECKING:
    from judge.referee import GameRecord

#: the names of perfect players on the command line
OPPONENTS = (OPTIMAL, "tricky")
#: who plays on the clock of --tc in judge play
PLAY_CLOCKS = ("each bot and each person at the terminal plays on a clock (a person sees "
               "both clocks after each move and is waited for no longer than the clock "
               "holds; the optimal, tricky and level:N players are untimed)")
#: what --tc-for names in judge play
PLAY_ODDS = ("BOT's own time control, for time odds (repeatable): BOT is a player as given, "
             "the bot program, human (you) or the computer player (optimal, tricky, level:N: "
             "then on a clock of its own)")


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
    p.add_argument("bot", metavar="BOT", help="a bot program, 'optimal', 'tricky' or 'human'")
    p.add_argument("--vs", default=OPTIMAL, metavar="OPPONENT",
                   help="optimal (default: the --opponent kind), tricky, level:N (0 random "
                   "to 10 perfect), human, or another bot program")
    p.add_argument("--start", metavar="POS", help="the start position (default: the game's)")
    p.add_argument("--seat", type=int, choices=(1, 2), default=1,
                   help="BOT's seat: 1 moves first at the start (default), 2 second")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument("--pty", action="store_true",
                   help="talk to bots through a pseudo-terminal instead of pipes")
    add_opponent_option(p)
    add_harness_options(p, jobs=False)
    add_clock_options(p, odds=PLAY_ODDS, who=PLAY_CLOCKS)
    p.set_defaults(func=run)


def make_player(who: str, setup: Harness, opponent: str, pty: bool,
                dialogue: TextIO) -> Player:
    """A player from a command-line name: optimal, human (talking on `dialogue`), or a bot."""
    if who in OPPONENTS or is_level(who):  # "optimal" is the --opponent kind
        from judge.players.optimal import opponent_player

        return opponent_player(opponent if who == OPTIMAL else who, setup.seed)
    if who == "human":
        from judge.players.human import HumanPlayer

        return HumanPlayer(stdout=dialogue)
    from judge.players.bot import BotPlayer

    return BotPlayer(who, limits=setup.limits, sandbox=setup.sandbox, pty=pty, name=who,
                     seed=setup.seed)


def run(args: argparse.Namespace) -> int:
    """Play the game and print it."""
    game = game_from_args(args)
    start = start_from(game, args.start)
    if game.is_over(start):
        raise InputError("the start position is already the end of the game")
    names = [args.bot, args.vs]
    programs = [n for n in names if n not in (*OPPONENTS, "human") and not is_level(n)]
    setup = harness_setup(args)  # languages before bots
    setup.clocks.check_named(names, "a player of this game (name one as given: "
                             + ", ".join(printable_line(n) for n in dict.fromkeys(names)) + ")")
    if programs:
        _, skipped = check_bots(list(dict.fromkeys(programs)))  # a bot may play itself
        if skipped:
            raise NothingToGrade("; ".join(skipped))
    bot_seat = game.mover(start) if args.seat == 1 else 1 - game.mover(start)
    seated = names if bot_seat == 0 else names[::-1]
    # with JSON on stdout, the dialogue with a human goes to stderr
    dialogue = sys.stderr if args.format == "json" else sys.stdout
    players = [make_player(n, setup, args.opponent, args.pty, dialogue) for n in seated]
    note_a_lost_start(game, start, seated)
    # a bot and a person play on the clock; the perfect player's time is the judge's
    clocks = [setup.clocks.side(n, computer=n in OPPONENTS or is_level(n)) for n in seated]
    if "human" in names:
        played = play_interactive(game, players, start, dialogue, clocks, setup.clocks.tell)
    else:
        from judge.referee import play_game

        played = play_game(game, players, start, setup.limits, clocks=clocks,
                           tell_time=setup.clocks.tell)
    # the perfect player named as it played (optimal stands for the --opponent kind)
    seated = [args.opponent if n == OPTIMAL else n for n in seated]
    record = played.kept(players=seated)
    reviews = review(game, start, record.move_texts)
    if args.format == "json":
        sys.stdout.write(to_json(play_json(record, reviews, bot_seat)))
    else:
        sys.stdout.write(play_text(game, start, record, reviews, seated, bot_seat))
    return 0


def note_a_lost_start(game: Game, start: Any, names: list[str]) -> None:
    """Say (one line on stderr, before play) when the start is lost for the player to move:
    its opponent wins it with perfect play, whatever the mover does."""
    mover = game.mover(start)
    if perfect_results(game, start)[mover] == "loss":
        print(f"judge: note: this start is lost for player {mover + 1} "
              f"({printable_line(names[mover])}), who moves first: player {2 - mover} wins it "
              f"with perfect play", file=sys.stderr)


def play_interactive(game: Game, players: list[Player], start: Any, out: TextIO,
                     clocks: Sequence[Clock | None] = (None, None),
                     tell_time: bool = False) -> GameRecord:
    """A game with a human at the terminal; the dialogue goes to `out`.

    Undo and redo move whole turns, and only against players that can take moves back: a bot
    process cannot forget a move, so against a bot they are refused, as on a clock. A seat
    with a clock (`clocks[s]`) is charged as by the referee (a human's move from its prompt
    to its line), and the clocks' readings are said after each move. A bot's failure or a
    fallen flag loses the game as in any refereed game, and every player is closed at the
    end.
    """
    from judge.players.bot import BotPlayer
    from judge.players.human import HELP, HumanPlayer, Redo, Resigned, Undo
    from judge.referee import GameRecord, close_players, finish, timed_move

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    human = next(i for i, p in enumerate(players) if isinstance(p, HumanPlayer))
    timers = [None if c is None else SeatClock(c) for c in clocks]
    timed = any(t is not None for t in timers)
    takes_back = not timed and not any(isinstance(p, BotPlayer) for p in players)
    record = GameRecord(game.describe(), game.format_position(start), [p.name for p in players])
    history: list[tuple[Any, Any]] = []  # (position before, move)
    undone: list[tuple[Any, Any]] = []
    #: each move's seconds (a game on a clock) and its seat's clock after it, by ply
    times: list[tuple[float | None, float | None]] = []
    pos, seat = start, game.mover(start)
    try:
        for s, p in enumerate(players):
            p.begin(game, s)
        say(f"{game.describe()}: you are player {human + 1}; {HELP}")
        if timed:
            say(f"  {clocks_said(timers, players, human)}")
        started = time.perf_counter()
        while not game.is_over(pos):
            seat = game.mover(pos)
            if seat == human:
                say(game.render(pos))
            last = Played(*history[-1]) if history else None
            try:
                move, seconds = timed_move(players[seat], pos, last, timers[seat], tell_time,
                                           started)
            except (Undo, Redo) as asked:
                if not takes_back:
                    say("  undo and redo need an opponent that can take moves back "
                        "(optimal or human) and no clock; " + (
                            "a game on a clock cannot" if timed else "a bot program cannot"))
                    continue
                pos = _take_back(game, start, history, undone, human, isinstance(asked, Undo),
                                 say)
                del times[len(history):]
                times += [(None, None)] * (len(history) - len(times))
                continue
            if seat != human:
                say(f"  {players[seat].name} plays {game.move_words(move, pos)}")
            timer = timers[seat]
            history.append((pos, move))
            times.append((seconds if timed else None, None if timer is None else timer.left))
            undone.clear()
            pos = game.play(pos, move)
            if timer is not None:
                say(f"  {clocks_said(timers, players, human)}")
            started = time.perf_counter()
        say(game.render(pos))
        last = Played(*history[-1]) if history else None
        for p in players:
            p.end(pos, last)
    except Resigned as exc:
        record.verdict = Verdict(RESIGNED, f"{players[seat].name} resigned ({exc})", seat)
        say(f"  {players[seat].name} resigned")
    except (PlayerFailure, MoveError) as exc:
        record.verdict = Verdict(exc.code, str(exc), seat)
        if seat == human and exc.code == TIME_FORFEIT:  # (after the prompt, unanswered)
            say(f"\n  you lose on time: {exc}")
        else:
            say(f"  {players[seat].name} fails: {exc.code}: {exc}")
    finally:
        close_players(players, record)
    record.moves = [MoveRecord(game.mover(p), game.format_move(m, p), secs, None, left)
                    for (p, m), (secs, left) in zip(history, times, strict=True)]
    return finish(game, players, pos, record)


def clocks_said(timers: Sequence[SeatClock | None], players: Sequence[Player],
                human: int) -> str:
    """The clocks' readings in words: ``clocks: you 0:58.3, greedy.py 0:59.9`` (a seat
    without a clock: ``untimed``)."""
    words = [f"{'you' if s == human else printable_line(p.name)} "
             f"{'untimed' if t is None else reading(t.left)}"
             for s, (t, p) in enumerate(zip(timers, players, strict=True))]
    return "clocks: " + ", ".join(words)


def _take_back(game: Game, start: Any, history: list[tuple[Any, Any]],
               undone: list[tuple[Any, Any]], human: int, undo: bool,
               say: Callable[[str], None]) -> Any:
    """Undo the human's last turn (and the replies after it) or redo one move; the position."""
    if undo:
        mine = [i for i, (p, _) in enumerate(history) if game.mover(p) == human]
        if not mine:
            say("  nothing to undo")
        else:
            undone.extend(reversed(history[mine[-1]:]))  # the earliest taken back: redone first
            del history[mine[-1]:]
    elif not undone:
        say("  nothing to redo")
    else:
        history.append(undone.pop())
    return _replay(game, start, history)


def _replay(game: Game, start: Any, history: list[tuple[Any, Any]]) -> Any:
    pos = start
    for _, move in history:
        pos = game.play(pos, move)
    return pos


def play_text(game: Game, start: Any, record: PlayedGame, reviews: list[MoveReview],
              names: list[str], bot_seat: int) -> str:
    """The game as text: boards, moves with times and judgements, result and verdict."""
    judged_seats = {s for s, n in enumerate(names) if n not in OPPONENTS}
    names = [printable_line(n) for n in names]  # a bot's file name is the contestant's text
    out = [f"{game.describe()}: player 1 {names[0]}, player 2 {names[1]}",
           f"start: {game.format_position(start)}", game.render(start), ""]
    pos = start
    for i, m in enumerate(record.moves):
        seat = m.seat
        secs = "" if m.seconds is None else f"  ({m.seconds:.3f} s" + (
            ")" if m.clock is None else f", clock {reading(m.clock)})")
        move = game.parse_move(m.move, pos) if i < len(reviews) else None
        said = printable_line(m.move) if move is None else game.move_words(move, pos)
        line = f"{i + 1}. player {seat + 1} ({names[seat]}): {said}{secs}"
        if i < len(reviews) and seat in judged_seats:
            line += f"  {judged(reviews[i])}"
        out.append(line)
        if move is not None:
            pos = game.play(pos, move)
            out.append(game.render(pos))
        out.append("")
    results = record.results
    if record.void:
        out.append(f"result: void (judge error: {record.verdict.message})")
    else:
        mine = results[bot_seat]
        score = record.score
        extra = f" {score[bot_seat]}-{score[1 - bot_seat]}" if score else ""
        verb = {"win": "wins", "loss": "loses", "tie": "ties"}[mine]
        out.append(f"result: {names[bot_seat]} {verb}{extra}")
    verdict = record.verdict
    failed = verdict.seat
    who = f" (player {failed + 1}, {names[failed]})" if failed is not None else ""
    out.append(f"verdict: {verdict.code}{who}{verdict_message(verdict.message)}")
    for seat, tail in enumerate(record.stderr):
        if tail:  # what a bot wrote is escaped: it cannot repaint the verdict above
            out.append(f"stderr of player {seat + 1} (last lines):\n{printable(tail)}")
    return "\n".join(out) + "\n"


def verdict_message(message: str) -> str:
    """": message" for the verdict's line, escaped for a terminal; a message of several
    lines (a compile error) keeps its line breaks, each line indented under the verdict."""
    text = printable(message).rstrip("\n")
    if "\n" not in text:
        return f": {text}" if text else ""
    return ":" + "".join(f"\n  {line}" for line in text.split("\n"))


def verdict_of(record: PlayedGame, seat: int) -> tuple[str, str]:
    """The verdict code and message that concern `seat`: its own failure, a judge error that
    voided the game, or ok (with the game's note, such as a tie by the move limit)."""
    verdict = record.verdict
    if verdict.code == JUDGE_ERROR or verdict.seat == seat:
        return verdict.code, verdict.message
    if verdict.seat is None:
        return OK, verdict.message
    return OK, ""


def play_json(record: PlayedGame, reviews: list[MoveReview], bot_seat: int) -> dict:
    """The JSON record: the first bot's result and verdict on top, then the details."""
    results = record.results
    moves = []
    for i, m in enumerate(record.moves):
        entry = {**m.to_dict(), "seat": m.seat + 1, "ply": i + 1}
        if i < len(reviews):
            entry["review"] = {k: v for k, v in reviews[i].to_dict().items()
                               if k not in ("ply", "seat", "move")}  # said by the move
        moves.append(entry)
    verdicts = [verdict_of(record, s) for s in (0, 1)]
    failed = record.verdict.seat
    return {
        "result": "void" if results[bot_seat] == "none" else results[bot_seat],
        "verdict": verdicts[bot_seat][0],
        "message": verdicts[bot_seat][1],
        "game": record.game,
        "start": record.start,
        "seat": bot_seat + 1,
        "failed_seat": None if failed is None else failed + 1,
        "players": [{"name": n, "seat": s + 1,
                     "result": "void" if results[s] == "none" else results[s],
                     "verdict": verdicts[s][0], "message": verdicts[s][1],
                     "stderr_tail": (record.stderr or (None, None))[s]}
                    for s, n in enumerate(record.players)],
        "moves": moves,
        "final": record.final,
        "score": None if record.score is None else list(record.score),
    }
