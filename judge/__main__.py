"""`python -m judge` runs the command line."""

import sys

from judge.cli import main

sys.exit(main())
