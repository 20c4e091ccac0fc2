"""`judge scheduler`: the Dask scheduler of a cluster, over TLS with the judge's credentials."""

from __future__ import annotations

import argparse
import sys

from judge.commands.options import add_credentials_option
from judge.commands.worker import RECIPE
from judge.credentials import INSTALL
from judge.games.base import InputError

#: the scheduler's port unless --port says otherwise (Dask's)
PORT = 8786


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `scheduler` subcommand."""
    p = sub.add_parser(
        "scheduler",
        help="the scheduler of a cluster for --cluster (a Dask scheduler, over TLS)",
        description="Start the Dask scheduler that `judge worker`s join and that `judge "
        "run`, `judge tournament` and `judge match` given --cluster send their games to, "
        "and print its address. Every party proves itself with the cluster's credentials "
        "over TLS: the scheduler makes them on first use (a CA and one certificate, in "
        "a folder of mode 0700). Refused where bots would have the network. Runs until "
        f"stopped. Needs Dask distributed: {INSTALL}.",
        epilog=RECIPE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default=None,
                   help="the address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=PORT,
                   help=f"the port to listen on (default: {PORT}; 0: any free one)")
    add_credentials_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve as the cluster's scheduler until stopped."""
    import asyncio

    from judge.cluster import ready
    from judge.credentials import folder, security

    if not 0 <= args.port <= 65535:
        raise InputError(f"--port {args.port}: a port is from 0 to 65535")
    ready("judge scheduler", "auto")
    import dask
    from distributed import Scheduler

    secure = security(args.credentials, make=True)

    async def serve() -> None:
        # no HTTP routes (the dashboard, its proxy, the scheduler's state) on its web server,
        # which listens on this machine only
        with dask.config.set({"distributed.scheduler.http.routes": []}):
            scheduler = Scheduler(host=args.host, port=args.port, protocol="tls",
                                  security=secure, dashboard=False,
                                  dashboard_address="127.0.0.1:0")
        async with scheduler:
            print(scheduler.address, flush=True)
            print(f"judge: scheduler at {scheduler.address}, credentials in "
                  f"{folder(args.credentials)}: start workers with `judge worker "
                  f"{scheduler.address}`, play with --cluster {scheduler.address}",
                  file=sys.stderr, flush=True)
            await scheduler.finished()

    try:
        asyncio.run(serve())
    except OSError as exc:  # e.g. the port is taken
        raise InputError(f"judge scheduler: cannot listen on port {args.port}: "
                         f"{exc.strerror or exc}") from None
    return 0
