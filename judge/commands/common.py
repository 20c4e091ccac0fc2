"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.games import GAMES, load_game
from judge.games.base import Game, InputError


def add_game_options(p: argparse.ArgumentParser) -> None:
    """`--game` and `--rules`."""
    p.add_argument("--game", required=True, choices=sorted(GAMES), type=str.lower,
                   help="the game")
    p.add_argument("--rules", default="", metavar='"KEY=VALUE ..."',
                   help="rule options, e.g. 'misere=on' for Nim or 'hands=2/3 fingers=4 "
                   "split=on' for Chopsticks (all keys: see protocols/<game>.md)")


def game_from_args(args: argparse.Namespace) -> Game:
    """The game named by `--game` under `--rules`."""
    return load_game(args.game, args.rules)


def read_lines(path: Path) -> list[str]:
    """The lines of a user's text file; a missing or unreadable file is an `InputError`."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
