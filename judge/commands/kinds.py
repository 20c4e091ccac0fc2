"""The command of each kind of stored run whose module declares one (`judge run`, `judge
tournament`, `judge match`: `judge.kinds.base.Command`): its parser built from the
declaration, with the option groups it asks for, and its run made, or resumed, played,
stored and shown by `execute`; or, for a kind of actions of its own (`judge league`:
`judge.kinds.base.Subcommands`), its parser, under which the kind adds its actions."""

from __future__ import annotations

import argparse
import functools

from judge.commands import inputs, options, runs
from judge.commands.runs import RunKind, execute, open_store
from judge.kinds import KINDS
from judge.kinds.base import Command, Subcommands
from judge.plan import Plan


def command_of(name: str) -> Command:
    """The command the kind `name` declares."""
    command = KINDS[name].command
    assert isinstance(command, Command), f"the kind {name} declares no command of a run"
    return command


def register(sub: argparse._SubParsersAction, name: str) -> None:
    """Add the subcommand of the kind `name`."""
    declared = KINDS[name].command
    if isinstance(declared, Subcommands):
        p = sub.add_parser(name, help=declared.help, description=declared.description,
                           epilog=declared.epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        declared.actions(p, options, inputs, runs)
        return
    command = command_of(name)
    p = sub.add_parser(name, help=command.help, description=command.description,
                       epilog=command.epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    command.arguments(p, options)
    p.set_defaults(func=functools.partial(run, name))
    options.remember_defaults(p)


def run(name: str, args: argparse.Namespace) -> int:
    """Make (or resume) a run of the kind `name`, play it and print its results."""
    command = command_of(name)
    if args.resume is not None and command.resuming is not None:
        command.resuming(args, inputs, functools.partial(stored_plan, args.db, args.resume))
    return execute(args, RunKind(name, command.fixed, lambda a: command.new_plan(a, inputs)))


def stored_plan(db: str, run_id: int) -> Plan:
    """The plan of the stored run `run_id` of the database `db`, which must exist."""
    with open_store(db, must_exist=True, read_only=True) as store:
        return store.run(run_id).plan
