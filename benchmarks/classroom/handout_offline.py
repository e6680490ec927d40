"""A handout's pages in real Chromium from file://, the network off (an offline context, and
every request but file:// aborted): for each of the first --pages pages, whether both heatmaps
drew, whether the slider moved both frames, and every request the page made.

    python benchmarks/classroom/handout_offline.py DIR [--pages 8]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

FRAMES = (
    "() => [...document.querySelectorAll('.heatmap.js-plotly-plot')].map(g => "
    "[g.layout.shapes[0].y0 + 0.5, g.querySelectorAll('.heatmaplayer image').length])"
)


def check(page, url: str) -> dict:
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=30_000)
    drawn = page.evaluate(FRAMES)
    page.eval_on_selector("#step", "s => { s.value = 1; s.dispatchEvent(new Event('input')); }")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    moved = page.evaluate(FRAMES)
    return {
        "page": url.rsplit("/", 1)[1],
        "heatmaps_drawn": sum(images >= 1 for _, images in drawn),
        "frames_before": [row for row, _ in drawn],
        "frames_after": [row for row, _ in moved],
        "seconds": round(time.perf_counter() - t0, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--pages", type=int, default=8)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    pages = sorted(Path(args.folder).resolve().glob("sentence-*.html"))[: args.pages]
    requests, errors = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True)
        context = browser.new_context(offline=True)

        def route(r):
            requests.append(r.request.url)
            r.continue_() if r.request.url.startswith("file://") else r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        results = [check(page, path.as_uri()) for path in pages]
        browser.close()
    for r in results:
        print(json.dumps(r))
    outside = [u for u in requests if not u.startswith("file://")]
    print(json.dumps({"pages": len(results), "requests": len(requests),
                      "requests_not_file": outside, "page_errors": errors}))  # fmt: skip


if __name__ == "__main__":
    main()
