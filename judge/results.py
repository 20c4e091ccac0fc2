"""Reading stored game records: per-bot summaries, scoring and per-game rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from judge import verdicts

#: points per game result, by game (the original Ioiwari task scored 4/2/0 per test)
POINTS = {
    "ioiwari": {"win": 4.0, "tie": 2.0, "loss": 0.0},
    "nim": {"win": 1.0, "tie": 0.0, "loss": 0.0},
    "chopsticks": {"win": 1.0, "tie": 0.5, "loss": 0.0},
}
TOURNAMENT_POINTS = {"win": 1.0, "tie": 0.5, "loss": 0.0}


def seat_of(record: dict[str, Any], bot: str) -> int:
    """The seat `bot` held in a record (the first, if it played itself)."""
    return record["players"].index(bot)


def result_for(record: dict[str, Any], seat: int) -> str | None:
    """win / tie / loss for the seat, or None for a game voided by a judge error."""
    result = record["results"][seat]
    return None if result == "none" else result


def failure_of(record: dict[str, Any], seat: int) -> str | None:
    """The verdict code charged to `seat`, if it failed."""
    verdict = record["verdict"]
    if verdict["code"] != "ok" and verdict["seat"] == seat:
        return verdict["code"]
    return None


def move_accuracy(records: Iterable[tuple[dict[str, Any], int]]) -> tuple[int, int]:
    """(optimal moves, moves) over (record, seat) pairs, from each record's review."""
    good = total = 0
    for record, seat in records:
        for r in record.get("review", []):
            if r["seat"] == seat:
                total += 1
                good += r["optimal"]
    return good, total


def summarise(bot: str, records: list[tuple[dict[str, Any], int]],
              points: dict[str, float]) -> dict[str, Any]:
    """One bot's line: games, wins, ties, losses, points of max, failures, accuracy."""
    results = Counter(result_for(rec, seat) for rec, seat in records)
    failures = Counter(f for rec, seat in records if (f := failure_of(rec, seat)))
    judge_errors = results.pop(None, 0)
    good, total = move_accuracy(records)
    played = sum(results.values())
    return {
        "bot": bot,
        "games": played,
        "wins": results["win"],
        "ties": results["tie"],
        "losses": results["loss"],
        "points": sum(points[r] * n for r, n in results.items()),
        # what perfect play would have scored in the same games
        "max_points": sum(points[rec.get("perfect", ["win", "win"])[seat]]
                          for rec, seat in records if result_for(rec, seat) is not None),
        "failures": dict(sorted(failures.items())),
        "judge_errors": judge_errors,
        "accuracy": round(good / total, 4) if total else None,
    }


def failures_text(failures: dict[str, int], judge_errors: int = 0) -> str:
    """`time-limit 3, crash 1` (and void games, if any) or empty."""
    parts = [f"{code} {n}" for code, n in failures.items()]
    if judge_errors:
        parts.append(f"judge-error {judge_errors} (void, not counted)")
    return ", ".join(parts)


def compile_error(records: list[tuple[dict[str, Any], int]]) -> str | None:
    """The compiler's message for a bot that did not compile (its games all say so), or None."""
    for rec, seat in records:
        if rec["verdict"]["code"] == verdicts.COMPILE_ERROR and rec["verdict"].get("seat") in (
                seat, None):
            return rec["verdict"]["message"]
    return None


def game_message(rec: dict[str, Any]) -> str:
    """The verdict's message for one game's line: a compile error's is given once per bot."""
    if rec["verdict"]["code"] == verdicts.COMPILE_ERROR:
        return "did not compile (the compiler's message is given once, with the bot)"
    return rec["verdict"]["message"]


def compile_errors_text(bots: list[dict[str, Any]]) -> str:
    """The compile errors of a table's bots, each once, escaped for a terminal."""
    from judge.report import printable

    out = []
    for b in bots:
        if b.get("compile_error"):
            message = printable(b["compile_error"]).rstrip("\n")
            out.append(f"\n{b['bot']}: compile error:\n"
                       + "".join(f"  {line}\n" for line in message.splitlines()))
    return "".join(out)


def first_mistake(rec: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The first move by `seat` that gave value away (its number, what it played, what was
    right, the values), from the record's review; None if it made none."""
    for r in rec.get("review") or []:
        if r["seat"] == seat and r["mistake"]:
            return {"ply": r["ply"], "move": r["move"], "best_moves": r["best_moves"],
                    "before": r["before"], "after": r["after"], "lead": r.get("lead", 0),
                    "changed_result": r["changed_result"]}
    return None


def mistake_text(mistake: dict[str, Any] | None) -> str:
    """`move 7: 3 (right: 1, 5)` for a details table, or empty."""
    if mistake is None:
        return ""
    lost = ""
    if mistake["changed_result"]:
        before = mistake["before"]
        won = (before + mistake.get("lead", 0) > 0 if isinstance(before, int)
               else before == "win")
        lost = "; it threw away the win" if won else "; it lost the game"
    return (f"move {mistake['ply']}: {mistake['move']} (right: "
            f"{', '.join(mistake['best_moves'])}{lost})")

