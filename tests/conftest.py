"""Shared test set-up: solved tables go to a private cache directory, and what a test needs
of the machine is a marker, skipped with the reason where the machine lacks it.

The suite passes on a machine with only Python and a C compiler, as an ordinary user: a
test that needs more says so with one of these markers (a test whose expectation is a
confinement guarantee asks for that guarantee, which holds only in some tiers):

- ``needs_root(why)``: the judge runs as root;
- ``needs_bwrap``: bubblewrap is installed and works here (the judge's own probe);
- ``needs_cgroups(why)``: the judge can make cgroups for its game slots;
- ``needs_toolchain(word)``: a language's toolchain, by the table's key or its command
  (``"cpp"`` or ``"g++"``), found as the judge finds it; or another program the judge
  looks for on PATH (``"musl-gcc"``);
- ``needs_chromium``: Chromium, chromedriver and Selenium, for the report in a browser;
- ``needs_guarantee(key, ...)``: one of these guarantees (`judge.sandbox.tiers.GUARANTEES`)
  holds in the tier of the test's ``mode`` parameter (else of ``auto``); two markers ask
  for both.

A test that takes long (a cluster, a league, every toolchain, a fresh install) is marked
``slow``: the README's test command leaves them out (``-m "not slow"``) to stay within a few
minutes, and ``python -m pytest -m slow`` runs them, as CI does after it.

With ``JUDGE_TEST_TIMEOUT=S`` (CI sets it) a test still running after S seconds fails, with
the stacks of all threads on stderr: a hang costs one test, not the whole run.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import pytest

# every entry point of the judge imports the kinds, which lets the store read a run of any
# kind; a test that opens a Store itself gets the same, run alone or in the suite
import judge.kinds  # noqa: F401,E402

#: where the browser tests find Chromium and its driver
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

MARKERS = {
    "needs_root": "needs_root(why): skipped unless the judge runs as root",
    "needs_bwrap": "needs_bwrap: skipped unless bubblewrap is installed and works here",
    "needs_cgroups": "needs_cgroups(why): skipped unless the judge can make cgroups here",
    "needs_toolchain": "needs_toolchain(word): skipped unless that language's toolchain (a "
                       "key of the language table or its command) or program is here",
    "needs_chromium": "needs_chromium: skipped unless Chromium, chromedriver and Selenium "
                      "are here",
    "needs_guarantee": "needs_guarantee(key, ...): skipped unless one of these confinement "
                       "guarantees holds in the tier of the test's mode (else auto)",
}


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS.values():
        config.addinivalue_line("markers", line)
    config.addinivalue_line("markers", "slow: takes long; left out of the README's test "
                                       "command, run by `-m slow` (CI runs both)")


def _why(mark: pytest.Mark, what: str) -> str:
    why = mark.args[0] if mark.args else mark.kwargs.get("why", "")
    return f"{what}: {why}" if why else what


def missing_toolchain(word: str) -> str | None:
    """Why the toolchain of language `word` (its key or its command) or the program `word`
    is not here, or None when it is."""
    from judge.sandbox.languages import Table

    for lang in Table().languages.values():  # (the shipped table)
        if word in (lang.key, (lang.compile or lang.run)[0]):
            if lang.installed():
                return None
            return f"no {lang.name} toolchain here: install {lang.package}"
    return None if shutil.which(word) else f"no {word} here"


def missing_chromium() -> str | None:
    """Why the report cannot be opened in a real browser here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file():
            return f"{path} is not installed"
    return None


def missing_guarantee(keys: tuple[str, ...], mode: str = "auto") -> str | None:
    """Why none of the guarantees `keys` holds in the tier of `mode` here (the tier's own
    warnings, which say how to get them), or None when one does."""
    from judge.games.base import InputError
    from judge.sandbox.tiers import GUARANTEES, tier_for

    known = dict(GUARANTEES)
    unknown = [key for key in keys if key not in known]
    if not keys or unknown:
        raise ValueError(f"needs_guarantee: not guarantees: {unknown or 'none given'} "
                         f"(known: {', '.join(known)})")
    try:
        tier = tier_for(mode)
    except InputError as exc:
        return str(exc)
    if any(tier.holds()[key] for key in keys):
        return None
    said = [line for line in tier.warnings()
            if any(line.startswith(f"not guaranteed here: {known[key]} (") for key in keys)]
    return f"tier {tier.name} (sandbox {mode}): {'; '.join(said)}"


def missing(mark: pytest.Mark, item: pytest.Item) -> str | None:
    """Why `item` is skipped here for its marker `mark` (None: it runs)."""
    if mark.name == "needs_root":
        return None if os.geteuid() == 0 else _why(mark, "needs root")
    if mark.name == "needs_bwrap":
        from judge.sandbox.tiers import bwrap_path

        return None if bwrap_path() else "needs bubblewrap (not installed or not working here)"
    if mark.name == "needs_cgroups":
        from judge.sandbox.slots import cgroups_here

        return None if cgroups_here() else _why(mark, "needs cgroups the judge can make (a "
                                                      "root judge)")
    if mark.name == "needs_toolchain":
        return missing_toolchain(*mark.args)
    if mark.name == "needs_chromium":
        return missing_chromium()
    if mark.name == "needs_guarantee":
        params = getattr(item, "callspec", None)
        mode = params.params.get("mode", "auto") if params is not None else "auto"
        return missing_guarantee(mark.args, mode)
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for mark in item.iter_markers():
            if mark.name in MARKERS:
                reason = missing(mark, item)
                if reason is not None:
                    item.add_marker(pytest.mark.skip(reason=reason))
                    break


@pytest.fixture(autouse=True, scope="session")
def private_cache_dir():
    """Keep the user's cache untouched: every table of the test run lives in a temp dir."""
    with tempfile.TemporaryDirectory(prefix="judge-cache-") as path:
        old = os.environ.get("JUDGE_CACHE_DIR")
        os.environ["JUDGE_CACHE_DIR"] = path
        yield path
        if old is None:
            os.environ.pop("JUDGE_CACHE_DIR", None)
        else:
            os.environ["JUDGE_CACHE_DIR"] = old


@pytest.fixture(autouse=True)
def deadline():
    """Fail a test that runs past ``JUDGE_TEST_TIMEOUT`` seconds (unset: no limit)."""
    limit = float(os.environ.get("JUDGE_TEST_TIMEOUT") or 0)
    if limit <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: object) -> None:
        faulthandler.dump_traceback(all_threads=True)
        pytest.fail(f"the test ran past JUDGE_TEST_TIMEOUT ({limit:g} s)")

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
