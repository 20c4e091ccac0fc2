"""Every move of a game judged against perfect play: where value was given away, and how much."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

from judge.games.base import MoveError
from judge.players.base import Table
from judge.solvers import solver_for
from judge.solvers.base import Outcome, Value, order


class MoveReview(NamedTuple):
    """One move seen by the solver: the value before, what the move kept, the right moves."""

    ply: int  # 1 for the first move of the game
    seat: int
    move: str
    before: Value  # the value of the position for the mover
    after: Value  # what the mover still gets after this move
    best_moves: list[str]
    lead: int = 0  # in scoring games: the mover's bank minus the opponent's before the move
    #: moves to the end under perfect play: from the position, and after this move (+1)
    remoteness: int | None = None
    move_remoteness: int | None = None

    @property
    def mistake(self) -> bool:
        """Whether the move gave value away."""
        return order(self.after) < order(self.before)

    @property
    def slow(self) -> bool:
        """A winning move that keeps the win but not the fastest one (it makes no progress
        in a loopy game)."""
        return (self.before is Outcome.WIN and self.after is Outcome.WIN
                and self.remoteness is not None and self.move_remoteness is not None
                and self.move_remoteness > self.remoteness)

    @property
    def remoteness_lost(self) -> int:
        """How many moves longer the win takes after this move than after the fastest one
        (0 unless the move was slow)."""
        if not self.slow or self.remoteness is None or self.move_remoteness is None:
            return 0
        return self.move_remoteness - self.remoteness

    @property
    def optimal(self) -> bool:
        """Kept the value, and in a won position also made the fastest progress."""
        return not self.mistake and not self.slow

    @property
    def changed_result(self) -> bool:
        """Whether it turned a won game into a draw or loss, or a drawn one into a loss."""
        return result_sign(self.after, self.lead) < result_sign(self.before, self.lead)

    @property
    def lost_game(self) -> bool:
        """Whether it changed the result to a loss (a won or drawn game now lost); a won game
        turned into a draw changed the result without losing it."""
        return self.changed_result and result_sign(self.after, self.lead) < 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, with `optimal`, `mistake`, `slow` and `changed_result`."""
        return {"ply": self.ply, "seat": self.seat, "move": self.move, "before": self.before,
                "after": self.after, "best_moves": list(self.best_moves), "lead": self.lead,
                "remoteness": self.remoteness, "move_remoteness": self.move_remoteness,
                "optimal": self.optimal, "mistake": self.mistake, "slow": self.slow,
                "changed_result": self.changed_result}


def result_sign(value: Value, lead: int) -> int:
    """How the game ends for the mover under perfect play: 1 won, 0 drawn or tied, -1 lost
    (`value` as the solver gives it; `lead`: the mover's bank minus the opponent's)."""
    return value.sign(lead)


def review(game: Table[Any, Any], start: Any, moves: Sequence[str],
           seats: Collection[int] = (0, 1),
           played: Sequence[tuple[Any, Any]] | None = None) -> list[MoveReview]:
    """Replay wire-syntax `moves` from `start` and judge each one of `seats` with the solver
    (`played`: each move's position and parsed move, as the referee had them, if known)."""
    if played is None:
        played = replay(game, start, moves)
    elif len(played) != len(moves):
        raise ValueError(f"{len(played)} moves played, {len(moves)} to review")
    solver = solver_for(game)
    out = []
    # (a replay stops at an illegal last move: the moves after it are not reviewed)
    for ply, (line, (pos, move)) in enumerate(zip(moves, played, strict=False), 1):
        seat = game.mover(pos)
        if seat not in seats:
            continue
        ev = solver.evaluate(pos)
        mv = solver.move_value(pos, move)
        score = game.score(pos)
        lead = score[seat] - score[1 - seat] if score else 0
        out.append(MoveReview(ply, seat, line, ev.value, mv.value,
                              [game.format_move(m, pos) for m in ev.best_moves], lead,
                              ev.remoteness, mv.remoteness))
    return out


def replay(game: Table[Any, Any], start: Any, moves: Sequence[str]) -> list[tuple[Any, Any]]:
    """Each of the wire-syntax `moves` from `start` with the position it was made from,
    parsed; up to an illegal one (the last move of a forfeited game: nothing to review)."""
    out = []
    pos = start
    for line in moves:
        try:
            move = game.parse_move(line, pos)
        except MoveError:
            break
        out.append((pos, move))
        pos = game.play(pos, move)
    return out


def perfect_results(game: Table[Any, Any], start: Any) -> list[str]:
    """What each seat gets from `start` when both play perfectly: win, tie or loss."""
    value = solver_for(game).evaluate(start).value
    mover = game.mover(start)
    score = game.score(start)
    lead = score[mover] - score[1 - mover] if score else 0
    sign = result_sign(value, lead)
    names = {1: "win", 0: "tie", -1: "loss"}
    results = ["", ""]
    results[mover], results[1 - mover] = names[sign], names[-sign]
    return results


def judged(r: MoveReview) -> str:
    """`optimal`, or the mistake with its values and the right moves."""
    if r.slow:
        return (f"slow: still wins, but in {r.move_remoteness} moves instead of "
                f"{r.remoteness}; fastest: {', '.join(r.best_moves)}")
    if not r.mistake:
        return "optimal"
    lost = ""
    if r.changed_result:
        won = r.before.sign(r.lead) > 0
        lost = " (this move threw away the win)" if won else " (this move lost the game)"
    return (f"MISTAKE{lost}: value {r.before} -> {r.after}; "
            f"right: {', '.join(r.best_moves)}")
