"""Swiss pairing in the spirit of FIDE's Dutch system, and its tie-breaks (Buchholz and
Sonneborn-Berger); no I/O.

Players are numbers 0..n-1 in seed order (0 is the top seed). A round is paired from the
rounds before it alone, so the same results always give the same pairing. What is followed
of the Dutch system and what is simplified is in docs/tournaments.md.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: a bracket's search for a pairing gives up after this many tries of a pair (and 20 more
#: per player) and floats the rest
SEARCH_STEPS = 20_000


@dataclass(frozen=True)
class Game:
    """A played game: `first` took the first seat; `score` is first's (1, 0.5 or 0)."""

    first: int
    second: int
    score: float


@dataclass(frozen=True)
class Round:
    """A round's games and the player who had the bye (scored as a win), if any."""

    games: tuple[Game, ...]
    bye: int | None = None


@dataclass(frozen=True)
class Pair:
    """A pairing: `first` takes the first seat."""

    first: int
    second: int


@dataclass(frozen=True)
class Pairing:
    """A round's pairs, top board first, and the player who gets the bye, if any."""

    pairs: tuple[Pair, ...]
    bye: int | None = None


@dataclass(frozen=True)
class Standing:
    """A player's points (a bye counts as a win) and tie-breaks after some rounds."""

    player: int
    points: float
    buchholz: float
    sonneborn_berger: float
    byes: int


class Want(enum.IntEnum):
    """How much a player wants a seat: the Dutch system's colour preferences."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass
class _Record:
    """What pairing needs of a player's past: points, opponents, seats and byes."""

    points: float = 0.0
    opponents: frozenset[int] = frozenset()
    seats: tuple[int, ...] = ()  # 0 for the first seat, 1 for the second, in round order
    byes: int = 0

    def preference(self) -> tuple[int | None, Want]:
        """The seat the player should get next and how much: absolute after two in a row
        or an imbalance of two, strong after an imbalance of one, mild to alternate."""
        if not self.seats:
            return None, Want.NONE
        balance = self.seats.count(0) - self.seats.count(1)
        twice = len(self.seats) >= 2 and self.seats[-1] == self.seats[-2]
        if balance > 1 or balance < -1 or twice:
            return (1 if balance > 1 or (twice and self.seats[-1] == 0) else 0), Want.ABSOLUTE
        if balance:
            return (1 if balance > 0 else 0), Want.STRONG
        return 1 - self.seats[-1], Want.MILD


def records(players: int, rounds: Sequence[Round]) -> list[_Record]:
    """Each player's record after the rounds."""
    out = [_Record() for _ in range(players)]
    for played in rounds:
        for g in played.games:
            for me, other, seat, score in ((g.first, g.second, 0, g.score),
                                           (g.second, g.first, 1, 1 - g.score)):
                r = out[me]
                r.points += score
                r.opponents = r.opponents | {other}
                r.seats = (*r.seats, seat)
        if played.bye is not None:
            out[played.bye].points += 1
            out[played.bye].byes += 1
    return out


def standings(players: int, rounds: Sequence[Round]) -> list[Standing]:
    """Players ranked by points, then Buchholz, then Sonneborn-Berger, then seed.

    Buchholz is the sum of the points of the opponents played; Sonneborn-Berger the sum of
    their points weighted by what the player scored against each (1, 0.5 or 0 per game). A
    bye adds its point to the player's total and nothing to either tie-break.
    """
    past = records(players, rounds)
    buchholz = [0.0] * players
    berger = [0.0] * players
    for played in rounds:
        for g in played.games:
            for me, other, score in ((g.first, g.second, g.score),
                                     (g.second, g.first, 1 - g.score)):
                buchholz[me] += past[other].points
                berger[me] += score * past[other].points
    rows = [Standing(p, past[p].points, buchholz[p], berger[p], past[p].byes)
            for p in range(players)]
    return sorted(rows, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, s.player))


def pair(players: int, rounds: Sequence[Round]) -> Pairing:
    """The next round's pairing of players 0..players-1 after the rounds played."""
    if players < 2:
        raise ValueError("a Swiss round needs at least two players")
    past = records(players, rounds)
    ranked = sorted(range(players), key=lambda p: (-past[p].points, p))
    bye = None
    if players % 2:
        without = [p for p in ranked if past[p].byes == 0] or ranked
        bye = min(reversed(without), key=lambda p: past[p].byes)
        ranked.remove(bye)
    pairs = _pair_ranked(ranked, past)
    pairs.sort(key=lambda ab: (-max(past[ab[0]].points, past[ab[1]].points),
                               -(past[ab[0]].points + past[ab[1]].points), min(ab)))
    board = [_seats(a, b, past, number) for number, (a, b) in enumerate(pairs)]
    return Pairing(tuple(board), bye)


def _pair_ranked(ranked: list[int], past: list[_Record]) -> list[tuple[int, int]]:
    """Pairs of all the ranked players (an even number): score group by score group, each
    paired top half against bottom half, floaters moved down; where the last group cannot
    be completed it is merged with the one above and the two are paired again."""
    groups: list[list[int]] = []
    for p in ranked:
        if groups and past[groups[-1][0]].points == past[p].points:
            groups[-1].append(p)
        else:
            groups.append([p])

    wants = [r.preference() for r in past]

    def meets(a: int, b: int) -> bool:
        return b not in past[a].opponents and not _both_absolute(wants[a], wants[b])

    def agrees(a: int, b: int) -> bool:
        return meets(a, b) and _seats_agree(wants[a], wants[b])

    while True:
        pairs, floaters = _pair_groups(groups, (agrees, meets))
        if not floaters:
            return pairs
        if len(groups) == 1:
            break
        groups = [*groups[:-2], groups[-2] + groups[-1]]
    # not even one group of everyone pairs: seats then repeats give way, in that order
    for rule in (lambda a, b: b not in past[a].opponents, lambda a, b: True):
        pairs, floaters = _pair_groups([ranked], (rule,))
        if not floaters:
            return pairs
    raise AssertionError("an even number of players always pairs")  # pragma: no cover


def _pair_groups(groups: list[list[int]],
                 rules: tuple[Callable[[int, int], bool], ...]
                 ) -> tuple[list[tuple[int, int]], list[int]]:
    """Pairs of the groups in turn, with the players left over (floaters) moved down into
    the next group ahead of its own; the floaters that are left at the end."""
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for group in groups:
        bracket, movers = floaters + group, len(floaters)
        for rule in rules[:-1]:  # a stricter rule is kept only where it pairs everyone
            whole = _match_halves(bracket, len(bracket) // 2, rule, movers)
            if whole is not None:
                found, left = whole, _left(bracket, whole)
                break
        else:
            found, left = _pair_bracket(bracket, rules[-1], movers)
        pairs += found
        floaters = left
    return pairs, floaters


def _pair_bracket(bracket: list[int], rule: Callable[[int, int], bool], movers: int = 0
                  ) -> tuple[list[tuple[int, int]], list[int]]:
    """As many pairs as can be made of the bracket (ranked, its first `movers` floaters from
    above), as `_match_halves` pairs it (the Dutch system's transpositions, tried in
    order); the players left over, in rank order."""
    for count in range(len(bracket) // 2, 0, -1):
        found = _match_halves(bracket, count, rule, movers)
        if found is not None:
            return found, _left(bracket, found)
    return [], list(bracket)


def _left(bracket: list[int], pairs: list[tuple[int, int]]) -> list[int]:
    """The bracket's players in no pair, in rank order."""
    used = {p for ab in pairs for p in ab}
    return [p for p in bracket if p not in used]


def _match_halves(bracket: list[int], count: int, rule: Callable[[int, int], bool],
                  movers: int = 0) -> list[tuple[int, int]] | None:
    """`count` pairs of the bracket (ranked), or None. Its first `movers` players, floaters
    from above (when fewer than `count`), each meet one of the others first, as the Dutch
    system pairs a heterogeneous bracket; then of the players left the first `count -
    movers` (all `count` without floaters) each meet one of the rest. Each takes the first
    it may meet, tried in rank order by a depth-first search of limited length."""
    if not 0 < movers < count:
        movers = 0
    chosen: list[tuple[int, int]] = []
    steps, limit = 0, SEARCH_STEPS + 20 * len(bracket)

    def halves(top: list[int], bottom: list[int], then: Callable[[list[int]], bool]) -> bool:
        """Each of `top` against one of `bottom`, and `then` of the bottom players left."""
        taken = [False] * len(bottom)

        def search(i: int) -> bool:
            nonlocal steps
            if i == len(top):
                return then([b for j, b in enumerate(bottom) if not taken[j]])
            for j, b in enumerate(bottom):
                if taken[j]:
                    continue
                steps += 1
                if steps > limit:
                    return False
                if rule(top[i], b):
                    taken[j] = True
                    chosen.append((top[i], b))
                    if search(i + 1):
                        return True
                    taken[j] = False
                    chosen.pop()
            return False

        return search(0)

    def residents(left: list[int]) -> bool:
        rest = count - movers
        return halves(left[:rest], left[rest:], lambda _: True)

    found = (halves(bracket[:movers], bracket[movers:], residents) if movers
             else halves(bracket[:count], bracket[count:], lambda _: True))
    return chosen if found else None


def _both_absolute(a: tuple[int | None, Want], b: tuple[int | None, Want]) -> bool:
    """Whether both must have the same seat (absolute preferences that clash)."""
    (seat_a, want_a), (seat_b, want_b) = a, b
    return want_a == want_b == Want.ABSOLUTE and seat_a == seat_b


def _seats_agree(a: tuple[int | None, Want], b: tuple[int | None, Want]) -> bool:
    """Whether the two can both get the seat they want (or one of them wants none)."""
    seat_a, seat_b = a[0], b[0]
    return seat_a is None or seat_b is None or seat_a != seat_b


def _seats(a: int, b: int, past: list[_Record], board: int) -> Pair:
    """Who of a (ranked higher) and b takes the first seat: the one whose want is granted,
    the stronger want if both want the same seat, alternating from the last round in which
    their seats differed, else the higher ranked's want; in the first round the higher
    ranked takes the first seat on odd boards (board 0 first) and the second on even ones."""
    (seat_a, want_a), (seat_b, want_b) = past[a].preference(), past[b].preference()
    if seat_a is None and seat_b is None:
        return Pair(a, b) if board % 2 == 0 else Pair(b, a)
    if seat_a is None or seat_b is None or seat_a != seat_b:
        a_first = seat_a == 0 if seat_a is not None else seat_b == 1
        return Pair(a, b) if a_first else Pair(b, a)
    if want_a != want_b:
        winner_first = seat_a == 0
        a_wins = want_a > want_b
        return Pair(a, b) if a_wins == winner_first else Pair(b, a)
    for sa, sb in zip(reversed(past[a].seats), reversed(past[b].seats), strict=False):
        if sa != sb:
            return Pair(a, b) if sa == 1 else Pair(b, a)
    return Pair(a, b) if seat_a == 0 else Pair(b, a)


def bracket(entrants: int) -> list[int | None]:
    """The first round of a seeded knockout of seeds 0..entrants-1, slot by slot (slots 0
    and 1 meet, then 2 and 3, ...): the standard seeding of a bracket of the next power of
    two (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11), each seed missing
    from it a bye (None), so the byes go to the top seeds."""
    order, size = [0], 1
    while size < entrants:
        size *= 2
        order = [s for seed in order for s in (seed, size - 1 - seed)]
    return [s if s < entrants else None for s in order]
