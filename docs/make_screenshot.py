"""The README's dashboard screenshot: the shipped checkpoints in headless Chromium, as a new
visitor first sees them (the opening example translated and shown finished, nothing typed).

python docs/make_screenshot.py     # writes docs/dashboard.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "classroom"))
from dashboard_latency import DRAWN, streamlit  # noqa: E402

from attnviz_ui.pages.sentence_inputs import EXAMPLES  # noqa: E402


def typed(p, url: str, sentence: str, height: int):
    """A headless Chromium browser on the dashboard at ``url`` with ``sentence`` typed and
    both heatmaps drawn; returns (browser, page)."""
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
    page = browser.new_page(viewport={"width": 1500, "height": height})
    page.goto(url)
    box = page.get_by_label("English sentence")
    box.wait_for(timeout=120_000)
    box.fill(sentence)
    box.press("Enter")
    page.wait_for_function(DRAWN, arg=sentence.split()[0], timeout=120_000)
    return browser, page


def main() -> None:
    with sync_playwright() as p, streamlit(ROOT / "dashboard.py", {}) as url:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1250})
        page.goto(url)
        page.wait_for_function(DRAWN, arg=EXAMPLES["en"][0].split()[0], timeout=120_000)
        page.wait_for_timeout(1500)
        page.mouse.move(800, 600)  # over the page, not the sidebar, so that the wheel scrolls it
        page.mouse.wheel(0, 640)
        page.wait_for_timeout(800)
        page.screenshot(path=ROOT / "docs" / "dashboard.png")
        browser.close()


if __name__ == "__main__":
    main()
