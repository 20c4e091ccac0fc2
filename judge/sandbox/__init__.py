"""Running bots confined: the tiers of confinement, starting and ending a bot process,
cleanup, and turning a bot file into a command.

Modules, by what a newcomer looks for:

- `tiers`: the `--sandbox` modes, the tier this machine gives, what each guarantees;
- `limits`: what a bot may use in one game;
- `programs`: bot files to commands (interpreters, C/C++ compiled once);
- `process`: one confined bot process, from spawn to reaping (`Confined`);
- `slots`: a uid and cgroups per concurrent game (a root judge);
- `helper` and `helper.c`: the exec helper that confines and execs a bot;
- `cleanup`: removing what a bot left on disk, whatever it did to it.
"""

from judge.sandbox.cleanup import remove_stale_workdirs, remove_tree
from judge.sandbox.limits import Limits
from judge.sandbox.process import Confined, Exit, group_members
from judge.sandbox.programs import CompileError, Program, check_bot_path, compiled, program_for
from judge.sandbox.tiers import SANDBOX_MODES, Tier, bwrap_path, resolve_sandbox, tier_for

__all__ = [
    "SANDBOX_MODES", "CompileError", "Confined", "Exit", "Limits", "Program", "Tier",
    "bwrap_path", "check_bot_path", "compiled", "group_members", "program_for",
    "remove_stale_workdirs", "remove_tree", "resolve_sandbox", "tier_for",
]
