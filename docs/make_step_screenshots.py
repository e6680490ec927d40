"""The README's screenshots of the step-by-step view, in headless Chromium, on the shipped
checkpoints:

    python docs/make_step_screenshots.py
    # writes docs/step-reveal.png, step-numbers.png, what-if-word.png, what-if-attention.png
    # and compare-forced.png
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "classroom"))
sys.path.insert(0, str(ROOT / "docs"))
from dashboard_latency import streamlit  # noqa: E402
from make_screenshot import typed  # noqa: E402

SENTENCE = "He bought a red car and a small house."
SETTLE = 2500  # ms for a rerun's charts to draw


def shot(page, name: str, anchor: str, below: int = -60) -> None:
    """A viewport screenshot with the text ``anchor`` near the top, ``below`` pixels down."""
    page.get_by_text(anchor).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.mouse.wheel(0, below)
    page.wait_for_timeout(800)
    page.screenshot(path=ROOT / "docs" / f"{name}.png")


def toggle(page, label: str) -> None:
    page.locator('[data-testid="stCheckbox"]').filter(has_text=label).locator("label").click()


def pick(page, option: str) -> None:
    """Choose the radio option ``option``."""
    page.locator('[data-testid="stRadio"] label').filter(has_text=option).first.click()


def choose(page, label: str, option: str) -> None:
    """Choose ``option`` in the selectbox ``label``."""
    box = page.get_by_label(label, exact=True)
    box.scroll_into_view_if_needed()
    box.click()
    page.keyboard.type(option)
    page.keyboard.press("Enter")


def main() -> None:
    env = {"ATTNVIZ_CHECKPOINTS": str(ROOT / "checkpoints"), "OMP_NUM_THREADS": "1"}
    with sync_playwright() as p, streamlit(ROOT / "dashboard.py", env) as url:
        browser, page = typed(p, url, SENTENCE, 1100)
        slider = page.get_by_role("slider").first
        for _ in range(3):  # step 4
            slider.focus()
            slider.press("ArrowRight")
            page.wait_for_timeout(SETTLE)
        shot(page, "step-reveal", "The output so far")
        toggle(page, "Show the numbers of this step")
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "step-numbers", "Step 4: writing", 520)
        toggle(page, "Show the numbers of this step")
        slider.focus()
        slider.press("ArrowLeft")
        slider.press("ArrowLeft")  # step 2
        page.wait_for_timeout(SETTLE)
        choose(page, "What if…", "Another word here")
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "what-if-word", "Continue the output of", -140)
        choose(page, "What if…", "Attention elsewhere")
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "what-if-attention", "Edit the attention of", -140)
        pick(page, "Bahdanau vs Luong")
        page.wait_for_timeout(SETTLE)
        forced = page.get_by_role("button", name=re.compile("^Decode both on luong"))
        if forced.count():  # the outputs differ: decode both on Luong's to compare cells
            forced.first.click()
            page.wait_for_timeout(SETTLE * 2)
        shot(page, "compare-forced", " minus ")
        browser.close()


if __name__ == "__main__":
    main()
