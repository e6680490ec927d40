"""The README's screenshots of the step-by-step view, in headless Chromium, on the shipped
checkpoints:

    python docs/make_step_screenshots.py
    # writes docs/step-reveal.png, step-numbers.png, what-if-word.png, what-if-attention.png
    # and compare-forced.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from dashboard_latency import streamlit  # noqa: E402

SENTENCE = "He bought a red car and a small house."
SETTLE = 2500  # ms for a rerun's charts to draw


def shot(page, name: str, anchor: str) -> None:
    """A viewport screenshot with the text ``anchor`` near the top."""
    page.get_by_text(anchor).first.scroll_into_view_if_needed()
    page.get_by_text(anchor).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.mouse.wheel(0, -60)
    page.wait_for_timeout(800)
    page.screenshot(path=ROOT / "docs" / f"{name}.png")


def main() -> None:
    env = {"ATTNVIZ_CHECKPOINTS": str(ROOT / "checkpoints"), "OMP_NUM_THREADS": "1"}
    with sync_playwright() as p, streamlit(ROOT / "dashboard.py", env) as url:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.goto(url)
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=120_000)
        box.fill(SENTENCE)
        box.press("Enter")
        page.wait_for_function(
            "document.querySelectorAll('.js-plotly-plot .heatmaplayer').length >= 2",
            timeout=120_000,
        )
        slider = page.get_by_role("slider").first
        for _ in range(3):  # step 4
            slider.focus()
            slider.press("ArrowRight")
            page.wait_for_timeout(SETTLE)
        shot(page, "step-reveal", "Step")
        page.get_by_text("Show the numbers of this step").click()
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "step-numbers", "score e")
        page.get_by_text("Show the numbers of this step").click()
        slider.focus()
        slider.press("ArrowLeft")
        slider.press("ArrowLeft")  # step 2: "a" (Bahdanau) and "acheta" (Luong)
        page.wait_for_timeout(SETTLE)
        page.get_by_text("Another word here").click()
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "what-if-word", "Continue the output of")
        page.get_by_text("Attention elsewhere").click()
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "what-if-attention", "Edit the attention of")
        page.get_by_text("Bahdanau vs Luong").click()
        page.wait_for_timeout(SETTLE)
        page.get_by_role("button", name="Decode both on luong's output").click()
        page.wait_for_timeout(SETTLE * 2)
        shot(page, "compare-forced", "bahdanau minus luong")
        browser.close()


if __name__ == "__main__":
    main()
