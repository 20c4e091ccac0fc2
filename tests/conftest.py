"""Shared test set-up: solved tables go to a private cache directory."""

from __future__ import annotations

import os
import tempfile

import pytest


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
