"""What a league's stored games add up to: every version's skill with its uncertainty, its
line (games, wins, ties, losses, accuracy, failures, as a tournament's), whether it is
broken, its rating after each of its games, and the leaderboard. The games are taken in
the order they were matched (their keys' numbers), one by one, so that the play loop and
`judge league show` rate them alike."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from judge.plan import LeaguePlan, Member
from judge.ratings import Skill, Skills
from judge.results import TOURNAMENT_POINTS
from judge.summaries import BotRow, summarise

if TYPE_CHECKING:
    from judge.records import PlayedGame


def game_number(key: str) -> int:
    """The number (from 1) a league gave a game when it matched it: its key's first part."""
    return int(key.split("|", 1)[0])


class Standing(NamedTuple):
    """A version's line on the leaderboard."""

    member: Member
    skill: Skill
    row: BotRow
    #: why it is matched no more and placed last ("" when it is not broken)
    broken: str

    @property
    def rating(self) -> float:
        """The conservative rating the leaderboard ranks by (mu - 3 sigma)."""
        return self.skill.conservative

    def to_json(self) -> dict[str, Any]:
        m, row = self.member, self.row
        return {"name": m.name, "version": m.version, "label": m.label, "seat": m.seat,
                "anchor": m.anchor, "active": m.active, "rating": round(self.rating, 2),
                "mu": round(self.skill.mu, 2), "sigma": round(self.skill.sigma, 2),
                "games": row.games, "wins": row.wins, "ties": row.ties, "losses": row.losses,
                "accuracy": row.accuracy, "failures": row.failures,
                "judge_errors": row.judge_errors, "broken": self.broken}


class Step(NamedTuple):
    """One game in a version's history: its number, the opponent, the result and the
    version's rating after it."""

    game: int
    opponent: str
    result: str
    rating: float
    mu: float
    sigma: float

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "opponent": self.opponent, "result": self.result,
                "rating": round(self.rating, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2)}


class LeagueState:
    """A league's games so far, rated one by one (`add`), and what they add up to."""

    def __init__(self, plan: LeaguePlan) -> None:
        self.skills = Skills()
        self.plan = plan
        self.played: dict[str, list[tuple[PlayedGame, int]]] = defaultdict(list)
        self.history: dict[str, list[Step]] = defaultdict(list)
        self.numbers: list[int] = []

    @property
    def plan(self) -> LeaguePlan:
        return self._plan

    @plan.setter
    def plan(self, plan: LeaguePlan) -> None:
        """The league's members now; an anchor added since is pinned at once."""
        self._plan = plan
        for m in plan.members:
            if m.pinned and not self.skills.is_pinned(m.seat):
                self.skills.pin(m.seat, *m.pinned)

    def pinned(self, seat: str) -> bool:
        """Whether `seat` is an anchor of fixed skill (its games rate only the opponent)."""
        return self.skills.is_pinned(seat)

    @classmethod
    def of(cls, plan: LeaguePlan, records: dict[str, PlayedGame]) -> LeagueState:
        """The state after every stored game, in the order they were matched."""
        state = cls(plan)
        for key in sorted(records, key=game_number):
            state.add(key, records[key])
        return state

    def add(self, key: str, rec: PlayedGame) -> None:
        """One more game, rated (a void one, a judge error, is counted but not rated)."""
        number = game_number(key)
        self.numbers.append(number)
        a, b = rec.players
        self.played[a].append((rec, 0))
        self.played[b].append((rec, 1))
        result = rec.result_for(0)
        if result is None:
            return
        self.skills.rate(a, b, TOURNAMENT_POINTS[result])
        for seat, who in enumerate((a, b)):
            s = self.skills[who]
            self.history[who].append(Step(number, (b, a)[seat], rec.results[seat],
                                          s.conservative, s.mu, s.sigma))

    @property
    def next_number(self) -> int:
        """The number of the next game matched."""
        return max(self.numbers, default=0) + 1

    def games_of(self, seat: str) -> int:
        return len(self.played.get(seat, ()))

    def broken(self, seat: str) -> str:
        """Why a version is broken: its first `fail_fast` games all ended with the same
        failure on its first move (a crash, a compile error, ...); else ""."""
        first = self.played.get(seat, [])[:self.plan.fail_fast]
        if len(first) < self.plan.fail_fast:
            return ""
        codes = {rec.first_move_failure(s) for rec, s in first}
        code = codes.pop() if len(codes) == 1 else None
        if code is None:
            return ""
        n = self.plan.fail_fast
        return f"its first {n} game{'s' if n != 1 else ''} ended with {code} on its first move"

    def standing(self, member: Member) -> Standing:
        row = summarise(member.seat, self.played.get(member.seat, []), TOURNAMENT_POINTS)
        return Standing(member, self.skills[member.seat],
                        row._replace(bot=member.label), self.broken(member.seat))

    def leaderboard(self, retired: bool = False) -> list[Standing]:
        """The active versions (and with `retired` every version) best first, by the
        conservative rating; broken versions last."""
        members = self.plan.members if retired else self.plan.active
        table = [self.standing(m) for m in members]
        table.sort(key=lambda s: (bool(s.broken), -s.rating, s.member.label))
        return table

    def pair_games(self, a: str, b: str) -> Iterable[tuple[str, PlayedGame]]:
        """The games between the versions `a` and `b` (seats), in order."""
        for rec, seat in self.played.get(a, []):
            if rec.players[1 - seat] == b and rec.key:
                yield rec.key, rec
