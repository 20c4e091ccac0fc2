"""Exits with status 3 before reading anything."""

import sys

sys.exit(3)
