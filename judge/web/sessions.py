"""Games played in the browser, held by the server: pure Python, no HTTP.

A `Session` is one game at one screen: the rules, the start, the moves played (with the
moves taken back, for redo), and who sits where: a person, or a computer player (optimal,
tricky, ``level:N``, or a contestant's bot from the served folder, confined as in grading).
`Sessions` keys them by random ids, bounds their number and ends those left idle. A
`Watch` plays a bot against a computer player move by move for a spectator.

Every rule comes from the game classes and the solver; this module only asks them. What the
browser sends is checked here and refused with a `WebError` (an HTTP status and a message):
unknown games, bad rules, positions too long or too big to solve at once, illegal moves.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from judge import verdicts
from judge.analysis import MoveReview, result_sign, review
from judge.clock import Clock, Clocks, SeatClock, reading
from judge.games import GAMES, load_game
from judge.games.base import Facts, Game, InputError, M, MoveError, P, P_in, Rules, Scoring
from judge.html.boards import Shown, board_meta, control, drawable, touched
from judge.html.teaching import Teaching
from judge.players.base import Played, Player, PlayerFailure, Table
from judge.records import Verdict
from judge.sandbox.limits import Limits
from judge.solvers import Solvable, solver_for
from judge.solvers.base import Solver, Value
from judge.web.explain import (
    LEGEND,
    about_opponent,
    end_reason,
    parse_record,
    record_text,
    rules_panel,
    says_move,
    says_position,
    variant_rules,
    variants,
)
from judge.words import plural

if TYPE_CHECKING:
    from judge.league import Member

#: the longest rules, position or move text read from a request
MAX_TEXT = 400
#: games held at once, of them with a bot process
MAX_SESSIONS = 200
MAX_BOT_GAMES = 8
#: of them, one client address's by default (`judge serve --bot-games-per-address`): half,
#: so that one client keeping its games alive never shuts out everyone else
BOT_GAMES_PER_ADDRESS = max(1, MAX_BOT_GAMES // 2)
#: the longest a game refused for want of a place among those with a bot is told to wait
#: (seconds): a place frees as soon as a player leaves a game's page, which may be at any
#: moment, and at the latest when the idlest game reaches the idle timeout
BOT_RETRY_SECONDS = 30
#: games watched at once (each runs a bot, or two)
MAX_WATCHES = 8
#: seconds after which a game nobody touched is ended (and its bot process with it)
IDLE_SECONDS = 600.0
#: ids of ended games remembered, to say why they are gone
REMEMBERED = 1000
#: the moves of a game given in its link: at most this many, in this many characters
MAX_MOVES = 1000
MAX_MOVES_TEXT = 8000
HUMAN = "human"
#: the person playing against a computer player, as the page names them (and --tc-for)
YOU = "you"
BOT_MOVES = ("a game against a bot program starts from its position (a bot cannot be given "
             "moves it did not see)")
#: the words for a value, seen by the player to move (as GamesmanUni writes them)
WORDS = {1: "win", 0: "draw", -1: "lose"}


class WebError(Exception):
    """A request the app refuses: `status` is the HTTP status, the message says why, and
    `retry_after`, if given, the seconds to wait before sending it again."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class AddsVersion(Protocol):
    """How `judge league add` adds `file` as the next version of the bot `name` to the
    league of `db`: (the new member, the labels of the versions it retires)."""

    def __call__(self, db: str, name: str, file: str,
                 refuse_compile_error: bool = False) -> tuple[Member, list[str]]: ...


@dataclass(frozen=True)
class Served:
    """What the server was started with: the bots' folder and how bots are confined."""

    bots: Path | None = None
    limits: Limits = field(default_factory=Limits)
    sandbox: str = "auto"
    seed: int | None = None
    idle_seconds: float = IDLE_SECONDS
    db: Path | None = None
    #: the clocks of the games against a bot or computer player (--tc, --tc-for: a side's
    #: own by its name, `YOU` for the person; --tell-time)
    clocks: Clocks = field(default_factory=Clocks)
    #: the games with a bot one client address may hold (--bot-games-per-address)
    bot_games_per_address: int = BOT_GAMES_PER_ADDRESS
    #: how a league's upload is added (`judge league add`'s, which `judge serve` gives the
    #: app it starts); None: the app takes no upload
    add_version: AddsVersion | None = None


def text_of(value: Any, what: str) -> str:
    """A string field of a request, bounded in length."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise WebError(400, f"{what} must be a string")
    if len(value) > MAX_TEXT:
        raise WebError(413, f"{what} is {len(value)} characters long; at most {MAX_TEXT}")
    if any(not c.isprintable() for c in value):
        raise WebError(400, f"{what} holds control characters")
    return value


def flag_of(value: Any, what: str) -> bool:
    """A switch of a request: JSON true or false, nothing else (``"no"`` is no switch)."""
    if not isinstance(value, bool):
        raise WebError(400, f"{what} is true or false")
    return value


def load(name: Any, rules: Any = "", position: Any = "") -> tuple[Game, Any]:
    """The game under `rules` and the position (the start when empty), checked to be small
    enough to show and solve here."""
    name = text_of(name, "game").lower()
    if name not in GAMES:
        raise WebError(404, f"unknown game {name!r} (games: {', '.join(GAMES)})")
    try:
        game = load_game(name, variant_rules(name, text_of(rules, "rules")))
        text = text_of(position, "position").strip()
        pos = game.parse_position(text) if text else game.start()
    except InputError as exc:
        raise WebError(400, str(exc)) from None
    check_size(game, pos)
    return game, pos


def moves_of(value: Any) -> list[str]:
    """The moves of a game as a link or a request gives them: a list of wire-syntax moves,
    or one text of them separated by commas (as the page's address writes them)."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        if len(value) > MAX_MOVES_TEXT:
            raise WebError(413, f"moves are {len(value)} characters long; at most "
                           f"{MAX_MOVES_TEXT}")
        value = value.split(",")
    if not isinstance(value, list) or len(value) > MAX_MOVES:
        raise WebError(400, f"moves are a list of at most {MAX_MOVES} moves")
    return [text_of(v, "move") for v in value]


def replayed(game: Game, start: Any, moves: list[str]) -> list[tuple[Any, Any]]:
    """The (position, move) pairs of `moves` played from `start`; 400 at an illegal one."""
    pos, out = start, []
    for number, text in enumerate(moves, 1):
        if game.is_over(pos):
            raise WebError(400, f"move {number} ({text!r}) comes after the end of the game")
        try:
            move = game.parse_move(text, pos)
        except MoveError as exc:
            raise WebError(400, f"move {number}: {exc.reason} ({text!r})") from None
        out.append((pos, move))
        pos = game.play(pos, move)
    return out


@runtime_checkable
class BrowserLimits(Protocol[P_in]):
    """The browser limits facet: the positions the browser app refuses to draw, or to solve
    while a person waits. Optional: a game without it has no limit of its own (its solver
    may have one). Every `Game` has it (with no limit unless the game sets one)."""

    def browser_limit(self, pos: P_in) -> str | None:
        """Why the browser app does not show `pos` (too big to draw), or None."""
        ...

    def solve_limit(self, pos: P_in) -> str | None:
        """Why the browser app does not compute perfect play from `pos` while a person
        waits, or None."""
        ...


def check_size(game: Solvable[Any, Any], pos: Any) -> None:
    """Refuse a position the page cannot draw (`BrowserLimits.browser_limit`) or the solver
    cannot answer at once (`Solver.browser_limit`)."""
    own = game.browser_limit(pos) if isinstance(game, BrowserLimits) else None
    reason = own or solver_for(game).browser_limit(pos)
    if reason is not None:
        raise WebError(413, reason)


def solver_here(game: Solvable[Any, Any], pos: Any) -> Solver:
    """The solver of `game`, for perfect play from `pos` while a person waits; refused
    (`WebError` 413) before any search when the game says it would be too long
    (`BrowserLimits.solve_limit`)."""
    reason = game.solve_limit(pos) if isinstance(game, BrowserLimits) else None
    if reason is not None:
        raise WebError(413, reason)
    return solver_for(game)


def lead_of(game: Table[Any, Any], pos: Any) -> int:
    """The mover's bank minus the opponent's (0 for games without a score)."""
    score = game.score(pos)
    mover = game.mover(pos)
    return score[mover] - score[1 - mover] if score else 0


def final_difference(game: Facts[Any], value: Value, lead: int) -> int | None:
    """The mover's bank minus the opponent's at the end under perfect play, from the value
    of a game of score differences and the `lead` now (None for a game of outcomes)."""
    return lead + value.order if game.scoring is Scoring.DIFFERENCE else None


def value_word(game: Facts[Any], value: Value, lead: int) -> str:
    """win, lose, draw or tie for the mover, from a solver's value (Ioiwari: with `lead`)."""
    sign = result_sign(value, lead)
    if sign == 0 and (game.scoring is Scoring.DIFFERENCE or not game.loopy):
        return "tie"  # a game that ends, ending level: a tie; a loopy game's endless play: a draw
    return WORDS[sign]


@runtime_checkable
class TieRemoteness(Protocol[P_in]):
    """The optional solving facet of a game whose ties all take the same number of moves
    (a tie fills the board): the browser app counts a tie's moves by it where the solver
    gives none. Every `Game` has it (with no count unless the game gives one)."""

    def tie_remoteness(self, pos: P_in) -> int | None:
        """The moves left to the end from `pos`, a tie under perfect play, or None."""
        ...


def worth(game: Table[Any, Any], pos: Any, value: Value, remoteness: int | None, lead: int,
          move: Any = None) -> tuple[str, int | None]:
    """The value word for the mover at `pos` (of `move` when given) and its remoteness; a
    tie the solver gives no remoteness gets the game's (`TieRemoteness`)."""
    word = value_word(game, value, lead)
    if word == "tie" and remoteness is None and isinstance(game, TieRemoteness):
        left = game.tie_remoteness(pos if move is None else game.play(pos, move))
        if left is not None:
            remoteness = left + (move is not None)
    return word, remoteness


def for_first(word: str, flip: bool) -> str:
    """A value word for the mover, seen by player 1 (`flip`: player 2 moves)."""
    return {"win": "lose", "lose": "win"}.get(word, word) if flip else word


def result_of(game: Rules[Any, Any], pos: Any, stopped: bool = False) -> str | None:
    """The finished game's result: the winner's player number ``1`` or ``2``, or ``tie``."""
    if stopped:
        return "tie"
    if not game.is_over(pos):
        return None
    winner = game.winner(pos)
    return "tie" if winner is None else str(winner + 1)


class Browsed(Table[P, M], Teaching[P, M], Shown[P, M], Protocol[P, M]):
    """What the browser app's page of a position reads of a game: what the referee reads
    (the rules, the notation, the solver, the facts), its teaching facet (the names of its
    moves, its Grundy values) and its board; its browser limits and tie lengths where it
    has them. Every `Game` is one."""


def position_info(game: Browsed[Any, Any], pos: Any, values: bool,
                  names: list[str] | None = None) -> dict[str, Any]:
    """The position as the page shows it: notation, board, mover, and every legal move
    (with its value and remoteness for the mover when `values`, and both in words by the
    seats' `names`: you, optimal, player 1)."""
    names = names or ["player 1", "player 2"]
    over = game.is_over(pos)
    mover = game.mover(pos)
    info: dict[str, Any] = {
        "position": game.format_position(pos),
        "game": game.describe_at(pos),
        "to_move": mover + 1,
        "board": drawable(game, pos),
        "over": over,
        "scoring": game.scoring.value,
        "score": None if (score := game.score(pos)) is None else list(score),
        "moves": [],
    }
    solver = solver_here(game, pos) if values else solver_for(game)
    lead = lead_of(game, pos)
    moves = solver.move_values(pos) if values and not over else [
        None for _ in game.legal_moves(pos)]
    for legal, mv in zip(game.legal_moves(pos), moves, strict=True):
        entry: dict[str, Any] = {"move": game.format_move(legal, pos),
                                 "label": game.move_label(legal, pos),
                                 "control": control(game, pos, legal)}
        if mv is not None:
            word, remoteness = worth(game, pos, mv.value, mv.remoteness, lead, legal)
            entry.update(value=word, remoteness=remoteness)
            if game.scoring is Scoring.DIFFERENCE:
                entry.update(difference=mv.value,
                             final_difference=final_difference(game, mv.value, lead))
            entry["says"] = says_move(word, remoteness, names[mover],
                                      entry.get("final_difference"))
            if (grundy := game.grundy_value(game.play(pos, legal))) is not None:
                entry["grundy"] = grundy
        info["moves"].append(entry)
    if values:
        ev = solver.evaluate(pos)
        info["value"], info["remoteness"] = worth(game, pos, ev.value, ev.remoteness, lead)
        if game.scoring is Scoring.DIFFERENCE:
            info.update(difference=ev.value,
                        final_difference=final_difference(game, ev.value, lead))
        if not over:
            info["says"] = says_position(info["value"], info["remoteness"], names, mover,
                                         info.get("final_difference"))
            if info["remoteness"] is not None:  # the count it explains (no count: Kayles)
                info["legend"] = LEGEND
        if (outcome := solver.outcome(pos)) is not None:
            info["outcome"] = outcome
        if (grundy := game.grundy_value(pos)) is not None:
            # an impartial game's Grundy value, by the game's own name for it (a nim-sum)
            info.update(grundy=grundy, grundy_name=game.grundy_name,
                        grundy_text=game.grundy_text(pos, grundy))
    return info


def move_values_json(name: Any, rules: Any, position: Any) -> dict[str, Any]:
    """The stateless answer of ``GET /api/values``: the position with every move's value."""
    game, pos = load(name, rules, position)
    return position_info(game, pos, values=True)


def game_info() -> list[dict[str, Any]]:
    """Every game with its rule keys and defaults and its standard start."""
    out = []
    for name in GAMES:
        game = load_game(name)
        out.append({"game": name, "rules": dict(game.defaults), "start":
                    game.format_position(game.start()), "meta": board_meta(game),
                    "variants": variants(name), "explain": rules_panel(game)})
    return out


# --- players ------------------------------------------------------------------------------

def bot_path(served: Served, name: str) -> Path:
    """The bot file `name` (relative to the served folder), refused unless it lies inside."""
    if served.bots is None:
        raise WebError(404, "no bots are served: start the server with --bots FOLDER")
    name = text_of(name, "bot")
    parts = name.split("/")
    if (not name or name.startswith("/") or "\\" in name or "\0" in name
            or any(p in ("", ".", "..") or p.startswith(".") for p in parts)):
        raise WebError(400, f"bad bot name {name!r}: a file name in the bots' folder")
    root = served.bots.resolve()
    path = root.joinpath(*parts)
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise WebError(404, f"no bot {name!r} in the served folder") from None
    if not real.is_relative_to(root) or not real.is_file():
        raise WebError(404, f"no bot {name!r} in the served folder")
    return real


def bot_names(served: Served) -> list[str]:
    """The bot files of the served folder and its subfolders (names relative to it)."""
    if served.bots is None:
        return []
    root = served.bots.resolve()
    names = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        try:
            inside = path.resolve(strict=True).is_relative_to(root)
        except (OSError, RuntimeError):
            continue
        if inside and path.is_file() and bot_path(served, rel.as_posix()):
            names.append(rel.as_posix())
        if len(names) >= 500:
            break
    return names


def bot_game(name: str) -> str:
    """The game a bot of the served folder plays, by its folders (``nim/greedy.py``,
    ``languages/nim/bot.c``: nim); "" for a bot in no game's folder."""
    return next((part for part in name.split("/")[:-1] if part in GAMES), "")


def is_bot(name: Any) -> bool:
    """Whether an opponent's name names a bot file (not a person or a computer player)."""
    return not (name in (HUMAN, "optimal", "tricky") or str(name).startswith("level:"))


def check_opponent(served: Served, name: Any) -> None:
    """Refuse (`WebError`) an opponent a link names that no game could seat: an unknown
    level, a bot name outside the served folder or not in it (no bot is started)."""
    from judge.players.optimal import opponent_kind

    name = text_of(name, "opponent")
    if not is_bot(name):
        try:
            opponent_kind(name if name != HUMAN else "optimal")
        except InputError as exc:
            raise WebError(400, str(exc)) from None
    else:
        bot_path(served, name)


def players_of(served: Served, text: str) -> list[str] | None:
    """The two computer players a page's `players=A,B` names (None when empty), checked."""
    if not text:
        return None
    names = text.split(",")
    if len(names) != 2 or HUMAN in names:
        raise WebError(400, "players are two computer players, separated by a comma")
    for name in names:
        check_opponent(served, name)
    return names


def computer_player(served: Served, kind: str, seed: int | None) -> Player:
    """A computer player by its name in a link: optimal, tricky, level:N, or a bot file."""
    from judge.players.optimal import opponent_kind, opponent_player

    kind = text_of(kind, "opponent")
    if kind in ("optimal", "tricky") or kind.startswith("level:"):
        try:
            return opponent_player(opponent_kind(kind), seed)
        except InputError as exc:
            raise WebError(400, str(exc)) from None
    path = bot_path(served, kind)
    from judge.players.bot import BotPlayer

    try:
        return BotPlayer(path, limits=served.limits, sandbox=served.sandbox,
                         name=kind, seed=seed)
    except InputError as exc:
        raise WebError(400, f"bot {kind!r}: {exc}") from None


def seat_clock(clocks: Clocks, player: Player | None) -> Clock | None:
    """The time control of a seat held by `player` (None: the person, `YOU`): its own of
    --tc-for by its name, else --tc for a person or a bot; the perfect players (optimal,
    tricky, level:N) play untimed as in a batch run unless --tc-for names them."""
    if player is None:
        return clocks.side(YOU)
    return clocks.side(player.name, computer=not is_process(player))


def is_process(player: Player | None) -> bool:
    """Whether `player` is a bot process (it cannot take a move back)."""
    from judge.players.bot import BotPlayer

    return isinstance(player, BotPlayer)


def judgement(game: Game, before: Any, move_text: str, ply: int) -> dict[str, Any]:
    """The report's verdict on one move: optimal, slow or a mistake, with the right moves."""
    r: MoveReview = review(game, before, [move_text])[0]
    lead = lead_of(game, before)
    return dict(r.to_dict(), ply=ply, seat=r.seat + 1,
                before=value_word(game, r.before, lead), after=value_word(game, r.after, lead))


# --- one game at one screen ---------------------------------------------------------------

class Recorded(NamedTuple):
    """A stored game as its viewer opens it: who played each seat, and the failure that
    ended it (a verdict charged to no seat when none did)."""

    players: tuple[str, ...]
    verdict: Verdict


@dataclass(frozen=True)
class ClockReading:
    """One seat's clock as the page shows it (a state's ``clocks``)."""

    #: the seat, 1 or 2, and who holds it (you, a bot's name, optimal)
    seat: int
    who: str
    #: the seconds on it now (None: the seat is untimed, as the perfect players are)
    left: float | None
    #: the seconds the running move may still take before the clock is charged (the first
    #: move's allowance, ``,move=S``; 0 when none is left or the clock does not run)
    free: float
    #: the same as a chess clock reads it: ``Your clock: 0:58.3``, ``optimal: untimed``
    text: str
    #: whether it runs now: a person to move, whose thinking the server counts
    running: bool
    #: whether its flag fell (the seat lost on time)
    fallen: bool

    def to_json(self) -> dict[str, Any]:
        """The reading as the API gives it."""
        return {"seat": self.seat, "who": self.who, "left": self.left, "free": self.free,
                "text": self.text, "running": self.running, "fallen": self.fallen}


class Session:
    """One game in the browser: people and computer players by seat, the moves, undo/redo."""

    def __init__(self, served: Served, game: Game, start: Any, opponent: str = HUMAN,
                 seat: int = 1, values: bool = False, moves: list[str] | None = None,
                 players: list[str] | None = None, timed: bool = True) -> None:
        self.id = secrets.token_urlsafe(18)
        self.game = game
        self.start = start
        self.values = values
        self.opponent = text_of(opponent, "opponent") or HUMAN
        self.history: list[tuple[Any, Any]] = []  # (position before, move)
        self.undone: list[tuple[Any, Any]] = []  # taken back, the next to redo last
        #: how a bot's failure ended the game (None: no bot failed), and its stderr's end
        self.verdict: Verdict | None = None
        #: the stored game it replays (`replay`), and its moves
        self.recorded: Recorded | None = None
        self.line: list[Any] = []
        self.stderr = ""
        #: the history's entries of the last answer, by what they are worked out from
        self.entries: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.touched = time.monotonic()
        #: the client address that asked for it (None: not a client's)
        self.address: str | None = None
        self.lock = threading.RLock()
        self.limits = served.limits
        self.ended = False
        #: each seat's clock (None: untimed), the server's in a new game against a computer
        #: player; when the person to move was shown the position (monotonic); whether bots
        #: are told their clocks
        self.timers: list[SeatClock | None] = [None, None]
        self.shown: float | None = None
        self.tell_time = served.clocks.tell
        if seat not in (1, 2):
            raise WebError(400, "seat is 1 (you move first) or 2")
        #: the computer player of each seat (None where a person plays)
        self.players: list[Player | None] = [None, None]
        if moves:  # a game resumed from its link: its moves are replayed, not chosen again
            self.history = replayed(game, start, moves)
        #: computer against computer: both seats computer players, moved one at a time
        self.stepwise = players is not None
        if players is not None:
            self._seat_computers(served, players, bool(moves))
            self._start_clocks(served.clocks if timed and not moves else None)
            return
        if self.opponent != HUMAN:
            computer = (game.mover(start) + seat) % 2  # the seat the person does not hold
            player = computer_player(served, self.opponent, served.seed)
            if moves and is_process(player):
                player.close()
                raise WebError(400, BOT_MOVES)
            self.players[computer] = player
            self._start_clocks(served.clocks if timed and not moves else None)
            try:
                player.begin(game, computer)
            except PlayerFailure as exc:
                self._failed(computer, exc)
        self.computer_moves()

    def _start_clocks(self, clocks: Clocks | None) -> None:
        """Put the game on `clocks` (None: none), each seat on its own (`seat_clock`)."""
        if clocks is None:
            return
        self.timers = [None if c is None else SeatClock(c)
                       for c in (seat_clock(clocks, p) for p in self.players)]

    def _seat_computers(self, served: Served, names: list[str], resumed: bool) -> None:
        """Seat a computer player in both seats (player 1's first); the page moves them one
        move at a time (`advance` with `one`)."""
        for seat, name in enumerate(names):
            if name == HUMAN:
                raise WebError(400, "players are two computer players (optimal, tricky, "
                               "level:N or a bot), not human")
            player = computer_player(served, name, served.seed)
            if resumed and is_process(player):
                player.close()
                self.close()
                raise WebError(400, BOT_MOVES)
            self.players[seat] = player
            if self.verdict is not None:  # (the first failed: the game is over)
                continue
            try:
                player.begin(self.game, seat)
            except PlayerFailure as exc:
                self._failed(seat, exc)
        self.opponent = ",".join(names)

    # -- what the page shows
    @property
    def pos(self) -> Any:
        """The position now."""
        pos = self.start
        for _, move in self.history:
            pos = self.game.play(pos, move)
        return pos

    def stopped(self) -> bool:
        """Whether a loopy game reached the move limit (a tie, as between bots)."""
        return self.game.loopy and len(self.history) >= self.limits.move_limit

    def over(self, pos: Any) -> bool:
        """Whether the game has ended: finished, a failed bot, or the move limit."""
        return self.game.is_over(pos) or self.failure() is not None or self.stopped()

    def failure(self) -> Verdict | None:
        """The bot failure that ended the game: its own, or at the end of a stored game's
        moves the one that ended it there."""
        recorded = self.recorded
        if self.verdict is None and recorded is not None and recorded.verdict.seat is not None \
                and [m for _, m in self.history] == self.line:
            return recorded.verdict
        return self.verdict

    def state(self) -> dict[str, Any]:
        """Everything the page draws, as JSON-ready data (a person's flag that fell while
        they thought is seen to first)."""
        self.check_clock()
        pos = self.pos
        info = position_info(self.game, pos, self.values, self.names())
        over = self.over(pos)
        if over and not self.game.is_over(pos):
            info["moves"] = []
        turn = self.game.mover(pos)
        info.update(
            id=self.id, name=self.game.name, rules=self.game.rules_string(),
            start=self.game.format_position(self.start), meta=board_meta(self.game),
            values=self.values, over=over, opponent=self.opponent,
            players=self.names(),
            your_turn=not over and self.players[turn] is None,
            result=self.result(pos), verdict=self.verdict_json(),
            can_undo=self.can_take_back() and any(
                self.players[self.game.mover(p)] is None for p, _ in self.history),
            can_redo=self.can_take_back() and bool(self.undone),
            history=self.history_json(), ply=len(self.history), last=self.last_json(),
            resumable=self.can_take_back(), stepwise=self.stepwise,
            explain=dict(rules_panel(self.game), players=[
                about_opponent(self.opponent_name(s)) for s in (0, 1)]),
            end=end_reason(self.game, pos, self.stopped(), self.limits.move_limit,
                           self.verdict_json(), self.names()) if over else None,
            record=record_text(self.game.name, self.game.rules_string(),
                               self.game.format_position(self.start),
                               [self.game.format_move(m, p) for p, m in self.history]),
        )
        if info["your_turn"] and self.shown is None:  # the person's clock runs from now
            self.shown = time.monotonic()
        info.update(time_control=self.time_control(),
                    clocks=None if self.time_control() is None else [
                        c.to_json() for c in self.clock_readings()])
        return info

    # -- the clocks
    def time_control(self) -> str | None:
        """The game's time control as --tc writes it (None: not on a clock); the seats'
        own where they differ (``player 1 5+0.1; player 2 60``)."""
        controls = list(dict.fromkeys(t.clock for t in self.timers if t is not None))
        if len(controls) < 2:
            return controls[0].text() if controls else None
        return "; ".join(f"player {s + 1} {t.clock.text() if t else 'inf'}"
                         for s, t in enumerate(self.timers))

    def thought(self) -> float:
        """The seconds the person to move has thought since the position was shown."""
        return 0.0 if self.shown is None else time.monotonic() - self.shown

    def clock_readings(self) -> list[ClockReading]:
        """Each seat's clock now; the person to move's counts the thinking so far."""
        failed = self.failure()
        out = []
        for seat, timer in enumerate(self.timers):
            who = self.seat_name(seat)
            fallen = failed is not None and failed.seat == seat \
                and failed.code == verdicts.TIME_FORFEIT
            if timer is None:
                out.append(ClockReading(seat + 1, who, None, 0.0, f"{who}: untimed", False,
                                        False))
                continue
            running = self.shown is not None and not fallen and not self.over(self.pos) \
                and self.game.mover(self.pos) == seat
            thought = self.thought() if running else 0.0
            left = round(max(0.0, timer.left - max(0.0, thought - timer.free())), 3)
            free = round(max(0.0, timer.free() - thought), 3) if running else 0.0
            name = "Your clock" if who == YOU else f"{who}'s clock"
            out.append(ClockReading(seat + 1, who, left, free,
                                    f"{name}: {reading(left)}", running, fallen))
        return out

    def check_clock(self) -> bool:
        """End the game on time if the person to move has thought longer than their clock
        holds (no thread waits on a person: their flag falls when the page next asks or
        they next move); whether it did."""
        pos = self.pos
        if self.shown is None or self.over(pos):
            return False
        seat = self.game.mover(pos)
        timer = self.timers[seat]
        return timer is not None and self.players[seat] is None \
            and self.thought() > timer.allowance() and not self._charge_person(seat)

    def _charge_person(self, seat: int) -> bool:
        """Charge the person in `seat` their thinking; whether the clock held it (if not,
        they lose on time and the bots are stopped)."""
        from judge.referee import flag_fell

        timer = self.timers[seat]
        seconds, self.shown = self.thought(), None
        if timer is None or timer.charge(seconds):
            return True
        self._failed(seat, flag_fell(timer, seconds))
        self.close()
        return False

    def opponent_name(self, seat: int) -> str:
        """The kind of player in `seat`: you (a person against a computer), human (two
        people at one screen), or the computer player's name."""
        player = self.players[seat]
        if player is None:
            return YOU if self.players[1 - seat] is not None else HUMAN
        return player.name

    def last_json(self) -> dict[str, Any] | None:
        """The last move played: its ply, seat, text, label, the board part that plays it
        (`control`) and the board parts it touched (`touched`, marked by the renderer)."""
        if not self.history:
            return None
        pos, move = self.history[-1]
        seat = self.game.mover(pos)
        return {"ply": len(self.history), "seat": seat + 1,
                "by": self.seat_name(seat), "move": self.game.format_move(move, pos),
                "label": self.game.move_label(move, pos),
                "control": control(self.game, pos, move),
                "touched": touched(self.game, pos, move)}

    def expect(self, ply: Any) -> None:
        """Refuse (409) a request made for another move number than the game's now: a
        repeated click or a replayed request plays nothing twice."""
        if ply is None:
            return
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise WebError(400, "ply is a whole number: the moves played so far")
        if ply != len(self.history):
            raise WebError(409, f"the game has moved on: {len(self.history)} moves are "
                           f"played, the request was made after {ply}")

    def names(self) -> list[str]:
        """Who plays each seat (`seat_name`)."""
        return [self.seat_name(s) for s in (0, 1)]

    def seat_name(self, seat: int) -> str:
        """Who plays `seat`: you (a person) or the computer player's name."""
        player = self.players[seat]
        if player is None and self.recorded is not None:  # a stored game: who played it
            return self.recorded.players[seat]
        if player is None:
            return YOU if self.opponent != HUMAN else f"player {seat + 1}"
        return player.name

    def result(self, pos: Any) -> str | None:
        """``1``, ``2`` or ``tie`` once the game is over (a failed bot loses)."""
        failed = self.failure()
        if failed is not None:
            return str(2 - failed.seat) if failed.seat is not None else "tie"
        return result_of(self.game, pos, self.stopped())

    def history_json(self) -> list[dict[str, Any]]:
        """Each position of the game so far with its value for player 1 and the move made
        from it; the value chart and the move list are drawn from it. The entries of the
        last answer are kept: a move works out only the positions it added."""
        names = (self.seat_name(0), self.seat_name(1))
        lines = [(pos, move, True) for pos, move in self.history] + [(self.pos, None, False)]
        entries = {}
        for ply, (pos, move, made) in enumerate(lines):
            key = (ply, pos, move, made, self.values, names)
            entries[key] = self.entries.get(key) or self.history_entry(ply, pos, move, made)
        self.entries = entries
        return list(entries.values())

    def history_entry(self, ply: int, pos: Any, move: Any, made: bool) -> dict[str, Any]:
        """Position `pos` of the history, after `ply` moves, and the `move` made from it
        (when `made`), as `history_json` gives it."""
        solver = solver_here(self.game, self.start) if self.values else solver_for(self.game)
        entry: dict[str, Any] = {"ply": ply, "position": self.game.format_position(pos),
                                 "to_move": self.game.mover(pos) + 1}
        if made:
            entry["move"] = self.game.format_move(move, pos)
            entry["label"] = self.game.move_label(move, pos)
            entry["by"] = self.seat_name(self.game.mover(pos))
        if self.values:
            ev = solver.evaluate(pos)
            flip = self.game.mover(pos) == 1  # seen by player 1
            lead = lead_of(self.game, pos)
            word, remoteness = worth(self.game, pos, ev.value, ev.remoteness, lead)
            entry.update(value=for_first(word, flip), remoteness=remoteness)
            end = final_difference(self.game, ev.value, lead)
            if end is not None:  # the banks' difference at the end, as choices
                entry["final_difference"] = end * (-1 if flip else 1)
            if made:
                entry["mistake"] = solver.is_mistake(pos, move)
                entry["choices"] = self.choices(pos, move)
        return entry

    def choices(self, pos: Any, played: Any) -> list[dict[str, Any]]:
        """Every legal move at `pos` with its value for player 1 (the chart's dots): its
        remoteness, Ioiwari's final score difference for player 1, and which was played."""
        game = self.game
        flip = game.mover(pos) == 1
        lead = lead_of(game, pos)
        who = self.seat_name(game.mover(pos))
        out = []
        for mv in solver_for(game).move_values(pos):
            word, remoteness = worth(game, pos, mv.value, mv.remoteness, lead, mv.move)
            end = final_difference(game, mv.value, lead)
            entry = {"move": game.format_move(mv.move, pos),
                     "label": game.move_label(mv.move, pos),
                     "value": for_first(word, flip), "remoteness": remoteness,
                     "played": mv.move == played,
                     "says": says_move(word, remoteness, who, end)}
            if end is not None:
                entry["final_difference"] = end * (-1 if flip else 1)
            out.append(entry)
        return out

    # -- what the page asks
    def play(self, text: Any) -> None:
        """The person to move plays `text` (wire syntax), charged to their clock from when
        the position was shown (past it, they lose on time); the computer then replies."""
        text = text_of(text, "move")
        pos = self.pos
        if self.over(pos):
            raise WebError(409, "the game is over")
        if self.players[self.game.mover(pos)] is not None:
            raise WebError(409, "it is not your turn")
        if self.check_clock():
            return  # too late, whatever the move: lost on time
        try:
            move = self.game.parse_move(text, pos)
        except MoveError as exc:
            raise WebError(400, f"{exc.reason} ({text!r})") from None
        if not self._charge_person(self.game.mover(pos)):
            return  # too late: lost on time, the move not played
        self.history.append((pos, move))
        self.undone.clear()  # a new branch
        self.computer_moves()

    def computer_moves(self, limit: int | None = None) -> None:
        """Let computer players move while it is their turn and the game goes on (at most
        `limit` moves when given), a bot charged to its clock as by the referee."""
        from judge.referee import timed_move

        pos = self.pos
        while not self.over(pos):
            if limit is not None:
                if limit <= 0:
                    return
                limit -= 1
            seat = self.game.mover(pos)
            player = self.players[seat]
            if player is None:
                return
            last = Played(*self.history[-1]) if self.history else None
            try:
                move, _ = timed_move(player, pos, last, self.timers[seat], self.tell_time)
            except (PlayerFailure, MoveError) as exc:
                self._failed(seat, exc)
                return
            self.history.append((pos, move))
            pos = self.game.play(pos, move)
        self.finish(pos)

    def finish(self, pos: Any) -> None:
        """At the end of the game, let a bot see the last move and end its process."""
        if self.ended:
            return
        self.ended = True
        last = Played(*self.history[-1]) if self.history else None
        for seat, player in enumerate(self.players):
            if player is not None and is_process(player):
                try:
                    player.end(pos, last)
                except (PlayerFailure, MoveError) as exc:
                    self._failed(seat, exc)
                player.close()

    def _failed(self, seat: int, exc: PlayerFailure | MoveError) -> None:
        """A player's failure ends the game, and every bot process of it."""
        player = self.players[seat]
        for each in self.players:
            if each is not None:
                each.close()  # (a bot's stderr tail is read as it ends)
        stderr = getattr(player, "stderr", "") or ""
        self.verdict = Verdict(exc.code, str(exc), seat)
        self.stderr = stderr[-2000:]

    def verdict_json(self) -> dict[str, Any] | None:
        """The verdict as a played game's record writes it, with the failed bot's stderr
        tail; None while no bot failed."""
        failed = self.failure()
        if failed is None:
            return None
        return dict(failed.to_dict(), stderr=self.stderr)

    def runs_bot(self) -> bool:
        """Whether a bot process of this game runs (the game's end stops it)."""
        from judge.players.bot import BotPlayer

        return any(isinstance(p, BotPlayer) and p.process is not None for p in self.players)

    def can_take_back(self) -> bool:
        """Undo, redo and going back need players that can forget (no bot process) and
        no clock."""
        return not any(is_process(p) for p in self.players) and self.time_control() is None

    def _check_take_back(self) -> None:
        if self.time_control() is not None:
            raise WebError(409, "a game on a clock cannot take a move back: start a new game")
        if not self.can_take_back():
            raise WebError(409, "a bot program cannot take a move back: start a new game")

    def undo(self) -> None:
        """Take back the last move of a person, and the computer's replies after it."""
        self._check_take_back()
        mine = [i for i, (p, _) in enumerate(self.history)
                if self.players[self.game.mover(p)] is None]
        if not mine:
            raise WebError(409, "nothing to undo")
        self.undone.extend(reversed(self.history[mine[-1]:]))
        del self.history[mine[-1]:]

    def redo(self) -> None:
        """Play again the earliest move taken back, and the computer's replies recorded."""
        self._check_take_back()
        if not self.undone:
            raise WebError(409, "nothing to redo")
        self.history.append(self.undone.pop())
        while self.undone and self.players[self.game.mover(self.undone[-1][0])] is not None:
            self.history.append(self.undone.pop())

    def goto(self, ply: Any) -> None:
        """Go back (or forward, along the moves taken back) to the position after `ply`
        moves; playing a move there starts a new branch."""
        self._check_take_back()
        line = self.history + list(reversed(self.undone))
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(line):
            raise WebError(400, f"ply is a whole number from 0 to {len(line)}")
        self.history, self.undone = line[:ply], list(reversed(line[ply:]))

    def advance(self, one: Any = False) -> None:
        """Let the computer move now (after going back to a position where it is to move);
        with `one`, a single move (computer against computer, one move per request)."""
        if not isinstance(one, bool):
            raise WebError(400, "one is true or false")
        if all(player is None for player in self.players):
            raise WebError(400, "a game of two people has no computer player to move")
        pos = self.pos
        if self.over(pos):
            raise WebError(409, "the game is over")
        if self.players[self.game.mover(pos)] is None:
            raise WebError(409, "a person is to move here, not a computer player")
        self.undone.clear()
        self.computer_moves(1 if one or self.stepwise else None)

    def hint(self) -> dict[str, Any]:
        """The moves perfect play chooses among here."""
        pos = self.pos
        if self.over(pos):
            raise WebError(409, "the game is over")
        ev = solver_here(self.game, pos).evaluate(pos)
        moves = [self.game.format_move(m, pos) for m in ev.best_moves]
        lead = lead_of(self.game, pos)
        word, remoteness = worth(self.game, pos, ev.value, ev.remoteness, lead)
        return {"moves": moves, "labels": [self.game.move_label(m, pos) for m in ev.best_moves],
                "ply": len(self.history), "value": word, "remoteness": remoteness,
                "says": says_move(word, remoteness, self.seat_name(self.game.mover(pos)),
                                  final_difference(self.game, ev.value, lead))}

    def replay(self, moves: list[str], at: int, recorded: Recorded | None = None) -> None:
        """Load a stored game's moves, standing after the first `at` of them (its players'
        names and its end as `recorded`)."""
        pos = self.start
        for line in moves:
            try:
                move = self.game.parse_move(line, pos)
            except MoveError:
                break  # a forfeited game's illegal last move
            if self.game.is_over(pos):
                break
            self.history.append((pos, move))
            pos = self.game.play(pos, move)
        self.recorded, self.line = recorded, [m for _, m in self.history]
        self.goto(min(max(at, 0), len(self.history)))

    def close(self) -> None:
        """End the game: its bot processes are stopped."""
        for player in self.players:
            if player is not None:
                player.close()


class Sessions:
    """The games held by the server, by random id; bounded in number, ended when idle."""

    def __init__(self, served: Served, clock: Callable[[], float] = time.monotonic) -> None:
        self.served = served
        self.clock = clock
        self._games: dict[str, Session] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        #: games with a bot being started now, by client address (each holds its place
        #: among `MAX_BOT_GAMES` and its address's share)
        self._starting_from: Counter[str | None] = Counter()

    def __len__(self) -> int:
        return len(self._games)

    def create_json(self, data: dict[str, Any], seat: int, address: str | None = None
                    ) -> Session:
        """A new game as `POST /api/sessions` asks for it, from client `address`: game,
        rules, position and moves, or an exported game's text (`record`); `players` seats
        two computer players."""
        players = data.get("players")
        if players is not None and (not isinstance(players, list) or len(players) != 2):
            raise WebError(400, "players is a list of two computer players")
        if players is not None:
            players = [text_of(p, "player") for p in players]
        fields = {k: data.get(k) for k in ("game", "rules", "position", "moves")}
        record = data.get("record")
        if record is not None:
            if not isinstance(record, str) or len(record) > MAX_MOVES_TEXT + 4 * MAX_TEXT:
                raise WebError(400, "record is the text of an exported game")
            try:
                read = parse_record(record)
            except ValueError as exc:
                raise WebError(400, str(exc)) from None
            fields = {"game": read["game"], "rules": read.get("rules", ""),
                      "position": read.get("start", ""), "moves": read["moves"]}
        return self.create(fields["game"], fields["rules"] or "", fields["position"] or "",
                           data.get("opponent", HUMAN), seat,
                           flag_of(data.get("values", False), "values"),
                           played=fields["moves"], players=players, address=address)

    def create(self, name: Any, rules: Any = "", position: Any = "", opponent: Any = HUMAN,
               seat: Any = 1, values: Any = False, moves: list[str] | None = None,
               at: int = 0, played: Any = None, players: list[str] | None = None,
               recorded: Recorded | None = None, address: str | None = None) -> Session:
        """A new game (a stored game's `moves`, standing at move `at`, when given, `recorded`
        its players and end; or the moves `played` from the position, as a game's link gives
        them), asked for by client `address` (None: not a client's, not bounded by one)."""
        self.reap()
        game, pos = load(name, rules, position)
        if moves is None and game.is_over(pos):
            raise WebError(400, "the position is already the end of the game")
        opponent = text_of(opponent, "opponent") or HUMAN
        played = moves_of(played)
        self.make_room()
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise WebError(400, "seat is 1 or 2")
        computers = [p for p in players or [opponent] if p != HUMAN and not is_bot(p)]
        if values or computers:  # perfect play is needed: refused before any search
            solver_here(game, pos)
        with_bot = any(is_bot(o) for o in players or [opponent])
        with self._lock:  # (its place is held while its bot starts: games asked at once)
            if with_bot:
                self._check_places(address)
            self._starting_from[address] += with_bot
        try:
            session = Session(self.served, game, pos, opponent, seat, bool(values), played,
                              players, timed=moves is None)  # a stored game: no clock
            if moves is not None:
                session.replay(moves, at, recorded)
            session.touched = self.clock()
            session.address = address
        except BaseException:
            self._started(address, with_bot)
            raise
        self._started(address, with_bot, session)
        return session

    def _started(self, address: str | None, with_bot: bool,
                 session: Session | None = None) -> None:
        """A game from `address` has started (`session`, kept) or failed to: the place its
        bot held while starting is counted as the game's own, or freed."""
        with self._lock:
            self._starting_from[address] -= with_bot
            if not self._starting_from[address]:
                del self._starting_from[address]
            if session is not None:
                self._games[session.id] = session

    def _check_places(self, address: str | None) -> None:
        """Refuse a new game with a bot from `address` past its share of the places (429)
        or past `MAX_BOT_GAMES` (503), each saying when to ask again; under the lock."""
        playing = [s for s in self._games.values() if s.runs_bot()]
        share = self.served.bot_games_per_address
        mine = [s for s in playing if s.address == address]
        if len(playing) + self._starting_from.total() >= MAX_BOT_GAMES:
            raise WebError(503, f"{MAX_BOT_GAMES} games with a bot are open; try later",
                           retry_after=self.retry_after(playing))
        if address is not None and len(mine) + self._starting_from[address] >= share:
            raise WebError(429, f"this address has {plural(share, 'game')} with a bot "
                           "open, as many "
                           "as one address may (judge serve --bot-games-per-address): end "
                           "one (leave its page), or try later",
                           retry_after=self.retry_after(mine))

    def retry_after(self, games: list[Session]) -> int:
        """The seconds a game refused for want of a place among `games` is told to wait:
        until the idlest of them would be ended as idle, at most `BOT_RETRY_SECONDS`."""
        now, idle = self.clock(), self.served.idle_seconds
        ends = [math.ceil(s.touched + idle - now) for s in games]
        return max(1, min([BOT_RETRY_SECONDS, *ends]))

    def make_room(self) -> None:
        """At `MAX_SESSIONS` games, end the one left alone the longest (its link opens it
        again) rather than refuse a new game; 503 only if every game is busy answering."""
        while True:
            with self._lock:
                if len(self._games) < MAX_SESSIONS:
                    return
                oldest = sorted(self._games.values(), key=lambda s: s.touched)
            for session in oldest:
                if session.lock.acquire(blocking=False):  # not answering a request now
                    session.lock.release()
                    break
            else:
                raise WebError(503, f"{MAX_SESSIONS} games are busy; try again later")
            self.end(session.id, "the game was ended to make room for newer ones "
                     "(its link opens it again)")

    def get(self, sid: str) -> Session:
        """The game `sid`; 404 (or 410 for a game ended as idle)."""
        with self._lock:
            session = self._games.get(sid)
            why = self._ended.get(sid)
        if session is None:
            if why:
                raise WebError(410, why)
            raise WebError(404, "no such game (it may have ended: start a new one)")
        session.touched = self.clock()
        return session

    def end(self, sid: str, why: str = "the game was closed") -> None:
        """End game `sid` and stop its bots."""
        with self._lock:
            session = self._games.pop(sid, None)
            self._ended[sid] = why
            while len(self._ended) > REMEMBERED:
                self._ended.popitem(last=False)
        if session is not None:
            with session.lock:
                session.close()

    def reap(self) -> int:
        """End the games idle longer than the served idle timeout; how many ended."""
        now = self.clock()
        limit = self.served.idle_seconds
        with self._lock:
            idle = [sid for sid, s in self._games.items() if now - s.touched > limit]
        for sid in idle:
            self.end(sid, f"the game ended after {limit:g} s without a move")
        return len(idle)

    def close(self) -> None:
        """End every game (the server stops)."""
        for sid in list(self._games):
            self.end(sid, "the server stopped")


# --- a bot watched live -------------------------------------------------------------------

class Stop(Exception):
    """The spectator left: the watched game ends."""


@dataclass
class Watch:
    """A bot against a computer player (or another bot), for a spectator, move by move."""

    game: Game
    start: Any
    players: list[Player]
    limits: Limits
    stopped: threading.Event = field(default_factory=threading.Event)
    #: each seat's time control (None: untimed) and whether bots are told their clocks
    clocks: tuple[Clock | None, Clock | None] = (None, None)
    tell_time: bool = False

    def run(self, send: Callable[[dict[str, Any]], None], pause: float = 0.0) -> dict[str, Any]:
        """Play the game, calling `send` with each move (judged) and then with the end."""
        from judge.referee import play_game

        pos = [self.start]

        def on_move(record: Any, after: Any) -> None:
            if self.stopped.is_set():
                raise Stop("the spectator left")
            before = pos[0]
            pos[0] = after
            send({"type": "move", "ply": len(moves) + 1, "seat": record.seat + 1,
                  "move": record.move, "label": self.game.move_label(
                      self.game.parse_move(record.move, before), before),
                  "seconds": record.seconds, "clock": record.clock,
                  "board": drawable(self.game, after),
                  "position": self.game.format_position(after),
                  "to_move": self.game.mover(after) + 1,
                  "judgement": judgement(self.game, before, record.move, len(moves) + 1)})
            moves.append(record.move)
            if pause and self.stopped.wait(pause):
                raise Stop("the spectator left")

        moves: list[str] = []
        record = play_game(self.game, self.players, self.start, self.limits,
                           on_move=on_move, clocks=self.clocks, tell_time=self.tell_time)
        end = {"type": "end", "results": list(record.results),
               "verdict": record.verdict.to_dict(), "final": record.final,
               "score": None if record.score is None else list(record.score),
               "stderr": [(t or "")[-2000:] for t in record.stderr],
               "result": result_from(record.results)}
        send(end)
        return end


def result_from(results: list[str]) -> str:
    """``1``, ``2``, ``tie`` or ``void`` from a game's results by seat."""
    if "win" in results:
        return str(results.index("win") + 1)
    return "void" if results[0] == "none" else "tie"


def watch(served: Served, name: Any, rules: Any, position: Any, bot: Any, opponent: Any,
          seat: Any) -> Watch:
    """A watched game: `bot` (a file of the served folder) in `seat`, `opponent` in the
    other (optimal, tricky, level:N or another bot file)."""
    game, pos = load(name, rules, position)
    if game.is_over(pos):
        raise WebError(400, "the position is already the end of the game")
    if seat not in (1, 2):
        raise WebError(400, "seat is 1 (the bot moves first) or 2")
    solver_here(game, pos)  # (each move is judged by perfect play) before any bot starts
    bot_player = computer_player(served, text_of(bot, "bot") or "-", served.seed)
    if not is_process(bot_player):
        raise WebError(400, "bot is a file of the served bots' folder")
    other = computer_player(served, text_of(opponent, "opponent") or "optimal", served.seed)
    players = [bot_player, other]
    if (game.mover(pos) + seat - 1) % 2 == 1:  # the bot holds seat 1 (the second)
        players.reverse()
    first, second = (seat_clock(served.clocks, p) for p in players)
    return Watch(game, pos, players, served.limits, clocks=(first, second),
                 tell_time=served.clocks.tell)
