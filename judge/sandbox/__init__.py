"""Running bots confined: the tiers of confinement, starting and ending a bot process,
cleanup, and turning a bot file into a command.

Modules, by what a newcomer looks for:

- `tiers`: the `--sandbox` modes, the tier this machine gives, what each guarantees;
- `limits`: what a bot may use in one game;
- `languages`: the language table (`languages.toml`): suffixes, compile and run commands;
- `program`: what runs a bot (`Program`: its command line, what a sandbox shows of it);
- `build`: bot files to programs (compiled once, confined, cached; or interpreted);
- `commandline`: the command line that starts a bot in each tier (bwrap's and the helper's
  options, rlimits);
- `process`: one confined bot process, from spawn to reaping (`Confined`);
- `meters`: how its CPU, memory and processes are counted (cgroups, or the judge's sums);
- `waiting`: seeing, from /proc, that a bot waits for input that will not come;
- `stderr`: draining every bot's stderr, keeping its tail;
- `slots`: a uid and cgroups per concurrent game (a root judge);
- `context`: what one judge process keeps for its bots (its slots, launchers, stderr
  pump and language table), from its first game to its exit;
- `exec_helper` and `exec/`: the exec helper that confines and execs a bot (`exec/`: its
  C sources, one file per concern, `exec.h` listing what each offers; `exec_helper`:
  building it once into the cache, and its options), and `launcher`: the helper kept
  running by a judge process, forking each bot's starter;
- `cleanup`: removing what a bot left on disk, whatever it did to it.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.sandbox.build import (
        CompileError,
        NotGradable,
        Program,
        ToolchainMissing,
        check_bot_path,
        compiled,
        program_for,
    )
    from judge.sandbox.cleanup import remove_stale_workdirs, remove_tree
    from judge.sandbox.limits import Limits, Usage
    from judge.sandbox.meters import group_members
    from judge.sandbox.process import Confined, Exit
    from judge.sandbox.tiers import SANDBOX_MODES, Tier, bwrap_path, resolve_sandbox, tier_for

#: where each name lives: the modules are imported on first use, so that a command that
#: needs only `Limits` (its --help) does not import the process machinery
_HOME = {
    "remove_stale_workdirs": "cleanup", "remove_tree": "cleanup", "Limits": "limits",
    "Usage": "limits",
    "Confined": "process", "Exit": "process", "group_members": "meters",
    "CompileError": "program", "NotGradable": "program", "Program": "program",
    "check_bot_path": "build",
    "compiled": "build", "program_for": "build", "ToolchainMissing": "build",
    "SANDBOX_MODES": "tiers",
    "Tier": "tiers", "bwrap_path": "tiers", "resolve_sandbox": "tiers", "tier_for": "tiers",
}
__all__ = [
    "SANDBOX_MODES", "CompileError", "Confined", "Exit", "Limits", "NotGradable", "Program",
    "Tier",
    "ToolchainMissing", "Usage",
    "bwrap_path", "check_bot_path", "compiled", "group_members", "program_for",
    "remove_stale_workdirs", "remove_tree", "resolve_sandbox", "tier_for",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'judge.sandbox' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"judge.sandbox.{_HOME[name]}"), name)
