"""Game clocks, as chess tournaments and Kaggle run them: a time control (`Clock`) read
from fastchess's and cutechess's syntax, each seat's reading as a game goes on
(`SeatClock`), and a run's clocks by bot (`Clocks`).

A clock holds `base` seconds at the start; each move's wall time, as the referee measures
it, is taken from it (beyond the move's free time: the first move's allowance, Kaggle's
per-move time), then the increment is added, and after every `moves` moves of the seat the
base once more. A move that takes more than the clock holds (and its free time) loses the
game on time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from judge.games.base import InputError

#: a time control in fastchess's syntax: [MOVES/]BASE[+INCREMENT], BASE in seconds or
#: cutechess's minutes:seconds
_SPEC = re.compile(r"(?:(?P<moves>\d+)/)?(?P<base>[0-9.]+(?::[0-9.]+)?)(?:\+(?P<inc>[0-9.]+))?")
#: BOT=SPEC of --tc-for: the bot's name up to the first = that the spec's options do not
#: hold (a name may hold one: x=1.py=5; the spec 5,first=2 its own)
_ODDS = re.compile(r"(?P<bot>.+?)=(?P<spec>[^=,]*(?:,[^=,]*=[^=,]*)*)")
#: the options a time control may add after commas
_OPTIONS = {"first": "the first move's extra allowance", "move": "the free time of each move"}
#: what a bad time control is told
SYNTAX = ("give [MOVES/]BASE[+INCREMENT] in seconds (10+0.1, 40/60+0.5, 1:30+1), "
          "optionally followed by ,first=S and ,move=S, or inf")


@dataclass(frozen=True)
class Clock:
    """A time control: what a seat's clock holds, gains and gives free."""

    #: seconds on the clock at the start (Kaggle: the overage budget)
    base: float
    #: seconds added after each of the seat's moves
    increment: float = 0.0
    #: the base is added again after every this many of the seat's moves (0: never)
    moves: int = 0
    #: seconds the seat's first move may take beyond the clock, not charged to it (the
    #: bot's start-up)
    first: float = 0.0
    #: seconds each move may take free; only what a move takes beyond them is charged to
    #: the clock (Kaggle's per-move limit, whose overruns are paid from the budget)
    move: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Clock | None:
        """The time control `text` names (None: ``inf``, no clock); `InputError` if it
        names none."""
        spec = text.strip()
        if spec.lower() == "inf":
            return None
        head, *options = spec.split(",")
        found = _SPEC.fullmatch(head.strip())
        if found is None:
            raise InputError(f"time control {text!r}: {SYNTAX}")
        extra: dict[str, float] = {}
        for option in options:
            key, _, value = option.partition("=")
            key = key.strip()
            if key not in _OPTIONS or key in extra:
                raise InputError(f"time control {text!r}: {option.strip()!r} is not an option "
                                 f"(first=S: {_OPTIONS['first']}; move=S: {_OPTIONS['move']})")
            extra[key] = _seconds(value, text)
        base = found["base"]
        if ":" in base:
            minutes, seconds = base.split(":")
            whole = _seconds(minutes, text) * 60 + _seconds(seconds, text)
        else:
            whole = _seconds(base, text)
        moves = int(found["moves"] or 0)
        if found["moves"] is not None and moves < 1:
            raise InputError(f"time control {text!r}: the moves of a period must be at least 1")
        if whole <= 0 and extra.get("move", 0) <= 0:
            raise InputError(f"time control {text!r}: the clock must hold some time "
                             f"(a base above 0, or move=S)")
        increment = _seconds(found["inc"], text) if found["inc"] is not None else 0.0
        return cls(whole, increment, moves, **extra)

    def text(self) -> str:
        """The time control in the syntax `parse` reads (``40/60+0.5``, ``1+0.01``)."""
        words = f"{self.moves}/" if self.moves else ""
        words += f"{self.base:g}"
        if self.increment:
            words += f"+{self.increment:g}"
        if self.first:
            words += f",first={self.first:g}"
        if self.move:
            words += f",move={self.move:g}"
        return words


def _seconds(word: str, spec: str) -> float:
    """A number of seconds of the time control `spec`: finite and not negative."""
    try:
        value = float(word)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise InputError(f"time control {spec!r}: {word.strip()!r} is not a number of seconds"
                         f" ({SYNTAX})")
    return value


class SeatClock:
    """One seat's clock in one game: what it holds now, and how many moves it has made."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        #: seconds on the clock now (below 0: its flag fell)
        self.left = clock.base
        self.moved = 0

    def free(self) -> float:
        """The seconds the next move may take without charge to the clock."""
        return self.clock.move + (self.clock.first if self.moved == 0 else 0.0)

    def allowance(self) -> float:
        """The seconds the next move may take before the flag falls."""
        return self.left + self.free()

    def charge(self, seconds: float) -> bool:
        """Charge a move that took `seconds`; whether the clock held it (if not, `left` is
        what it held less the overrun, and no time is added)."""
        self.left -= max(0.0, seconds - self.free())
        self.moved += 1
        if self.left < 0:
            return False
        self.left += self.clock.increment
        if self.clock.moves and self.moved % self.clock.moves == 0:
            self.left += self.clock.base
        return True

    def told(self) -> str:
        """The line a bot told its clock reads before its move (``--tell-time``):
        ``time REMAINING INCREMENT``, the move's allowance and the increment in seconds."""
        return f"time {self.allowance():.3f} {self.clock.increment:.3f}"


def reading(seconds: float) -> str:
    """A clock's reading as a chess clock shows it, minutes:seconds to the tenth
    (``0:58.3``, ``12:00.0``; a fallen flag reads ``0:00.0``)."""
    tenths = max(0, math.floor(seconds * 10))
    minutes, tenths = divmod(tenths, 600)
    return f"{minutes}:{tenths // 10:02d}.{tenths % 10}"


@dataclass(frozen=True)
class Clocks:
    """A run's clocks: every bot's time control (`default`, None: no clock), some bots'
    own (time odds, by path; None there: no clock), and whether bots are told their
    clock before each move."""

    default: Clock | None = None
    by_bot: dict[str, Clock | None] = field(default_factory=dict)
    tell: bool = False

    def of(self, bot: str) -> Clock | None:
        """`bot`'s time control (None: no clock)."""
        return self.by_bot[bot] if bot in self.by_bot else self.default

    def side(self, name: str, computer: bool = False) -> Clock | None:
        """The clock of a side of `judge play` or `judge serve` named `name`: its own
        (--tc-for), else --tc, which a `computer` player (optimal, tricky, level:N: the
        judge's own time) is not on."""
        return self.by_bot[name] if name in self.by_bot else None if computer else self.default

    def check_named(self, names: Collection[str], which: str) -> None:
        """`InputError` unless every side given a clock of its own (--tc-for) is one of
        `names`; `which` says what they are and how to name one."""
        for name in self.by_bot:
            if name not in names:
                raise InputError(f"--tc-for {name!r}: not {which}")

    @property
    def any(self) -> bool:
        """Whether some bot plays on a clock."""
        return self.default is not None or any(c is not None for c in self.by_bot.values())

    def text(self, names: dict[str, str] | None = None) -> str:
        """The clocks in words, for a run's header: ``tc 10+0.1, greedy.py 5+0.1``."""
        words = [f"tc {self.default.text() if self.default else 'inf'}"]
        words += [f"{(names or {}).get(bot, bot)} {c.text() if c else 'inf'}"
                  for bot, c in self.by_bot.items()]
        return ", ".join(words) + (", told" if self.tell else "")

    def to_config(self) -> dict[str, object]:
        """The clocks as a stored plan keeps them (time controls as their text)."""
        return {"tc": self.default.text() if self.default else None,
                "tc_for": {b: c.text() if c else "inf" for b, c in self.by_bot.items()},
                "tell_time": self.tell}

    @classmethod
    def from_config(cls, config: dict[str, object]) -> Clocks:
        """The clocks of a stored plan (none in plans stored before clocks)."""
        tc, by_bot = config.get("tc"), config.get("tc_for") or {}
        assert isinstance(by_bot, dict)
        return cls(Clock.parse(tc) if isinstance(tc, str) else None,
                   {str(b): Clock.parse(str(t)) for b, t in by_bot.items()},
                   bool(config.get("tell_time")))

    @classmethod
    def given(cls, tc: str | None, tc_for: list[str] | None, tell: bool,
              odds: bool = True) -> Clocks:
        """The clocks of a command line: ``--tc SPEC``, ``--tc-for BOT=SPEC`` (repeatable,
        on a command with `odds`) and ``--tell-time``; `InputError` for a bad one."""
        default = Clock.parse(tc) if tc is not None else None
        by_bot: dict[str, Clock | None] = {}
        for given in tc_for or ():
            found = _ODDS.fullmatch(given)
            if found is None:
                raise InputError(f"--tc-for {given!r}: give BOT=SPEC (greedy.py=5+0.05)")
            bot, spec = found["bot"], found["spec"]
            if bot in by_bot:
                raise InputError(f"--tc-for names {bot} twice")
            by_bot[bot] = Clock.parse(spec)
        clocks = cls(default, by_bot, tell)
        if tell and not clocks.any:
            raise InputError("--tell-time tells a bot its clock: give --tc"
                             + (" (or --tc-for)" if odds else ""))
        return clocks
