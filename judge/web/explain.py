"""What the browser app says about a game, in words: the rules of each game and its named
variants (from the game's teaching facet, `Teaching.rules_text`, and `Game.variants`), what each
computer opponent does, why a game ended, a position's Grundy value, and a game's moves as
text to export and import.

The start page, the play page and the API take these texts from here; the words about one
game come from its package.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from judge import verdicts
from judge.games import game_class, load_game
from judge.games.base import Facts, M, M_in, P, P_in, Rules
from judge.html.teaching import Teaching
from judge.words import plural

#: what each computer opponent does, one sentence each
OPPONENTS: dict[str, str] = {
    "optimal": "optimal plays perfectly: a best move by value and remoteness (winning as fast "
               "and losing as slowly as possible), a seeded random one among equals.",
    "tricky": "tricky plays perfectly too, and among the equally good moves picks the one "
              "that leaves you the fewest replies that keep your value (looking two moves "
              "ahead when few are tied).",
    "level:N": "level:N plays a best move with probability N/10 and otherwise any legal move, "
               "each as likely: level:0 is random play, level:10 perfect play.",
    "human": "human: two people take turns at this screen.",
    "you": "you: you play this seat, against the computer player of the other.",
    "bot": "a bot of the served folder: a contestant's program, run confined as in grading.",
}


def variants(name: str) -> list[dict[str, str]]:
    """The named variants of game `name` (`Game.variants`, with `Game.variant_about`) for the
    page and the API; the default rules first, as ``standard`` when the game names none of
    its variants after them."""
    cls = game_class(name)
    named = [{"name": n, "rules": r, "about": cls.variant_about.get(n, r)}
             for n, r in cls.variants.items()]
    if named and not any(load_game(name, v["rules"]).rules == cls().rules for v in named):
        named.insert(0, {"name": "standard", "rules": "", "about": "the default rules"})
    return named


def variant_rules(name: str, rules: str) -> str:
    """`rules` with a variant's name (``misere``, ``rollover``) read as its rules tokens;
    ``key=value`` tokens are returned as they are."""
    wanted = rules.strip().lower().replace("è", "e")
    return game_class(name).variants.get(wanted, rules)


def variant_of(game: Facts[Any]) -> str | None:
    """The name of the variant the game's rules are, if they are one (the game under the
    variant's rules is described as this one is)."""
    for n, r in game.variants.items():
        if load_game(game.name, r).describe() == game.describe():
            return n
    return None


def about_opponent(name: str) -> str:
    """What the opponent `name` (optimal, tricky, level:N, human or a bot file) does."""
    if name in OPPONENTS:
        return OPPONENTS[name]
    if name.startswith("level:"):
        n = name[len("level:"):]
        return (f"{name} plays a best move with probability {n}/10 and otherwise any legal "
                f"move, each as likely (level:0 is random play, level:10 perfect play).")
    return f"{name}: " + OPPONENTS["bot"].split(": ", 1)[1]


# --- values in words -----------------------------------------------------------------------

#: what the numbers of the values say, one line under them
LEGEND = ("Moves are counted to the end of the game, both sides' moves, with best play on "
          "both sides.")


def is_person(name: str) -> bool:
    """Whether a seat's name (`Session.seat_name`) is a person's: you, or player N."""
    return name == "you" or (name.startswith("player ") and name[7:].isdigit())


def _does(name: str, verb: str) -> str:
    """`name` and `verb` agreeing: "you win", "optimal wins"."""
    return f"{name} {verb if name == 'you' else verb + ('es' if verb.endswith('o') else 's')}"


def _in_moves(remoteness: int | None) -> str:
    return "" if remoteness is None else f" in {plural(remoteness, 'move')}"


def says_move(word: str, remoteness: int | None, mover: str, by: int | None = None) -> str:
    """A move's value for `mover`, who plays it, in words: "you win in 3 moves", "optimal
    loses by 4 in 9 moves", "a tie in 4 moves", "a draw: play can go on forever"."""
    if word == "draw":
        return "a draw: play can go on forever"
    how = f" by {abs(by)}" if by else ""
    if word == "tie":
        return f"a tie{_in_moves(remoteness)}"
    return _does(mover, "win" if word == "win" else "lose") + how + _in_moves(remoteness)


def says_position(word: str, remoteness: int | None, names: list[str], mover: int,
                  by: int | None = None) -> str:
    """A position's value in words, by the names of the seats (`mover` to move, `word` its
    value for the mover): "You can win in 9 moves", "Optimal wins in 7 moves whatever you
    do", "A tie with best play, in 5 moves"."""
    if word == "draw":
        return "A draw with best play: neither side can force a win, and play can go on forever"
    if word == "tie":
        return "A tie with best play" + ("," + _in_moves(remoteness) if remoteness else "")
    winner = mover if word == "win" else 1 - mover
    won, lost = names[winner], names[1 - winner]
    how = f" by {abs(by)}" if by else ""
    if is_person(won):
        text = f"{won} can win{how}{_in_moves(remoteness)}"
    else:
        text = f"{_does(won, 'win')}{how}{_in_moves(remoteness)} whatever {_does(lost, 'do')}"
    return text[:1].upper() + text[1:]


@runtime_checkable
class Documented(Protocol):
    """A game with a page for contestants (every `Game`: its package's ``protocol.md``,
    None where it has none); a game without it has none."""

    def protocol_text(self) -> str | None:
        """The game's protocol page (Markdown), or None."""
        ...


class Panelled(Facts[P_in], Teaching[P_in, M_in], Protocol[P_in, M_in]):
    """What the rules panel reads: the game's facts (its name, variants and rules) and its
    teaching facet (its rules in brief, the notes on rules that differ from the defaults),
    with its protocol page where it has one. Every `Game` is one."""


def rules_panel(game: Panelled[Any, Any]) -> dict[str, Any]:
    """The rules as the page's panel shows them: the game's rules in brief, the variant's
    name, a note for each rule that differs from the default, and where the app serves the
    game's protocol page (None: it has none)."""
    page = game.protocol_text() if isinstance(game, Documented) else None
    return {"summary": game.rules_text(), "variant": variant_of(game),
            "notes": game.rule_notes(),
            "protocol": f"/protocol/{game.name}" if page is not None else None}


class Explained(Rules[P, M], Teaching[P, M], Protocol[P, M]):
    """What saying why a game ended reads: the rules (whether it is over) and the teaching
    facet (the game's own words for it). Every `Game` is one."""


def end_reason(game: Explained[Any, Any], pos: Any, stopped: bool, move_limit: int,
               verdict: dict[str, Any] | None, names: list[str] | None = None) -> str | None:
    """Why the game ended, in words (None while it goes on); `names`: who holds each
    seat (you, a bot's name), named by the one whose flag fell."""
    if verdict is not None and verdict["code"] == verdicts.TIME_FORFEIT \
            and verdict["seat"] is not None:
        who = (names or ["player 1", "player 2"])[verdict["seat"]]
        return f"{who} lost on time: {verdict['message']}"
    if verdict is not None:
        return f"player {verdict['seat'] + 1} failed: {verdict['message']}"
    if stopped:
        return (f"a tie at the move limit: {move_limit} moves were played, and under these "
                f"rules positions can repeat, so the game is stopped there")
    if not game.is_over(pos):
        return None
    return game.end_reason(pos)


# --- a game's moves as text ---------------------------------------------------------------

FIELDS = ("game", "rules", "start", "moves")


def record_text(name: str, rules: str, start: str, moves: list[str]) -> str:
    """A game as text to export: one ``field: value`` line each for the game, its rules, its
    start and its moves (separated by commas)."""
    return (f"game: {name}\nrules: {rules}\nstart: {start}\nmoves: {','.join(moves)}\n")


def parse_record(text: str) -> dict[str, Any]:
    """The fields of an exported game (`record_text`); raises ValueError on a line that is
    not ``field: value`` of a known field. The moves are checked when they are played."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in FIELDS or key in out:
            raise ValueError(f"each line is one of {', '.join(FIELDS)} followed by ':' and "
                             f"its value, once; not {line[:60]!r}")
        out[key] = value.strip()
    if "game" not in out:
        raise ValueError("the game: line is missing")
    moves = out.get("moves", "")
    out["moves"] = [m.strip() for m in moves.split(",")] if moves else []
    return out
