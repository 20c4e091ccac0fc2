"""The sample bots in bots/ and the transcripts in protocols/*.md, over plain pipes.

Each bot runs as a subprocess (Python bots with this interpreter, C bots compiled here with
gcc) in a clean environment, driven by the small pipe driver below rather than the judge's
referee, with a deadline on every read. Every line a bot writes, and every line of the
transcripts, is checked by the rules in judge.games.
"""

from __future__ import annotations

import json
import queue
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from judge.games import load_game
from judge.games.base import Game
from judge.games.chopsticks import Chopsticks
from judge.games.ioiwari import Board, Ioiwari, sow
from judge.games.nim import Nim
from judge.solvers import solver_for
from tests.command import judge

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots"
PROTOCOLS = ROOT / "protocols"
READ_TIMEOUT = 10.0  # seconds; generous, the slowest first move takes a fraction of that
C_BOTS = ["ioiwari/greedy.c", "nim/optimal.c", "chopsticks/random.c", "tictactoe/optimal.c",
          "tictactoe/weak.c", "octal/optimal.c", "octal/weak.c", "connect4/optimal.c",
          "connect4/weak.c"]
IOIWARI = Ioiwari()
EXAMPLE = IOIWARI.parse_position("4 3 2 4 2 3 2")  # the IOI 2001 statement's example start
CHOPSTICKS = Chopsticks()  # the default rules


class Bot:
    """A bot process behind pipes: send a line, read a line within a deadline, close."""

    def __init__(self, command: list[str]) -> None:
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env={"BOT_SEED": "7"},  # the random bots' seed: the same games every run
            cwd=tempfile.gettempdir(),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def __enter__(self) -> Bot:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:  # a failed test left it running
            self.proc.kill()
            self.proc.wait()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")  # end of output

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self) -> str:
        """The bot's next line, without its newline; fails the test after READ_TIMEOUT."""
        try:
            line = self.lines.get(timeout=READ_TIMEOUT)
        except queue.Empty:
            self.proc.kill()
            pytest.fail(f"no answer within {READ_TIMEOUT} s")
        assert line.endswith("\n"), f"the bot ended its output with {line!r}"
        return line[:-1]

    def finish(self) -> None:
        """Close stdin as the judge does at the end: the bot must exit 0, silently."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=READ_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail("the bot did not exit when its standard input was closed")
        self.stderr.seek(0)
        assert (code, self.stderr.read().decode()) == (0, "")
        assert self.lines.get(timeout=READ_TIMEOUT) == "", "the bot wrote after the game"


Judge = Callable[[Any], Any]  # the opponent in these tests: a position to its move


def first_legal(game: Game) -> Judge:
    """An opponent that plays the first legal move."""
    return lambda pos: game.legal_moves(pos)[0]


def play(
    game: Game, command: list[str], start: Any, judge: Judge, max_moves: int = 200
) -> tuple[Any, list[str]]:
    """One game with the bot to move at `start`: the final position and the bot's lines.

    Like the judge, it sends the opponent's move only when the bot is to move, never a move
    that ends the game, and after `max_moves` moves of the bot it stops the game (the move
    limit of loopy games) by closing the bot's input. An illegal line raises MoveError.
    """
    written: list[str] = []
    pos, pending = start, game.wire_start(start)
    with Bot(command) as bot:
        for _ in range(max_moves):
            for line in pending:
                bot.send(line)
            written.append(bot.read())
            pos = game.play(pos, game.parse_move(written[-1], pos))
            if game.is_over(pos):
                break
            move = judge(pos)
            pending = [game.format_move(move, pos)]
            pos = game.play(pos, move)
            if game.is_over(pos):
                break
        bot.finish()
    return pos, written


def python_bot(path: str) -> list[str]:
    """The command for a Python bot; -S (no site) so that it relies on nothing installed."""
    return [sys.executable, "-S", str(BOTS / path)]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The C bots, compiled with gcc (warnings are errors)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    out = tmp_path_factory.mktemp("cbots")
    return {source: build(source, out) for source in C_BOTS}


def build(source: str, out: Path, *defines: str) -> list[str]:
    """The command of the C bot `source` compiled into `out` with gcc (warnings are errors),
    with the rules it is built for as `-D` options (`CODE="0.137"`)."""
    exe = out / (source.replace("/", "_").removesuffix(".c") + "".join(
        "_" + re.sub(r"\W", "", d) for d in defines))
    flags = ["-std=c99", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror"]
    subprocess.run(["gcc", *flags, *(f"-D{d}" for d in defines), "-o", str(exe),
                    str(BOTS / source)], check=True)
    return [str(exe)]


def every_bot(game: str, compiled: dict[str, list[str]]) -> list[list[str]]:
    """The commands of all the sample bots of `game`, Python and C."""
    python = [python_bot(f"{game}/{p.name}") for p in sorted((BOTS / game).glob("*.py"))]
    return python + [cmd for source, cmd in compiled.items() if source.startswith(f"{game}/")]


def transcripts(game: str) -> list[list[tuple[str, str]]]:
    """The ```transcript blocks of protocols/GAME.md, as (marker, line) pairs.

    Markers: `judge` for a line sent to the bot, `bot` for a line it writes, and `close`
    last, where the judge closes the bot's input, with the unsent move that ended the game
    (or nothing when the bot's own move ended it).
    """
    text = (PROTOCOLS / f"{game}.md").read_text()
    blocks = re.findall(r"^```transcript\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert blocks, f"protocols/{game}.md has no transcript"
    parsed = []
    for block in blocks:
        pairs = []
        for raw in block.splitlines():
            match = re.fullmatch(r"(judge|bot|close)>(?: +(\S(?:.*\S)?))?", raw)
            assert match, f"{game}.md: {raw!r} is not 'judge> ...', 'bot> ...' or 'close> ...'"
            assert match[1] == "close" or match[2], f"{game}.md: {raw!r} sends an empty line"
            pairs.append((match[1], match[2] or ""))
        parsed.append(pairs)
    return parsed


def replay(game: Game, pairs: list[tuple[str, str]], opening: int) -> Any:
    """Check a transcript's turns and moves under `game`'s rules: the final position.

    It opens with the `opening` lines the judge sends for its position, then the bot and the
    judge take turns, then `close` (after the judge's line, only at a move limit).
    """
    markers = [marker for marker, _ in pairs]
    turns = len(pairs) - opening - 1
    expected = ["judge"] * opening + ["bot", "judge"] * (turns // 2) + ["bot"] * (turns % 2)
    assert markers == [*expected, "close"]
    assert markers[-2] == "bot" or not pairs[-1][1], "the judge does not move twice"
    pos = game.parse_position(pairs[opening - 1][1])
    assert game.wire_start(pos) == [line for _, line in pairs[:opening]]
    for _, line in pairs[opening:]:
        if line:
            pos = game.play(pos, game.parse_move(line, pos))  # MoveError if illegal
    assert game.is_over(pos) == bool(pairs[-1][1] or markers[-2] == "bot")
    return pos


# --- every bot ---------------------------------------------------------------------------

PYTHON_BOTS = sorted(str(p.relative_to(BOTS)) for p in BOTS.glob("*/*.py"))


@pytest.mark.parametrize("path", PYTHON_BOTS)
def test_bot_exits_quietly_on_empty_input(path: str) -> None:
    done = subprocess.run(
        python_bot(path), input="", capture_output=True, text=True, env={}, timeout=READ_TIMEOUT
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


# --- Ioiwari -------------------------------------------------------------------------------


def greedy_pit(pos: Board) -> int:
    """The one-step greedy pit, lowest on a tie (the Ioiwari opponent in these tests)."""
    gains = {p: sow(pos.pits, p)[1] - sow(pos.pits, p)[2] for p in IOIWARI.legal_moves(pos)}
    return max(gains, key=gains.__getitem__)


@cache
def best(pits: tuple[int, ...]) -> int:
    """The best score difference for the mover (GAMES.md), from judge.games.ioiwari.sow."""
    return max((pit_value(pits, p) for p in range(1, 8) if pits[p - 1]), default=0)


def pit_value(pits: tuple[int, ...], pit: int) -> int:
    after, mine, theirs = sow(pits, pit)
    return mine - theirs - best(after)


def test_ioiwari_bots_play_legal_games_in_both_seats(compiled: dict[str, list[str]]) -> None:
    second = IOIWARI.play(EXAMPLE, 1)  # the judge opened with pit 1
    for command in every_bot("ioiwari", compiled):
        for start in (EXAMPLE, second):
            final, _ = play(IOIWARI, command, start, greedy_pit)
            assert IOIWARI.is_over(final)


def test_ioiwari_optimal_first_move_is_truly_optimal() -> None:
    pits = EXAMPLE.pits
    right = {p for p in range(1, 8) if pit_value(pits, p) == best(pits)}
    assert best(pits) > 0  # GAMES.md: the first player can force a win
    with Bot(python_bot("ioiwari/optimal.py")) as bot:
        bot.send(" ".join(map(str, pits)))
        assert int(bot.read()) in right
        bot.finish()


def test_ioiwari_optimal_beats_greedy_from_the_example_start() -> None:
    final, _ = play(IOIWARI, python_bot("ioiwari/optimal.py"), EXAMPLE, greedy_pit)
    assert IOIWARI.winner(final) == 0
    assert final.banks[0] - final.banks[1] >= best(EXAMPLE.pits)  # what perfect play secures


def test_ioiwari_greedy_in_c_plays_like_greedy_in_python(compiled: dict[str, list[str]]) -> None:
    start = IOIWARI.parse_position("2 4 3 2 4 3 2")
    games = [
        play(IOIWARI, command, start, greedy_pit)
        for command in (python_bot("ioiwari/greedy.py"), compiled["ioiwari/greedy.c"])
    ]
    assert games[0] == games[1]
    assert games[0][1][0] == str(greedy_pit(start))


def test_ioiwari_transcript_is_the_statement_example_game() -> None:
    [pairs] = transcripts("ioiwari")
    moves = [line for _, line in pairs[1:]]
    assert moves == ["2", "3", "5", "4", "5", "7"]
    final = replay(IOIWARI, pairs, opening=1)
    assert final.banks == (11, 9)


# --- Nim -----------------------------------------------------------------------------------


def test_nim_bots_play_legal_games(compiled: dict[str, list[str]]) -> None:
    game = Nim()
    for command in every_bot("nim", compiled):
        final, _ = play(game, command, game.parse_position("3 0 4 5"), first_legal(game))
        assert game.is_over(final)


def test_nim_optimal_makes_the_bouton_move_and_wins(compiled: dict[str, list[str]]) -> None:
    game = Nim()
    for command in (python_bot("nim/optimal.py"), compiled["nim/optimal.c"]):
        final, written = play(game, command, game.parse_position("3 4 5"), first_legal(game))
        assert written[0] == "1 2"
        assert game.winner(final) == 0


def test_nim_optimal_bots_empty_the_largest_heap_when_lost(compiled: dict[str, list[str]]) -> None:
    for command, heaps in ((python_bot("nim/optimal.py"), "5 9 12"),
                           (compiled["nim/optimal.c"], "5 9 12"),
                           (python_bot("nim/optimal_misere.py"), "5 9 12")):
        with Bot(command) as bot:  # 5 ^ 9 ^ 12 == 0: lost in both conventions
            bot.send(heaps)
            assert bot.read() == "3 12"  # as the judge does: the game stays short
            bot.finish()


def test_nim_optimal_misere_leaves_an_odd_number_of_one_heaps() -> None:
    game = Nim("misere=on")
    start = game.parse_position("1 1 3")
    final, written = play(game, python_bot("nim/optimal_misere.py"), start, first_legal(game))
    after = game.play(start, game.parse_move(written[0], start)).sizes
    assert max(after) <= 1 and after.count(1) % 2 == 1
    assert game.winner(final) == 0


def test_nim_optimal_in_c_takes_64_bit_heaps(compiled: dict[str, list[str]]) -> None:
    with Bot(compiled["nim/optimal.c"]) as bot:
        bot.send(f"{2**64 - 1} 1")
        assert bot.read() == f"1 {2**64 - 2}"
        bot.finish()


def test_nim_transcript_is_what_the_optimal_bot_plays() -> None:
    [pairs] = transcripts("nim")
    game = Nim()
    assert game.winner(replay(game, pairs, opening=1)) == 0
    with Bot(python_bot("nim/optimal.py")) as bot:
        for marker, line in pairs[:-1]:
            if marker == "judge":
                bot.send(line)
            else:
                assert bot.read() == line
        bot.finish()


# --- Chopsticks ----------------------------------------------------------------------------


def test_chopsticks_bots_play_legal_games_on_either_side(compiled: dict[str, list[str]]) -> None:
    for command in every_bot("chopsticks", compiled):
        for position in ("(L 1 1 1 1 1 1)", "(R 1 1 1 2 1 1)", "(L 0 4 1 0 1 1)"):
            start = CHOPSTICKS.parse_position(position)
            final, _ = play(CHOPSTICKS, command, start, first_legal(CHOPSTICKS))
            assert CHOPSTICKS.is_over(final)


def test_chopsticks_optimal_wins_after_the_first_players_opening() -> None:
    start = CHOPSTICKS.parse_position("(R 1 1 1 2 1 1)")
    final, _ = play(CHOPSTICKS, python_bot("chopsticks/optimal.py"), start, first_legal(CHOPSTICKS))
    assert CHOPSTICKS.winner(final) == 1


def test_chopsticks_greedy_knocks_out_a_hand_when_it_can() -> None:
    # only Left's hand 2 (4 fingers) can knock out a hand: Right's hand 2 or 3
    start = CHOPSTICKS.parse_position("(L 1 4 1 1 2 3)")
    _, written = play(
        CHOPSTICKS, python_bot("chopsticks/greedy.py"), start, first_legal(CHOPSTICKS)
    )
    assert written[0] in ("2 2", "2 3")


@pytest.mark.parametrize(
    ("split", "position", "first"),
    [("on", "(L 1 3 1 1)", "split 2 2"), ("revive", "(L 0 2 1 1)", "split 1 1")],
)
def test_chopsticks_optimal_splits_legally_under_loopy_rules(
    split: str, position: str, first: str
) -> None:
    """Rollover, splits and swaps: drawn positions the bot holds by splitting or reviving."""
    game = Chopsticks(f"hands=2/2 knockout=rollover split={split} swap=on")
    start = game.parse_position(position)
    _, written = play(game, python_bot("chopsticks/optimal.py"), start, first_legal(game), 30)
    assert written[0] == first


def test_chopsticks_optimal_knows_the_one_hand_fibonacci_rule() -> None:
    """One hand each, cut-off: (1 | 1)_n is a first-player win iff f(2i) <= n < f(2i+1)."""
    bot = runpy.run_path(str(BOTS / "chopsticks/optimal.py"))  # its functions, not main()
    f = [0, 1, 1]  # f[k] is the k-th Fibonacci number
    while len(f) < 13:
        f.append(f[-1] + f[-2])
    for n in range(1, 40):
        first_wins = any(f[2 * i] <= n < f[2 * i + 1] for i in range(1, 6))
        solver = bot["Solver"](bot["Rules"](f"hands=1/1 fingers={n}"))
        solver.solve(((1,), (1,)))
        assert solver.value[((1,), (1,))][0] == first_wins, n


def test_chopsticks_transcript_is_the_game_card_example() -> None:
    [pairs] = transcripts("chopsticks")
    final = replay(CHOPSTICKS, pairs, opening=2)
    assert final.left == (0, 0, 0) and CHOPSTICKS.winner(final) == 1  # Left has no hands
    # with the opening L1>R1 in front, the moves are those of the card
    card = "L1>R1 R1>L2 L2>R1 R1>L1 L3>R1 R3>L2 L3>R2 R2>L2 L3>R2 R2>L3 L3>R3 R3>L3".split()
    pos = CHOPSTICKS.start()
    for label in card:
        move = next(
            m for m in CHOPSTICKS.legal_moves(pos)
            if CHOPSTICKS.move_label(m, pos).endswith(f"({label})")
        )
        pos = CHOPSTICKS.play(pos, move)
    assert pos == final


# --- the games that come as packages: tic-tac-toe, octal games, Connect Four ---------------


def perfect(game: Game) -> Judge:
    """The judge's perfect player, as an opponent."""
    return solver_for(game).choose


@pytest.mark.parametrize(("name", "start"), [("tictactoe", ".../.../..."), ("octal", "9 4"),
                                             ("connect4", "..../..../.o../.xxo")])
def test_new_games_bots_play_legal_games(compiled: dict[str, list[str]], name: str,
                                         start: str) -> None:
    game = load_game(name)
    for command in every_bot(name, compiled):
        final, _ = play(game, command, game.parse_position(start), first_legal(game))
        assert game.is_over(final)


def test_tictactoe_optimal_bots_hold_the_draw_and_punish_a_mistake(
        compiled: dict[str, list[str]]) -> None:
    game = load_game("tictactoe")
    for command in (python_bot("tictactoe/optimal.py"), compiled["tictactoe/optimal.c"]):
        final, _ = play(game, command, game.start(), perfect(game))
        assert game.winner(final) is None
        final, _ = play(game, command, game.start(), first_legal(game))
        assert game.winner(final) == 0
        second = game.parse_position("x../.../...")  # O to move: a draw with perfect play
        final, _ = play(game, command, second, perfect(game))
        assert game.winner(final) is None


def test_octal_and_connect4_optimal_bots_get_what_their_positions_are_worth(
        compiled: dict[str, list[str]]) -> None:
    kayles = load_game("octal")
    for command in (python_bot("octal/optimal.py"), compiled["octal/optimal.c"]):
        final, _ = play(kayles, command, kayles.parse_position("9 4"), perfect(kayles))
        assert kayles.winner(final) == 0
    board = load_game("connect4")
    start = board.parse_position("..../..../.o../.xxo")
    value = solver_for(board).evaluate(start).value
    for command in (python_bot("connect4/optimal.py"), compiled["connect4/optimal.c"]):
        final, _ = play(board, command, start, perfect(board))
        assert board.winner(final) == (0 if value == "win" else None)


@pytest.mark.parametrize("source", C_BOTS)
def test_c_bot_exits_quietly_on_empty_input(compiled: dict[str, list[str]], source: str) -> None:
    done = subprocess.run(compiled[source], input="", capture_output=True, text=True, env={},
                          timeout=READ_TIMEOUT)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.07", "0.333", "0.6", "0.15"])
def test_octal_optimal_in_c_moves_to_a_grundy_value_of_0_under_its_code(
        compiled: dict[str, list[str]], tmp_path: Path, code: str) -> None:
    game = load_game("octal", f"code={code}")
    solver = solver_for(game)
    command = build("octal/optimal.c", tmp_path, f'CODE="{code}"')
    won = [p for p in game.test_positions() if solver.evaluate(p).value == "win"]
    assert won
    for pos in won[:12]:
        with Bot(command) as bot:
            bot.send(game.format_position(pos))
            move = game.parse_move(bot.read(), pos)
            bot.finish()
        assert solver.evaluate(game.play(pos, move)).value == "loss", (code, pos, move)
    final, _ = play(game, command, won[-1], perfect(game))
    assert game.winner(final) == game.mover(won[-1])


def test_connect4_optimal_in_c_holds_5x4_and_4x5_and_wins_connect_3_fastest(
        compiled: dict[str, list[str]], tmp_path: Path) -> None:
    for rules in ("rows=5 cols=4", "rows=4 cols=5"):  # draws (Tromp's table)
        game = load_game("connect4", rules)
        final, _ = play(game, compiled["connect4/optimal.c"], game.start(), perfect(game))
        assert game.is_over(final) and game.winner(final) is None, rules
    game = load_game("connect4", "rows=3 cols=4 connect=3")
    ev = solver_for(game).evaluate(game.start())
    command = build("connect4/optimal.c", tmp_path, "CONNECT=3")
    final, _ = play(game, command, game.start(), perfect(game))
    assert ev.value == "win" and game.winner(final) == 0
    assert len(final.cells) - final.cells.count(".") == ev.remoteness  # the fastest win


@pytest.mark.needs_toolchain("c")
@pytest.mark.parametrize("name", ["tictactoe", "octal", "connect4"])
def test_optimal_c_bots_score_full_marks_on_the_default_tests_and_weak_ones_do_not(
        tmp_path: Path, name: str) -> None:
    out = judge("run", "--game", name, "--db", str(tmp_path / "r.db"), "--format", "json",
                str(BOTS / name / "optimal.c"), str(BOTS / name / "weak.c"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    bots = {Path(b["bot"]).name: b for b in json.loads(out.stdout)["bots"]}
    optimal, weak = bots["optimal.c"], bots["weak.c"]
    assert optimal["points"] == optimal["max_points"] and not optimal["failures"]
    assert weak["points"] < weak["max_points"] and not weak["failures"]
