"""docs/dashboard.md's picture of the Natural vs taught view, in headless Chromium, on the shipped
checkpoints: luong-pieces beside luong-guided (taught from it) on the opening example, from the
view's Model choice down to what teaching changed. It reads whatever checkpoints/ holds, so after
the checkpoints are retrained one command draws it again:

    python docs/make_taught_screenshot.py     # writes docs/taught-view.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "classroom"))
from dashboard_latency import DRAWN, OPENING, SETTLED, WAIT, streamlit  # noqa: E402

NATURAL, TAUGHT = "luong-pieces", "luong-guided"
# The pair is drawn (its difference's title) with both AERs, and nothing is left to run.
PAIR_DRAWN = f"""(title) => [...document.querySelectorAll('.js-plotly-plot .gtitle')]
    .some(t => t.textContent === title)
  && document.querySelectorAll('[data-testid="stMetric"]').length === 2 && ({SETTLED})()"""


def main() -> None:
    env = {"ATTNVIZ_CHECKPOINTS": str(ROOT / "checkpoints"), "OMP_NUM_THREADS": "1"}
    with sync_playwright() as p, streamlit(ROOT / "dashboard.py", env) as url:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        # Tall enough that the whole view lies in the window, unscrolled.
        page = browser.new_page(viewport={"width": 1500, "height": 3000})
        page.goto(url)
        page.wait_for_function(DRAWN, arg=OPENING.split()[0], timeout=WAIT)
        main = page.get_by_test_id("stMain")
        main.get_by_text("Natural vs taught", exact=True).click()
        main.get_by_text(f"Right: {NATURAL}", exact=True).click()
        page.wait_for_function(PAIR_DRAWN, arg=f"{TAUGHT} minus {NATURAL}", timeout=WAIT)
        top = main.get_by_test_id("stRadio").filter(has_text=f"Right: {NATURAL}").bounding_box()
        bottom = main.get_by_test_id("stMarkdown").filter(has_text="What teaching changed")
        end = bottom.bounding_box()
        column = page.get_by_test_id("stMainBlockContainer").bounding_box()
        clip = dict(  # the main column, right of the sidebar's edge
            x=column["x"] + 2, y=top["y"] - 16, width=column["width"] - 2,
            height=end["y"] + end["height"] + 16 - (top["y"] - 16),
        )  # fmt: skip
        page.screenshot(path=ROOT / "docs" / "taught-view.png", clip=clip)
        browser.close()


if __name__ == "__main__":
    main()
