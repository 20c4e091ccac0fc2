"""A test that hangs (a read that never returns), for tests/test_conftest.py: not collected
by the suite (its name does not start with test_), run by path."""

import os


def test_hangs() -> None:
    read, _write = os.pipe()
    os.read(read, 1)
