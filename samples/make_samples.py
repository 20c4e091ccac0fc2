"""Write the default test sets into samples/ (the judge builds the same sets in code).

Run: python samples/make_samples.py
"""

from __future__ import annotations

from pathlib import Path

from judge.games import load_game
from judge.testsets import default_tests

HERE = Path(__file__).resolve().parent

#: file name -> (game, rules, graded seat moves first?, heading)
SETS = {
    "nim-first.txt": ("nim", "", True, "Nim, normal play: starts the first player wins"),
    "nim-second.txt": ("nim", "", False, "Nim, normal play: starts the second player wins"),
    "nim-misere-first.txt": ("nim", "misere=on", True,
                             "Nim, misere: starts the first player wins"),
    "nim-misere-second.txt": ("nim", "misere=on", False,
                              "Nim, misere: starts the second player wins"),
    "ioiwari-second-seat.txt": ("ioiwari", "", False,
                                "Ioiwari: 20-bead boards the player to move loses, one per "
                                "rotation (the second seat's default tests)"),
    "chopsticks-first.txt": ("chopsticks", "", True,
                             "Chopsticks, default rules: positions the player to move wins"),
    "chopsticks-second.txt": ("chopsticks", "", False,
                              "Chopsticks, default rules: positions the player to move loses"),
}


def render(name: str) -> str:
    """The text of one sample file."""
    game_name, rules, first, heading = SETS[name]
    game = load_game(game_name, rules)
    lines = [f"# {heading}.", f"# Game: {game.describe()}"]
    lines += [game.format_position(p) for p in default_tests(game, first)]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Write every file."""
    for name in SETS:
        (HERE / name).write_text(render(name))


if __name__ == "__main__":
    main()
