"""How a game ended for a player: one code per way a bot can finish or fail.

Every code but ``ok`` and ``judge-error`` loses the game for the player it is charged to;
``judge-error`` is a failure of the judge itself and voids the game instead.
"""

from __future__ import annotations

import re

OK = "ok"
CRASH = "crash"
TIME_LIMIT = "time-limit"
TIME_FORFEIT = "time-forfeit"
CPU_LIMIT = "cpu-limit"
MEMORY_LIMIT = "memory-limit"
ILLEGAL_MOVE = "illegal-move"
GARBAGE = "garbage"
NO_MOVE = "no-move"
OUTPUT_LIMIT = "output-limit"
COMPILE_ERROR = "compile-error"
RESIGNED = "resigned"
JUDGE_ERROR = "judge-error"
NOT_PLAYED = "not-played"
NOT_GRADED = "not-graded"

#: every verdict code with its meaning, in the order reports list them
MEANINGS: dict[str, str] = {
    OK: "the game was played to its end (or to the move limit) within the rules",
    CRASH: "the bot died: a non-zero exit status or a signal such as SIGSEGV",
    TIME_LIMIT: "the bot did not answer a move within the wall-clock limit, or was stopped "
    "before it, waiting for more input than the protocol gives",
    TIME_FORFEIT: "the bot's clock ran out (--tc): its moves together took more than its "
    "time control gave",
    CPU_LIMIT: "the bot used more CPU time in the game than allowed",
    MEMORY_LIMIT: "the bot ran out of its memory (address space) allowance",
    ILLEGAL_MOVE: "the bot wrote a well-formed move that the rules forbid",
    GARBAGE: "the bot wrote a line that is not a move at all",
    NO_MOVE: "the bot exited, or closed its output, without moving",
    OUTPUT_LIMIT: "the bot wrote a line or a game's worth of output over the limit",
    COMPILE_ERROR: "the bot's source did not compile",
    RESIGNED: "a human player gave the game up (typed quit, or the input ended)",
    JUDGE_ERROR: "the judge itself failed; never charged to a bot, the game is void",
    NOT_PLAYED: "not played, and lost: the bot's last games before it (--fail-fast N: its "
    "first N, or any N in a row) all ended with the same failure",
    NOT_GRADED: "the bot's folder could not be graded: no entry, two candidate entries, no "
    "language this judge knows or has here; the message says which",
}

#: the codes that lose the game for the player they are charged to
LOSING = frozenset(MEANINGS) - {OK, JUDGE_ERROR}


def failed_first(code: str, games: int) -> str:
    """Why a bot's other games are not played (`--fail-fast N`), as the run's schedule
    words it: its first `games` games all ended with `code` before it moved."""
    return failed_alike(code, games, True, False)


def failed_alike(code: str, games: int, first: bool, moved: bool | None) -> str:
    """Why a bot's other games are not played (`--fail-fast N`), as the run's schedule
    words it: its `first` (or last) `games` games all ended with `code`, before it moved
    (`moved` False), on a later move (True) or either (None)."""
    which = "first" if first else "last"
    some = f"its {which} game" if games == 1 else f"its {which} {games} games"
    where = {False: " on its first move", True: " on a later move", None: ""}[moved]
    return f"{some} ended with {code}{where} (--fail-fast {games})"


def given_up(code: str, games: int) -> str:
    """The message of a game not played (`--fail-fast N`): its bot's first `games` games all
    ended with `code` before it moved."""
    if code == COMPILE_ERROR:
        return f"not played: the bot did not compile (--fail-fast {games})"
    return f"not played: {failed_first(code, games)}"


#: the reason for a game not played as the run's schedule words it (`failed_alike`)
_GIVEN_UP = re.compile(r"its (?:first|last) (\d+ )?games? ended with ([a-z-]+)"
                       r"( on its first move| on a later move)? \(--fail-fast \d+\)")


def not_played_message(reason: str) -> str:
    """The message of a game not played for `reason`: a reason in the schedule's words
    (`its first N games ended with CODE on its first move (--fail-fast N)`) as `given_up`
    says it (``not played: ...``), any other as it is."""
    found = _GIVEN_UP.fullmatch(reason)
    if found and reason.startswith("its first") and found[3] == " on its first move":
        return given_up(found[2], int(found[1] or 1))
    return f"not played: {reason}" if found else reason
