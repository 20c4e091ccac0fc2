"""Which games a command plays, and playing them: in process or on a pool, stored as they end."""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from typing import Any

from judge.plan import OPTIMAL, BotSource, Plan


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: who sits in each seat, from which start; `key` names it for resume."""

    key: str
    players: tuple[str, str]  # per seat: a bot path, or "optimal"
    start: str  # the start position in the game's notation


@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to rebuild the game and the players (picklable)."""

    game: str
    rules: str
    limits: dict[str, Any]
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

    @classmethod
    def of(cls, plan: Plan) -> Setup:
        """What the games of `plan` need."""
        h = plan.harness
        return cls(plan.game, plan.rules, asdict(h.limits), h.sandbox, h.seed,
                   h.languages, plan.fingerprints(), plan.opponent)


def play_spec(setup: Setup, spec: GameSpec) -> dict[str, Any]:
    """Play one scheduled game and return its record, with every move reviewed."""
    from judge.analysis import perfect_results, review
    from judge.games import load_game
    from judge.players.bot import BotPlayer
    from judge.players.optimal import opponent_player
    from judge.referee import play_game
    from judge.sandbox import Limits, languages

    languages.configure(setup.languages)
    paths = {who: who for who in spec.players}
    for who in spec.players:
        if setup.bot_files and who in setup.bot_files:  # its content, kept here by hash
            from judge.cluster import local_copy

            paths[who] = local_copy(who, setup.bot_files[who])
        elif setup.fingerprints and who in setup.fingerprints:
            BotSource(who, setup.fingerprints[who]).check()
    game = load_game(setup.game, setup.rules)
    start = game.parse_position(spec.start)
    limits = Limits(**setup.limits)
    seed = game_seed(setup.seed, spec.key)
    players = [
        opponent_player(setup.opponent, seed) if who == OPTIMAL
        else BotPlayer(paths[who], limits=limits, sandbox=setup.sandbox, name=who, seed=seed)
        for who in spec.players
    ]
    record = play_game(game, players, start, limits)
    data = record.to_dict()
    data["key"] = spec.key
    data["seed"] = seed
    data["players"] = list(spec.players)
    moves = [m["move"] for m in data["moves"]]
    bots = [seat for seat, who in enumerate(spec.players) if who != OPTIMAL]
    data["review"] = [r.to_dict() for r in review(game, start, moves, bots, record.played)]
    data["perfect"] = perfect_results(game, start)
    return data


def game_seed(run_seed: int | None, key: str) -> int | None:
    """The seed of one game, derived from the run's seed and the game's key (None if the run
    has none): the optimal player's choices and the bots' BOT_SEED."""
    if run_seed is None:
        return None
    digest = hashlib.sha256(f"{run_seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def _worker_init() -> None:
    """Workers: Ctrl-C is the parent's business; die at once with the parent.

    A worker ends on SIGTERM without unwinding (no half-played game is sent), killed by
    the kernel; its bots die with it (parent-death signal) and the judge that started the
    workers removes their directories.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the kernel ends it at once: a Python handler would run only at the next bytecode,
    # after whatever bot start is under way
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        sys.exit(1)


def run_specs(setup: Setup, specs: list[GameSpec], jobs: int,
              on_done: Callable[[GameSpec, dict[str, Any]], None],
              progress: bool = False, cluster: str | None = None,
              credentials: str | None = None) -> None:
    """Play `specs` on `jobs` processes (or on the Dask `cluster` at that address, reached
    with the credentials folder `credentials`), calling `on_done` in this process as each
    ends."""
    bar = _progress(len(specs), progress)
    if cluster is not None:
        from judge.cluster import play_on_cluster

        games: Iterator[tuple[GameSpec, dict[str, Any]]] = play_on_cluster(
            setup, specs, cluster, credentials)
    else:
        games = _play_all(setup, specs, jobs)
    try:
        for spec, record in games:
            on_done(spec, record)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()


def plays_here(jobs: int, games: int) -> bool:
    """Whether a run of `games` on `jobs` local processes plays them in this process."""
    return jobs <= 1 or games <= 1


def _play_all(setup: Setup, specs: list[GameSpec],
              jobs: int) -> Iterator[tuple[GameSpec, dict[str, Any]]]:
    import gc

    # what is alive now (modules, tables) lives as long as the run: the collector no
    # longer looks at it after every few games, nor touches it in a forked worker
    # (whose pages it would copy)
    gc.freeze()
    # a game of one bot (against the perfect player) is played on one core with its bot;
    # two bots of one game keep the machine's cores (one thinking in the other's turn
    # would take half of its time)
    one_bot = all(sum(who != OPTIMAL for who in spec.players) <= 1 for spec in specs)
    try:
        if plays_here(jobs, len(specs)):
            from judge.sandbox.slots import one_core

            with one_core() if one_bot else nullcontext():
                for spec in specs:
                    yield spec, play_spec(setup, spec)
            return
        yield from _play_on_workers(setup, specs, min(jobs, len(specs)), one_bot)
    finally:
        gc.unfreeze()


def _play_on_workers(setup: Setup, specs: list[GameSpec], jobs: int,
                     one_bot: bool = False) -> Iterator[tuple[GameSpec, dict[str, Any]]]:
    """Play `specs` on `jobs` forked worker processes, each record as its game ends.

    The workers have the specs from the fork and take the next one from a shared counter;
    each sends its records on a pipe of its own. This process only stores them: no pool
    threads, no task queue to feed, nothing pickled but the records.
    """
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    taken = context.Value("l", 0)  # how many specs the workers have taken
    workers, readers = [], []
    try:
        for number in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            place = number if one_bot else None
            worker = context.Process(target=_worker, args=(setup, specs, taken, writer, place),
                                     daemon=True)
            worker.start()
            writer.close()
            workers.append(worker)
            readers.append(reader)
        left = len(specs)
        while left:
            if not readers:
                raise RuntimeError(f"the worker processes ended with {left} games unplayed")
            for reader in wait(readers):
                try:
                    kind, index, payload = reader.recv()
                except EOFError:  # a worker that is done (or died)
                    readers.remove(reader)
                    reader.close()
                    continue
                if kind == "error":
                    raise payload
                left -= 1
                yield specs[index], payload
    except BaseException:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()  # SIGTERM: each worker ends at once, its bots with it
        for worker in workers:
            worker.join()
        from judge.sandbox.cleanup import remove_own_workdirs

        remove_own_workdirs([w.pid for w in workers if w.pid is not None])
        raise
    finally:
        for reader in readers:
            reader.close()
    for worker in workers:
        worker.join()


def _worker(setup: Setup, specs: list[GameSpec], taken: Any, results: Any,
            number: int | None = None) -> None:
    """A worker (the `number`-th, on a core of its own while there are enough; None: not
    placed): plays the next spec not yet taken until none is left, sending each record (or
    the exception that stopped it) on `results`."""
    _worker_init()
    from judge.sandbox.slots import one_core

    try:
        with one_core(number) if number is not None else nullcontext():
            while True:
                with taken.get_lock():
                    index = taken.value
                    taken.value = index + 1
                if index >= len(specs):
                    return
                try:
                    record = play_spec(setup, specs[index])
                except Exception as exc:  # the judge's own failure: the run stops, as it says
                    try:
                        results.send(("error", index, exc))
                    except Exception:  # (an exception that cannot be pickled)
                        results.send(("error", index, RuntimeError(f"{type(exc).__name__}: {exc}")))
                    return
                results.send(("done", index, record))
    finally:
        results.close()


def _progress(total: int, enabled: bool):  # noqa: ANN202 - a tqdm bar or None
    if not enabled or total == 0:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


def limits_dict(limits: Any) -> dict[str, Any]:
    """A `Limits` dataclass as a plain dict (recorded with the run, sent to workers)."""
    return asdict(limits)
