"""From pressing Enter to both heatmaps drawn, in headless Chromium: the dashboard against a
bare Streamlit page that draws two plotly heatmaps and one altair chart (bare_app.py).

    python benchmarks/dashboard_latency.py [--checkpoints checkpoints] [--repeats 10]

Each repeat opens a fresh page (a new session) and types a sentence not typed before, so
nothing comes from the translation cache; the models stay loaded, as on a running server.
Prints the median milliseconds of each page and their ratio. Needs /usr/bin/chromium and
Playwright (scripts/install-test-deps.sh).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
SENTENCES = [
    "I am cold.",
    "Where is the station?",
    "She doesn't like apples.",
    "My brother bought a red car.",
    "We are going to the beach.",
    "Can you help me?",
    "The old man was reading a book.",
    "I have never seen such a house.",
    "Tom is waiting for you.",
    "It is raining again today.",
    "They live in a big city.",
    "Do you speak French?",
]
DRAWN = "document.querySelectorAll('.js-plotly-plot .heatmaplayer').length >= 2"


@contextmanager
def streamlit(app: Path, env: dict):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def measure(browser, url: str, sentences: list[str]) -> list[float]:
    times = []
    for sentence in sentences:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=120_000)
        box.fill(sentence)
        t0 = time.perf_counter()
        box.press("Enter")
        page.wait_for_function(DRAWN, timeout=120_000, polling="raf")
        times.append(time.perf_counter() - t0)
        page.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    ap.add_argument("--repeats", type=int, default=10, help=f"at most {len(SENTENCES) - 2}")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    warm, timed = SENTENCES[:2], SENTENCES[2 : 2 + a.repeats]
    results = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=a.chromium, headless=True)
        pages = {
            "bare": (ROOT / "benchmarks" / "bare_app.py", {}),
            "dashboard": (ROOT / "dashboard.py", {"ATTNVIZ_CHECKPOINTS": a.checkpoints}),
        }
        for name, (app, env) in pages.items():
            with streamlit(app, env) as url:
                measure(browser, url, warm)  # load the models, warm the browser
                results[name] = statistics.median(measure(browser, url, timed)) * 1000
                print(f"{name}_ms_to_heatmaps {results[name]:.0f}", flush=True)
        browser.close()
    print(f"ratio {results['dashboard'] / results['bare']:.2f}")


if __name__ == "__main__":
    main()
