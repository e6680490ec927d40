"""Handout pages in real Chromium, opened from file:// with the network off: the heatmaps draw
the Traces' tokens and weights, the slider moves both models' frames, bars and numbers, the
lesson's pages draw their pictures, and no request leaves the folder.

Needs Debian's ``chromium`` and Playwright for Python (``scripts/install-test-deps.sh``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz.cli.main import main
from attnviz.plots.heatmaps import labels
from attnviz.store.checkpoint import load

from ..helpers import CHROMIUM, tool_missing
from .handouts import SENTENCES

pytestmark = pytest.mark.browser

try:
    from playwright.sync_api import sync_playwright
except ModuleNotFoundError as error:
    if error.name != "playwright":
        raise
    tool_missing("Playwright for Python", module=True)

DRAWN = (  # what each model's heatmap draws, read back from the plotly graph on the page
    "() => [...document.querySelectorAll('.heatmap.js-plotly-plot')].map(g => ({"
    "z: g.data[0].z, x: g.layout.xaxis.ticktext, y: g.layout.yaxis.ticktext,"
    "frame: g.layout.shapes[0].y0 + 0.5, cells: g.querySelectorAll('.heatmaplayer image').length"
    "}))"
)
BARS = "() => [0, 1].map(i => document.getElementById('bars-' + i).data[0].y)"


@pytest.fixture(scope="module")
def offline_page():
    """A Chromium page offline, every request but file:// aborted; yields (page, requests)."""
    if not Path(CHROMIUM).exists():
        tool_missing(CHROMIUM)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        context = browser.new_context(offline=True)
        requests: list[str] = []

        def route(r):
            requests.append(r.request.url)
            r.continue_() if r.request.url.startswith("file://") else r.abort()

        context.route("**/*", route)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page, requests
        assert not errors
        browser.close()


def _move(page, step: int) -> None:
    page.eval_on_selector(
        "#step", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", step
    )
    page.wait_for_function("(v) => document.body.dataset.step === String(v)", arg=step)


@pytest.mark.parametrize("number", [1, 2])
def test_a_page_from_file_draws_the_traces_and_steps_both_models(handout, offline_page, number):
    folder, checkpoints = handout
    page, requests = offline_page
    requests.clear()
    url = (folder / f"sentence-0{number}.html").as_uri()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=30_000)
    traces = [load(p, precision="fp32").translate(SENTENCES[number - 1])
              for p in checkpoints.values()]  # fmt: skip
    drawn = page.evaluate(DRAWN)
    assert len(drawn) == 2
    for shown, trace in zip(drawn, traces, strict=True):
        assert shown["x"] == trace.src_tokens and shown["y"] == trace.tgt_tokens
        np.testing.assert_allclose(shown["z"], trace.weights, atol=1e-6)
        assert shown["frame"] == 0 and shown["cells"] == 1  # drawn, framed on the first step
    before = page.evaluate(BARS)
    last = max(len(t.tgt_tokens) for t in traces) - 1
    _move(page, 2)
    assert [d["frame"] for d in page.evaluate(DRAWN)] == [min(2, len(t.tgt_tokens) - 1)
                                                          for t in traces]  # fmt: skip
    after = page.evaluate(BARS)
    for bars, trace in zip(after, traces, strict=True):
        np.testing.assert_allclose(bars, trace.weights[2], atol=1e-6)
    assert after != before
    prob = page.locator("#formula-0 p").inner_text()
    assert f"{traces[0].probs[2]:.3f}" in prob
    _move(page, last)
    assert "current" in page.locator("#words-1 .token").nth(
        min(last, len(traces[1].tgt_tokens) - 1)).get_attribute("class")  # fmt: skip
    assert all(u.startswith("file://") for u in requests)
    assert {u.rsplit("/", 1)[1] for u in requests} == {f"sentence-0{number}.html", "plotly.min.js"}


PICTURE = (  # what a lesson page's picture draws: its first trace's labels, weights and cells
    "() => { const g = document.getElementById('picture'); return g && {"
    "x: g.data[0].x, z: Array.from(g._fullData[0].z, r => Array.from(r)),"
    "cells: g.querySelectorAll('.heatmaplayer image').length}; }"
)


def test_the_lesson_s_pages_draw_their_pictures_offline(handout, offline_page, tmp_path):
    _, checkpoints = handout
    (tmp_path / "lesson.txt").write_text(SENTENCES[0] + "\n")
    argv = ["handout", str(tmp_path / "lesson.txt"), "--out", str(tmp_path / "site"), "--lesson",
            "--precision", "fp32", "--priors", str(tmp_path / "none"),
            "--models", *map(str, checkpoints.values())]  # fmt: skip
    assert main(argv) == 0
    page, requests = offline_page
    requests.clear()
    traces = {n: load(p, precision="fp32").translate(SENTENCES[0]) for n, p in checkpoints.items()}
    drawn = {}
    for k in range(1, 7):
        page.goto((tmp_path / "site" / f"lesson-{k}.html").as_uri())
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        drawn[k] = page.evaluate(PICTURE)
    assert drawn[1] is None and drawn[4] is None and drawn[6] is None  # no model, or a table
    for k, name in ((2, "bahdanau"), (3, "dot"), (5, "dot")):
        assert drawn[k]["x"] == labels(traces[name].src_tokens) and drawn[k]["cells"] == 1
        np.testing.assert_allclose(drawn[k]["z"], traces[name].weights, atol=1e-6)
    assert all(u.startswith("file://") for u in requests)
