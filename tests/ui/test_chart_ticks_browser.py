"""Every number on a chart's axis says its value (issue 74): Bahdanau vs Luong's weight axis once
put its ticks at 0.25 and 0.75 and labelled them "0.3" and "0.8". In real Chromium, each view of
the sentence page and the Training page: every tick of every numeric axis of every Plotly chart
(its colour bars too) and Vega-Lite chart (their legends too), its label read as a number, equals
the value the tick stands at.

One server on the tiny models of tests/ui/conftest.py (with a model without attention, for Why
attention); skipped without Chromium and Playwright, as tests/ui/test_browser.py is.
"""

from __future__ import annotations

import math
import re

import pytest

from .browser_helpers import opened, serve, settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Each tick of a numeric axis drawn on the page: [chart, axis, value, label]. Plotly binds each
# tick's group to its data ({x: value, text}); a category axis's x is a position, so only linear
# axes count (a colour bar's is). Vega binds each label to its item, whose datum holds the value:
# a number on a quantitative axis or legend, a word on a band axis.
TICKS = """() => {
  const out = [];
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {
    if (!gd._fullLayout || !gd.checkVisibility()) continue;
    for (const tick of gd.querySelectorAll('g.xtick, g.ytick, g[class*="cb"][class$="tick"]')) {
      const d = tick.__data__, text = tick.querySelector('text');
      if (!d || !text || typeof d.x !== 'number') continue;
      let axis = 'colorbar';
      const subplot = tick.closest('g.subplot');
      if (subplot) {
        const [, x, y] = /^(x\\d*)(y\\d*)$/.exec(subplot.classList[1]) || [];
        axis = (tick.classList.contains('xtick') ? x : y || '').replace(/^(.)/, '$1axis');
        if (gd._fullLayout[axis]?.type !== 'linear') continue;
      }
      out.push(['plotly', axis, d.x, text.textContent]);
    }
  }
  for (const svg of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')) {
    if (!svg.checkVisibility()) continue;
    for (const text of svg.querySelectorAll('.role-axis-label text, .role-legend-label text')) {
      const datum = text.__data__?.datum;
      if (datum && typeof datum.value === 'number')
        out.push(['vega', text.closest('.role-axis, .role-legend').getAttribute('aria-label')
          || 'legend', datum.value, text.textContent]);
    }
  }
  return out;
}"""
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def _number(label: str) -> float | None:
    """A tick's label as a number ("−0.5", "1,000", "20%" as 0.2); None for a label that is
    not one (a bucket's "1–5", a colour bar's "+max")."""
    text = label.strip().replace("\u2212", "-").replace(",", "").replace("\u2009", "")
    percent = text.endswith("%")
    text = text.removesuffix("%")
    if not NUMBER.fullmatch(text):
        return None
    return float(text) / 100 if percent else float(text)


def _wrong(where: str, ticks: list) -> tuple[int, list[str]]:
    """How many ticks have a number for a label, and those whose label is not their value: a
    label shows its value itself, not rounded (0.25 as "0.25", never "0.3")."""
    read = [(chart, axis, value, label, _number(label)) for chart, axis, value, label in ticks]
    numbered = [r for r in read if r[4] is not None]
    wrong = [
        f"{where}: a {chart} tick at {value} labelled “{label}” ({axis})"
        for chart, axis, value, label, shown in numbered
        if not math.isclose(shown, value, rel_tol=1e-9, abs_tol=1e-12)
    ]
    return len(numbered), wrong


@pytest.fixture(scope="module")
def server(chromium, fixed_folder, tmp_path_factory):
    yield from serve(fixed_folder, tmp_path_factory.mktemp("logs"))


def test_every_numeric_tick_label_is_its_value(server):
    checked, found = {}, []
    with opened(server, "en", 1400, 900) as page:
        box = page.get_by_label("English sentence")
        box.wait_for(timeout=90_000)
        box.fill("The red cat sees a dog.")
        box.press("Enter")
        settle(page)
        main = page.get_by_test_id("stMain")
        views = main.get_by_role("radiogroup").nth(1).locator("label")
        for k in range(views.count()):
            views.nth(k).click()
            settle(page)
            checked[views.nth(k).inner_text()], wrong = _wrong(
                views.nth(k).inner_text(), page.evaluate(TICKS)
            )
            found += wrong
        main.get_by_role("radiogroup").first.get_by_text("Training", exact=True).click()
        settle(page)
        checked["Training"], wrong = _wrong("Training", page.evaluate(TICKS))
        found += wrong
    assert not found, "\n".join(found)
    # Each chart the views draw was read: the grids' colour bars, the weights' bars, the curves.
    for where in ("Step by step", "Bahdanau vs Luong", "Model cards", "Training"):
        assert checked[where] >= 3, f"{where}: {checked[where]} numeric ticks read ({checked})"
    print(checked)
