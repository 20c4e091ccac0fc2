"""What a stored run's games add up to, the typed rows of every kind of run: a grading run's
rows per bot and per game, a tournament's standings and crosstable, a match's pentanomial
and SPRT (each kind builds its own in `judge.kinds`), and a bot's line over its games.
The tables, the HTML report and the transcripts are drawn from these typed rows; each row's
`to_json` is what `--format json` gives of it. (The rows are named tuples: as immutable as
frozen dataclasses, and a tenth of their cost to define, which every command pays.)"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from judge.plan import Plan
from judge.results import (
    Feedback,
    compile_error,
    failure_of,
    game_message,
    mistake_json,
    mistake_text,
    move_accuracy,
    slow_json,
    slow_moves,
)

if TYPE_CHECKING:
    from judge.analysis import MoveReview
    from judge.records import PlayedGame
    from judge.sandbox.limits import Usage


#: a bot row's fields that name the bots it looks like one program with (a grading run's)
TWIN_FIELDS = ("same_file", "same_source", "same_mistakes")


class BotRow(NamedTuple):
    """One bot's line: games, wins, ties, losses, points of the most it could score,
    failures by verdict, void games, the share of its moves that kept the value of the
    position, the compiler's message when it did not compile, its slow moves (winning,
    not the fastest), and the most CPU, wall time and memory it used in a game (None
    without a game that recorded them) with the games it was killed for memory in."""

    bot: str
    games: int
    wins: int
    ties: int
    losses: int
    points: float
    max_points: float
    failures: dict[str, int]
    judge_errors: int
    accuracy: float | None
    compile_error: str | None = None
    #: a grading run's other bots whose files have the same content
    same_file: tuple[str, ...] = ()
    #: a grading run's other bots with most of their source in common with it
    #: (`judge.similarity`), directly or through others
    same_source: tuple[str, ...] = ()
    #: a grading run's other bots that made the same mistakes in the same positions
    same_mistakes: tuple[str, ...] = ()
    slow_moves: int = 0
    max_cpu_seconds: float | None = None
    max_wall_seconds: float | None = None
    max_memory_bytes: int | None = None
    oom_killed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The row as `--format json` gives it."""
        data = self._asdict()
        data.update(same_file=list(self.same_file), same_source=list(self.same_source),
                    same_mistakes=list(self.same_mistakes))
        return data


class SwissScore(NamedTuple):
    """An entrant's Swiss score in points of games (a bye: a won pair, 2) and its
    tie-breaks (`judge.pairing.standings`), over the rounds played to the end."""

    points: float
    buchholz: float
    sonneborn_berger: float
    byes: int


class Standing(NamedTuple):
    """A tournament entrant's line: its bot's line, and its rating with a 95% interval
    (None without a game played to a result); in a Swiss its score and tie-breaks."""

    row: BotRow
    rating: float | None
    rating_low: float | None
    rating_high: float | None
    swiss: SwissScore | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as `--format json` gives it."""
        row = {k: v for k, v in self.row.to_json().items()
               if k not in TWIN_FIELDS}  # flagged in grading runs only
        swiss = {} if self.swiss is None else {"swiss": self.swiss._asdict()}
        return {**row, "rating": self.rating, "rating_low": self.rating_low,
                "rating_high": self.rating_high, **swiss}


class GradedGame(NamedTuple):
    """One game of a grading run, from the graded bot's side (`seat` from 1)."""

    bot: str
    start: str
    seat: int
    #: win, tie, loss, or void
    result: str
    verdict: str
    message: str
    first_mistake: MoveReview | None
    moves: list[str]
    #: the bot's slow moves (winning, not the fastest)
    slow: tuple[MoveReview, ...] = ()
    #: what the bot used (None in records older than it, or a bot that did not start)
    usage: Usage | None = None
    #: each move's clock reading (None: played without clocks)
    clocks: tuple[float | None, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as `--format json` gives it (``clocks`` only for a game on clocks)."""
        return {"bot": self.bot, "start": self.start, "seat": self.seat,
                "result": self.result, "verdict": self.verdict, "message": self.message,
                "first_mistake": mistake_json(self.first_mistake), "moves": list(self.moves),
                **clocks_json(self.clocks), "slow_moves": slow_json(self.slow),
                "usage": None if self.usage is None else self.usage.to_dict()}


def clocks_json(clocks: tuple[float | None, ...] | None) -> dict[str, Any]:
    """A game's ``clocks`` for `--format json`: each move's clock reading (seconds left
    after it; null for a seat without a clock), and nothing for a game without clocks."""
    return {} if clocks is None else {"clocks": list(clocks)}


class ListedGame(NamedTuple):
    """One game of a tournament or a match: who played it, how it ended, and the earlier
    game it repeats move for move, if any."""

    key: str
    players: tuple[str, ...]
    start: str
    results: tuple[str, ...]
    verdict: str
    message: str
    moves: list[str]
    #: the key of the first game with the same players, start and moves
    identical_to: str | None
    seed: int | None
    #: a match's pair (from 1); None in a tournament
    pair: int | None = None
    #: by seat: the slow moves of a bot (winning, not the fastest)
    slow: tuple[tuple[MoveReview, ...], ...] = ((), ())
    #: by seat: what a bot used (None for the judge's players; all None in old records)
    usage: tuple[Usage | None, ...] = (None, None)
    #: each move's clock reading (None: played without clocks)
    clocks: tuple[float | None, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as `--format json` gives it (``clocks`` only for a game on clocks)."""
        data: dict[str, Any] = {"key": self.key}
        if self.pair is not None:
            data["pair"] = self.pair
        data.update(players=list(self.players), start=self.start, results=list(self.results),
                    verdict=self.verdict, message=self.message, moves=list(self.moves),
                    **clocks_json(self.clocks), identical_to=self.identical_to, seed=self.seed,
                    slow_moves=[slow_json(s) for s in self.slow],
                    usage=[None if u is None else u.to_dict() for u in self.usage])
        return data


class Tie(NamedTuple):
    """A knockout's tie in round `round` (from 1): the higher seed, the lower (None: a
    bye), the higher seed's points of each game pair played (0 to 2), and who goes on
    (None: not decided yet)."""

    round: int
    high: str
    low: str | None
    points: tuple[float, ...]
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        """The tie as `--format json` gives it."""
        return self._asdict()


class Standings(NamedTuple):
    """A tournament: standings (best first), crosstable (points of each against each),
    how many games repeat an earlier one, and the games; a knockout's ties."""

    standings: list[Standing]
    crosstable: dict[str, dict[str, float]]
    identical_games: int
    games: list[ListedGame]
    ties: list[Tie] | None = None

    def to_json(self) -> dict[str, Any]:
        """What `--format json` gives of it."""
        ties = {} if self.ties is None else {"ties": [t.to_json() for t in self.ties]}
        return {"standings": [s.to_json() for s in self.standings],
                "crosstable": self.crosstable, "identical_games": self.identical_games,
                "games": [{"game": n, **g.to_json()} for n, g in enumerate(self.games, 1)],
                **ties}


class MatchStats(NamedTuple):
    """A match's pentanomial from BOT_A's view and what follows from it (see
    `judge.sprt.summary`), with BOT_A's wins, ties and losses and the pairs a void game
    left out."""

    pairs: int
    pentanomial: list[int]
    score: float | None
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    elo_error: float | None
    los: float | None
    llr: float
    llr_bounds: list[float]
    decision: str | None
    wins: int
    ties: int
    losses: int
    void_pairs: int

    def to_json(self) -> dict[str, Any]:
        """What `--format json` gives of it."""
        return self._asdict()


@dataclass(frozen=True)
class View:
    """What a rendering of a run shows, applied to its rows in this one place: how much of
    the solution (`feedback`), and whether it is meant for sharing (`share`: bots by their
    display names, no path of the organiser's files or folders in any text)."""

    feedback: Feedback = Feedback.FULL
    share: bool = False
    #: each player's display name (path -> name)
    names: Mapping[str, str] = field(default_factory=dict)
    #: the folder the run was started in
    directory: str = ""

    @classmethod
    def of(cls, plan: Plan, feedback: Feedback = Feedback.FULL, share: bool = False) -> View:
        """The view of `plan`'s run at `feedback`, for sharing or not."""
        return cls(feedback, share, plan.display_names(), plan.directory)

    def name(self, who: str) -> str:
        """A player as the output names it: by its display name when shared, else as
        given."""
        return self.names.get(who, who) if self.share else who

    def text(self, text: str) -> str:
        """A message, a key or a bot's stderr as the output gives it: when shared, every
        bot's path (as given or absolute) is its display name and the run's folder is
        gone (a path only where it stands whole: not inside a longer name)."""
        if not self.share or not text:
            return text
        found, pattern = self._paths
        return pattern.sub(lambda m: found[m.group(0)], text) if found else text

    @cached_property
    def _paths(self) -> tuple[dict[str, str], re.Pattern[str]]:
        """What `text` replaces, and the pattern that finds it (longest first)."""
        found = {}
        for path, name in self.names.items():
            if path != name:
                found.update({os.path.abspath(os.path.join(self.directory, path)): name,
                              path: name})
        if self.directory:  # the folder's other files: ./starts.txt
            found[self.directory.rstrip("/")] = "."
        olds = sorted(found, key=len, reverse=True)
        return found, re.compile(r"(?<![\w./-])(?:" + "|".join(map(re.escape, olds))
                                 + r")(?![\w.-]*\w)" if olds else "$^")

    def bot_row(self, row: BotRow) -> BotRow:
        """A bot's line as shown: accuracy only where moves are judged; which bots look like
        one program is the teacher's to know, never in shared output."""
        def named(bots: tuple[str, ...]) -> tuple[str, ...]:
            return () if self.share else tuple(map(self.name, bots))

        return row._replace(bot=self.name(row.bot),
                            accuracy=row.accuracy if self.feedback.mistakes else None,
                            compile_error=row.compile_error and self.text(row.compile_error),
                            same_file=named(row.same_file),
                            same_source=named(row.same_source),
                            same_mistakes=named(row.same_mistakes))

    def bot_json(self, row: BotRow) -> dict[str, Any]:
        """A bot's line as `--format json` gives it (no accuracy at `results`, slow moves
        only with the solution: they say which moves were not the fastest)."""
        data = self.bot_row(row).to_json()
        if not self.feedback.mistakes:
            del data["accuracy"]
        if not self.feedback.solution:
            del data["slow_moves"]
        return data

    def game_json(self, game: GradedGame) -> dict[str, Any]:
        """A game's row as `--format json` gives it: the first mistake as `feedback`
        allows (none at `results`)."""
        data = game.to_json()
        data.update(bot=self.name(game.bot), message=self.text(game.message),
                    first_mistake=mistake_json(game.first_mistake, self.feedback))
        if not self.feedback.mistakes:
            del data["first_mistake"]
        if not self.feedback.solution:
            del data["slow_moves"]
        return data

    def mistake_text(self, game: GradedGame) -> str:
        """A game's first mistake for a table, as `feedback` allows."""
        return mistake_text(game.first_mistake, self.feedback) if self.feedback.mistakes \
            else ""

    def headers(self, headers: Iterable[str]) -> list[str]:
        """A table's columns less those `feedback` hides (accuracy, first mistakes, slow
        moves)."""
        hidden = () if self.feedback.mistakes else ("accuracy", "first_mistake")
        if not self.feedback.solution:
            hidden = (*hidden, "slow")
        return [h for h in headers if h not in hidden]


def summarise(bot: str, records: list[tuple[PlayedGame, int]],
              points: dict[str, float]) -> BotRow:
    """One bot's line over its games (record, the bot's seat), scored by `points`."""
    outcomes = Counter(rec.result_for(seat) for rec, seat in records)
    judge_errors = outcomes.pop(None, 0)
    results = Counter({r: n for r, n in outcomes.items() if r is not None})
    failures = Counter(f for rec, seat in records if (f := failure_of(rec, seat)))
    good, total = move_accuracy(records)
    used = [u for rec, seat in records if rec.usage and (u := rec.usage[seat]) is not None]
    return BotRow(
        bot=bot, games=sum(results.values()), wins=results["win"], ties=results["tie"],
        losses=results["loss"], points=sum(points[r] * n for r, n in results.items()),
        # what perfect play would have scored in the same games
        max_points=sum(points[(rec.perfect or ("win", "win"))[seat]]
                       for rec, seat in records if not rec.void),
        failures=dict(sorted(failures.items())), judge_errors=judge_errors,
        accuracy=round(good / total, 4) if total else None,
        compile_error=compile_error(records),
        slow_moves=sum(len(slow_moves(rec, seat)) for rec, seat in records),
        max_cpu_seconds=max((u.cpu_seconds for u in used), default=None),
        max_wall_seconds=max((u.wall_seconds for u in used), default=None),
        max_memory_bytes=max((u.memory_bytes for u in used if u.memory_bytes is not None),
                             default=None),
        oom_killed=sum(u.oom_killed for u in used))


def listed_games(records: Iterable[tuple[str, PlayedGame]], paired: bool = False
                 ) -> list[ListedGame]:
    """The games in the order given, each with the first earlier one it repeats move for
    move (`paired`: a match's, numbered by pair)."""
    seen: dict[tuple, str] = {}
    games = []
    for key, rec in records:
        moves = rec.move_texts
        twin = seen.setdefault((*rec.players, rec.start, tuple(moves)), key)
        games.append(ListedGame(key, rec.players, rec.start, rec.results, rec.verdict.code,
                                game_message(rec), moves, None if twin == key else twin,
                                rec.seed, pair_number(key) if paired else None,
                                tuple(tuple(slow_moves(rec, s)) for s in (0, 1)),
                                rec.usage or (None, None), rec.clocks))
    return games


def pair_number(key: str) -> int:
    """The pair (from 1) of a stored game's key."""
    return int(key.split("|", 1)[0])


