"""Plain-HTML pieces of the pages, drawn with ``st.html``: a small table, tokens shaded by a
value, and a step's attention weights as bars. A step change redraws them as text, where a
chart would be built anew by its library. What a user typed is always escaped."""

from __future__ import annotations

import html
import unicodedata

import numpy as np

from attnviz.i18n import gettext as _
from attnviz.plots.tables import Table


def html_table(table: Table) -> str:
    """A small table as plain HTML: each cell escaped, numbers to three decimals, True as ✓,
    the headers in the reader's language. Far lighter for the browser than an interactive
    dataframe, or than markdown it must parse, for a handful of rows redrawn at every step."""

    def cell(value) -> str:
        if isinstance(value, bool | np.bool_):
            return "✓" if value else ""
        if isinstance(value, float | np.floating):
            return f"{value:.3f}"
        return html.escape(str(value))

    style = ' style="border: 1px solid rgba(49, 51, 63, 0.2); padding: 4px 10px"'
    head = "".join(f"<th{style}>{html.escape(_(str(c)))}</th>" for c in table.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td{style}>{cell(v)}</td>" for v in row) + "</tr>" for row in table.rows
    )
    return f'<table style="border-collapse: collapse"><tr>{head}</tr>{rows}</table>'


BLUE = "31, 119, 180"  # the heatmaps' blue, as an rgba() colour's first three numbers


def shaded_tokens(tokens: list[str], values: np.ndarray, rgb: str = BLUE) -> str:
    """HTML spans, each token's background as dark as its value in [0, 1]. Tokens are
    escaped: what a user typed is never rendered as markup."""
    spans = []
    for token, value in zip(tokens, np.clip(np.asarray(values, dtype=float), 0, 1), strict=True):
        ink = "white" if value > 0.55 else "black"
        spans.append(
            f'<span title="{value:.2f}" style="background: rgba({rgb}, {value:.2f}); '
            f"color: {ink}; padding: 2px 5px; margin: 1px; border-radius: 4px; "
            f'display: inline-block">{html.escape(token)}</span>'
        )
    return '<div style="font-size: 1.05rem; line-height: 1.9rem">' + "".join(spans) + "</div>"


BARS_CSS = (  # the look of weight_bars, once per drawing rather than once per bar
    "<style>.attnviz-bars .row{display:flex;gap:1px;border-top:1px dashed rgba(49,51,63,.2)}"
    ".attnviz-bars .bar{flex:1 1 0;min-width:0;display:flex;flex-direction:column;"
    "align-items:center}.attnviz-bars .well{height:150px;width:72%;display:flex;"
    "align-items:flex-end;border-bottom:1px solid rgba(49,51,63,.4)}"
    ".attnviz-bars .word{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;"
    "font-size:.8rem;line-height:1.05;padding-top:4px}"
    ".attnviz-bars .level{writing-mode:horizontal-tb;transform:none}"
    ".attnviz-bars .upright{transform:none;text-orientation:upright}"
    ".attnviz-bars .note{font-size:.75rem;opacity:.7}</style>"
)


LEVEL_BARS = 10  # up to this many bars, a short word is written level: it fits its bar


def _orientation(token: str, bars: int) -> str:
    """How a bar's word is written: level when it is short (a Chinese character counts two) and
    the bars few, so that it fits its bar; else down the bar, one line wide, a Chinese word
    upright rather than on its side. Never cut: the bar names the word whole."""
    wide = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in token)
    if wide <= 4 and bars <= LEVEL_BARS:
        return " level"
    return " upright" if wide > len(token) else ""


def weight_bars(tokens: list[str], weights: np.ndarray, scores: np.ndarray, rgb: str = BLUE) -> str:
    """A step's attention weights as bars over the source ``tokens``, in sentence order, on a
    0–1 scale; hover a bar for its weight and raw score. Plain HTML: a step change redraws
    it with the page's text, where a chart would be built anew by its library. Tokens are
    escaped."""
    bars = []
    note = _("attention weight (bar height: 0 to 1)")
    hover = _("{word}: weight {w:.3f}, raw score {e:.3f}")
    for token, w, e in zip(tokens, np.clip(weights, 0, 1), scores, strict=True):
        word = html.escape(token)
        bars.append(
            f'<div class="bar" title="{hover.format(word=word, w=w, e=e)}">'
            f'<div class="well"><div style="width:100%;height:{100 * w:.1f}%;'
            f'background:rgba({rgb},{0.3 + 0.7 * w:.2f})"></div></div>'
            f'<div class="word{_orientation(token, len(tokens))}">{word}</div></div>'
        )
    return (
        f'{BARS_CSS}<div class="attnviz-bars"><div class="note">{html.escape(note)}</div>'
        f'<div class="row">{"".join(bars)}</div></div>'
    )
