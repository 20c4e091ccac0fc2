"""Playing a run's games on a Dask distributed cluster (`pip install -e '.[cluster]'`).

Every party of the cluster proves itself over TLS with the judge's credentials
(`judge.credentials`): a scheduler, worker or client without them reaches none of the
others, so only `tls://` addresses are taken. Bots must not reach the cluster at all (a
party runs whatever it is sent): a cluster is refused where the tier bots get does not keep
them off the network.

The coordinator (the `judge` that was given `--cluster ADDRESS`) keeps the SQLite store as
the only source of truth: workers play games and send back records, which it stores as they
arrive, so `--resume` works as for local runs. Bots travel by content: each worker keeps a
copy of every bot file under its hash in its cache (and compiles it once, as locally), and
confines it as locally; each record says which worker played it and in what tier. Games are
submitted with ``pure=False`` (identical arguments are not one task) and each needs one
``games`` resource, which `judge worker` gives every worker process: a worker process plays
one game at a time. A worker killed mid-game loses nothing: the scheduler gives its games
to another worker, and a game stored twice replaces itself (stored by its schedule key).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import socket
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from judge.backends import BackendLost, Feed
from judge.credentials import INSTALL, folder, security
from judge.games.base import InputError
from judge.plan import BotSource, is_program

if TYPE_CHECKING:
    from judge.playing import GameSpec, Setup
    from judge.records import PlayedGame
    from judge.sandbox import Tier

#: seconds to reach the scheduler before the command gives up (exit status 2)
CONNECT_SECONDS = 10
#: the resource each game needs, and each worker process has one of
RESOURCE = "games"

#: the clients of this command, by scheduler address and credentials folder
_clients: dict[tuple[str, str | None], Any] = {}
#: the workers this command excluded (their sandbox or cache failed), by scheduler address
_excluded: dict[str, set[str]] = {}


def connect(address: str, credentials: str | None = None) -> Any:
    """A Dask client of the scheduler at `address` (one per address and credentials folder,
    kept open for the rest of the command: a match plays its batches through one
    connection), proving itself with the credentials of `credentials` (a folder: see
    `judge.credentials.folder`); `InputError` when no scheduler takes them there. A port
    where nothing listens is refused at once, not after `CONNECT_SECONDS` of retries."""
    client = _clients.get((address, credentials))
    if client is not None and client.status == "running":
        return client
    check_address(address, "--cluster")
    try:
        from distributed import Client
        from distributed.comm import parse_address
        from distributed.comm.addressing import parse_host_port
    except ImportError:
        raise no_dask("--cluster") from None
    secure = security(credentials)
    try:
        host, port = parse_host_port(parse_address(address)[1])
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
        client = Client(address, security=secure, timeout=CONNECT_SECONDS,
                        set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InputError(f"--cluster {address}: no Dask scheduler answers there that takes "
                         f"the credentials in {folder(credentials)} "
                         f"({exc.__class__.__name__}: {reason})") from None
    if not _clients:
        atexit.register(_close_all)
    _clients[address, credentials] = client
    return client


def check_address(address: str, who: str) -> None:
    """`InputError` unless `address` is a `tls://` one: the cluster takes no other."""
    if not address.lower().startswith("tls://"):
        raise InputError(f"{who} {address}: only a tls:// address is taken: the parties "
                         f"of a cluster prove themselves with the judge's credentials over "
                         f"TLS (`judge scheduler` prints its address)")


def ready(who: str, mode: str, address: str | None = None) -> None:
    """`InputError` unless this machine can take part in a cluster (`who`: the option or
    command), in the order a user fixes things: a tls:// `address` (when one is given),
    Dask distributed installed, bots under `--sandbox mode` kept off the network."""
    if address is not None:
        check_address(address, who)
    try:
        import distributed  # noqa: F401 - only whether it is installed
    except ImportError:
        raise no_dask(who) from None
    refuse_unconfined(mode, who)


def no_dask(who: str) -> InputError:
    """The error of a `who` that needs Dask distributed where it is not installed."""
    return InputError(f"{who} needs Dask distributed: {INSTALL}")


def refuse_unconfined(mode: str, who: str, tier: Tier | None = None) -> None:
    """`InputError` unless bots under `--sandbox mode` here (`tier`, the tier that mode
    gives, looked up when not given) are kept off the network: a bot that had it could
    reach the cluster on its ports, and a party of the cluster runs what it is sent."""
    if tier is None:
        from judge.sandbox import tier_for

        tier = tier_for(mode)
    if tier.holds()["network"]:
        return
    from judge.sandbox import bwrap_path

    how = ("do not ask for --sandbox none (bubblewrap works here)"
           if mode == "none" and bwrap_path() else
           "install bubblewrap, or run the judge as root")
    raise InputError(f"{who}: bots here would have the network (confinement {tier.name}) "
                     f"and could reach the cluster, which runs what it is sent: {how}")


def _first_line(exc: BaseException) -> str:
    """``Name: the first line of its message`` (Dask's run over several lines)."""
    text = str(exc).strip().splitlines()
    return f"{exc.__class__.__name__}: {text[0]}" if text else exc.__class__.__name__


def _close_all() -> None:
    # a client whose scheduler went logs its failed reconnection as it closes: the
    # command has said so already, in one line
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    for client in _clients.values():
        with contextlib.suppress(Exception):
            client.close(timeout=2)
    _clients.clear()


def _workers(client: Any) -> dict[str, Any]:
    """The scheduler's workers, by address, asked now. (`Client.scheduler_info()` returns
    the client's cached copy, which its periodic refresh replaces with one that lists no
    worker: read at the wrong moment, the cluster looks empty.)"""
    info = client.sync(client.scheduler.identity, n_workers=-1)
    return dict(info.get("workers") or {})


def slots(address: str, credentials: str | None = None) -> int:
    """How many games the cluster at `address` plays at once (its workers' `games`
    resources); `InputError` when no worker offers one. Called before a run is created, so
    that a cluster that cannot play leaves nothing behind."""
    client = connect(address, credentials)
    try:
        workers = _workers(client)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"--cluster {address}: the scheduler stopped answering "
                         f"({exc.__class__.__name__}: {exc})") from None
    total = sum(int(w.get("resources", {}).get(RESOURCE, 0)) for w in workers.values())
    if not total:
        raise InputError(f"--cluster {address}: no worker offers the '{RESOURCE}' "
                         f"resource: start workers with `judge worker {address}`")
    return total


@dataclass(frozen=True)
class DaskCluster:
    """The Dask cluster whose scheduler is at `address`, reached with the credentials folder
    `credentials`: where a run's games are played (a `judge.backends.Backend`)."""

    address: str
    credentials: str | None
    #: how many games its workers play at once
    slots: int

    @classmethod
    def reach(cls, address: str, credentials: str | None, sandbox: str) -> DaskCluster:
        """The cluster at `address`, once it answers with a worker that can play games
        confined under `sandbox`; else an `InputError`, in the order a user fixes things:
        an address other than tls://, Dask not installed, bots here that would have the
        network, a scheduler that does not answer or take the credentials, no worker.
        Asked before a run is created, so that a refusal leaves nothing."""
        ready("--cluster", sandbox, address)
        return cls(address, credentials, slots(address, credentials))

    def play(self, setup: Setup, specs: list[GameSpec]) -> Iterator[tuple[GameSpec, Any]]:
        return play_on_cluster(setup, specs, self.address, self.credentials)

    def keep_busy(self, feed: Feed) -> Iterator[tuple[GameSpec, PlayedGame]]:
        """Play the games `feed` hands out, `slots` of them submitted at once and the next
        asked for as each ends (so that a slow game holds up only its own slot), yielding
        each with its record; done when no game is in flight and `feed` has none. `feed` is
        asked again only once the caller has taken the record before (and stored it)."""
        def take(free: int | None) -> list[tuple[Setup, GameSpec]]:
            items: list[tuple[Setup, GameSpec]] = []
            while len(items) < (free or 0) and (item := feed()) is not None:
                items.append(item)
            return items

        return _play(take, self.address, self.credentials, self.slots)


class ClusterLost(BackendLost):
    """The cluster could not go on with the run (the scheduler went, every worker was
    excluded, a game was cancelled): the games stored so far are kept."""


#: the next games to submit, each with its setup: at most `free` of them (None: every game
#: there is); none: nothing to submit now
Take = Callable[[int | None], "list[tuple[Setup, GameSpec]]"]


def play_on_cluster(setup: Setup, specs: list[GameSpec], address: str,
                    credentials: str | None = None
                    ) -> Iterator[tuple[GameSpec, PlayedGame]]:
    """Play `specs` on the cluster (reached with the credentials folder `credentials`), all
    submitted at once, yielding (spec, record) as each game ends; games not ended when the
    caller stops (or the cluster fails: `ClusterLost`) are cancelled."""
    batch = [(setup, spec) for spec in specs]

    def take(free: int | None) -> list[tuple[Setup, GameSpec]]:
        taken = batch[:]
        batch.clear()
        return taken

    return _play(take, address, credentials)


def _with_bot_files(setup: Setup, names: set[str]) -> Setup:
    """`setup` with the files of the bots `names`, as the run started with them (`Stopped`
    when one changed since), for workers that have none of them."""
    fingerprints = dict(setup.fingerprints or {})
    files: dict[str, bytes] = {}
    for name in sorted(names):
        try:  # the content shipped must be the program the run started with
            source = BotSource(name, fingerprints[name]) if name in fingerprints \
                else BotSource.read(name)
        except OSError as exc:
            raise InputError(f"cannot read bot {name}: {exc.strerror}") from None
        files[name], fingerprints[name] = source.content(), source.fingerprint
    return replace(setup, bot_files=files, fingerprints=fingerprints)


@dataclass(frozen=True)
class _Shipped:
    """A setup as shipped to every worker: with the files of the bots `names`."""

    setup: Setup  # (held, so that its identity is not another's while it is shipped)
    names: frozenset[str]
    future: Any


def _play(take: Take, address: str, credentials: str | None,
          limit: int | None = None) -> Iterator[tuple[GameSpec, PlayedGame]]:
    """Play the games `take` hands out on the cluster, at most `limit` at once (None: all
    it hands out), yielding (spec, record) as each game ends; `take` is asked for more once
    the caller has taken a record, and the run is done when no game is in flight and it
    has none. Each setup is shipped once (by its identity, with the files of the bots its
    games need: again when one it has not shipped comes), and released once no game in
    flight needs it and a newer setup came; what is in flight when the caller stops (or
    the cluster fails: `ClusterLost`) is cancelled."""
    from distributed import KilledWorker, as_completed

    client: Any = None
    games: dict[Any, tuple[GameSpec, _Shipped]] = {}  # the games in flight
    shipped: dict[int, _Shipped] = {}  # by the identity of the setup
    retired: list[_Shipped] = []  # shipped, to be released once no game in flight needs it
    excluded = _excluded.setdefault(address, set())  # for the rest of the command
    allowed: list[list[str]] = []  # the workers not excluded, once one is
    pending: Any = None

    def ship(setup: Setup, specs: list[GameSpec]) -> _Shipped:
        nonlocal client
        names = {who for spec in specs for who in spec.players if is_program(who)}
        held = shipped.get(id(setup))
        if held is not None and names <= held.names:
            return held
        if held is not None:
            names |= held.names
            retired.append(held)
        copy = _with_bot_files(setup, names)  # (its bots checked before the scheduler is asked)
        if client is None:
            slots(address, credentials)
            client = connect(address, credentials)
        # a key of its own (hash=False): a setup of the same content shipped before may be
        # being released right now, and would take this one with it
        held = _Shipped(setup, frozenset(names),
                        client.scatter(copy, broadcast=True, hash=False))
        shipped[id(setup)] = held
        return held

    def pin() -> None:
        # only once a worker is excluded are games pinned to the others (a worker that
        # joins later gets games until then): one question to the scheduler per
        # exclusion (and per batch of a match), not per game
        allowed[:] = [[w for w in _workers(client) if w not in excluded]]
        if not allowed[0]:
            raise ClusterLost(f"--cluster {address}: every worker was excluded (see above)")

    def submit(spec: GameSpec, held: _Shipped) -> None:
        nonlocal pending
        pinned: dict[str, Any] = {}
        if excluded:
            if not allowed:
                pin()
            pinned = {"workers": allowed[0], "allow_other_workers": False}
        future = client.submit(play_remote, held.future, spec, pure=False,
                               resources={RESOURCE: 1}, **pinned)
        games[future] = spec, held
        if pending is None:
            pending = as_completed([future], loop=client.loop)
        else:
            pending.add(future)

    def submit_next() -> None:
        items = take(None if limit is None else limit - len(games))
        by_setup: dict[int, tuple[Setup, list[GameSpec]]] = {}
        for setup, spec in items:
            by_setup.setdefault(id(setup), (setup, []))[1].append(spec)
        for setup, specs in by_setup.values():
            held = ship(setup, specs)
            for spec in specs:
                submit(spec, held)
        if items:  # the setups before the last one given are done with
            latest = id(items[-1][0])
            retired.extend(shipped.pop(key) for key in list(shipped) if key != latest)
        in_use = {id(held) for _, held in games.values()}
        done = [held for held in retired if id(held) not in in_use]
        if done:
            retired[:] = [held for held in retired if id(held) in in_use]
            client.cancel([held.future for held in done])

    try:
        submit_next()
        for future in pending or ():
            spec, held = games.pop(future)
            try:
                result = future.result()
            except WorkerFailed as exc:  # that worker cannot play: its games go elsewhere
                if exc.worker not in excluded:
                    excluded.add(exc.worker)
                    allowed.clear()
                    print(f"judge: worker {exc.worker} is excluded: {exc.reason}",
                          file=sys.stderr)
                submit(spec, held)
                continue
            except (CancelledError, OSError, TimeoutError) as exc:  # the scheduler went
                raise ClusterLost(f"--cluster {address}: the cluster stopped playing "
                                  f"({_first_line(exc)})") from None
            except KilledWorker as exc:  # every worker that took this game died in it
                raise ClusterLost(f"--cluster {address}: the game {spec.key} was given up "
                                  f"by the scheduler: each worker that played it died "
                                  f"({_first_line(exc)})") from None
            yield spec, result
            submit_next()
    except (OSError, TimeoutError) as exc:  # the scheduler went away
        raise ClusterLost(f"--cluster {address}: the scheduler stopped answering "
                          f"({_first_line(exc)})") from None
    finally:
        with contextlib.suppress(Exception):
            if client is not None:
                client.cancel([*games, *(h.future for h in [*shipped.values(), *retired])])


class WorkerFailed(Exception):
    """A worker could not play a game for a reason of its own (its sandbox, its cache)."""

    def __init__(self, worker: str, reason: str) -> None:
        super().__init__(worker, reason)
        self.worker, self.reason = worker, reason


def play_remote(setup: Setup, spec: GameSpec) -> PlayedGame:
    """One game on a worker: played as locally, the record naming the worker and its tier."""
    from distributed import get_worker

    from judge.playing import play_spec
    from judge.sandbox import tier_for

    try:
        # the coordinator checked its own machine: this one may differ
        refuse_unconfined(setup.sandbox, "this worker")
        record = play_spec(setup, spec)
    except (InputError, OSError) as exc:  # the worker's own trouble, not the bot's
        raise WorkerFailed(get_worker().address, f"{exc.__class__.__name__}: {exc}") from None
    return record._replace(worker=socket.gethostname(), tier=tier_for(setup.sandbox).name)
