"""The interactor of an exported contest package, bundled as its ``main.py`` beside a copy of
the game's rules (``judge/``) and the opponent's replies (``replies.json.gz``): it runs
without the judge installed, on Python 3.10 or later.

``main.py < INPUT`` is Kattis's input format validator, ``main.py INPUT ANSWER
FEEDBACK_DIR`` speaks Kattis's contract (DOMjudge's too: FEEDBACK_DIR
is a folder), ``main.py < INPUT FROM_BOT TO_BOT`` CMS's (both are FIFOs), ``main.py INPUT
OUTPUT [ANSWER]`` testlib's (DMOJ's bridged interactors);
`judge.interactor.run_contract` says what each gives.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from judge.games.base import Game
from judge.interactor import KATTIS_ACCEPT, KATTIS_WRONG, Case, run_contract

#: the opponent's replies, beside this file
REPLIES = "replies.json.gz"


def opponent_from(table: dict[str, Any]) -> Callable[[str, str], tuple[Game, Callable[[Any], Any]]]:
    """The game and the opponent's reply of a table (`judge.packages.bundle.write`); a case
    of another game or rules is refused (`ValueError`)."""

    def opponent(name: str, rules: str) -> tuple[Game, Callable[[Any], Any]]:
        if (name or table["game"], rules or table["rules"]) != (table["game"], table["rules"]):
            raise ValueError(f"the case is of {name} {rules}, the package of "
                             f"{table['game']} {table['rules']}")
        module, cls = table["class"].split(":")
        game: Game = getattr(import_module(module), cls)(table["rules"])
        replies: dict[str, str] = table["replies"]

        def reply(pos: Any) -> Any:
            return game.parse_move(replies[game.format_position(pos)], pos)

        return game, reply

    return opponent


def validate(text: str, opponent: Callable[[str, str], tuple[Game, Any]]) -> int:
    """Kattis's input format validator: 42 when `text` is a case of the package's game (a
    start where the game goes on), else 43 and why on stderr."""
    try:
        name, rules, case = Case.parse(text)
        game, _ = opponent(name, rules)
        if game.is_over(game.parse_position(case.start)):
            raise ValueError(f"{case.start!r} is the end of a game, not a start")
    except ValueError as exc:
        print(f"input validator: {exc}", file=sys.stderr)
        return KATTIS_WRONG
    return KATTIS_ACCEPT


def main(argv: list[str], replies: bytes | None = None) -> int:
    """Judge one case on stdin/stdout under the contract its arguments say; without
    arguments, validate the case on stdin. The replies are the file beside this one, or
    `replies` (the single-file interactor's)."""
    if replies is None:
        replies = (Path(__file__).resolve().parent / REPLIES).read_bytes()
    table = json.loads(gzip.decompress(replies))
    if not argv:
        return validate(sys.stdin.read(), opponent_from(table))
    contract = ("kattis" if len(argv) >= 3 and Path(argv[2]).is_dir() else
                "cms" if len(argv) == 2 and all(Path(a).is_fifo() for a in argv) else "testlib")
    return run_contract(contract, argv, opponent_from(table))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
