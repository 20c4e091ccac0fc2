"""`judge worker`: a Dask worker that plays games of runs given `--cluster`."""

from __future__ import annotations

import argparse
import os
import sys

from judge.commands.options import add_credentials_option
from judge.credentials import INSTALL
from judge.games.base import InputError

#: how the cluster is started, shown by `judge scheduler --help` and `judge worker --help`
RECIPE = (
    "example (three commands):\n"
    "  judge scheduler                               # on one machine: tls://HOST:8786\n"
    "  judge worker tls://HOST:8786 --jobs 16        # on each machine that plays\n"
    "  judge tournament --game ioiwari --cluster tls://HOST:8786 bots/ioiwari/*\n"
    "the scheduler makes the cluster's credentials (a CA and a certificate) in the folder\n"
    "cluster of the judge's cache: copy that folder to each other machine and give it with\n"
    "--credentials DIR (or JUDGE_CLUSTER_CREDENTIALS=DIR); keep it unreadable to others\n"
    "(chmod 700 DIR, chmod 600 DIR/*)"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `worker` subcommand."""
    p = sub.add_parser(
        "worker",
        help="play games for runs and tournaments given --cluster (a Dask worker)",
        description="Start Dask worker processes that play games for `judge run` and "
        "`judge tournament` given --cluster SCHEDULER. Each process plays one game at a "
        "time (it offers one 'games' resource), confined as a local game would be; bots "
        "arrive by content and are compiled once per worker. The worker proves itself to "
        "the scheduler with the cluster's credentials, over TLS. Refused where bots would "
        f"have the network. Needs Dask distributed: {INSTALL}.",
        epilog=RECIPE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scheduler", metavar="SCHEDULER",
                   help="the scheduler's address (tls://HOST:PORT, as `judge scheduler` "
                   "prints it)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help=f"games played at once: worker processes (default: the number of "
                   f"cores, {os.cpu_count()})")
    p.add_argument("--name", default=None, help="the workers' name prefix (default: the host)")
    add_credentials_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Become the Dask worker command (it runs until stopped)."""
    from judge.cluster import ready
    from judge.credentials import CA, CERT, KEY, files

    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    # a run's games are played under the sandbox it asks for, each checked again as it
    # starts: here, whether this machine keeps bots off the network at all
    ready("judge worker", "auto", args.scheduler)
    path = files(args.credentials)
    command = [sys.executable, "-m", "distributed.cli.dask_worker", args.scheduler,
               "--nworkers", str(jobs), "--nthreads", "1", "--resources", "games=1",
               "--no-dashboard", "--death-timeout", "60", "--tls-ca-file", str(path / CA),
               "--tls-cert", str(path / CERT), "--tls-key", str(path / KEY)]
    if args.name:
        command += ["--name", args.name]
    sys.stdout.flush()
    sys.stderr.flush()
    # TLS for every connection; no HTTP routes (metrics) on the workers' web servers
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
           "DASK_DISTRIBUTED__WORKER__HTTP__ROUTES": "[]"}
    os.execve(sys.executable, command, env)
    return 0  # not reached
