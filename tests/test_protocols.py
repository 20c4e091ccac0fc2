"""Each worked transcript of every installed game's protocol page (the ``protocol.md`` its
package ships; ``protocols/NAME.md`` links to the built-in ones), replayed against the real
referee and a real bot process: the judge must send exactly the transcript's judge lines, and
accept the bot's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from judge.games import GAMES, game_class, load_game
from judge.games.base import Game
from judge.players.base import Played, Player
from judge.players.bot import BotPlayer
from judge.referee import play_game
from judge.sandbox import Limits

PROTOCOLS = Path(__file__).resolve().parent.parent / "protocols"

# A bot that plays the transcript: it checks every line it is sent, and says so if one differs.
SCRIPTED_BOT = """
import sys
script = {script!r}
for marker, line in script:
    if marker == "judge":
        got = sys.stdin.readline().rstrip("\\n")
        if got != line:
            print("MISMATCH expected " + repr(line) + " got " + repr(got), flush=True)
            sys.exit(1)
    elif marker == "bot":
        print(line, flush=True)
"""


class Scripted(Player):
    """The judge's side of the transcript: plays the moves it lists, in order."""

    def __init__(self, lines: list[str]) -> None:
        self.name = "transcript"
        self.lines = list(lines)

    def choose(self, pos: Any, last: Played | None) -> Any:
        return self.game.parse_move(self.lines.pop(0), pos)


def transcripts() -> list[tuple[str, list[tuple[str, str]]]]:
    """(game, [(marker, line), ...]) for every transcript block of every protocol."""
    found = []
    for name in sorted(GAMES):
        text = game_class(name).protocol_text() or ""
        for block in re.findall(r"^```transcript\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
            pairs = []
            for raw in block.splitlines():
                marker, _, line = raw.partition(">")
                pairs.append((marker, line.strip()))
            found.append((name, pairs))
    return found


def game_for(name: str, pairs: list[tuple[str, str]]) -> tuple[Game, int]:
    """The game a transcript is played under, and how many lines open it."""
    if name == "chopsticks":
        return load_game(name, pairs[0][1]), 2
    return load_game(name), 1


@pytest.mark.parametrize(("name", "pairs"), transcripts(), ids=[n for n, _ in transcripts()])
def test_transcript_replays_against_the_referee(tmp_path, name, pairs):
    game, opening = game_for(name, pairs)
    start = game.parse_position(pairs[opening - 1][1])
    bot_file = tmp_path / "scripted_bot.py"
    bot_file.write_text(SCRIPTED_BOT.format(script=pairs))
    judge_moves = [line for marker, line in pairs[opening:] if marker != "bot" and line]
    seat = game.mover(start)
    players: list[Player] = [Scripted(judge_moves), Scripted(judge_moves)]
    players[seat] = BotPlayer(bot_file, limits=Limits(first_move_seconds=20), sandbox="none")
    record = play_game(game, players, start)
    assert record.verdict.code == "ok", record.verdict.message
    assert pairs[-1][0] == "close"
    assert [m.move for m in record.moves] == [line for _, line in pairs[opening:] if line]
    assert game.is_over(game.parse_position(record.final))


def test_a_transcript_that_differs_from_what_the_judge_sends_is_caught(tmp_path):
    name, pairs = transcripts()[0]
    game, opening = game_for(name, pairs)
    start = game.parse_position(pairs[opening - 1][1])
    target = next(i for i, (m, _) in enumerate(pairs) if i >= opening and m == "judge")
    wrong = [(m, line + "0" if i == target else line) for i, (m, line) in enumerate(pairs)]
    bot_file = tmp_path / "scripted_bot.py"
    bot_file.write_text(SCRIPTED_BOT.format(script=wrong))
    judge_moves = [line for marker, line in pairs[opening:] if marker != "bot" and line]
    players: list[Player] = [Scripted(judge_moves), Scripted(judge_moves)]
    players[game.mover(start)] = BotPlayer(bot_file, sandbox="none")
    record = play_game(game, players, start)
    assert record.verdict.code != "ok" and "MISMATCH" in record.verdict.message


def test_every_built_in_game_ships_its_protocol_page_and_the_repository_links_it() -> None:
    for name in sorted(GAMES):
        if GAMES.sources()[name].package.startswith("judge "):
            text = game_class(name).protocol_text()
            assert text is not None and "```transcript" in text, name
            assert (PROTOCOLS / f"{name}.md").read_text() == text, name


def test_judge_games_prints_a_protocol_page_or_refuses_with_status_2() -> None:
    import subprocess
    import sys

    run = [sys.executable, "-m", "judge", "games", "--protocol"]
    shown = subprocess.run(run + ["nim"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout == game_class("nim").protocol_text()
    unknown = subprocess.run(run + ["chess"], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert "unknown game 'chess'" in unknown.stderr
