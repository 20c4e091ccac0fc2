"""Writes 8 MiB to stderr, then plays well."""

import sys

import first_pit

chunk = "x" * 1023 + "\n"


def flood() -> None:
    """Write the flood to stderr."""
    for _ in range(8192):
        sys.stderr.write(chunk)


flood()
first_pit.play()
