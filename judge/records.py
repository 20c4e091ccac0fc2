"""A played game as a run keeps it: the referee's record with the game's place in the
schedule, its seed, the review of the bots' moves and the results under perfect play.

`PlayedGame` (made by `GameRecord.kept`) is what a game's play hands back (in this process,
on a pool worker or on a cluster worker), what the store writes and what it reads back. Its
JSON is written and read in one place (`to_json`, `from_json`), and `from_json` reads every
shape a results database holds: records written before games had seeds, before the results
under perfect play were kept, before reviews knew remoteness (and said `optimal`, `slow`),
before the bots' usage (CPU, wall time, peak memory) was kept.

`ViewedGame` is the same game as a viewer receives it (the HTML report's game viewer): each
move with its judgement, the board of every step, the result and verdict, as one typed record
whose compact JSON (`to_json`, `from_json`) is described by the schema
``judge/html/static/game-record.schema.json``, which the viewer's script follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, NamedTuple

from judge import verdicts
from judge.analysis import MoveReview
from judge.games.base import Seat
from judge.sandbox.limits import Usage
from judge.solvers.base import stored_value

#: a seat's result; VOID for both seats of a game a judge error voided
WIN, TIE, LOSS, VOID = "win", "tie", "loss", "none"


class MoveRecord(NamedTuple):
    """One move of a game: who made it, its wire text, and the time it took."""

    seat: Seat
    move: str
    #: wall seconds the move took (None in an interactive game)
    seconds: float | None
    #: CPU seconds the bot used for the move (None for players that are not processes)
    cpu_seconds: float | None = None
    #: seconds left on the seat's clock after the move, its increment added (None: no
    #: clock, or a record older than clocks)
    clock: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The move as plain JSON-serialisable data."""
        return {"seat": self.seat, "move": self.move, "seconds": self.seconds,
                "cpu_seconds": self.cpu_seconds, "clock": self.clock}


class Verdict(NamedTuple):
    """How a game ended (`judge.verdicts` code), with details and the seat charged."""

    code: str = verdicts.OK
    message: str = ""
    #: the seat that failed and lost; None when no player failed
    seat: Seat | None = None

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain JSON-serialisable data."""
        return {"code": self.code, "message": self.message, "seat": self.seat}


def usage_json(usage: Sequence[Usage | None]) -> list[dict[str, Any] | None]:
    """What each bot used, by seat, as plain data (None for a player that is not a
    process)."""
    return [None if u is None else u.to_dict() for u in usage]


class PlayedGame(NamedTuple):
    """One stored game: who played, from where, every move, how it ended and its review."""

    #: the game and its exact rules (`Game.describe`)
    game: str
    #: the start position in the game's notation
    start: str
    #: by seat: a bot's path, or "optimal" for the perfect player
    players: tuple[str, ...]
    moves: tuple[MoveRecord, ...] = ()
    #: "win", "tie" or "loss" by seat; "none" for both when the game is void
    results: tuple[str, ...] = ()
    verdict: Verdict = Verdict()
    #: the last position reached, and the score there for games that keep one
    final: str | None = None
    score: tuple[int, ...] | None = None
    #: the end of each bot's stderr, by seat (None for players that are not processes)
    stderr: tuple[str | None, ...] = ()
    #: its place in the run's schedule
    key: str | None = None
    #: the game's own seed (None: the run had none, or the record is older than seeds)
    seed: int | None = None
    #: the bots' moves judged against perfect play
    review: tuple[MoveReview, ...] = ()
    #: what each seat gets when both play perfectly (None in records older than it)
    perfect: tuple[str, ...] | None = None
    #: the cluster worker that played it, and that worker's confinement tier
    worker: str | None = None
    tier: str | None = None
    #: what each bot used, by seat (None for a player that is not a process, or a bot that
    #: did not start); None in records older than it
    usage: tuple[Usage | None, ...] | None = None

    @property
    def move_texts(self) -> list[str]:
        """Every move's wire text, in order."""
        return [m.move for m in self.moves]

    @property
    def clocks(self) -> tuple[float | None, ...] | None:
        """Each move's clock reading (seconds left after it; None for a seat without a
        clock), or None for a game played without clocks."""
        if all(m.clock is None for m in self.moves):
            return None
        return tuple(m.clock for m in self.moves)

    @property
    def void(self) -> bool:
        """Whether a judge error voided the game (it counts for no one)."""
        return bool(self.results) and self.results[0] == VOID

    def seat_of(self, bot: str) -> int:
        """The seat `bot` held (the first, if it played itself)."""
        return self.players.index(bot)

    def first_move_failure(self, seat: int) -> str | None:
        """The verdict that ended the game before `seat` made a move, charged to it; None if
        it moved, or did not fail."""
        if self.verdict.seat != seat or any(m.seat == seat for m in self.moves):
            return None
        return self.verdict.code

    def result_for(self, seat: int) -> str | None:
        """win / tie / loss for `seat`, or None for a void game."""
        result = self.results[seat]
        return None if result == VOID else result

    def to_json(self) -> dict[str, Any]:
        """The record as the database holds it (built directly: this runs once per game)."""
        data: dict[str, Any] = {
            "game": self.game, "start": self.start, "players": list(self.players),
            "moves": [m.to_dict() for m in self.moves], "results": list(self.results),
            "verdict": self.verdict.to_dict(), "final": self.final,
            "score": None if self.score is None else list(self.score),
            "stderr": list(self.stderr),
        }
        if self.usage is not None:
            data["usage"] = usage_json(self.usage)
        data.update(key=self.key, seed=self.seed, review=[r.to_dict() for r in self.review],
                    perfect=None if self.perfect is None else list(self.perfect))
        if self.worker is not None:
            data["worker"] = self.worker
        if self.tier is not None:
            data["tier"] = self.tier
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayedGame:
        """A record as any version of the judge stored it (what a review flags, such as
        `mistake` or `optimal`, is computed again from the values it keeps)."""
        verdict = data.get("verdict") or {}
        score, perfect, usage = data.get("score"), data.get("perfect"), data.get("usage")
        return cls(
            game=data.get("game", ""), start=data.get("start", ""),
            players=tuple(data.get("players") or ()),
            moves=tuple(MoveRecord(m["seat"], m["move"], m.get("seconds"),
                                   m.get("cpu_seconds"), m.get("clock"))
                        for m in data.get("moves") or ()),
            results=tuple(data.get("results") or ()),
            verdict=Verdict(verdict.get("code", verdicts.OK), verdict.get("message", ""),
                            verdict.get("seat")),
            final=data.get("final"),
            score=None if score is None else tuple(score),
            stderr=tuple(data.get("stderr") or ()),
            key=data.get("key"), seed=data.get("seed"),
            review=tuple(MoveReview(r["ply"], r["seat"], r["move"], stored_value(r["before"]),
                                    stored_value(r["after"]),
                                    list(r["best_moves"]), r.get("lead", 0),
                                    r.get("remoteness"), r.get("move_remoteness"))
                         for r in data.get("review") or ()),
            perfect=None if perfect is None else tuple(perfect),
            worker=data.get("worker"), tier=data.get("tier"),
            usage=None if usage is None else tuple(
                None if u is None else Usage(u["cpu_seconds"], u["wall_seconds"],
                                             u["memory_bytes"], u.get("oom_killed", False))
                for u in usage),
        )


class Judgement(Enum):
    """How the viewer marks a move, by the one-letter code of its JSON."""

    OPTIMAL = "o"
    SLOW = "s"
    MISTAKE = "m"
    #: the move that lost the game
    LOST = "l"
    #: the move that turned a won game into a draw
    DREW = "d"
    #: the move that could not be played (the illegal last move of a forfeited game)
    ILLEGAL = "x"
    UNJUDGED = ""


@dataclass(frozen=True)
class ViewedMove:
    """One move as the viewer shows it; its JSON is the row
    ``[move, seat, milliseconds, judgement]``, with the judgement's text last when shown."""

    #: the move's wire text, printable
    move: str
    seat: Seat
    #: wall milliseconds, one decimal (None in an interactive game)
    milliseconds: float | None
    judgement: Judgement = Judgement.UNJUDGED
    #: the judgement in words, as `judge play` words it (empty: none shown)
    text: str = ""

    def to_json(self) -> list[Any]:
        """The move's row."""
        row: list[Any] = [self.move, self.seat, self.milliseconds, self.judgement.value]
        if self.text:
            row.append(self.text)
        return row

    @classmethod
    def from_json(cls, row: list[Any]) -> ViewedMove:
        """A move from its row."""
        return cls(row[0], row[1], row[2], Judgement(row[3]), row[4] if len(row) > 4 else "")


def _key(name: str, *, always: bool = False) -> Any:
    """A field of `ViewedGame` written under the JSON key `name`; unless `always`, left out
    of the JSON when None."""
    if always:
        return field(metadata={"json": name, "always": True})
    return field(default=None, metadata={"json": name, "always": False})


@dataclass(frozen=True)
class ViewedGame:
    """One stored game as the viewer receives it (JSON keys kept short: a run may hold many
    games). The boards and what each move touched are the game's own drawable data."""

    #: the game's number in the run (as `judge show RUN --game N` takes it)
    number: int = _key("n", always=True)
    #: display names by seat (the perfect player named as the run's opponent kind)
    players: tuple[str, ...] = _key("p", always=True)
    #: the graded seat of a grading run's game, None in a tournament or a match
    graded: int | None = _key("g", always=True)
    #: the start position in the game's notation
    start: str = _key("s", always=True)
    moves: tuple[ViewedMove, ...] = _key("m", always=True)
    #: the board of every step (step 0 is the start), one list per key the game defines
    boards: dict[str, list[Any]] = _key("b", always=True)
    #: by step, the parts of the board its move touched (as the game names them)
    touched: list[list[Any]] = _key("t", always=True)
    #: "win", "tie", "loss" by seat, or "none" for both in a void game
    results: tuple[str, ...] = _key("res", always=True)
    #: how it ended, its message as shown
    verdict: Verdict = _key("v", always=True)
    #: the number of the first move that could not be played
    broken: int | None = _key("x")
    #: what each seat gets under perfect play (None: not shown, or not known)
    perfect: tuple[str, ...] | None = _key("pf")
    score: tuple[int, ...] | None = _key("sc")
    final: str | None = _key("fin")
    seed: int | None = _key("seed")
    #: by seat, the end of a bot's stderr ("" for none)
    stderr: tuple[str, ...] | None = _key("e")
    #: by seat, what a bot used, as text (None for the judge's players)
    usage: tuple[str | None, ...] | None = _key("u")
    #: by seat, a bot's slow moves, as text ("" for none)
    slow: tuple[str, ...] | None = _key("sl")
    #: each move as the game names it (`Game.move_label`), as far as the moves could be
    #: played (None where every name is the move's own text, or the page names them)
    labels: tuple[str, ...] | None = _key("ml")
    #: each move's clock reading, the seconds left after it (None in it: a player without
    #: a clock; None: a game without clocks)
    clocks: tuple[float | None, ...] | None = _key("c")

    def to_json(self) -> dict[str, Any]:
        """The game as the viewer reads it."""
        data: dict[str, Any] = {}
        for f in VIEWED_FIELDS:
            value = getattr(self, f.name)
            if value is None and not f.metadata["always"]:
                continue
            if f.name == "moves":
                value = [m.to_json() for m in value]
            elif isinstance(value, tuple):  # (the verdict too: a named tuple)
                value = list(value)
            data[f.metadata["json"]] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ViewedGame:
        """The game from what `to_json` wrote."""
        values: dict[str, Any] = {}
        for f in VIEWED_FIELDS:
            value: Any = data.get(f.metadata["json"])
            if f.name == "moves":
                value = tuple(ViewedMove.from_json(m) for m in value)
            elif f.name == "verdict":
                value = Verdict(*value)
            elif isinstance(value, list) and f.name != "touched":
                value = tuple(value)
            values[f.name] = value
        return cls(**values)


#: the fields of `ViewedGame`, in the order of its JSON
VIEWED_FIELDS = fields(ViewedGame)
