"""The generic game suite (`judge games --check`), as OpenSpiel's random simulation test: any
installed game checked against what the judge needs of every game, each failure said in the
game's own terms (the position, the move, what was expected and what the game gave).

- rules: random playouts from the starts; at each position the moves are listed once each,
  every one reads back as itself through the wire (the referee refuses what `parse_move`
  refuses: a listed move that is not legal), playing it leaves the position unchanged, a
  finished position has no move and a defined winner, and play never goes on past the end;
- codec: each position's text reads back as the same position, the lines sent to a bot
  are lines, and a game's numbers (`encode`) are one per position;
- values: the solver's value of each position is the best of its moves' values, and its
  best moves reach it (with the remoteness, where known);
- perfect play: from a won position, the solver's moves against random ones win;
- bot seats: a whole game through a real bot process in each seat, which checks that it is
  sent exactly the codec's lines and that its moves are read as it meant them;
- transcripts: each worked transcript of the game's protocol page (a `` ```transcript ``
  block, under the rules its opening line names: `` ```transcript take=1,3,4 ``) replayed
  against the referee and a bot process that writes the transcript's bot lines: the judge
  must send exactly its judge lines and accept the bot's.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from judge.games.base import Game, InputError, MoveError, Scoring
from judge.players.base import Notation, Played, Player, Table
from judge.players.bot import BotPlayer
from judge.referee import GameRecord, play_game
from judge.sandbox import Limits
from judge.solvers import solver_for
from judge.solvers.base import order

#: random playouts of the rules check (the first from the standard start)
PLAYOUTS = 3
#: plies of a playout (a loopy game could go on forever)
MOVE_LIMIT = 60
#: won positions that perfect play is played from
WON_POSITIONS = 12
#: failures said of one check (the rest counted)
SAID = 5
#: plies of the bot check's game before it gives up waiting for the end
GAME_LIMIT = 40 * MOVE_LIMIT


class Check(Enum):
    """One part of the suite, in the order it runs."""

    RULES = "rules"
    CODEC = "codec"
    VALUES = "values"
    PERFECT = "perfect play"
    BOT_FIRST = "bot in seat 1"
    BOT_SECOND = "bot in seat 2"
    TRANSCRIPTS = "transcripts"

    @property
    def unit(self) -> str:
        """What the check counts: playouts, positions, games or transcripts."""
        return {Check.RULES: "playout", Check.BOT_FIRST: "game", Check.BOT_SECOND: "game",
                Check.TRANSCRIPTS: "transcript"}.get(self, "position")


@dataclass(frozen=True)
class Failure:
    """What the game did wrong: where (a position and a move, in its notation), what the
    judge expected and what the game gave."""

    position: str
    move: str | None
    expected: str
    got: str

    def text(self) -> str:
        """One line: ``position 5, move 3: expected ..., got ...`` (``the game: ...`` when
        no position is to blame)."""
        where = f"position {self.position}" if self.position else "the game"
        where += f", move {self.move}" if self.move else ""
        return f"{where}: expected {self.expected}, got {self.got}"


@dataclass
class Outcome:
    """What one check found: how many positions (or games) it tried, its failures, or why
    it was skipped."""

    check: Check
    tried: int = 0
    failures: list[Failure] = field(default_factory=list)
    skipped: str | None = None


class Stop(Exception):
    """A failure after which a check cannot go on from where it is."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.text())
        self.failure = failure


def raised(exc: BaseException) -> str:
    """An exception of the game's code, as a failure says what it got."""
    return f"{type(exc).__name__}: {exc}"


class Suite:
    """The checks of one game under its rules; `run` runs them all."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(f"judge games --check {game.describe()} {seed}")
        #: the positions the playouts visited, in order, once each
        self.visited: dict[Any, None] = {}

    # --- saying things in the game's terms -----------------------------------------------------
    def pos_text(self, pos: Any) -> str:
        """`pos` in the game's notation (its repr when the notation fails; "" for None: no
        position)."""
        if pos is None:
            return ""
        try:
            return self.game.format_position(pos)
        except Exception:  # noqa: BLE001 - the notation is under test too
            return repr(pos)

    def move_text(self, move: Any, pos: Any) -> str:
        """`move` in wire syntax (its repr when the codec fails)."""
        try:
            return self.game.format_move(move, pos)
        except Exception:  # noqa: BLE001
            return repr(move)

    def moves_text(self, moves: list[Any], pos: Any) -> str:
        """`moves` in wire syntax, ``1, 2, 3``."""
        return ", ".join(self.move_text(m, pos) for m in moves)

    def failure(self, pos: Any, expected: str, got: str, move: Any = None) -> Failure:
        """A failure at `pos` (and `move`)."""
        said = None if move is None else self.move_text(move, pos)
        return Failure(self.pos_text(pos), said, expected, got)

    def call(self, pos: Any, what: str, fn: Callable[..., Any], *args: Any,
             move: Any = None) -> Any:
        """`fn(*args)`, a call of the game's (or its solver's) code at `pos` (and `move`),
        which should give `what`; an exception is a `Stop`."""
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - any failure of the game's code is its own
            raise Stop(self.failure(pos, what, raised(exc), move)) from None

    # --- the checks --------------------------------------------------------------------------
    def run(self) -> Iterator[Outcome]:
        """Every check in turn, each one's outcome as soon as it is done."""
        for check, walk in [(Check.RULES, self.rules), (Check.CODEC, self.codec),
                            (Check.VALUES, self.values), (Check.PERFECT, self.perfect),
                            (Check.BOT_FIRST, lambda: self.bot(0)),
                            (Check.BOT_SECOND, lambda: self.bot(1)),
                            (Check.TRANSCRIPTS, self.transcripts)]:
            outcome = Outcome(check)
            try:
                for failure in walk():
                    if failure is None:
                        outcome.tried += 1
                    else:
                        outcome.failures.append(failure)
            except Stop as stop:
                outcome.failures.append(stop.failure)
            except InputError as exc:  # too big to solve here, say
                outcome.skipped = str(exc)
            except Exception as exc:  # noqa: BLE001 - the game's code, called by the check's
                outcome.failures.append(Failure("", None, "no error", raised(exc)))
            yield outcome

    def each(self, items: list[Any],
             check: Callable[[Any], Iterator[Failure | None]]) -> Iterator[Failure | None]:
        """`check` of each item (a playout's start, a position) in turn, the next one
        checked after a `Stop` of the last; None after each."""
        for item in items:
            try:
                yield from check(item)
            except Stop as stop:
                yield stop.failure
            yield None

    def rules(self) -> Iterator[Failure | None]:
        """Random playouts checked against the rules, at every position (None: one done)."""
        game = self.game
        starts = self.call(None, "the standard starts", game.standard_starts) or []
        firsts = [self.call(None, "the start", game.start)]
        firsts += [self.rng.choice(starts) for _ in range(PLAYOUTS - 1)] if starts else []
        yield from self.each(firsts, self.playout)

    def playout(self, pos: Any) -> Iterator[Failure | None]:
        """A random game from `pos`, each position checked against the rules."""
        for _ in range(MOVE_LIMIT):
            self.visited.setdefault(pos, None)
            moves = yield from self.position_rules(pos)
            if not moves:
                break
            move = self.rng.choice(moves)
            pos = self.call(pos, "the position after the move", self.game.play, pos, move,
                            move=move)

    def position_rules(self, pos: Any) -> Generator[Failure | None, None, list[Any]]:
        """The rules' checks of one position; returns its legal moves (none when over)."""
        game = self.game
        over = self.call(pos, "whether the game is over", game.is_over, pos)
        moves = self.call(pos, "the legal moves", game.legal_moves, pos)
        if over:
            if moves:
                yield self.failure(pos, "no legal move in a finished game",
                                   self.moves_text(moves, pos))
            winner = self.call(pos, "the winner", game.winner, pos)
            if winner not in (0, 1, None):
                yield self.failure(pos, "the winning seat, 0 or 1 (or None for a tie)",
                                   repr(winner))
            return []
        if not moves:
            yield self.failure(pos, "a legal move in a game that is not over", "none")
            return []
        if len(set(moves)) != len(moves):
            yield self.failure(pos, "each legal move listed once",
                               self.moves_text(moves, pos))
        mover = self.call(pos, "the seat to move", game.mover, pos)
        if mover not in (0, 1):
            yield self.failure(pos, "the seat to move, 0 or 1", repr(mover))
        kept = []
        for move in moves:
            if (yield from self.move_rules(pos, move)):
                kept.append(move)
        return kept

    def move_rules(self, pos: Any, move: Any) -> Generator[Failure | None, None, bool]:
        """The wire's and the rules' checks of one legal move; returns whether it can be
        played on."""
        game = self.game
        line = self.call(pos, "the move in wire syntax", game.format_move, move, pos,
                         move=move)
        try:
            back = game.parse_move(line, pos)
        except MoveError as exc:
            yield self.failure(pos, "a legal move (it is listed), read back as itself",
                               f"{exc.code}: {exc.reason}", move)
            return False
        except Exception as exc:  # noqa: BLE001 - any failure of the game's code is its own
            yield self.failure(pos, "the move read back as itself", raised(exc), move)
            return False
        if back != move:
            yield self.failure(pos, f"the line {line!r} read back as {move!r}, the move it "
                               "was written from", repr(back), move)
        before = self.pos_text(pos)
        self.call(pos, "the position after the move", game.play, pos, move, move=move)
        if self.pos_text(pos) != before:
            yield Failure(before, line, "the position unchanged by playing a move from it "
                          "(positions are immutable)", self.pos_text(pos))
        return True

    def codec(self) -> Iterator[Failure | None]:
        """Each visited position's text, wire lines and number."""
        from judge.solvers.generic import numbering

        _, encode = self.call(None, "the position codes", numbering, self.game)
        numbers: dict[int, Any] = {}

        def position(pos: Any) -> Iterator[Failure]:
            yield from self.position_codec(pos)
            if encode is not None:
                yield from self.number(pos, encode, numbers)

        yield from self.each(list(self.visited), position)

    def position_codec(self, pos: Any) -> Iterator[Failure]:
        """A position's text read back, the lines a bot is sent and its drawing."""
        game = self.game
        text = self.call(pos, "the position's text", game.format_position, pos)
        back = self.call(pos, f"{text!r} read back", game.parse_position, text)
        again = self.call(pos, "the position's text", game.format_position, back)
        if again != text:
            yield self.failure(pos, f"{text!r} read back as itself", repr(again))
        else:  # the same moves (an impartial game's text need not say whose turn)
            theirs = self.call(pos, "the legal moves", game.legal_moves, back)
            mine = game.legal_moves(pos)
            if theirs != mine:
                yield self.failure(pos, f"{text!r} read back with the same legal moves "
                                   f"({self.moves_text(mine, pos)})",
                                   self.moves_text(theirs, back) or "none")
        lines = self.call(pos, "the lines a bot is sent", game.wire_start, pos)
        if not isinstance(lines, list) or not all(
                isinstance(line, str) and "\n" not in line for line in lines):
            yield self.failure(pos, "a list of lines without newlines", repr(lines))
        drawn = self.call(pos, "a drawing", game.render, pos)
        if not isinstance(drawn, str):
            yield self.failure(pos, "a drawing in text", repr(drawn))

    def number(self, pos: Any, encode: Callable[[Any], int],
               numbers: dict[int, Any]) -> Iterator[Failure]:
        """The position's number: a whole number below 2**63, one per position."""
        code = self.call(pos, "the position's number", encode, pos)
        if not isinstance(code, int) or not 0 <= code < 2**63:
            yield self.failure(pos, "a number from 0 to below 2**63", repr(code))
        elif numbers.setdefault(code, pos) != pos:
            yield self.failure(pos, "a number of its own", f"{code}, the number of "
                               f"{self.pos_text(numbers[code])}")

    def values(self) -> Iterator[Failure | None]:
        """The solver's value of each visited position against its moves' values."""
        solver_for(self.game).check(list(self.visited))  # (too big: the check is skipped)
        yield from self.each(list(self.visited), self.value_of)

    def value_of(self, pos: Any) -> Iterator[Failure]:
        """The solver's value of `pos` against those of its moves."""
        solver = solver_for(self.game)
        ev = self.call(pos, "the solver's value", solver.evaluate, pos)
        declared = self.game.scoring
        kind = self.call(pos, "a value of the game's scoring", lambda: ev.value.scoring)
        if kind is not declared:
            want = ("a Difference (the final score difference)"
                    if declared is Scoring.DIFFERENCE else "an Outcome (win, loss or draw)")
            yield self.failure(pos, f"{want}, as the game's scoring {declared.name} says",
                               f"{ev.value} ({type(ev.value).__name__})")
        if self.game.is_over(pos):
            return
        moves = self.call(pos, "the values of its moves", solver.move_values, pos)
        best = max(moves, key=lambda m: order(m.value))
        if order(ev.value) != order(best.value):
            yield self.failure(pos, f"the value of its best move ({best.value})",
                               str(ev.value), best.move)
        if not ev.best_moves:
            yield self.failure(pos, "a best move in a game that is not over", "none")
        by_move = {m.move: m for m in moves}
        for move in ev.best_moves:
            if move not in by_move or by_move[move].value != ev.value:
                got = by_move[move].value if move in by_move else "not a legal move"
                yield self.failure(pos, f"a best move worth {ev.value}", str(got), move)
        timed = [m.remoteness for m in moves if m.value == ev.value and m.remoteness is not None]
        if ev.remoteness is not None and ev.value in ("win", "loss") and timed:
            want = min(timed) if ev.value == "win" else max(timed)
            if ev.remoteness != want:
                yield self.failure(pos, f"remoteness {want} (its moves')", str(ev.remoteness))

    def perfect(self) -> Iterator[Failure | None]:
        """Perfect play against random moves wins from won positions."""
        game = self.game
        solver = solver_for(game)
        solver.check(list(self.visited))  # (too big: the check is skipped)
        won = [p for p in self.visited if not game.is_over(p)
               and self.call(p, "the solver's value", solver.evaluate, p).value == "win"]
        yield from self.each(won[:WON_POSITIONS], self.won_from)

    def won_from(self, start: Any) -> Iterator[Failure]:
        """Perfect play from the won `start` against random moves, to its end."""
        game, solver = self.game, solver_for(self.game)
        pos, seat = start, game.mover(start)
        for _ in range(4 * MOVE_LIMIT):
            if game.is_over(pos):
                break
            move = solver.choose(pos) if game.mover(pos) == seat else \
                self.rng.choice(game.legal_moves(pos))
            pos = self.call(pos, "the position after the move", game.play, pos, move,
                            move=move)
        winner = game.winner(pos) if game.is_over(pos) else None
        if winner != seat:
            end = "the game went on" if not game.is_over(pos) else (
                "a tie" if winner is None else f"a loss at {self.pos_text(pos)}")
            yield self.failure(start, f"a win for seat {seat + 1} (the position is won)", end)

    def ending_game(self) -> list[tuple[Any, Any]]:
        """(position, move) of a game that ends: random moves until the mover can win, then
        perfect play by both; `InputError` when none ends within `GAME_LIMIT` plies."""
        game = self.game
        solver = solver_for(game)
        pos, played = game.start(), list[tuple[Any, Any]]()
        for _ in range(GAME_LIMIT):
            if game.is_over(pos):
                return played
            won = solver.evaluate(pos).value == "win"
            move = solver.choose(pos) if won else self.rng.choice(game.legal_moves(pos))
            played.append((pos, move))
            pos = game.play(pos, move)
        raise InputError(f"no game ended within {GAME_LIMIT} moves of random play")

    def bot(self, seat: int) -> Iterator[Failure | None]:
        """A whole game with a bot process in `seat`, which checks every line it is sent
        against the codec's and writes the moves of a game that ends."""
        game = self.game
        played = self.ending_game()
        script, first = [], True
        for ply, (pos, move) in enumerate(played):
            if game.mover(pos) != seat:
                continue
            if first:
                sent, first = game.wire_start(pos), False
            else:
                sent = [game.format_move(played[ply - 1][1], played[ply - 1][0])]
            script.append((sent, game.format_move(move, pos)))
        theirs = [game.format_move(m, p) for p, m in played if game.mover(p) != seat]
        start = game.start()
        record = scripted_game(game, start, SCRIPTED_BOT.format(script=script), theirs, seat)
        if record.verdict.code != "ok":
            yield self.failure(start, "a game played to its end (verdict ok)",
                               f"{record.verdict.code}: {record.verdict.message}")
        said = [m.move for m in record.moves]
        meant = [game.format_move(m, p) for p, m in played]
        if said != meant:
            at = next((i for i, (a, b) in enumerate(zip(said, meant, strict=False)) if a != b),
                      min(len(said), len(meant)))
            pos = played[at][0] if at < len(played) else start
            yield self.failure(pos, f"the moves {' '.join(meant[at:at + 3])} ... played",
                               " ".join(said[at:at + 3]) or "no more moves")
        yield None


    def transcripts(self) -> Iterator[Failure | None]:
        """Each worked transcript of the protocol page, replayed."""
        text = type(self.game).protocol_text()
        if text is None:
            raise InputError("the game's package ships no protocol page (protocol.md "
                             "beside its __init__.py, as package data)")
        found = worked_transcripts(text)
        if not found:
            raise InputError("its protocol page has no worked transcript (a ```transcript "
                             "block)")
        for transcript in found:
            yield from self.replay(transcript)
            yield None

    def replay(self, transcript: Transcript) -> Iterator[Failure]:
        """One transcript against the referee and a bot that writes its bot lines."""
        where = f"the transcript at line {transcript.line} of the protocol page"
        try:
            game = type(self.game)(transcript.rules)
        except InputError as exc:
            yield Failure("", None, f"rules the game takes at {where}", str(exc))
            return
        opening = [line for marker, line in transcript.lines]
        opening = opening[: next((i for i, (marker, _) in enumerate(transcript.lines)
                                  if marker != "judge"), len(opening))]
        start = opening_position(game, opening)
        if start is None:
            yield Failure("", None, f"judge lines that open a game at {where} (one of "
                          "them a position)", " / ".join(opening))
            return
        lines = transcript.lines[len(game.wire_start(start)):]
        theirs = [line for marker, line in lines if marker != "bot" and line]
        record = scripted_game(game, start, TRANSCRIPT_BOT.format(script=transcript.lines),
                               theirs)
        said = [line for _, line in lines if line]
        if record.verdict.code != "ok":
            yield Failure("", None, f"{where} played to its end (verdict ok)",
                          f"{record.verdict.code}: {record.verdict.message}")
        elif [m.move for m in record.moves] != said or transcript.lines[-1][0] != "close":
            yield Failure("", None, f"{where} played as it says: {' '.join(said)}, then "
                          "close>", " ".join(m.move for m in record.moves))


@dataclass(frozen=True)
class Transcript:
    """A worked transcript of a protocol page: its rules (as its opening line names them)
    and its lines, each with its marker (judge, bot or close)."""

    rules: str
    lines: tuple[tuple[str, str], ...]
    #: where it starts in the page (its opening line), for messages
    line: int


#: a worked transcript: `` ```transcript [RULES] ``, lines, `` ``` ``
TRANSCRIPT = re.compile(r"^```transcript([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def worked_transcripts(page: str) -> list[Transcript]:
    """Every worked transcript of a protocol page."""
    found = []
    for match in TRANSCRIPT.finditer(page):
        pairs = []
        for raw in match.group(2).splitlines():
            marker, _, line = raw.partition(">")
            pairs.append((marker.strip(), line.strip()))
        found.append(Transcript(match.group(1).strip(), tuple(pairs),
                                page.count("\n", 0, match.start()) + 1))
    return found


def opening_position(game: Notation[Any, Any], lines: list[str]) -> Any:
    """The position that the judge's opening `lines` open a game at: the first of them
    that reads as a position whose `wire_start` lines begin `lines`, else the first that
    reads as a position (the bot then says which line differs); None when none reads."""
    found = []
    for line in lines:
        try:
            found.append(game.parse_position(line))
        except InputError:
            continue
        sent = game.wire_start(found[-1])
        if sent == lines[: len(sent)]:
            return found[-1]
    return found[0] if found else None


def scripted_game(game: Table[Any, Any], start: Any, bot: str, theirs: list[str],
                  seat: int | None = None) -> GameRecord:
    """The record of a game from `start` between a bot process running the Python `bot`
    in `seat` (the mover's at `start` by default) and the judge's side playing the moves
    `theirs`, in order."""
    with tempfile.TemporaryDirectory(prefix="judge-check-") as folder:
        path = Path(folder) / "bot.py"
        path.write_text(bot)
        players: list[Player] = [Scripted(theirs), Scripted(theirs)]
        seat = game.mover(start) if seat is None else seat
        players[seat] = BotPlayer(path, limits=Limits(first_move_seconds=20), sandbox="none",
                                  name=f"a bot in seat {seat + 1}")
        return play_game(game, players, start)


#: a bot that plays a transcript: it checks every line it is sent, and says so if one differs
TRANSCRIPT_BOT = """
import sys
for marker, line in {script!r}:
    if marker == "judge":
        got = sys.stdin.readline().rstrip("\\n")
        if got != line:
            print("MISMATCH expected " + repr(line) + " got " + repr(got), flush=True)
            sys.exit(1)
    elif marker == "bot":
        print(line, flush=True)
"""

#: a bot that reads what its script says the judge sends at each of its turns and writes the
#: script's move; a line other than the script's is named on its output and it exits
SCRIPTED_BOT = """
import sys
for expected, reply in {script!r}:
    got = [sys.stdin.readline().rstrip("\\n") for _ in expected]
    if got != expected:
        print("MISMATCH expected " + repr(expected) + " got " + repr(got), flush=True)
        sys.exit(1)
    print(reply, flush=True)
"""


class Scripted(Player):
    """The judge's side of the bot check's game: the moves it lists, in order."""

    name = "the judge's script"

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)

    def choose(self, pos: Any, last: Played | None) -> Any:
        return self.game.parse_move(self.lines.pop(0), pos)
