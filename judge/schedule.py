"""Playing a run's scheduled games: in this process, on a pool of forked workers, or on a
Dask cluster (`judge.cluster`), each record handed back as its game ends."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import Any

from judge.playing import OPTIMAL, GameSpec, Setup, game_seed, play_spec

__all__ = ["OPTIMAL", "GameSpec", "Setup", "game_seed", "play_spec", "plays_here",
           "run_specs"]


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
            from judge.sandbox.context import sandbox_context

            with sandbox_context().one_core() if one_bot else nullcontext():
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
    from judge.sandbox.context import sandbox_context

    try:
        with sandbox_context().one_core(number) if number is not None else nullcontext():
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
