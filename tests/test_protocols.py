"""Each worked transcript of every installed game's protocol page (the ``protocol.md`` its
package ships; ``protocols/NAME.md`` links to the built-in ones), replayed against the real
referee and a real bot process: the judge must send exactly the transcript's judge lines, and
accept the bot's."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.gamecheck import Suite, Transcript, worked_transcripts
from judge.games import GAMES, game_class, load_game

PROTOCOLS = Path(__file__).resolve().parent.parent / "protocols"


def transcripts() -> list[tuple[str, Transcript]]:
    """(game, transcript) for every transcript block of every protocol."""
    return [(name, transcript) for name in sorted(GAMES)
            for transcript in worked_transcripts(game_class(name).protocol_text() or "")]


@pytest.mark.parametrize(("name", "transcript"), transcripts(),
                         ids=[n for n, _ in transcripts()])
def test_transcript_replays_against_the_referee(name: str, transcript: Transcript) -> None:
    assert transcript.lines[-1][0] == "close"
    assert [f.text() for f in Suite(load_game(name)).replay(transcript)] == []


@pytest.mark.parametrize(("game", "old", "new"), [
    ("nim", "judge> 3 4 5", "judge> 03 4 5"),  # the start: the judge writes it "3 4 5"
    ("chopsticks", "judge> hands=3/3", "judge> hands=3"),  # its rules line
])
def test_a_transcript_that_differs_from_what_the_judge_sends_is_caught(
        game: str, old: str, new: str) -> None:
    page = game_class(game).protocol_text() or ""
    assert old in page
    (transcript,) = worked_transcripts(page.replace(old, new))
    (failure,) = Suite(load_game(game)).replay(transcript)
    assert failure.position == "" and failure.move is None
    assert failure.expected == (f"the transcript at line {transcript.line} of the protocol "
                                "page played to its end (verdict ok)")
    assert "MISMATCH expected '" + new.removeprefix("judge> ") in failure.got


def test_a_transcript_is_played_under_the_rules_its_opening_line_names() -> None:
    page = "```transcript rows=3 cols=4 connect=3\njudge> ..../..../....\nbot> 1\n" \
           "judge> 2\nbot> 1\njudge> 2\nbot> 1\nclose>\n```\n"
    (transcript,) = worked_transcripts(page)
    assert (transcript.rules, transcript.line) == ("rows=3 cols=4 connect=3", 1)
    assert list(Suite(load_game("connect4")).replay(transcript)) == []  # X connects 3
    wrong = Transcript("rows=x", transcript.lines, 1)
    (failure,) = Suite(load_game("connect4")).replay(wrong)
    assert failure.expected.startswith("rules the game takes at the transcript at line 1")
    assert "rows" in failure.got


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
