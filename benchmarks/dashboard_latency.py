"""The dashboard's answer times in headless Chromium, against a bare Streamlit page that draws
the same charts and computes nothing (bare_app.py):

- from pressing Enter to both heatmaps drawn;
- a step change: from moving the Step slider one step to the page drawn again (the
  dashboard redraws only its stepping fragment; the bare page reruns whole).

    python benchmarks/dashboard_latency.py [--checkpoints checkpoints] [--repeats 10]

Both pages are served at once and take turns. Each repeat opens a fresh page (a new
session) and types a sentence not typed before, so nothing comes from the translation cache;
the models stay loaded, as on a running server. Then it moves the slider forward step by
step. Prints the median milliseconds of each page and their ratios. Needs /usr/bin/chromium
and Playwright (scripts/install-test-deps.sh).
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
DRAWN = (  # both heatmaps show the sentence typed (its first word), not the one before
    "(first) => [...document.querySelectorAll('.js-plotly-plot')].filter(p => "
    "p.querySelector('.heatmaplayer') && [...p.querySelectorAll('.xtick text')]"
    ".some(t => t.textContent === '1:' + first)).length >= 2"
)
STEPPED = (  # the caption of the new step is there, and nothing is still being redrawn
    "(n) => document.body.innerText.includes(`Step ${n}: writing`) && "
    "document.querySelectorAll('[data-stale=\"true\"]').length === 0"
)


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
    streamlit.server_pid = proc.pid  # for a caller that measures the server
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


def measure(browser, url: str, sentences: list[str], moves: int = 0) -> tuple[list, list]:
    """Seconds from Enter to both heatmaps, per sentence; then seconds per step change, for
    ``moves`` steps of each sentence."""
    enter, steps = [], []
    for sentence in sentences:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=120_000)
        box.fill(sentence)
        t0 = time.perf_counter()
        box.press("Enter")
        page.wait_for_function(DRAWN, arg=sentence.split()[0], timeout=120_000, polling="raf")
        enter.append(time.perf_counter() - t0)
        slider = page.get_by_role("slider").first
        for n in range(2, 2 + moves):
            slider.focus()
            t0 = time.perf_counter()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(STEPPED, arg=n, timeout=120_000, polling="raf")
            steps.append(time.perf_counter() - t0)
        page.close()
    return enter, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoints", default=str(ROOT / "checkpoints"))
    ap.add_argument("--repeats", type=int, default=10, help=f"at most {len(SENTENCES) - 2}")
    ap.add_argument("--moves", type=int, default=3, help="step changes per sentence")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    warm, timed = SENTENCES[:2], SENTENCES[2 : 2 + a.repeats]
    times: dict[str, tuple[list, list]] = {"bare": ([], []), "dashboard": ([], [])}
    with (
        sync_playwright() as p,
        streamlit(ROOT / "benchmarks" / "bare_app.py", {}) as bare,
        streamlit(ROOT / "dashboard.py", {"ATTNVIZ_CHECKPOINTS": a.checkpoints}) as dashboard,
    ):
        browser = p.chromium.launch(executable_path=a.chromium, headless=True)
        urls = {"bare": bare, "dashboard": dashboard}
        for url in urls.values():
            measure(browser, url, warm, a.moves)  # load the models, warm the browser
        # Both servers run side by side and take turns, sentence by sentence (in alternating
        # order), so that a machine that speeds up or slows down during the run moves both.
        for k, sentence in enumerate(timed):
            for name in sorted(urls, reverse=k % 2 == 1):
                enter, steps = measure(browser, urls[name], [sentence], a.moves)
                times[name][0].extend(enter)
                times[name][1].extend(steps)
        browser.close()
    results = {name: [statistics.median(x) * 1000 for x in t] for name, t in times.items()}
    for name, (enter, step) in results.items():
        print(f"{name}_ms_to_heatmaps {enter:.0f}")
        print(f"{name}_ms_per_step_change {step:.0f}")
    print(f"ratio {results['dashboard'][0] / results['bare'][0]:.2f}")
    print(f"step_change_ratio {results['dashboard'][1] / results['bare'][1]:.2f}")


if __name__ == "__main__":
    main()
