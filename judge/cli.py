"""The `judge` command line: argument parsing and error reporting only."""

from __future__ import annotations

import argparse
import gc
import signal
import sys
from importlib import import_module

from judge import __version__
from judge.exits import ExitStatus
from judge.games.base import InputError, Stopped

#: one module per subcommand under judge.commands, each with `register(subparsers)`
COMMANDS = ["solve", "run", "show", "tournament", "match", "play", "opponent", "nim-batch",
            "worker", "scheduler", "serve"]
#: the module that registers each subcommand
MODULE_OF = {"solve": "solve", "run": "run", "show": "show", "tournament": "tournament",
             "match": "match", "play": "play", "opponent": "opponent", "nim-batch": "nimbatch",
             "worker": "worker", "scheduler": "scheduler", "serve": "serve"}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for every subcommand, or (for a start-up that does not import them all)
    only for the subcommand that `argv` names."""
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    chosen = MODULE_OF.get(words[0]) if words else None
    modules = [chosen] if chosen else [name.replace("-", "") for name in COMMANDS]
    parser = argparse.ArgumentParser(
        prog="judge",
        description="A competition judge for Ioiwari, Nim and Chopsticks with a perfect "
        "opponent: grade bots, run tournaments, play and solve positions.",
    )
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in modules:
        import_module(f"judge.commands.{name}").register(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: games in flight are ended, their bots killed and
    their files removed, what was stored is kept."""


def _terminated(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the judge at once
    raise Terminated


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    try:  # Ctrl-C while the command's modules load is an interruption too, not a traceback
        parser = build_parser(argv)
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return int(args.func(args) or 0)
    except Terminated:
        print("judge: terminated", file=sys.stderr)
        return ExitStatus.TERMINATED
    except InputError as exc:
        print(f"judge: error: {exc}", file=sys.stderr)
        return getattr(exc, "status", ExitStatus.BAD_INPUT)  # SKIPPED: a language missing
    except Stopped as exc:
        print(f"judge: error: {exc}", file=sys.stderr)
        return ExitStatus.STOPPED
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return 0


def console() -> int:
    """The `judge` program: `main`, then an exit without the interpreter's last garbage
    collections, which would scan every object the run made again (a tenth of a one-game
    run's time). Nothing needs them: the judge closes its database, files and bots itself,
    and `atexit` handlers still run."""
    status = main()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(console())
