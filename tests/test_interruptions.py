"""Ctrl-C and SIGTERM are never lost: Python raises a signal's exception at the next line the
main thread runs, and where that line is in a finaliser or a callback after a fork, Python
prints the exception and goes on. The judge sends the signal again until it lands."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    from judge import cli

    signal.signal(signal.SIGTERM, cli._terminated)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (ignored in a background job)
    if sys.argv[1] == "kept":
        cli._keep_interruptions()

    class Dropping:  # the signal's exception is raised inside a finaliser, which drops it
        def __del__(self):
            os.kill(os.getpid(), signal.{name})
            time.sleep(0.01)

    try:
        Dropping()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            time.sleep(0.01)
        print("played on")
    except {caught}:
        print("caught")
""")


@pytest.mark.parametrize(("name", "caught"), [("SIGTERM", "cli.Terminated"),
                                              ("SIGINT", "KeyboardInterrupt")])
def test_a_signal_raised_where_python_drops_exceptions_still_ends_the_command(
        name: str, caught: str) -> None:
    script = SCRIPT.format(name=name, caught=caught)
    dropped = subprocess.run([sys.executable, "-c", script, "plain"], capture_output=True,
                             text=True, timeout=60)
    assert dropped.stdout.strip() == "played on"  # what Python does by itself
    kept = subprocess.run([sys.executable, "-c", script, "kept"], capture_output=True,
                          text=True, timeout=60)
    assert kept.stdout.strip() == "caught", kept.stderr
    assert "Exception ignored" not in kept.stderr
