"""`judge worker`: a Dask worker that plays games of runs given `--cluster`."""

from __future__ import annotations

import argparse
import os
import sys

from judge.games.base import InputError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `worker` subcommand."""
    p = sub.add_parser(
        "worker",
        help="play games for runs and tournaments given --cluster (a Dask worker)",
        description="Start Dask worker processes that play games for `judge run` and "
        "`judge tournament` given --cluster SCHEDULER. Each process plays one game at a "
        "time (it offers one 'games' resource), confined as a local game would be; bots "
        "arrive by content and are compiled once per worker. Needs Dask distributed: "
        "pip install 'judge[cluster]'.",
        epilog="example (three commands):\n"
        "  dask scheduler                                # on one machine: tcp://HOST:8786\n"
        "  judge worker tcp://HOST:8786 --jobs 16        # on each machine that plays\n"
        "  judge tournament --game ioiwari --cluster tcp://HOST:8786 bots/ioiwari/*\n"
        "the same worker with Dask's own command:\n"
        "  dask worker tcp://HOST:8786 --nworkers 16 --nthreads 1 --resources games=1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scheduler", metavar="SCHEDULER", help="the scheduler's address")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help=f"games played at once: worker processes (default: the number of "
                   f"cores, {os.cpu_count()})")
    p.add_argument("--name", default=None, help="the workers' name prefix (default: the host)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Become the Dask worker command (it runs until stopped)."""
    try:
        import distributed  # noqa: F401 - only to say clearly that it is missing
    except ImportError:
        raise InputError("judge worker needs Dask distributed: pip install 'judge[cluster]'"
                         ) from None
    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    command = [sys.executable, "-m", "distributed.cli.dask_worker", args.scheduler,
               "--nworkers", str(jobs), "--nthreads", "1", "--resources", "games=1",
               "--no-dashboard", "--death-timeout", "60"]
    if args.name:
        command += ["--name", args.name]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, command)
    return 0  # not reached
