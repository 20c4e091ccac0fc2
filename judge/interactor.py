"""One game served to a bot over its own lines, as an interactor of a contest system does:
the protocol's opening, the bot's moves read and judged, the opponent's replies sent, and
the bot's result. The opponent is a function (the solver's move, or a reply read from a
table); the lines come and go through two functions, so that `judge opponent` and the
interactor a package bundles (judge/packages) serve a game the same way.

It needs only the game's rules, so that a package can run it without the judge installed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from judge.games.base import Game, MoveError

#: moves (of both players) before a loopy game stops as a tie: the judge's own move limit
MOVE_LIMIT = 200
#: the results of a game for the bot, best last
RESULTS = ("loss", "tie", "win")
#: the contracts an interactor speaks: the arguments it is given and its exit statuses
CONTRACTS = ("kattis", "testlib", "cms")
#: Kattis (and DOMjudge): accepted, wrong answer; any other status is the judge's error
KATTIS_ACCEPT, KATTIS_WRONG = 42, 43
#: testlib (and DMOJ's bridged interactors, Codeforces, Polygon): ok, wrong answer, failure,
#: and partial points (``points N`` on stderr)
TESTLIB_OK, TESTLIB_WRONG, TESTLIB_FAIL, TESTLIB_POINTS = 0, 1, 3, 7
#: the longest line read from the bot
LINE_BYTES = 1 << 20


@dataclass(frozen=True)
class Case:
    """A test of a contest package: the start, the bot's seat (player 1 or 2, as `judge
    run` numbers them: the player to move at the start opens) and the result perfect play
    gets there."""

    start: str
    seat: int
    expected: str

    def text(self, game: Game) -> str:
        """The case file (the test's input, which only the interactor reads)."""
        rules = game.rules_string()
        return (f"game {game.name}\n" + (f"rules {rules}\n" if rules else "")
                + f"start {self.start}\nseat {self.seat}\nexpected {self.expected}\n")

    @classmethod
    def parse(cls, text: str) -> tuple[str, str, Case]:
        """The game's name, its rules and the case of a case file; `ValueError` when it is
        not one."""
        fields: dict[str, str] = {}
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key:
                fields[key] = value.strip()
        try:
            case = cls(fields["start"], int(fields["seat"]), fields.get("expected", ""))
        except (KeyError, ValueError):
            raise ValueError("not a case file: it needs the lines 'start POSITION' and "
                             "'seat 1' or 'seat 2'") from None
        if case.seat not in (1, 2) or case.expected not in ("", *RESULTS):
            raise ValueError("not a case file: seat is 1 or 2, expected win, tie or loss")
        return fields.get("game", ""), fields.get("rules", ""), case


@dataclass(frozen=True)
class Outcome:
    """How a served game ended for the bot: its result, the verdict that ended it early
    (``illegal-move``, ``garbage``, ``no-move``: its input ended) or "", and what happened
    in words."""

    result: str
    verdict: str
    message: str
    moves: int
    #: the opponent's move that ended the game (played, not sent), or ""
    ending: str = ""

    def meets(self, expected: str) -> bool:
        """Whether the bot got the result perfect play gets (or better)."""
        return RESULTS.index(self.result) >= RESULTS.index(expected or "loss")


def serve(game: Game, pos: Any, seat: int, reply: Callable[[Any], Any],
          read: Callable[[], str], send: Callable[[str], None],
          move_limit: int = MOVE_LIMIT) -> Outcome:
    """Play one game from `pos` against the bot in `seat` (0 moves first from `pos`): the
    opponent (`reply`'s move) opens when it is its turn, the opening lines are sent, then
    each of the bot's lines (`read`, "" at its end) is judged and answered. As the judge
    does, the move that ends the game is played but not sent, and a loopy game is a tie
    after `move_limit` moves."""
    moves, ending = 0, ""

    def over() -> Outcome | None:
        if game.is_over(pos):
            winner = game.winner(pos)
            result = "tie" if winner is None else "win" if winner == seat else "loss"
            return Outcome(result, "", _end_words(game, pos, seat, result), moves, ending)
        if game.loopy and moves >= move_limit:
            return Outcome("tie", "", f"a tie by the move limit of {move_limit}", moves)
        return None

    if game.mover(pos) != seat and not game.is_over(pos):
        move = reply(pos)
        ending = game.format_move(move, pos)
        pos, moves = game.play(pos, move), moves + 1
    if not game.is_over(pos):
        ending = ""
        for line in game.wire_start(pos):
            send(line)
    while True:
        ended = over()
        if ended is not None:
            return ended
        if game.mover(pos) == seat:
            raw = read()
            if not raw:
                return Outcome("loss", "no-move", f"your input ended before the game did "
                               f"(after {moves} moves)", moves)
            try:
                move = game.parse_move(raw.rstrip("\n"), pos)
            except MoveError as exc:
                return Outcome("loss", exc.code, f"move {moves + 1}: {exc}", moves)
            pos, moves = game.play(pos, move), moves + 1
        else:
            move = reply(pos)
            text = game.format_move(move, pos)
            pos, moves = game.play(pos, move), moves + 1
            if game.is_over(pos):  # as the judge does: the ending move is not sent
                ending = text
            else:
                send(text)


def _end_words(game: Game, pos: Any, seat: int, result: str) -> str:
    score = game.score(pos)
    extra = f" ({score[seat]} to {score[1 - seat]})" if score else ""
    return {"win": "you win", "tie": "tie", "loss": "you lose"}[result] + extra


#: a game and its opponent for a case file's game and rules (`judge opponent`: the solver's;
#: a package's interactor: its table's)
Opponent = Callable[[str, str], tuple[Game, Callable[[Any], Any]]]


def run_contract(contract: str, argv: list[str], opponent: Opponent) -> int:
    """Judge the bot under `contract` (`CONTRACTS`), its files in `argv`: Kattis's ``INPUT
    ANSWER FEEDBACK_DIR``, which takes 42 (the bot got the result perfect play gets) or 43
    with judgemessage.txt in the feedback folder; testlib's ``INPUT OUTPUT [ANSWER]``,
    which writes the result to OUTPUT, says ``ok ...`` or ``wrong answer ...`` on stderr and
    exits 0 or 1, or 7 with ``points N`` for a result short of perfect play's that the game
    still gives points for (an Ioiwari tie: 2, in `point_scale`); CMS's manager, the case
    on stdin and ``FROM_BOT TO_BOT`` its FIFOs, which writes the share of perfect play's
    points the bot earned to stdout and why to stderr. The bot is on stdin and stdout but
    for CMS. The case (`Case.text`) names the start, the bot's seat and the result
    expected (ANSWER's first word when given). A case that cannot be read exits 1 (the
    judge's error to Kattis and CMS) or 3 (testlib's failure)."""
    need = {"kattis": 3, "testlib": 2, "cms": 2}[contract]
    fail = TESTLIB_FAIL if contract == "testlib" else 1
    if len(argv) < need:
        print(f"interactor: the {contract} contract gives {need} files, not {len(argv)}",
              file=sys.stderr)
        return fail
    try:
        text = sys.stdin.read() if contract == "cms" else Path(argv[0]).read_text("utf-8")
        name, rules, case = Case.parse(text)
        answer = {"kattis": argv[1], "testlib": argv[2] if len(argv) > 2 else ""}
        expected = _answer(answer.get(contract, "")) or case.expected or "win"
        game, reply = opponent(name, rules)
        pos = game.parse_position(case.start)
        # (CMS: the bot's input first, which the bot's sandbox opens first)
        to_bot = open(argv[1], "w", encoding="utf-8") if contract == "cms" else sys.stdout
        from_bot = open(argv[0], encoding="utf-8") if contract == "cms" else sys.stdin
    except (OSError, ValueError) as exc:  # (an InputError is a ValueError)
        print(f"interactor: {exc}", file=sys.stderr)
        return fail
    try:
        outcome = serve(game, pos, case.seat - 1, reply,
                        lambda: from_bot.readline(LINE_BYTES), lambda line: _send(to_bot, line))
    except Exception as exc:  # the opponent's failure (a reply missing), not the bot's
        print(f"interactor: the opponent failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return fail
    # (what a bot writes after the game's end is not read: judge run does not judge it
    # either, and contest systems' runners keep the pipes open, so that reading to the
    # output's end would wait for the time limit)
    _close(to_bot)  # (a bot that reads on sees its input end, and may exit)
    ok = outcome.meets(expected)
    words = (f"start {case.start}, seat {case.seat}: {outcome.message}"
             f" (perfect play: {expected})")
    earned = getattr(game.points, outcome.result)
    if contract == "cms":
        most = getattr(game.points, expected)
        print(1.0 if ok else earned / most if most else 0.0)
        print(words, file=sys.stderr)
        return 0
    if contract == "kattis":
        feedback = Path(argv[2])
        (feedback / "judgemessage.txt").write_text(words + "\n", encoding="utf-8")
        return KATTIS_ACCEPT if ok else KATTIS_WRONG
    Path(argv[1]).write_text(f"{outcome.result}\n{words}\n", encoding="utf-8")
    if not ok and earned > 0:
        print(f"points {round(earned * point_scale(game))}\n{words}", file=sys.stderr)
        return TESTLIB_POINTS
    print(("ok " if ok else "wrong answer ") + words, file=sys.stderr)
    return TESTLIB_OK if ok else TESTLIB_WRONG


def point_scale(game: Game) -> int:
    """What the game's points are multiplied by to be whole numbers (1, 2, 4, ... 64), as
    testlib's partial points and DMOJ's cases are."""
    scale = 1
    while scale < 64 and not all(float(p * scale).is_integer() for p in game.points):
        scale *= 2
    return scale


def _answer(path: str) -> str:
    """The first word of an answer file ("" when none is given or it is empty)."""
    if not path:
        return ""
    words = Path(path).read_text(encoding="utf-8").split()
    if words and words[0] not in RESULTS:
        raise ValueError(f"the answer file holds {words[0]!r}, not win, tie or loss")
    return words[0] if words else ""


def _send(stream: TextIO, line: str) -> None:
    """A line to the bot; a bot that has gone is found when its next move is read."""
    try:
        stream.write(line + "\n")
        stream.flush()
    except BrokenPipeError:
        pass


def _close(stream: TextIO) -> None:
    """End the bot's input (a bot that is gone leaves nothing to close)."""
    try:
        stream.close()
    except BrokenPipeError:
        pass
    if stream is sys.stdout:
        with open(os.devnull, "w") as sink:  # (the interpreter's own flush at exit)
            os.dup2(sink.fileno(), 1)
