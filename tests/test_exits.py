"""The exit statuses: one enum in the code, and the README's table lists each of them."""

from __future__ import annotations

import re
from pathlib import Path

from judge.exits import ExitStatus

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_lists_every_exit_status_and_no_other() -> None:
    text = (ROOT / "README.md").read_text()
    table = text[text.index("### Exit status"):].split("\n\n")[1]
    listed = {int(n) for row in table.splitlines()[2:]
              for n in re.findall(r"\d+", row.split("|")[1])}
    assert listed == {int(s) for s in ExitStatus}
