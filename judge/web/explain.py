"""What the browser app says about a game, in words: the rules of each game (summarised from
its protocol page, protocols/GAME.md), its named variants, what each computer opponent does,
why a game ended, Nim's nim-sum, and a game's moves as text to export and import.

This is the one place for these texts: the start page, the play page and the API take them
from here.
"""

from __future__ import annotations

from typing import Any

from judge.games.base import Game
from judge.solvers.nim import nim_sum

#: each game's rules in brief (from protocols/GAME.md, "The game in brief")
SUMMARIES: dict[str, list[str]] = {
    "nim": [
        "There are some heaps of counters. A move takes one or more counters from a single "
        "heap.",
        "Normal play: whoever takes the last counter wins. Misère: whoever takes the last "
        "counter loses. There are no ties.",
        "The nim-sum of a position is the exclusive or (XOR) of its heap sizes, its Grundy "
        "value under normal play: the player to move wins exactly when it is not 0, by "
        "leaving a nim-sum of 0 (Bouton). In misère the same holds until the winning move "
        "would leave only heaps of 0 or 1 counters; then leave an odd number of 1-heaps.",
    ],
    "ioiwari": [
        "Seven pits stand in a circle, numbered 1 to 7 clockwise; each player has a bank. "
        "Nobody owns a pit: to move, you empty any pit and carry its beads clockwise, one "
        "into each pit after it, going round as often as needed.",
        "While you hold two or more beads, a pit that already holds 5 gives one bead to your "
        "bank instead of taking one. Your last bead decides: if its pit holds 1 to 4 beads, "
        "you bank them with your last bead; if it holds 0 or 5, your last bead goes to your "
        "opponent's bank.",
        "When a move leaves every pit empty the game is over: the larger bank wins, equal "
        "banks are a tie. The win-by is the difference of the banks at the end.",
    ],
    "chopsticks": [
        "Two players, Left and Right, each have some hands; every hand has room for the same "
        "number of fingers and starts showing 1. On your turn you tap: one of your live "
        "hands touches one of your opponent's, and the tapped hand gains as many fingers as "
        "the tapping hand shows.",
        "Under cutoff a hand pushed past the finger count is out; under rollover it counts "
        "round and is out only at exactly a multiple of the finger count. A player whose "
        "hands are all out loses (wins under misère).",
        "Where positions can repeat (rollover, splits, swaps) a game is stopped at the move "
        "limit and scored a tie.",
    ],
}

#: what each rule that differs from the default changes (key, value): a sentence
RULE_NOTES: dict[tuple[str, str], str] = {
    ("misere", "on"): "Misère: the player who would have won by the normal rule loses.",
    ("knockout", "rollover"): "Rollover: a hand counts modulo the finger count and is out "
                              "only at exactly a multiple of it.",
    ("attack", "tapping"): "The tapping hand gains the tapped hand's fingers instead (and "
                           "may be the one that goes out).",
    ("split", "on"): "Split: instead of tapping, move one or more fingers from one of your "
                     "live hands to another (the giving hand keeps at least one).",
    ("split", "revive"): "Split with revival: as a split, and the receiving hand may be one "
                         "that is out, which comes back into play.",
    ("swap", "on"): "Swap: instead of tapping, exchange two of your live hands that differ "
                    "(in effect a pass).",
}

#: the named variants of each game: (name, rules tokens, what it is); the first is the default
VARIANTS: dict[str, list[tuple[str, str, str]]] = {
    "nim": [
        ("normal", "misere=off", "whoever takes the last counter wins"),
        ("misere", "misere=on", "misère: whoever takes the last counter loses"),
    ],
    "ioiwari": [
        ("standard", "", "seven pits in a circle, the larger bank wins"),
    ],
    "chopsticks": [
        ("standard", "", "three hands a side, five fingers, cutoff"),
        ("two-hands", "hands=2", "two hands a side, as played in the schoolyard"),
        ("rollover", "hands=2 knockout=rollover",
         "two hands a side, a hand counts round modulo five"),
        ("splits", "hands=2 split=on", "two hands a side, fingers may be moved between "
                                       "your own hands"),
        ("zombies", "hands=2 split=revive", "two hands a side, splits may bring back a hand "
                                            "that is out"),
        ("swaps", "hands=2 swap=on", "two hands a side, you may exchange your two hands"),
        ("tapping", "hands=2 attack=tapping",
         "two hands a side, the tapping hand gains the fingers"),
        ("misere", "hands=2 misere=on", "two hands a side, whoever is knocked out wins"),
    ],
}

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
    "bot": "a bot of the served folder: a contestant's program, run confined as in grading.",
}


def variants(name: str) -> list[dict[str, str]]:
    """The named variants of game `name` for the page and the API."""
    return [{"name": n, "rules": r, "about": a} for n, r, a in VARIANTS.get(name, [])]


def variant_rules(name: str, rules: str) -> str:
    """`rules` with a variant's name (``misere``, ``rollover``) read as its rules tokens;
    ``key=value`` tokens are returned as they are."""
    wanted = rules.strip().lower().replace("è", "e")
    for n, r, _ in VARIANTS.get(name, []):
        if wanted == n:
            return r
    return rules


def variant_of(game: Game) -> str | None:
    """The name of the variant the game's rules are, if they are one."""
    from judge.games import load_game

    for n, r, _ in VARIANTS.get(game.name, []):
        if load_game(game.name, r).rules == game.rules:
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


def summary(game: Game) -> list[str]:
    """The game's rules in brief: `SUMMARIES`, or for a game without one the first paragraph
    of its class's docstring."""
    if game.name in SUMMARIES:
        return SUMMARIES[game.name]
    doc = (type(game).__doc__ or "").strip().split("\n\n")[0]
    return [" ".join(doc.split())] if doc else []


def rules_panel(game: Game) -> dict[str, Any]:
    """The rules as the page's panel shows them: the summary, the variant's name, and a note
    for each rule that differs from the default."""
    notes = [RULE_NOTES[(k, v)] for k, v in game.rules.items()
             if v != game.defaults.get(k) and (k, v) in RULE_NOTES]
    if game.name == "chopsticks":
        notes.insert(0, f"Hands: {game.rules['hands']} (Left/Right), fingers: "
                        f"{game.rules['fingers']}.")
    return {"summary": summary(game), "variant": variant_of(game),
            "notes": notes, "protocol": f"protocols/{game.name}.md"}


def end_reason(game: Game, pos: Any, stopped: bool, move_limit: int,
               verdict: dict[str, Any] | None) -> str | None:
    """Why the game ended, in words (None while it goes on)."""
    if verdict is not None:
        return f"player {verdict['seat'] + 1} failed: {verdict['message']}"
    if stopped:
        return (f"a tie at the move limit: {move_limit} moves were played, and under these "
                f"rules positions can repeat, so the game is stopped there")
    if not game.is_over(pos):
        return None
    winner = game.winner(pos)
    if game.name == "nim":
        taker = 2 - game.mover(pos)
        rule = "and loses (misère)" if game.misere else "and wins"
        return f"player {taker} took the last counter {rule}"
    if game.name == "ioiwari":
        banks = game.score(pos)
        if winner is None:
            return f"the pits are empty and the banks are equal ({banks[0]} to {banks[1]}): a tie"
        return (f"the pits are empty: banks {banks[0]} to {banks[1]}, player {winner + 1} wins "
                f"by {abs(banks[0] - banks[1])}")
    if game.name == "chopsticks":
        out = winner if game.misere else 1 - winner
        rule = " (misère: that player wins)" if game.misere else ""
        return f"all of player {out + 1}'s hands are out{rule}"
    return "the game is over" if winner is None else f"player {winner + 1} wins"


def nim_sums(game: Game, pos: Any) -> int | None:
    """The nim-sum of a Nim position, the Grundy value of a position of an impartial game
    that gives one (`grundy`: octal games); None for the other games."""
    if game.name == "nim":
        return nim_sum(tuple(pos.sizes))
    grundy = getattr(game, "grundy", None)
    return grundy(pos) if callable(grundy) else None


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
