"""Transcripts in a replayable format: one JSON line per game, and checking such a line
against the rules.

A line holds everything another program needs to replay the game: the game and its exact
rules, the judge's version and confinement tier, the seeds, each player with the SHA-256 of
its file, the start, and every move (seat, wire text, time, CPU, and the solver's value of
the position for the mover before and after it), then the result, verdict and final
position, the bots' slow moves and what each bot used (CPU, wall time, peak memory).
`check_line` replays it through the rules and says whether it is consistent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from judge import __version__
from judge.games.base import InputError, MoveError
from judge.kinds import KINDS
from judge.records import PlayedGame, usage_json
from judge.results import Feedback, first_mistake, mistake_json, slow_json
from judge.summaries import View
from judge.verdicts import JUDGE_ERROR, LOSING, MEANINGS

FORMAT = "judge-transcript/1"


def transcript_lines(store: Any, run_id: int, view: View | None = None) -> Iterator[str]:
    """The stored games of run `run_id`, one JSON line each, in the order `--details`
    numbers them, as `view` shows them (the solver's values only at full feedback; shared:
    display names, no paths)."""
    from judge.analysis import review

    info = store.run(run_id)
    plan = info.plan
    game = plan.load_game()
    tier = plan.harness.tier
    hashes = plan.fingerprints()
    view = view or View.of(plan)
    kind = KINDS[info.kind]
    for number, (rec, _) in enumerate(kind.numbered_games(plan, store.games(run_id)), 1):
        start = game.parse_position(rec.start)
        reviews = review(game, start, rec.move_texts) if view.feedback.solution else []
        # slow moves say which moves were not the fastest: only with the solution
        slow = [r for r in rec.review if r.slow] if view.feedback.solution else []
        yield json.dumps({
            "format": FORMAT, "judge": __version__, "run": run_id, "kind": info.kind,
            "game_number": number, "key": rec.key and view.text(rec.key), "game": plan.game,
            # a game played on a cluster worker: that worker's tier, and the worker
            "rules": plan.rules, "tier": rec.tier or tier,
            **({"worker": rec.worker} if rec.worker else {}),
            "run_seed": plan.seed,
            "seed": rec.seed, "opponent": plan.opponent,
            "players": [{"seat": s + 1, "name": view.name(name), "sha256": hashes.get(name)}
                        for s, name in enumerate(rec.players)],
            "start": rec.start,
            "moves": [
                {"ply": i + 1, **m.to_dict(), "seat": m.seat + 1,
                 **({"before": reviews[i].before, "after": reviews[i].after}
                    if i < len(reviews) else {})}
                for i, m in enumerate(rec.moves)],
            "results": list(rec.results),
            "verdict": {**rec.verdict.to_dict(), "message": view.text(rec.verdict.message)},
            "score": None if rec.score is None else list(rec.score), "final": rec.final,
            **(_lost_where(plan, rec, view) if kind.grades else {}),
            **({"slow_moves": [dict(data, seat=r.seat + 1)
                               for r, data in zip(slow, slow_json(slow), strict=True)]}
               if view.feedback.solution else {}),
            "usage": None if rec.usage is None else usage_json(rec.usage),
        }, separators=(",", ":"))


def _lost_where(plan: Any, rec: PlayedGame, view: View) -> dict[str, Any]:
    """At `mistakes` feedback, which has no values to find it by, a grading run's line says
    where the graded bot lost: its `first_mistake` (`ply` and `move`, or null)."""
    if view.feedback is not Feedback.MISTAKES:
        return {}
    seat = next((s for s, who in enumerate(rec.players) if who in plan.players), 0)
    return {"first_mistake": mistake_json(first_mistake(rec, seat), view.feedback)}


def check_line(text: str) -> list[str]:
    """What is inconsistent in one transcript line (see `_check`); `InputError` for a line
    that is not a transcript at all."""
    try:
        return _check(text)
    except InputError:
        raise
    except (AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
        raise InputError(f"not a transcript line: {exc.__class__.__name__}: {exc}") from None


def _check(text: str) -> list[str]:
    """What is inconsistent in one transcript line (empty: it replays as recorded).

    The moves are replayed from the start through the rules: each must be legal and by the
    seat to move (the last may be the illegal move that forfeited the game, when the verdict
    says so); the final position, the score, and for a game played to its end the results,
    must be those the rules give; the values before and after each move must be the
    solver's. Raises `InputError` for a line that is not a transcript at all.
    """
    from judge.games import load_game
    from judge.solvers import solver_for

    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} line")
        game = load_game(data["game"], data["rules"])
        moves, verdict = data["moves"], data["verdict"]
        if not isinstance(moves, list) or not isinstance(verdict, dict):
            raise ValueError("'moves' must be a list and 'verdict' an object")
    except (ValueError, KeyError, TypeError, AttributeError, InputError) as exc:
        raise InputError(f"not a transcript line: {exc}") from None
    try:
        pos = game.parse_position(str(data.get("start")))
    except InputError as exc:
        return [f"the start recorded is not a position of these rules: {exc}"]
    problems: list[str] = []
    solver = solver_for(game)
    for i, m in enumerate(moves):
        ply = i + 1
        if game.is_over(pos):
            problems.append(f"move {ply} comes after the end of the game")
            break
        if m.get("seat") != game.mover(pos) + 1:
            problems.append(f"move {ply} is by seat {m.get('seat')}, but seat "
                            f"{game.mover(pos) + 1} is to move")
            break
        try:
            move = game.parse_move(str(m.get("move")), pos)
        except MoveError as exc:
            forfeit = (ply == len(moves) and verdict.get("code") in ("illegal-move", "garbage")
                       and verdict.get("seat") == game.mover(pos))
            if not forfeit:
                problems.append(f"move {ply} ({m.get('move')!r}) is not legal: {exc.reason}")
            break
        if "before" in m:
            values = solver.move_value(pos, move)
            before = solver.evaluate(pos).value
            if (m["before"], m["after"]) != (before, values.value):
                problems.append(f"move {ply}: the values recorded ({m['before']} -> "
                                f"{m['after']}) are not the solver's ({before} -> "
                                f"{values.value})")
        pos = game.play(pos, move)
    if data.get("final") is not None and data["final"] != game.format_position(pos):
        problems.append(f"the final position recorded ({data['final']}) is not where the "
                        f"moves lead ({game.format_position(pos)})")
    score = game.score(pos)
    if data.get("score") is not None and score is not None and list(score) != data["score"]:
        problems.append(f"the score recorded {data['score']} is not the rules' {list(score)}")
    wanted = _results(game, pos, verdict)
    if isinstance(wanted, str):
        problems.append(wanted)
    elif data.get("results") != wanted:
        problems.append(f"the results recorded {data.get('results')} are not the rules' "
                        f"{wanted}")
    return problems


def _results(game: Any, pos: Any, verdict: dict[str, Any]) -> list[str] | str:
    """The results the judge gives a game that stopped at `pos` with `verdict` (as the
    referee does), or what is wrong with the verdict."""
    code, seat = verdict.get("code"), verdict.get("seat")
    if code == JUDGE_ERROR:
        return ["none", "none"]
    if code not in MEANINGS:
        return f"the verdict recorded ({code!r}) is not a verdict of the judge"
    if code in LOSING:
        if seat not in (0, 1):
            return f"the verdict {code} is charged to no seat (seat {seat!r})"
        return ["loss" if s == seat else "win" for s in (0, 1)]
    if not game.is_over(pos):
        if not game.loopy:
            return "the verdict is ok, but the moves stop before the end of the game"
        return ["tie", "tie"]  # stopped by the move limit
    winner = game.winner(pos)
    return ["tie", "tie"] if winner is None else ["win" if s == winner else "loss"
                                                  for s in (0, 1)]

