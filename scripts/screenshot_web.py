#!/usr/bin/env python3
"""Screenshots of the browser app's play page for each game, on a phone and a desktop.

    python3 scripts/screenshot_web.py     # docs/web/GAME-390.png, GAME-1280.png, ioiwari-winby.png
    python3 scripts/screenshot_web.py --games nim --widths 390 --out /tmp/shots

Starts `judge serve` on a free port, opens /play/GAME against the optimal player in headless
Chromium (Selenium), plays the first move of the move list a few times (the computer
replies), and saves the page from its top to the end of the value chart (a phone keeps the
desktop's order: board, moves, chart). The PNGs are made smaller with pngquant where it is
installed. Needs chromium and chromedriver (/usr/bin by default, or --chromium and
--chromedriver) and `pip install selenium`.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scripts.screenshot_report import browser  # noqa: E402

#: each game and how many of the person's moves are played before the picture
GAMES = {"ioiwari": 3, "nim": 2, "chopsticks": 3, "tictactoe": 2, "connect4": 3, "octal": 2}
#: the window's height at each width (a phone's is an iPhone's 390 x 844)
HEIGHTS = {390: 844, 1280: 900}


@contextmanager
def serving(checkout: Path = ROOT, env: dict[str, str] | None = None) -> Iterator[str]:
    """`judge serve` of `checkout`'s own code on a free port, with `env` added to the
    environment; yields its address."""
    proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0",
                             "--no-browser"], cwd=checkout, text=True,
                            env={**os.environ, "PYTHONPATH": str(checkout), **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            found = re.search(r"serving on (http://[^/\s]+)", line)
            if found:
                threading.Thread(target=proc.stdout.read, daemon=True).start()
                yield found.group(1)
                break
        else:
            raise SystemExit(f"judge serve of {checkout} did not start")
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)


#: the version of the page's last drawn answer once it is not busy and is not arguments[0]
DRAWN = """const v = document.getElementById('board').dataset.version;
return document.body.dataset.busy === '0' && v !== undefined && v !== arguments[0] ? v : null"""


def settled(driver, after: str | None = None) -> str:
    """Wait (60 s at most) until the page has drawn an answer newer than `after`."""
    from selenium.webdriver.support.ui import WebDriverWait

    return str(WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: d.execute_script(DRAWN, after)))


def shoot(driver, url: str, moves: int, width: int, out: Path, view: str = "") -> None:
    """The page at `url` after `moves` moves, `width` CSS pixels wide, down to the chart
    (in its view `view`, a button's id, when given)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": HEIGHTS.get(width, 900), "deviceScaleFactor": 1,
        "mobile": width < 700})
    driver.get(url)
    version = settled(driver)
    for _ in range(moves):
        driver.execute_script("document.querySelector('#moves [data-move]').click()")
        version = settled(driver, version)
    if view:
        driver.execute_script("document.getElementById(arguments[0]).click()", view)
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    bottom = driver.execute_script(
        "const r = document.querySelector('.chart-box').getBoundingClientRect();"
        "return Math.ceil(r.bottom + window.scrollY + 8)")
    height = max(HEIGHTS.get(width, 900), min(int(bottom), 2400))
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    out.write_bytes(base64.b64decode(shot["data"]))
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--strip", "--speed", "1",
                        "--quality", "60-90", "--output", str(out), str(out)], check=False)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    p.add_argument("--widths", nargs="+", type=int, default=[390, 1280])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "web", help="the folder")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="judge-shot-") as tmp, serving() as base:
        driver = browser(args.chromium, args.chromedriver, str(Path(tmp) / "profile"),
                         1280, 900)
        try:
            for game in args.games:
                for width in args.widths:
                    out = args.out / f"{game}-{width}.png"
                    shoot(driver, f"{base}/play/{game}?opponent=optimal", GAMES[game], width,
                          out)
                    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
            if "ioiwari" in args.games:  # the chart's second view, by the final difference
                out = args.out / "ioiwari-winby.png"
                shoot(driver, f"{base}/play/ioiwari?opponent=optimal", GAMES["ioiwari"],
                      max(args.widths), out, "view-winby")
                print(f"wrote {out} ({out.stat().st_size:,} bytes)")
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
