"""Plain-HTML pieces of the pages, drawn with ``st.html``: a small table, tokens shaded by a
value, and a step's attention weights as bars. A step change redraws them as text, where a
chart would be built anew by its library. The HTML comes from templates (``templates/``, named
for each widget) with autoescape on: what a user typed is always escaped."""

from __future__ import annotations

import numpy as np

from attnviz.i18n import gettext as _
from attnviz.plots.heatmaps import wide_char
from attnviz.plots.tables import Table

from .templates import render


def html_table(table: Table) -> str:
    """A small table as plain HTML: each cell escaped, numbers to three decimals, True as ✓,
    the headers in the reader's language. Far lighter for the browser than an interactive
    dataframe, or than markdown it must parse, for a handful of rows redrawn at every step."""

    def cell(value) -> str:
        if isinstance(value, bool | np.bool_):
            return "✓" if value else ""
        if isinstance(value, float | np.floating):
            return f"{value:.3f}"
        return str(value)

    columns = [_(str(c)) for c in table.columns]
    rows = [[cell(v) for v in row] for row in table.rows]
    return render("html_table", columns=columns, rows=rows)


BLUE = "31, 119, 180"  # the heatmaps' blue, as an rgba() colour's first three numbers


def shaded_tokens(tokens: list[str], values: np.ndarray, rgb: str = BLUE) -> str:
    """HTML spans, each token's background as dark as its value in [0, 1]. Tokens are
    escaped: what a user typed is never rendered as markup."""
    spans = [
        (token, f"{value:.2f}", "white" if value > 0.55 else "black")
        for token, value in zip(tokens, np.clip(np.asarray(values, dtype=float), 0, 1), strict=True)
    ]
    return render("shaded_tokens", spans=spans, rgb=rgb)


LEVEL_BARS = 10  # up to this many bars, a short word is written level: it fits its bar
# The bars' full height, px: lower above SHORT_BARS words, whose words stand upright under them,
# so that at 1024×768 a 25-word sentence's bars stay on the screen with its grid's framed row
# (tests/ui/test_layout_browser.py).
WELL_PX, LONG_WELL_PX, SHORT_BARS = 150, 115, 15


def _orientation(token: str, bars: int) -> str:
    """How a bar's word is written: level when it is short (a Chinese character counts two) and
    the bars few, so that it fits its bar; else down the bar, one line wide, a Chinese word
    upright rather than on its side. Never cut: the bar names the word whole."""
    wide = sum(2 if wide_char(c) else 1 for c in token)
    if wide <= 4 and bars <= LEVEL_BARS:
        return " level"
    return " upright" if wide > len(token) else ""


def weight_bars(tokens: list[str], weights: np.ndarray, scores: np.ndarray, rgb: str = BLUE) -> str:
    """A step's attention weights as bars over the source ``tokens``, in sentence order, on a
    0–1 scale; hover a bar for its weight and raw score. Plain HTML: a step change redraws
    it with the page's text, where a chart would be built anew by its library. Tokens are
    escaped."""
    hover = _("{word}: weight {w:.3f}, raw score {e:.3f}")
    bars = [
        (
            hover.format(word=token, w=w, e=e),
            f"{100 * w:.1f}",
            f"{0.3 + 0.7 * w:.2f}",
            _orientation(token, len(tokens)),
            token,
        )
        for token, w, e in zip(tokens, np.clip(weights, 0, 1), scores, strict=True)
    ]
    note = _("attention weight (bar height: 0 to 1)")
    well = WELL_PX if len(tokens) <= SHORT_BARS else LONG_WELL_PX
    return render("weight_bars", note=note, bars=bars, rgb=rgb, well=well)
