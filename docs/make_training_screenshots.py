"""The README's Training-page screenshots, in headless Chromium.

python docs/make_training_screenshots.py [FOLDER [PROBE]]
    # FOLDER: checkpoints with a history (default: the shipped ones, as the page opens on them)
    # PROBE: text of the probe sentence to show (default: the page's own choice)
    # writes docs/training-early.png, docs/training-late.png and docs/training-live.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "classroom"))
from dashboard_latency import streamlit  # noqa: E402

DRAWN = "document.querySelectorAll('.js-plotly-plot .heatmaplayer').length >= {n}"


def pick(page, label: str, text: str) -> None:
    """Choose the option of selectbox ``label`` that contains ``text``."""
    page.get_by_label(label).click()
    page.keyboard.type(text)  # the list is long and drawn in part: filter it
    page.get_by_role("option").filter(has_text=text).first.click()
    page.wait_for_timeout(2500)


def main(folder: str | None = None, probe: str | None = None) -> None:
    env = {"ATTNVIZ_CHECKPOINTS": folder, "OMP_NUM_THREADS": "1"} if folder else {}
    with sync_playwright() as p, streamlit(ROOT / "dashboard.py", env) as url:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1150})
        page.goto(url)
        page.get_by_text("Training", exact=True).click(timeout=120_000)
        page.wait_for_function(DRAWN.format(n=2), timeout=120_000)
        if probe:
            pick(page, "Probe sentence", probe)
        slider = page.get_by_role("slider").first
        for key, name in (("ArrowRight", "early"), ("End", "late")):
            slider.focus()
            slider.press(key)
            page.wait_for_timeout(3000)
            page.get_by_text("Training time").scroll_into_view_if_needed()
            page.mouse.wheel(0, -80)
            page.wait_for_timeout(800)
            page.screenshot(path=ROOT / "docs" / f"training-{name}.png")
        pick(page, "Toy language", "reversed")
        page.get_by_role("button", name="Train").click()
        page.get_by_text("trained, epoch").wait_for(timeout=180_000)
        page.wait_for_timeout(2500)
        page.get_by_text("Training sentences").scroll_into_view_if_needed()
        page.mouse.wheel(0, 350)
        page.wait_for_timeout(800)
        page.screenshot(path=ROOT / "docs" / "training-live.png")
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
