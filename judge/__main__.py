"""`python -m judge` runs the command line."""

import sys

from judge.cli import console

sys.exit(console())
