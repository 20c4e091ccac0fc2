#!/usr/bin/env python3
"""Take a screenshot of an HTML report with a game open, in headless Chromium (Selenium).

    python3 scripts/screenshot_report.py                      # a fresh demo run -> docs/report.png
    python3 scripts/screenshot_report.py --db R.db --run 3 --game 5 --step 2 --out shot.png

Without --db it grades bots/ioiwari/greedy.py on a few starts in a temporary database, then
opens the first game where a move lost the game, at that move. Needs chromium and
chromedriver (/usr/bin by default, or --chromium/--chromedriver) and `pip install selenium`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEMO_STARTS = ["2 2 2 2 4 4 4", "2 2 2 3 3 4 4", "4 4 4 2 2 2 2", "2 3 4 2 3 4 2",
               "3 3 3 3 3 3 2", "4 3 2 4 2 3 2"]


def browser(chromium: str, chromedriver: str, profile: str, width: int, height: int):
    """A headless Chromium driven by Selenium, with no network and a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def demo_run(folder: Path) -> tuple[Path, int]:
    """A small Ioiwari grading run of the greedy sample bot, in `folder`."""
    tests = folder / "starts.txt"
    tests.write_text("\n".join(DEMO_STARTS) + "\n")
    db = folder / "demo.db"
    subprocess.run([sys.executable, "-m", "judge", "run", "--game", "ioiwari", "--tests",
                    str(tests), "--db", str(db), "--jobs", "2", "--seed", "7",
                    "bots/ioiwari/greedy.py"], cwd=ROOT, check=True, capture_output=True)
    return db, 1


def lost_move(store, run_id: int) -> tuple[int, int]:
    """(game number, ply) of a move that lost a game (one after a few good moves, if there
    is such; else one that turned a win into a draw), else (1, 1)."""
    from judge.kinds import KINDS

    info = store.run(run_id)
    listed = [rec for rec, _ in KINDS[info.kind].numbered_games(info.plan,
                                                                  store.games(run_id))]
    changed = [(n, r) for n, rec in enumerate(listed, 1) for r in rec.review
               if r.changed_result]
    lost = [(n, r.ply) for n, r in changed if r.lost_game]
    later = [found for found in lost if found[1] >= 3]
    return (later or lost or [(n, r.ply) for n, r in changed] or [(1, 1)])[0]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", help="a results database (default: a fresh demo run)")
    p.add_argument("--run", type=int, default=1, help="the run in it (default 1)")
    p.add_argument("--game", type=int, help="the game to open (default: one with a lost move)")
    p.add_argument("--step", type=int, help="the step to show (default: the losing move)")
    p.add_argument("--out", default=str(ROOT / "docs" / "report.png"), help="the PNG to write")
    p.add_argument("--html", help="also keep the report page here")
    p.add_argument("--width", type=int, default=1400)
    p.add_argument("--height", type=int, default=1000)
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()

    from judge.html.report import render_report
    from judge.store import Store

    with tempfile.TemporaryDirectory(prefix="judge-shot-") as tmp:
        folder = Path(tmp)
        db, run_id = (Path(args.db), args.run) if args.db else demo_run(folder)
        store = Store(db, read_only=True)
        game, step = lost_move(store, run_id)
        game = args.game or game
        step = args.step if args.step is not None else step
        page = folder / "report.html"
        page.write_text(render_report(store, run_id), encoding="utf-8")
        if args.html:
            Path(args.html).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
        driver = browser(args.chromium, args.chromedriver, str(folder / "profile"),
                         args.width, args.height)
        try:
            driver.get(page.as_uri())
            driver.execute_script("window.judgeViewer.open(arguments[0], arguments[1]);",
                                  game, step)
            time.sleep(0.3)
            out = Path(args.out)
            out.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(out))
        finally:
            driver.quit()
    print(f"wrote {args.out} (run {run_id}, game {game}, step {step})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
