"""How a process's death by a signal is named: a bot's verdict and a compiler's message name
the signal the same way (`Exit.signal_name`), a signal without a name by its number."""

from __future__ import annotations

from judge.players.bot import exit_failure
from judge.sandbox import Exit, Limits


def test_a_signal_is_named_and_one_without_a_name_is_numbered() -> None:
    assert Exit(-15, 0.0, 0).signal_name == "SIGTERM"
    assert Exit(-40, 0.0, 0).signal_name == "signal 40"  # (a real-time signal)
    assert Exit(0, 0.0, 0).signal_name is None
    assert Exit(3, 0.0, 0).signal_name is None


def test_a_bot_killed_by_a_signal_is_a_crash_that_names_it() -> None:
    failure = exit_failure(Exit(-15, 0.0, 0), "", Limits(), "move 3: ")
    assert failure is not None
    assert (failure.code, str(failure)) == ("crash", "move 3: killed by SIGTERM")
