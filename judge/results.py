"""Reading stored game records: scoring, failures, accuracy, first mistakes, slow moves, what
the bots used, and per-game text."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

from judge import verdicts
from judge.games import RulesError, game_class

if TYPE_CHECKING:
    from judge.analysis import MoveReview
    from judge.records import PlayedGame
    from judge.sandbox.limits import Usage

TOURNAMENT_POINTS = {"win": 1.0, "tie": 0.5, "loss": 0.0}


def points_of(game: str) -> dict[str, float]:
    """Points per game result of a graded game of `game` (a name): its class's `points`
    (`Game.points`); 1/0.5/0 for a game that is not installed."""
    try:
        return game_class(game).points._asdict()
    except RulesError:  # an unknown game, or one whose package no longer loads
        return dict(TOURNAMENT_POINTS)


class Feedback(Enum):
    """How much of the solution a run's results give away (`--feedback`)."""

    #: every move judged: first mistakes with the right moves, values and remoteness
    FULL = "full"
    #: where each game was lost (the first mistake's number and the move played), nothing of
    #: the right moves or the values
    MISTAKES = "mistakes"
    #: results and verdicts only
    RESULTS = "results"

    @property
    def mistakes(self) -> bool:
        """Whether where a game was lost is shown (first mistakes, moves judged)."""
        return self is not Feedback.RESULTS

    @property
    def solution(self) -> bool:
        """Whether the right moves, the values and remoteness are shown."""
        return self is Feedback.FULL

    @classmethod
    def chosen(cls, given: str | None, for_students: bool) -> Feedback:
        """The level `--feedback` gives, or when not given: `mistakes` for what students
        read (shared, Gradescope's, a page per bot), where `full` must be asked for; else
        `full`, the teacher's own."""
        if given:
            return cls(given)
        return cls.MISTAKES if for_students else cls.FULL


def failure_of(record: PlayedGame, seat: int) -> str | None:
    """The verdict code charged to `seat`, if it failed."""
    verdict = record.verdict
    if verdict.code != verdicts.OK and verdict.seat == seat:
        return verdict.code
    return None


def move_accuracy(records: Iterable[tuple[PlayedGame, int]]) -> tuple[int, int]:
    """(moves that kept the value of the position, moves) over (record, seat) pairs, from
    each record's review: a slow move (still winning, in more moves) kept the value."""
    good = total = 0
    for record, seat in records:
        for r in record.review:
            if r.seat == seat:
                total += 1
                good += not r.mistake
    return good, total


def slow_moves(rec: PlayedGame, seat: int) -> list[MoveReview]:
    """The moves by `seat` that kept a win but not the fastest one, from the record's
    review."""
    return [r for r in rec.review if r.seat == seat and r.slow]


def slow_json(slow: Iterable[MoveReview]) -> list[dict[str, Any]]:
    """Slow moves as the JSON of a game row gives them: each one's number, what it played,
    the fastest moves, and the moves the win took longer for it (`remoteness_lost`)."""
    return [{"ply": r.ply, "move": r.move, "best_moves": r.best_moves,
             "remoteness": r.remoteness, "move_remoteness": r.move_remoteness,
             "remoteness_lost": r.remoteness_lost} for r in slow]


def slow_text(slow: Iterable[MoveReview]) -> str:
    """`move 3 (+2), move 7 (+2)` for a details table: each slow move's number and the
    moves the win took longer for it; or empty."""
    return ", ".join(f"move {r.ply} (+{r.remoteness_lost})" for r in slow)


def failures_text(failures: dict[str, int], judge_errors: int = 0) -> str:
    """`time-limit 3, crash 1` (and void games, if any) or empty."""
    parts = [f"{code} {n}" for code, n in failures.items()]
    if judge_errors:
        parts.append(f"judge-error {judge_errors} (void, not counted)")
    return ", ".join(parts)


def compile_error(records: list[tuple[PlayedGame, int]]) -> str | None:
    """The compiler's message for a bot that did not compile (its games all say so), or None."""
    for rec, seat in records:
        if rec.verdict.code == verdicts.COMPILE_ERROR and rec.verdict.seat in (seat, None):
            return rec.verdict.message
    return None


def game_message(rec: PlayedGame) -> str:
    """The verdict's message for one game's line: a compile error's is given once per bot."""
    if rec.verdict.code == verdicts.COMPILE_ERROR:
        return "did not compile (the compiler's message is given once, with the bot)"
    return rec.verdict.message


def not_graded_text(reasons: dict[str, str]) -> str:
    """Why each bot of a table was not graded (bot -> the verdict's message), a line each,
    escaped for a terminal."""
    from judge.report import printable_line

    lines = [f"{printable_line(bot)}: not-graded: {printable_line(why)}\n"
             for bot, why in reasons.items()]
    return "\n" + "".join(lines) if lines else ""


def compile_errors_text(errors: Iterable[tuple[str, str | None]]) -> str:
    """The compile errors of a table's bots, (bot, message or None), each once, escaped for
    a terminal."""
    from judge.report import printable, printable_line

    out = []
    for bot, error in errors:
        if error:
            message = printable(error).rstrip("\n")
            out.append(f"\n{printable_line(bot)}: compile error:\n"
                       + "".join(f"  {line}\n" for line in message.splitlines()))
    return "".join(out)


def first_mistake(rec: PlayedGame, seat: int) -> MoveReview | None:
    """The first move by `seat` that gave value away, from the record's review; None if it
    made none."""
    return next((r for r in rec.review if r.seat == seat and r.mistake), None)


def mistake_json(mistake: MoveReview | None,
                 feedback: Feedback = Feedback.FULL) -> dict[str, Any] | None:
    """A first mistake as the JSON of a game row gives it: its number, what it played, what
    was right, the values (`feedback` mistakes: its number and what it played)."""
    if mistake is None:
        return None
    if not feedback.solution:
        return {"ply": mistake.ply, "move": mistake.move}
    return {"ply": mistake.ply, "move": mistake.move, "best_moves": mistake.best_moves,
            "before": mistake.before, "after": mistake.after, "lead": mistake.lead,
            "changed_result": mistake.changed_result}


def mistake_text(mistake: MoveReview | None, feedback: Feedback = Feedback.FULL) -> str:
    """`move 7: 3 (right: 1, 5)` for a details table (`feedback` mistakes: `move 7: 3`),
    or empty."""
    if mistake is None:
        return ""
    if not feedback.solution:
        return f"move {mistake.ply}: {mistake.move}"
    lost = ""
    if mistake.changed_result:
        won = mistake.before.sign(mistake.lead) > 0
        lost = "; it threw away the win" if won else "; it lost the game"
    return f"move {mistake.ply}: {mistake.move} (right: {', '.join(mistake.best_moves)}{lost})"



def twin_groups(rows: Iterable[Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """The groups of bots flagged as one program, from bot rows (`BotRow`): a short mark,
    what they share, and the bots: `=1` for files with the same content, `%1` for sources
    mostly in common (names and literals aside), `~1` for bots that made the same
    mistakes in the same positions."""
    rows = list(rows)
    groups: list[tuple[str, str, tuple[str, ...]]] = []
    for sign, field, what in (("=", "same_file", "have the same file content"),
                              ("%", "same_source", "have most of their source in common "
                               "(--similar shows where)"),
                              ("~", "same_mistakes", "made the same mistakes in the same "
                               "positions")):
        seen: list[tuple[str, ...]] = []
        for row in rows:
            others = getattr(row, field)
            group = tuple(b for b in (r.bot for r in rows) if b == row.bot or b in others)
            if others and group not in seen:
                seen.append(group)
                groups.append((f"{sign}{len(seen)}", what, group))
    return groups


def twin_marks(groups: list[tuple[str, str, tuple[str, ...]]]) -> dict[str, str]:
    """Each flagged bot's marks (`=1 ~1`) from `twin_groups`."""
    marks: dict[str, list[str]] = {}
    for mark, _, bots in groups:
        for bot in bots:
            marks.setdefault(bot, []).append(mark)
    return {bot: " ".join(m) for bot, m in marks.items()}


def seconds_text(seconds: float | None) -> str:
    """`0.12 s` (`0.004 s` under a tenth of a second) for a table, or empty."""
    if seconds is None:
        return ""
    return f"{seconds:.3f} s" if seconds < 0.1 else f"{seconds:.2f} s"


def memory_text(size: int | None) -> str:
    """`14 MiB` (`1.5 MiB` under 10 MiB, `812 KiB` under 1 MiB) for a table, or empty."""
    if size is None:
        return ""
    if size < 1 << 20:
        return f"{size / 1024:.0f} KiB"
    mib = size / (1 << 20)
    return f"{mib:.1f} MiB" if mib < 10 else f"{mib:.0f} MiB"


def usage_cells(usage: Usage | None) -> dict[str, str]:
    """A game's `cpu`, `wall` and `memory` cells (`memory` says `oom` when the kernel
    killed the bot for memory); empty where the record has no usage."""
    if usage is None:
        return {"cpu": "", "wall": "", "memory": ""}
    memory = memory_text(usage.memory_bytes)
    if usage.oom_killed:
        memory = f"{memory}, oom" if memory else "oom"
    return {"cpu": seconds_text(usage.cpu_seconds), "wall": seconds_text(usage.wall_seconds),
            "memory": memory}
