"""The `judge` command line: argument parsing and error reporting only."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Any, NoReturn

from judge import __version__
from judge.commands import config
from judge.exits import ExitStatus
from judge.games.base import InputError, Stopped
from judge.report import printable_line
from judge.words import did_you_mean

#: the commands, besides `solve`, that are not a kind of stored run's: one module per
#: subcommand under judge.commands, each with `register(subparsers)`, the command's name
#: without its hyphens (nim-batch: judge.commands.nimbatch)
OTHERS = ["show", "play", "opponent", "nim-batch", "worker", "scheduler", "serve", "doctor",
          "games", "export"]


def kinds() -> list[str]:
    """The commands of the kinds of stored run: their names in `judge.kinds.MODULES`
    (imported only for them: `judge games` reads no plan)."""
    from judge.kinds import MODULES

    return list(MODULES)


def commands() -> list[str]:
    """Every command, in the order `judge --help` lists them: `solve`, each kind of stored
    run's, then the others."""
    return ["solve", *kinds(), *OTHERS]


def own_module(command: str) -> bool:
    """Whether `command` is registered by a module of its own, not a kind's."""
    return command == "solve" or command in OTHERS


def known(command: str) -> bool:
    """Whether `command` is one of the judge's commands."""
    return own_module(command) or command in kinds()


def module_of(command: str) -> str:
    """The module under judge.commands that registers `command`."""
    return command.replace("-", "")


def register(sub: argparse._SubParsersAction, command: str) -> None:
    """Add the subcommand `command`: a kind's command that the kind declares
    (`Kind.command`) by `judge.commands.kinds`; any other by its own module."""
    if not own_module(command):
        from judge.kinds import KINDS

        if KINDS[command].command is not None:
            import_module("judge.commands.kinds").register(sub, command)
        return  # (none declared: a kind stored and shown only, with no command)
    import_module(f"judge.commands.{module_of(command)}").register(sub)


class Parser(argparse.ArgumentParser):
    """The judge's argument parser: an unknown option or command is refused with the one
    probably meant, under the usage of the command it was given to."""

    #: the subcommands' parsers by name (on the top-level parser)
    commands: dict[str, Parser] = {}
    #: the arguments a subcommand's parser was given (`parse` sets them)
    given: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the destinations of the options the command line gave (`_get_values` records
        #: them): a course file gives the others
        self.seen: set[str] = set()

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        """argparse's conversion of an option's arguments, which also records that the
        command line gave the option."""
        self.seen.add(action.dest)
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 and one line: the error and where the help is. An unknown
        option is named first: it is often the cause of the error (`--gmae` leaves `--game`
        missing)."""
        wrong = unknown_options(self, self.given)
        if wrong:
            self.refuse(wrong)
        self.fail(message)

    def refuse(self, extras: list[str]) -> NoReturn:
        """Exit with status 2 for arguments this parser does not take; an option is named
        with the closest one it takes."""
        options = [a for a in extras if a.startswith("-")]
        if options:
            name = options[0].split("=", 1)[0]
            self.fail(f"unrecognized option {name}{did_you_mean(name, option_strings(self))}")
        self.fail(f"unrecognized arguments: {' '.join(extras)}")

    def fail(self, message: str) -> NoReturn:
        """Exit with status 2 and one line, `message` and the command whose --help says
        more (not argparse's usage block, which a class's terminal scrolls away)."""
        what = "commands" if self.prog == "judge" else "options"
        self.exit(ExitStatus.BAD_INPUT,
                  f"judge: error: {message} ({self.prog} --help lists the {what})\n")


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string `parser` takes (``-h``, ``--game``, ...)."""
    return [s for action in parser._actions for s in action.option_strings]


#: an argument argparse takes for a negative number, not an option
NEGATIVE = re.compile(r"-\d+$|-\d*\.\d+$")


def unknown_options(parser: argparse.ArgumentParser, args: Iterable[str]) -> list[str]:
    """The arguments among `args` that look like options `parser` does not take (nor an
    abbreviation of one), up to ``--``."""
    known = option_strings(parser)
    wrong = []
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-") or arg == "-" or " " in arg or NEGATIVE.match(arg):
            continue
        name = arg.split("=", 1)[0]
        if name in known or arg[:2] in known or (
                name.startswith("--") and any(k.startswith(name) for k in known)):
            continue
        wrong.append(arg)
    return wrong


def build_parser(argv: list[str] | None = None) -> Parser:
    """The parser for every subcommand, or (for a start-up that does not import them all)
    only for the subcommand that `argv` names (none for an unknown one, which `parse`
    refuses)."""
    argv = sys.argv[1:] if argv is None else argv
    at = command_at(argv)
    if at < len(argv):
        names = [argv[at]] if known(argv[at]) else []
    else:
        names = commands()
    parser = Parser(
        prog="judge",
        description="A competition judge for two-player games (every installed game: judge "
        "games lists them) with a perfect opponent: grade bots, run tournaments, play and "
        "solve positions.",
    )
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in names:
        register(sub, name)
    parser.commands = sub.choices
    add_course_options(parser, top=True)
    for command in parser.commands.values():
        for each in config.under(command):
            add_course_options(each, top=False)
    return parser


def add_course_options(p: argparse.ArgumentParser, top: bool) -> None:
    """`--config FILE` and `--no-config`, before the command (`top`) or after it."""
    unset = {} if top else {"default": argparse.SUPPRESS}
    g = p.add_argument_group("the course file")
    g.add_argument("--config", metavar="FILE", **unset,  # type: ignore[arg-type]
                   help=f"read the course's options from FILE (default: {config.DEFAULT} in "
                   "this folder, when there is one); the command line wins over it "
                   "(docs/grading.md#the-course-file)")
    g.add_argument("--no-config", action="store_true", **unset,  # type: ignore[arg-type]
                   help=f"ignore {config.DEFAULT}")


def command_at(argv: list[str]) -> int:
    """Where the command is in `argv` (its length when there is none): the first word
    that is neither an option nor the course file of the top level's --config."""
    after_config = False
    for at, arg in enumerate(argv):
        if not arg.startswith("-") and not after_config:
            return at
        after_config = len(arg) > 2 and "--config".startswith(arg)
    return len(argv)


def parse(parser: Parser, argv: list[str] | None = None) -> argparse.Namespace:
    """`argv` parsed; an unknown command, or an argument its command does not take, ends
    the judge with status 2 and the closest command or option."""
    argv = sys.argv[1:] if argv is None else argv
    at = command_at(argv)
    parser.given = tuple(argv[:at])
    wrong = unknown_options(parser, parser.given)
    if wrong:
        parser.refuse(wrong)
    if at < len(argv):
        if not known(argv[at]) or argv[at] not in parser.commands:  # (a kind of no command)
            others = [c for c in commands() if c != argv[at]]
            parser.error(f"unknown command {argv[at]}{did_you_mean(argv[at], others)}")
        parser.commands[argv[at]].given = tuple(argv[at + 1:])
    required = [(p, a) for command in parser.commands.values()
                for p in config.under(command)
                for a in p._actions if a.required and a.option_strings]
    for _, action in required:  # a course file may give them: checked once it is read
        action.required = False
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.commands.get(args.command, parser).refuse(extras)
    with_course(parser, args, required)
    return args


def with_course(parser: Parser, args: argparse.Namespace,
                required: list[tuple[argparse.ArgumentParser, argparse.Action]]) -> None:
    """Give `args` the options of the course file that the command line did not give
    (`args.course`: what it gave, or None without one); its errors, and a required option
    given by neither, end the judge with status 2."""
    path = config.command_path(parser.commands[args.command], args.command, args)
    parsers = [p for _, p in path]
    given = set().union(*(p.seen for p in parsers if isinstance(p, Parser)))
    try:
        course = config.course_for(args.config, args.no_config)
        args.course = course and config.apply(course, path, args, given, commands(),
                                                   every_option)
        if course and getattr(args, "check_course", False):  # judge doctor: all of it
            config.check(course, every_command())
    except InputError as exc:
        parser.exit(ExitStatus.BAD_INPUT, f"judge: error: {printable_line(str(exc))}\n")
    from_course = set(args.course.options) if args.course else set()
    for p, action in required:
        if p in parsers and action.dest not in given \
                and not from_course.intersection(action.option_strings):
            p.error(f"the following arguments are required: {'/'.join(action.option_strings)}")


@functools.cache
def every_command() -> dict[str, Parser]:
    """The parser of every command (built only where a course file needs them all)."""
    return build_parser([]).commands


def every_option() -> config.Takers:
    """The long options of every command and subcommand, with the parsers that take them
    (a shared setting of the course file must fit one)."""
    return config.takers(p for command in every_command().values()
                         for p in config.under(command))


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: games in flight are ended, their bots killed and
    their files removed, what was stored is kept."""


def _terminated(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the judge at once
    raise Terminated


class _Redeliver:
    """The hook for exceptions Python drops: a signal's is sent again (the rest go on to
    the hook that was there before)."""

    def __init__(self, earlier: Callable[[sys.UnraisableHookArgs], object]) -> None:
        self.earlier = earlier

    def __call__(self, unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, Terminated):
            number = signal.SIGTERM
            signal.signal(signal.SIGTERM, _terminated)
        elif isinstance(unraisable.exc_value, KeyboardInterrupt) \
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            number = signal.SIGINT
        else:
            self.earlier(unraisable)
            return
        try:  # from a thread, after the dropping code has returned
            threading.Thread(target=self.again, args=(number,), daemon=True).start()
        except RuntimeError:  # the interpreter is ending anyway
            pass

    @staticmethod
    def again(number: int) -> None:
        time.sleep(0.001)
        os.kill(os.getpid(), number)


def _keep_interruptions() -> None:
    """Ctrl-C and SIGTERM are never lost. Python raises a signal's exception at the next line
    the main thread runs, which may be where exceptions are dropped: a callback after a fork,
    a finaliser. There it would be printed and the judge would play on; instead the signal is
    sent again until it lands where it is caught."""
    if not isinstance(sys.unraisablehook, _Redeliver):
        sys.unraisablehook = _Redeliver(sys.unraisablehook)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    try:  # Ctrl-C while the command's modules load is an interruption too, not a traceback
        parser = build_parser(argv)
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    args = parse(parser, argv)
    signal.signal(signal.SIGTERM, _terminated)
    _keep_interruptions()
    try:
        return int(args.func(args) or 0)
    except Terminated:
        print("judge: terminated", file=sys.stderr)
        return ExitStatus.TERMINATED
    except InputError as exc:
        print("judge: error: " + printable_line(f"{exc}{config.origin(str(exc), args.course)}"),
              file=sys.stderr)
        return getattr(exc, "status", ExitStatus.BAD_INPUT)  # SKIPPED: a language missing
    except Stopped as exc:
        print(f"judge: error: {exc}", file=sys.stderr)
        return ExitStatus.STOPPED
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a database found damaged only as it is read, or no slot
        from judge.sandbox.slots import NoSlot
        from judge.store import damage_of, damaged

        if isinstance(exc, NoSlot):  # (before a run: a bot compiled when there was none)
            print(f"judge: error: {exc} (other judges' games hold them): run it "
                  "again once some have ended", file=sys.stderr)
            return ExitStatus.STOPPED
        why = damage_of(exc)
        if why is None or not getattr(args, "db", None):
            raise
        print(f"judge: error: {damaged(args.db, why)}", file=sys.stderr)
        return ExitStatus.BAD_INPUT


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
