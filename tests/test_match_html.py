"""`judge match --format html` and `judge show MATCH --format html`: one self-contained page
in the style of the report, with the bots' text escaped."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_narrow import ROOT, judge

#: a folder name a browser would take for markup, were it not escaped
HOSTILE = "<img src=x onerror=alert(1)>"


def test_a_match_is_a_self_contained_page_with_its_decision_and_games(tmp_path: Path):
    (tmp_path / HOSTILE).mkdir()
    shutil.copy(ROOT / "bots/nim/greedy.py", tmp_path / HOSTILE / "main.py")
    out = judge("match", "--game", "nim", "--max-games", "6", "--db", "m.db", "--format",
                "html", f"{HOSTILE}/main.py", str(ROOT / "bots/nim/random.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    page = out.stdout
    assert page.startswith("<!DOCTYPE html>") or page.lstrip().lower().startswith("<!doctype")
    assert 'id="match-table"' in page and 'id="decision"' in page
    assert "no decision" in page  # 6 games decide nothing
    assert len(re.findall(r'<tr data-game="\d+"', page)) == 6
    assert len(re.findall(r'<script type="application/json" id="game-\d+"', page)) == 6
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=["\']?https?:', page)
    shown = judge("show", "1", "--db", "m.db", "--format", "html", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count('<tr data-game="') == 6


def test_a_nim_batch_grading_is_a_self_contained_page_with_every_line(tmp_path: Path):
    from test_nimbatch import GOOD

    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "hostile.py").write_text(f'print("{HOSTILE}")\n')
    out = judge("nim-batch", "--format", "html", "--input", str(tmp_path / "nim.txt"),
                "good.py", "hostile.py", cwd=_with_input(tmp_path))
    assert out.returncode == 0, out.stderr
    page = out.stdout
    assert 'id="program-table"' in page
    assert re.search(r'data-program="good.py" data-correct="3" data-cases="3"', page)
    assert re.search(r'data-program="hostile.py" data-correct="0" data-cases="3"', page)
    assert len(re.findall(r'<tr class="r-(win|loss)" data-line="\d+"', page)) == 6
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=["\']?https?:', page)


def _with_input(folder: Path) -> Path:
    """`folder` with a nim.txt of three data sets (one lost for the mover)."""
    (folder / "nim.txt").write_text("3\n3 1 2 3\n2 4 5\n1 7\n")
    return folder
