"""The real dashboard in a real browser: `streamlit run`, headless Chromium, a typed sentence.

Needs Debian's ``chromium`` (``scripts/install-test-deps.sh`` installs it) and Playwright for
Python, which drives it through ``/usr/bin/chromium`` (no browser download).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from attnviz_ui.sentence_page import EXAMPLES

ROOT = Path(__file__).parent.parent
CHROMIUM = os.environ.get("ATTNVIZ_CHROMIUM", "/usr/bin/chromium")
DRAWN = (  # both heatmaps show the sentence typed (its first word), not the opening example
    "(first) => [...document.querySelectorAll('.js-plotly-plot')].filter(p => "
    "p.querySelector('.heatmaplayer') && [...p.querySelectorAll('.xtick text')]"
    ".some(t => t.textContent === '1:' + first)).length >= 2"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(trained, tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser-checkpoints")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    port = _free_port()
    log = open(tmp_path_factory.mktemp("logs") / "streamlit.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard.py"),
         "--server.headless", "true", "--server.port", str(port),
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT,
        env={**os.environ, "ATTNVIZ_CHECKPOINTS": str(folder)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"streamlit did not start; see {log.name}")
        time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=30)
    log.close()


def _typed(p, server: str):
    """A browser on the dashboard with a sentence typed and both heatmaps drawn."""
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(server)
    box = page.get_by_label("English sentence")
    box.wait_for(timeout=60_000)
    box.fill("The red cat sees a dog.")
    box.press("Enter")  # the page opened on an example: wait for this sentence's heatmaps
    page.wait_for_function(DRAWN, arg="The", timeout=60_000)
    return browser, page


def test_the_first_page_draws_both_heatmaps_before_anything_is_typed(server):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(server)
        page.wait_for_function(DRAWN, arg=EXAMPLES[0].split()[0], timeout=60_000)
        assert page.get_by_label("English sentence").input_value() == EXAMPLES[0]
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()


def test_typing_a_sentence_draws_both_heatmaps_and_the_step_bars(server, tmp_path):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run scripts/install-test-deps.sh"
    with sync_playwright() as p:
        browser, page = _typed(p, server)
        heatmaps = page.locator(".js-plotly-plot .heatmaplayer")
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=60_000)
        page.wait_for_timeout(500)  # let the last charts settle before the screenshot
        page.screenshot(path=tmp_path / "dashboard.png", full_page=True)
        assert heatmaps.count() >= 2
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 2
        assert page.locator('[data-testid="stException"]').count() == 0
        assert (tmp_path / "dashboard.png").stat().st_size > 10_000
        browser.close()


def _written(page) -> list[tuple[int, int]]:
    """Per alignment heatmap: (output rows that show their word, all output rows); the hidden
    ones read "n:…"."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')]
            .filter(p => p.querySelector('.heatmaplayer') && p.querySelector('.ytick'))
            .map(p => [...p.querySelectorAll('.ytick text')].map(t => t.textContent))
            .map(ys => [ys.filter(y => !y.endsWith(':…')).length, ys.length])"""
    )


def test_the_view_reveals_one_word_per_step_and_play_walks_to_the_end(server):
    with sync_playwright() as p:
        browser, page = _typed(p, server)
        page.wait_for_timeout(500)
        start = _written(page)[:2]
        assert [shown for shown, _ in start] == [1, 1]  # step 1: one output word per model
        assert all(rows > 2 for _, rows in start)
        page.get_by_role("button", name="▶ Play").click()
        page.get_by_role("button", name="⏸ Pause").wait_for(timeout=30_000)
        # It walks on by itself, then stops on the last step and offers Play again.
        page.get_by_role("button", name="▶ Play").wait_for(timeout=60_000)
        page.wait_for_timeout(1000)
        assert all(shown == rows for shown, rows in _written(page)[:2])  # everything written
        assert page.locator('[data-testid="stException"]').count() == 0
        browser.close()
