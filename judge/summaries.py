"""What a stored run's games add up to, for every kind of run: a grading run's rows per bot
and per game, a tournament's standings and crosstable, a match's pentanomial and SPRT.
The tables, the HTML report and the transcripts are drawn from these."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from judge.plan import GradingPlan, MatchPlan, TournamentPlan
from judge.results import (
    POINTS,
    TOURNAMENT_POINTS,
    compile_error,
    first_mistake,
    game_message,
    result_for,
    seat_of,
    summarise,
)
from judge.sprt import pair_score, pentanomial, summary


def graded_games(plan: GradingPlan, records: dict[str, dict[str, Any]]
                 ) -> list[tuple[str, list[tuple[dict[str, Any], int]]]]:
    """Per bot of a grading run, its games (record, the bot's seat), in the order the
    details list them (numbered from 1 across the bots: `judge show RUN --game N`)."""
    starts = plan.starts
    order = {f"{text}|{seat}": (n, i) for n, (seat, texts) in enumerate(starts.items())
             for i, text in enumerate(texts)}

    def place(rec: dict[str, Any]) -> tuple[int, int]:  # where its start is in the schedule
        start_seat = str(rec.get("key", "")).split("|", 1)[-1]
        return order.get(start_seat, (len(order), 0))

    return [(bot, sorted(((rec, seat_of(rec, bot)) for rec in records.values()
                          if bot in rec["players"]), key=lambda rs: place(rs[0])))
            for bot in plan.bots]


def grading_rows(plan: GradingPlan, records: dict[str, dict[str, Any]]
                 ) -> tuple[list[dict], list[dict]]:
    """The per-bot summaries and per-game rows of a grading run."""
    points = POINTS[plan.game]
    bots, games = [], []
    for bot, mine in graded_games(plan, records):
        bots.append(dict(summarise(bot, mine, points), compile_error=compile_error(mine)))
        for rec, seat in mine:
            games.append({
                "bot": bot,
                "start": rec["start"],
                "seat": seat + 1,
                "result": result_for(rec, seat) or "void",
                "verdict": rec["verdict"]["code"],
                "message": game_message(rec),
                "first_mistake": first_mistake(rec, seat),
                "moves": [m["move"] for m in rec["moves"]],
            })
    return bots, games


def standings(plan: TournamentPlan, records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Standings (best first), crosstable and the games, from the stored records."""
    entrants = plan.entrants
    per_bot: dict[str, list[tuple[dict, int]]] = defaultdict(list)
    cross: dict[str, dict[str, list[float]]] = {b: defaultdict(list) for b in entrants}
    pairs = []
    seen_games: dict[tuple, str] = {}
    games = []
    for key in sorted(records):
        rec = records[key]
        a, b = rec["players"]
        per_bot[a].append((rec, 0))
        per_bot[b].append((rec, 1))
        res = result_for(rec, 0)
        if res is not None:
            score = TOURNAMENT_POINTS[res]
            pairs.append((a, b, score))
            cross[a][b].append(score)
            cross[b][a].append(1 - score)
        moves = tuple(m["move"] for m in rec["moves"])
        ident = (a, b, rec["start"], moves)
        twin = seen_games.get(ident)
        seen_games.setdefault(ident, key)
        games.append({"key": key, "players": [a, b], "start": rec["start"],
                      "results": rec["results"], "verdict": rec["verdict"]["code"],
                      "message": game_message(rec), "moves": list(moves),
                      "identical_to": twin, "seed": rec.get("seed")})
    from judge.ratings import fit  # NumPy: only once there are games to rate

    ratings = fit(entrants, pairs) if pairs else {}
    table = []
    for bot in entrants:
        row = summarise(bot, per_bot[bot], TOURNAMENT_POINTS)
        # against other bots the most a bot can score is a win in every game played
        row["max_points"] = row["games"] * TOURNAMENT_POINTS["win"]
        row["compile_error"] = compile_error(per_bot[bot])
        r = ratings.get(bot)
        row.update(rating=None if r is None else round(r.rating, 1),
                   rating_low=None if r is None else round(r.low, 1),
                   rating_high=None if r is None else round(r.high, 1))
        table.append(row)
    # by share of the points (a gauntlet's bots play different numbers of games), then rating
    table.sort(key=lambda row: (-(row["points"] / row["games"] if row["games"] else 0),
                                -(row["rating"] or 0)))
    crosstable = {a: {b: sum(v) for b, v in cross[a].items()} for a in entrants}
    identical = sum(1 for g in games if g["identical_to"])
    return {"standings": table, "crosstable": crosstable, "identical_games": identical,
            "games": games}


def pair_number(key: str) -> int:
    """The pair (from 1) of a stored game's key."""
    return int(key.split("|", 1)[0])


def match_stats(plan: MatchPlan, records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The pentanomial of the complete pairs stored (BOT_A's view) and what follows from it
    (see `judge.sprt.summary`), with BOT_A's wins, ties and losses in those pairs' games.

    A pair with a void game (a judge error) counts for no one (`void_pairs`); a pair whose
    second game is not stored yet is left out.
    """
    a = plan.bots[0]
    by_pair: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for key, rec in records.items():
        by_pair[pair_number(key)].append(rec)
    scores = []
    results: dict[str, int] = {"win": 0, "tie": 0, "loss": 0}
    void = 0
    for recs in by_pair.values():
        if len(recs) < 2:
            continue
        mine = [result_for(rec, seat_of(rec, a)) for rec in recs]
        if None in mine:
            void += 1
            continue
        scores.append(pair_score(mine))
        for r in mine:
            results[r] += 1
    data = summary(pentanomial(scores), plan.sprt)
    return {**data, "wins": results["win"], "ties": results["tie"],
            "losses": results["loss"], "void_pairs": void}


def ordered_records(plan: MatchPlan,
                    records: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The stored games as (key, record) in the order they were scheduled: by pair, BOT_A
    in the first seat first. Game N of `--details` is the N-th."""
    return sorted(records.items(), key=lambda item: (pair_number(item[0]),
                                                     item[1]["players"] != list(plan.bots)))


def match_data(plan: MatchPlan, records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The match's statistics and its games, in the order they were scheduled."""
    stats = match_stats(plan, records)
    games = []
    seen: dict[tuple, str] = {}
    for key, rec in ordered_records(plan, records):
        moves = [m["move"] for m in rec["moves"]]
        ident = (*rec["players"], rec["start"], tuple(moves))
        twin = seen.setdefault(ident, key)
        games.append({"key": key, "pair": pair_number(key), "players": list(rec["players"]),
                      "start": rec["start"], "results": rec["results"],
                      "verdict": rec["verdict"]["code"], "message": game_message(rec),
                      "moves": moves, "identical_to": None if twin == key else twin,
                      "seed": rec.get("seed")})
    return {**stats, "games": games}
