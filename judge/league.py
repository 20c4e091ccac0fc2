"""What a league's stored games add up to: every version's skill with its uncertainty, its
line (games, wins, ties, losses, accuracy, failures, as a tournament's), whether it is
broken, its rating after each of its games, and the leaderboard. The games are taken in
the order they were stored, one by one (`catch_up`), so that the play loop, `judge league
show` and the web page rate them alike.

Anchors placed by their games (`Placement.FITTED`, the default) first play each other,
`MEETINGS` games a pair, and their skills are fitted from those games alone (`place`): their
spacing is the one their games show, so a bot that splits its games with an anchor ends at
its skill, and bots coming and going never move them."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from judge.plan import OPTIMAL
from judge.players.level import is_level, parse_level
from judge.ratings import FITTED_SIGMA, Skill, Skills, place
from judge.results import TOURNAMENT_POINTS
from judge.summaries import BotRow, summarise

if TYPE_CHECKING:
    from judge.records import PlayedGame
    from judge.store import Store

class Placement(Enum):
    """How a league's member is placed on the scale of skills."""

    #: by its games against the other anchors alone (a default anchor): bots move it not
    FITTED = "fitted"
    #: at the skill given when it was added (`--mu`, or an older league's default)
    PINNED = "pinned"
    #: by every game, as the bots are (`--unpinned`)
    RATED = "rated"


class Member(NamedTuple):
    """One version of a league's player: a bot's file (copied into the league's folder when
    it was added, so that a new submission cannot change it), or an anchor the judge plays
    itself (``optimal``, ``tricky``, ``level:N``), which stays for good."""

    name: str
    version: int
    #: what sits in a game's seat: the copy's path, OPTIMAL (optimal or tricky) or level:N
    seat: str
    anchor: bool = False
    #: still matched: the latest version of its name, not removed
    active: bool = True
    #: when it was added (seconds since the epoch)
    added: float = 0.0
    #: an anchor's pinned skill (mu, sigma), set when it was added: its games move only
    #: the other side's rating, so the scale keeps its meaning (None: rated like a bot)
    pinned: tuple[float, float] | None = None
    #: an anchor placed by its games against the other anchors (`Placement.FITTED`)
    fitted: bool = False

    @property
    def placement(self) -> Placement:
        if self.anchor and self.fitted:
            return Placement.FITTED
        return Placement.RATED if self.pinned is None else Placement.PINNED

    @property
    def label(self) -> str:
        """``alice v2``; an anchor by its name."""
        return self.name if self.anchor else f"{self.name} v{self.version}"



def game_number(key: str) -> int:
    """The number (from 1) a league gave a game when it matched it: its key's first part."""
    return int(key.split("|", 1)[0])


#: the games each pair of anchors plays to place a fitted one (a start's two seats at a
#: time): before, neither meets a bot
MEETINGS = 40
#: the skill of the optimal anchor, the top of the scale (a fitted level:N's before its
#: games: N - 10 below)
TOP_MU = 25.0


def default_mu(seat: str) -> float:
    """An anchor's skill before its games: 25 for perfect play, 15 + N for level:N."""
    return TOP_MU + (parse_level(seat) - 10 if is_level(seat) else 0)


class Standing(NamedTuple):
    """A version's line on the leaderboard."""

    member: Member
    skill: Skill
    row: BotRow
    #: why it is matched no more and placed last ("" when it is not broken)
    broken: str
    #: an anchor still playing the other anchors to be placed (it meets no bot meanwhile)
    placing: bool = False

    @property
    def placement(self) -> str:
        """How its skill is placed: fitted, pinned or rated (`Placement`), or placing."""
        return "placing" if self.placing else self.member.placement.value

    @property
    def rating(self) -> float:
        """The conservative rating the leaderboard ranks by (mu - 3 sigma)."""
        return self.skill.conservative

    def to_json(self) -> dict[str, Any]:
        m, row = self.member, self.row
        return {"name": m.name, "version": m.version, "label": m.label, "seat": m.seat,
                "anchor": m.anchor, "placement": self.placement, "active": m.active,
                "rating": round(self.rating, 2),
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


class Roster(Protocol):
    """What the rating of a league reads of its plan (`judge.kinds.league.LeaguePlan`, a
    layer above): its members, those matched now, and its --fail-fast."""

    @property
    def members(self) -> tuple[Member, ...]: ...

    @property
    def active(self) -> tuple[Member, ...]: ...

    @property
    def fail_fast(self) -> int: ...

    def member(self, seat: str) -> Member: ...


R = TypeVar("R", bound=Roster)


class LeagueState(Generic[R]):
    """A league's games so far, rated one by one (`add`), and what they add up to."""

    def __init__(self, plan: R) -> None:
        self.skills = Skills()
        self.played: dict[str, list[tuple[PlayedGame, int]]] = defaultdict(list)
        self.history: dict[str, list[Step]] = defaultdict(list)
        #: the games (key, record) in the order they were stored
        self.games: list[tuple[str, PlayedGame]] = []
        #: the games between anchors that place the fitted ones, and their count by pair
        self.meetings: list[tuple[str, str, float]] = []
        self.met: Counter[frozenset[str]] = Counter()
        self.last = 0  # the store's row of the last game added
        self.placed: tuple[object, ...] = ()  # what the fitted anchors were placed from
        self.plan = plan

    @property
    def plan(self) -> R:
        return self._plan

    @plan.setter
    def plan(self, plan: R) -> None:
        """The league's members now; an anchor added since is placed at once."""
        self._plan = plan
        for m in plan.members:
            if m.pinned and m.placement is Placement.PINNED \
                    and not self.skills.is_pinned(m.seat):
                self.skills.pin(m.seat, *m.pinned)
        self.place()

    def fixed(self, seat: str) -> bool:
        """Whether `seat` is an anchor whose games against bots rate only the bot."""
        return self.skills.is_pinned(seat)

    def place(self) -> None:
        """Fit the fitted anchors' skills from the games between anchors (the pinned ones
        held), and fix them there. Only anchors that have met count: one not met yet stays
        at its default, so that an anchor added later changes nothing before its games (the
        page that read the league before it came, and `show` after, rate alike)."""
        anchors = [m.seat for m in self.plan.members if m.placement is Placement.FITTED]
        pinned = {m.seat: Skill(*m.pinned) for m in self.plan.members
                  if m.pinned and m.placement is Placement.PINNED}
        placed = (tuple(anchors), tuple(pinned.items()), len(self.meetings))
        if not anchors or placed == self.placed:
            return
        self.placed = placed
        met = {seat for a, b, _ in self.meetings for seat in (a, b)}
        for seat in anchors:
            if seat not in met and not self.skills.is_pinned(seat):
                self.skills.pin(seat, default_mu(seat), FITTED_SIGMA)
        free = {seat: default_mu(seat) for seat in anchors if seat in met}
        if free:
            held = {seat: skill for seat, skill in pinned.items() if seat in met}
            skills = place(free, held, self.meetings, self.skills.model.beta, OPTIMAL)
            for seat, skill in skills.items():
                self.skills.pin(seat, *skill)

    def due(self, a: str, b: str, flight: int = 0) -> bool:
        """Whether the anchors `a` and `b` have games to play to place a fitted one (beyond
        `flight` games in flight)."""
        plan = self.plan
        kinds = {plan.member(a).placement, plan.member(b).placement}
        return Placement.FITTED in kinds and Placement.RATED not in kinds and \
            self.met[frozenset((a, b))] + flight < MEETINGS

    def placing(self, seat: str) -> bool:
        """Whether `seat` is an anchor with games to play against another (it meets no bot
        meanwhile)."""
        return self.fixed(seat) and any(self.due(seat, m.seat) for m in self.plan.active
                                        if m.seat != seat)

    @classmethod
    def of(cls, plan: R, store: Store, run_id: int) -> LeagueState[R]:
        """The state after every stored game of the league `run_id`."""
        state = cls(plan)
        state.catch_up(store, run_id)
        return state

    def catch_up(self, store: Store, run_id: int) -> int:
        """Add the games stored since the last one added, in the order they were stored (the
        play loop's); how many."""
        new = store.games_since(run_id, self.last)
        for row, key, rec in new:
            self.add(key, rec)
            self.last = row
        return len(new)

    def add(self, key: str, rec: PlayedGame) -> None:
        """One more game, rated (a void one, a judge error, is counted but not rated)."""
        number = game_number(key)
        self.games.append((key, rec))
        a, b = rec.players
        self.played[a].append((rec, 0))
        self.played[b].append((rec, 1))
        result = rec.result_for(0)
        if result is None:
            return
        score = TOURNAMENT_POINTS[result]
        if self.fixed(a) and self.fixed(b):  # anchors meeting: the fitted ones placed again
            self.meetings.append((a, b, score))
            self.met[frozenset((a, b))] += 1
            self.place()
        else:
            self.skills.rate(a, b, score)
        for seat, who in enumerate((a, b)):
            s = self.skills[who]
            self.history[who].append(Step(number, (b, a)[seat], rec.results[seat],
                                          s.conservative, s.mu, s.sigma))

    @property
    def next_number(self) -> int:
        """The number of the next game matched."""
        return max((game_number(k) for k, _ in self.games), default=0) + 1

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
                        row._replace(bot=member.label), self.broken(member.seat),
                        member.active and self.placing(member.seat))

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
