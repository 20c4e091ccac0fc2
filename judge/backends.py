"""Where a run's games are played, behind one interface (`Backend`): this machine's
processes (`LocalPool`: in this process, or on a pool of forked workers) or a Dask cluster
(`judge.cluster.DaskCluster`), each record handed back as its game ends."""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import nullcontext, suppress
from typing import TYPE_CHECKING, Any, Protocol

from judge.plan import is_program
from judge.playing import GameSpec, Setup, play_spec
from judge.words import plural

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from judge.records import PlayedGame

__all__ = ["Backend", "BackendLost", "Feed", "LocalPool", "plays_here"]

#: the next game for a free slot, with the setup it is played under; None: none now
Feed = Callable[[], "tuple[Setup, GameSpec] | None"]


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


class BackendLost(Exception):
    """The backend could not go on with the run (a worker process was killed, the cluster
    went): the games stored so far are kept."""


class Backend(Protocol):
    """Where a run's games are played: this machine's processes (`LocalPool`) or a Dask
    cluster's workers (`judge.cluster.DaskCluster`)."""

    @property
    def slots(self) -> int:
        """How many games it plays at once."""
        ...

    def play(self, setup: Setup, specs: list[GameSpec]) -> Iterator[tuple[GameSpec, PlayedGame]]:
        """Play `specs`, yielding each with its record as its game ends (in any order)."""
        ...

    def keep_busy(self, feed: Feed) -> Iterator[tuple[GameSpec, PlayedGame]]:
        """Play the games `feed` hands out, each slot given the next as its game ends (so
        that a slow game holds up only its own slot), yielding each with its record; done
        when no game is being played and `feed` has none. `feed` is asked again only once
        the caller has taken the record before (and stored it)."""
        ...


class LocalPool:
    """This machine: the games in this process (one job, or one game), else on `jobs`
    forked worker processes."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    @property
    def slots(self) -> int:
        return self.jobs

    def play(self, setup: Setup, specs: list[GameSpec]) -> Iterator[tuple[GameSpec, PlayedGame]]:
        return _play_all(setup, specs, self.jobs)

    def keep_busy(self, feed: Feed) -> Iterator[tuple[GameSpec, PlayedGame]]:
        if self.jobs <= 1:
            while (item := feed()) is not None:
                yield item[1], play_spec(*item)
            return
        yield from _keep_workers_busy(feed, self.jobs)


def plays_here(jobs: int, games: int) -> bool:
    """Whether a run of `games` on `jobs` local processes plays them in this process."""
    return jobs <= 1 or games <= 1


def _play_all(setup: Setup, specs: list[GameSpec],
              jobs: int) -> Iterator[tuple[GameSpec, PlayedGame]]:
    # what is alive now (modules, tables) lives as long as the run: the collector no
    # longer looks at it after every few games, nor touches it in a forked worker
    # (whose pages it would copy)
    gc.freeze()
    # a game of one bot (against the perfect player) is played on one core with its bot;
    # two bots of one game keep the machine's cores (one thinking in the other's turn
    # would take half of its time)
    one_bot = all(sum(map(is_program, spec.players)) <= 1 for spec in specs)
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


def _ready(conns: list[Connection[Any, Any]]) -> list[Connection[Any, Any]]:
    """Those of `conns` with something to read or closed, in the order `wait` gives them
    (whose stub types what it returns as any connection, socket or descriptor)."""
    from multiprocessing.connection import wait

    given = {id(conn): conn for conn in conns}
    return [given[id(conn)] for conn in wait(conns)]


def _play_on_workers(setup: Setup, specs: list[GameSpec], jobs: int,
                     one_bot: bool = False) -> Iterator[tuple[GameSpec, PlayedGame]]:
    """Play `specs` on `jobs` forked worker processes, each record as its game ends.

    The workers have the specs from the fork and take the next one from a shared counter;
    each sends its records on a pipe of its own. This process only stores them: no pool
    threads, no task queue to feed, nothing pickled but the records.
    """
    import multiprocessing

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
                raise BackendLost(f"a process of the judge that played games ended with "
                                  f"{plural(left, 'game')} unplayed")
            for reader in _ready(readers):
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
        _end_workers(workers)
        raise
    finally:
        for reader in readers:
            reader.close()
    for worker in workers:
        worker.join()


def _keep_workers_busy(feed: Feed, jobs: int) -> Iterator[tuple[GameSpec, PlayedGame]]:
    """`LocalPool.keep_busy` on `jobs` forked workers, each handed its next game (and the
    setup, when it changed) on a pipe of its own as it sends back the last one's record."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    workers, pipes = [], []
    busy: dict[Any, GameSpec] = {}  # pipe -> the game its worker plays
    sent: dict[Any, Setup] = {}  # pipe -> the setup its worker has

    def hand_out(pipe: Any) -> None:
        item = feed()
        if item is None:
            return
        setup, spec = item
        try:
            if sent.get(pipe) is not setup:
                pipe.send(("setup", setup))
                sent[pipe] = setup
            pipe.send(("game", spec))
        except OSError:  # (the worker's pipe broken: not the output, whose reader left)
            raise BackendLost("a process of the judge that played games ended between two "
                              "of its games") from None
        busy[pipe] = spec

    try:
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            worker = context.Process(target=_busy_worker, args=(theirs,), daemon=True)
            worker.start()
            theirs.close()
            workers.append(worker)
            pipes.append(mine)
        for pipe in pipes:
            hand_out(pipe)
        while busy:
            for pipe in _ready(list(busy)):
                try:
                    kind, payload = pipe.recv()
                except EOFError:
                    raise BackendLost("a process of the judge that played games ended with "
                                      "a game unplayed") from None
                if kind == "error":
                    raise payload
                yield busy.pop(pipe), payload
                for idle in pipes:  # the slot that ended, and any left idle before
                    if idle not in busy:
                        hand_out(idle)
    except BaseException:
        _end_workers(workers)
        raise
    finally:
        for pipe in pipes:
            with suppress(OSError):  # (a worker already gone)
                pipe.send(("stop", None))
            pipe.close()
    for worker in workers:
        worker.join()


def _end_workers(workers: list[Any]) -> None:
    """Stop the workers of a run that stops (SIGTERM: each ends at once, its bots with it)
    and remove their bots' directories."""
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join()
    from judge.sandbox.cleanup import remove_own_workdirs

    remove_own_workdirs([w.pid for w in workers if w.pid is not None])


def _busy_worker(pipe: Any) -> None:
    """A worker of `keep_busy`: plays each game it is handed, until told to stop."""
    _worker_init()
    setup: Setup | None = None
    try:
        while True:
            try:
                kind, payload = pipe.recv()
            except EOFError:
                return
            if kind == "stop":
                return
            if kind == "setup":
                setup = payload
                continue
            assert setup is not None
            try:
                record = play_spec(setup, payload)
            except Exception as exc:  # the judge's own failure: the run stops, as it says
                try:
                    pipe.send(("error", exc))
                except Exception:
                    pipe.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
                return
            pipe.send(("done", record))
    finally:
        pipe.close()


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
