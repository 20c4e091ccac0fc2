"""One game between two players: turns, limits, the verdict and the transcript."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge import verdicts
from judge.analysis import MoveReview
from judge.clock import Clock, SeatClock
from judge.games.base import MoveError, Seat
from judge.players.base import OutOfTime, Played, Player, PlayerFailure, Table
from judge.players.bot import BotPlayer
from judge.records import LOSS, TIE, VOID, WIN, MoveRecord, PlayedGame, Verdict, usage_json
from judge.sandbox import Limits, Usage


@dataclass
class GameRecord:
    """Everything about one finished game, ready to store or print (see `to_dict`)."""

    #: the game and its exact rules (`Facts.describe`)
    game: str
    #: the start position in the game's notation
    start: str
    #: the players' names, by seat
    players: list[str]
    moves: list[MoveRecord] = field(default_factory=list)
    #: "win", "tie" or "loss" by seat; "none" for both when the game is void (judge-error)
    results: list[str] = field(default_factory=list)
    verdict: Verdict = field(default_factory=Verdict)
    #: the last position reached, and the score there for games that keep one
    final: str = ""
    score: list[int] | None = None
    #: the end of each bot's stderr, by seat (None for players that are not processes)
    stderr: list[str | None] = field(default_factory=list)
    #: what each bot used, by seat (None for players that are not processes)
    usage: list[Usage | None] = field(default_factory=list)
    #: each move as played: the position before it and the move (not stored: what the
    #: review of this game need not parse and play again)
    played: list[tuple[Any, Any]] = field(default_factory=list, repr=False)

    def kept(self, *, players: Sequence[str] | None = None, key: str | None = None,
             seed: int | None = None, review: Sequence[MoveReview] = (),
             perfect: Sequence[str] | None = None) -> PlayedGame:
        """The game as a run keeps it, with what the run adds (`players`: the names the
        run knows them by, when not the players' own)."""
        return PlayedGame(self.game, self.start,
                          tuple(self.players if players is None else players),
                          tuple(self.moves), tuple(self.results), self.verdict, self.final,
                          None if self.score is None else tuple(self.score),
                          tuple(self.stderr), key, seed, tuple(review),
                          None if perfect is None else tuple(perfect),
                          usage=tuple(self.usage))

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-serialisable data (what `dataclasses.asdict` gives but
        for `played`, which is not stored; built directly: this runs once per game)."""
        return {
            "game": self.game, "start": self.start, "players": list(self.players),
            "moves": [m.to_dict() for m in self.moves],
            "results": list(self.results),
            "verdict": self.verdict.to_dict(),
            "final": self.final, "score": None if self.score is None else list(self.score),
            "stderr": list(self.stderr),
            "usage": usage_json(self.usage),
        }


def play_game(
    game: Table[Any, Any],
    players: Sequence[Player],
    start: Any,
    limits: Limits | None = None,
    on_move: Callable[[MoveRecord, Any], None] | None = None,
    clocks: Sequence[Clock | None] = (None, None),
    tell_time: bool = False,
) -> GameRecord:
    """Play one game from `start`, `players[s]` holding seat `s`; always closes both players.

    Every `PlayerFailure` or `MoveError` loses the game for the player that raised it; any
    other exception is a judge error that voids the game. A loopy game stops as a tie after
    `limits.move_limit` moves. `on_move` is called with each move and the position after it.
    A seat with a clock (`clocks[s]`) is charged each move's wall time, its bot stopped
    when the clock runs out (told its clock before each move with `tell_time`); a move
    beyond the clock loses on time (``time-forfeit``).
    """
    if len(players) != 2:
        raise ValueError(f"a game needs two players, not {len(players)}")
    limits = limits or Limits()
    record = GameRecord(game.describe(), game.format_position(start), [p.name for p in players])
    pos, last = start, None
    seat: Seat = 0
    timers = [None if c is None else SeatClock(c) for c in clocks]
    bots = [isinstance(p, BotPlayer) for p in players]
    for player in players:  # a bot cannot take the CPU of an opponent bot that thinks
        if isinstance(player, BotPlayer):
            player.takes_turns = all(bots)
    try:
        try:
            for seat, player in enumerate(players):
                player.begin(game, seat)
            while not game.is_over(pos):
                if game.loopy and len(record.moves) >= limits.move_limit:
                    record.verdict = Verdict(
                        message=f"a tie by the move limit of {limits.move_limit}")
                    break
                seat = game.mover(pos)
                player = players[seat]
                timer = timers[seat]
                move, seconds = timed_move(player, pos, last, timer, tell_time)
                cpu = player.last_cpu if isinstance(player, BotPlayer) else None
                moved = MoveRecord(seat, game.format_move(move, pos), seconds, cpu,
                                   None if timer is None else timer.left)
                record.moves.append(moved)
                record.played.append((pos, move))
                last, pos = Played(pos, move), game.play(pos, move)
                if on_move is not None:
                    on_move(moved, pos)
            for seat in (0, 1):  # (a failure at its end is its own)
                players[seat].end(pos, last)
        except (PlayerFailure, MoveError) as exc:
            record.verdict = Verdict(exc.code, str(exc), seat)
    except Exception as exc:  # the judge's own failure: never charged to a player
        record.verdict = Verdict(verdicts.JUDGE_ERROR, f"{type(exc).__name__}: {exc}")
    finally:
        close_players(players, record)
    return finish(game, players, pos, record)


def timed_move(player: Player, pos: Any, last: Played | None, timer: SeatClock | None,
               tell_time: bool = False, started: float | None = None) -> tuple[Any, float]:
    """`player`'s move at `pos` and the seconds it took since `started` (a
    `time.perf_counter` reading; default: now), charged to `timer` (the seat's clock, None:
    none), which the player is first told (`Player.clocked`; a bot reads its clock's line
    with `tell_time`). `PlayerFailure` ``time-forfeit`` when the flag falls."""
    if started is None:
        started = time.perf_counter()
    if timer is not None:
        spent = time.perf_counter() - started
        player.clocked(timer.allowance() - spent, timer.told() if tell_time else None)
    try:
        move = player.choose(pos, last)
    except OutOfTime:  # stopped at its allowance: the flag fell
        assert timer is not None
        seconds = max(time.perf_counter() - started, timer.allowance())
        timer.charge(seconds)
        raise flag_fell(timer, seconds) from None
    seconds = time.perf_counter() - started
    if timer is not None and not timer.charge(seconds):
        raise flag_fell(timer, seconds)
    return move, seconds


def flag_fell(timer: SeatClock, seconds: float) -> PlayerFailure:
    """The verdict of a seat whose clock ran out on its move, which took `seconds`."""
    return PlayerFailure(
        verdicts.TIME_FORFEIT,
        f"move {timer.moved}: its clock ran out ({max(timer.left, 0.0):.3f} s left of "
        f"{timer.clock.text()}; the move took {seconds:.3f} s)")


def not_played(game: Table[Any, Any], start: Any, names: Sequence[str], seat: Seat,
               message: str) -> GameRecord:
    """The record of a game that was not played, lost by `seat` for the reason `message`
    (worded by `verdicts.not_played_message`)."""
    record = GameRecord(game.describe(), game.format_position(start), list(names),
                        verdict=Verdict(verdicts.NOT_PLAYED,
                                        verdicts.not_played_message(message), seat))
    record.results = [LOSS if s == seat else WIN for s in (0, 1)]
    record.final = record.start
    score = game.score(start)
    record.score = list(score) if score is not None else None
    record.stderr = [None, None]
    record.usage = [None, None]
    return record


def close_players(players: Sequence[Player], record: GameRecord) -> None:
    """Close every player; a failure to close voids the game unless a bot already failed."""
    for player in players:
        try:
            player.close()
        except Exception as exc:
            if record.verdict.seat is None:  # a bot's failure stands; otherwise void
                message = f"closing {player.name}: {type(exc).__name__}: {exc}"
                record.verdict = Verdict(verdicts.JUDGE_ERROR, message)


def finish(game: Table[Any, Any], players: Sequence[Player], pos: Any,
           record: GameRecord) -> GameRecord:
    """Fill in the results, final position, score, stderr tails and usage of a game that
    ended at `pos`."""
    record.results = _results(game, pos, record)
    record.final = game.format_position(pos)
    score = game.score(pos)
    record.score = list(score) if score is not None else None
    record.stderr = [p.stderr if isinstance(p, BotPlayer) else None for p in players]
    record.usage = [p.usage if isinstance(p, BotPlayer) else None for p in players]
    return record


def _results(game: Table[Any, Any], pos: Any, record: GameRecord) -> list[str]:
    if record.verdict.code == verdicts.JUDGE_ERROR:
        return [VOID, VOID]
    if record.verdict.seat is not None:
        return [LOSS if s == record.verdict.seat else WIN for s in (0, 1)]
    if not game.is_over(pos):  # stopped by the move limit
        return [TIE, TIE]
    winner = game.winner(pos)
    return [TIE, TIE] if winner is None else [WIN if s == winner else LOSS for s in (0, 1)]
