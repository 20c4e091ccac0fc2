"""Playing one scheduled game (a `judge.plan.GameSpec`) under what the run recorded
(`Setup`): its record with every move reviewed (`play_spec`). What every way of
playing a run's games (this process, a pool of workers, a cluster's workers) runs per game."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from judge.clock import Clocks
from judge.plan import OPTIMAL, BotSource, GameSpec, Plan, is_program
from judge.sandbox.limits import Limits

if TYPE_CHECKING:
    from judge.records import PlayedGame

__all__ = ["OPTIMAL", "GameSpec", "Setup", "game_seed", "play_spec"]


@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to rebuild the game and the players (picklable)."""

    game: str
    rules: str
    limits: Limits
    sandbox: str
    seed: int | None = None
    #: the run's changes to the language table (see `judge.sandbox.languages`)
    languages: dict[str, Any] | None = None
    #: the SHA-256 of each bot file when the run started: a bot is not rebuilt mid-run
    fingerprints: dict[str, str] | None = None
    #: which perfect player sits where the schedule says "optimal" (optimal or tricky)
    opponent: str = "optimal"
    #: on a cluster worker: each bot's file by name (bots travel by content)
    bot_files: dict[str, bytes] | None = None
    #: the entry of a bot given as a folder (--entry NAME), else found by convention
    entry: str | None = None
    #: the bots' clocks
    clocks: Clocks = field(default_factory=Clocks)

    @classmethod
    def of(cls, plan: Plan) -> Setup:
        """What the games of `plan` need."""
        h = plan.harness
        return cls(plan.game, plan.rules, h.limits, h.sandbox, h.seed,
                   h.languages, plan.fingerprints(), plan.opponent, entry=h.entry,
                   clocks=plan.seat_clocks())


def play_spec(setup: Setup, spec: GameSpec) -> PlayedGame:
    """Play one scheduled game and return its record, with every move reviewed."""
    from judge.analysis import perfect_results, review
    from judge.games import load_game
    from judge.players.bot import BotPlayer
    from judge.players.optimal import opponent_player
    from judge.referee import not_played, play_game
    from judge.sandbox.context import sandbox_context

    sandbox_context().configure_languages(setup.languages)
    paths = {who: who for who in spec.players}
    for who in spec.players:
        if setup.fingerprints and who in setup.fingerprints:  # the one "bot changed" rule
            source = BotSource(who, setup.fingerprints[who])
            if setup.bot_files and who in setup.bot_files:  # sent here by its content
                paths[who] = source.placed(setup.bot_files[who])
            else:
                source.check()
    game = load_game(setup.game, setup.rules)
    start = game.parse_position(spec.start)
    limits = setup.limits
    seed = game_seed(setup.seed, spec.seeded_by)
    if spec.not_played:  # lost by its bot without a move (--fail-fast)
        seat = next(s for s, who in enumerate(spec.players) if who != OPTIMAL)
        record = not_played(game, start, spec.players, seat, spec.not_played)
    else:
        players = [
            opponent_player(setup.opponent, seed) if who == OPTIMAL
            else BotPlayer(paths[who], limits=limits, sandbox=setup.sandbox, name=who,
                           seed=seed, entry=setup.entry)
            if is_program(who) else opponent_player(who, seed)  # level:N, seeded per game
            for who in spec.players
        ]
        clocks = [setup.clocks.of(who) if is_program(who) else None for who in spec.players]
        record = play_game(game, players, start, limits, clocks=clocks,
                           tell_time=setup.clocks.tell)
    moves = [m.move for m in record.moves]
    bots = [seat for seat, who in enumerate(spec.players) if who != OPTIMAL]
    return record.kept(players=spec.players, key=spec.key, seed=seed,
                       review=review(game, start, moves, bots, record.played),
                       perfect=perfect_results(game, start))


def game_seed(run_seed: int | None, key: str) -> int | None:
    """The seed of one game, derived from the run's seed and the game's key (None if the run
    has none): the optimal player's choices and the bots' BOT_SEED."""
    if run_seed is None:
        return None
    digest = hashlib.sha256(f"{run_seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1
