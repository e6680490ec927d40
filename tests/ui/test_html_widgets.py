"""The pages' plain-HTML pieces: what a user typed stays text, and each value shows."""

import re

import numpy as np
import pytest

from attnviz.plots.tables import Table
from attnviz_ui.widgets.html_widgets import (
    LONG_WELL_PX,
    SHORT_BARS,
    WELL_PX,
    html_table,
    shaded_tokens,
    weight_bars,
)

from ..handmade import hand_trace


def test_shaded_tokens_escape_markup_and_shade_by_value():
    html = shaded_tokens(["<script>", "ok"], np.array([1.0, 0.25]))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "rgba(31, 119, 180, 1.00)" in html and "rgba(31, 119, 180, 0.25)" in html


def test_weight_bars_are_one_escaped_bar_per_token_as_tall_as_its_weight():
    html = weight_bars(["<b>", "cat", "<eos>"], np.array([0.7, 0.3, 0.0]), np.array(
        [1.5, 0.25, -np.inf]
    ))  # fmt: skip
    assert "<b>" not in html and html.count("&lt;b&gt;") == 2  # label and hover
    assert "height:70.0%" in html and "height:30.0%" in html and "height:0.0%" in html
    assert 'title="cat: weight 0.300, raw score 0.250"' in html
    assert html.index("&lt;b&gt;") < html.index("cat") < html.index("&lt;eos&gt;")  # in order
    assert html.count(f'class="well" style="height:{WELL_PX}px"') == 3
    long = weight_bars(["w"] * (SHORT_BARS + 1), np.zeros(SHORT_BARS + 1), np.zeros(SHORT_BARS + 1))
    assert long.count(f"height:{LONG_WELL_PX}px") == SHORT_BARS + 1 and LONG_WELL_PX < WELL_PX


SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
BARE_AMPERSAND = re.compile(r"&(?!(?:[a-z]+|#\d+|#x[0-9a-f]+);)")  # an & that starts no entity


def _struck_source():
    from attnviz_ui.views.why_view import struck_source

    trace = hand_trace([[0.5, 0.3, 0.2]], [SCRIPT, "&", "<eos>"], ["x"])
    return struck_source(trace, [True, False])


WIDGETS = {  # each drawing the two words, and where the escaped script must appear
    "table cell": (
        lambda: html_table(Table(("word", "chosen"), [(SCRIPT, True), ("&", False)])),
        f'padding: 4px 10px">{ESCAPED}</td>',
    ),
    "shaded token": (
        lambda: shaded_tokens([SCRIPT, "&"], np.array([0.9, 0.1])),
        f'display: inline-block">{ESCAPED}</span>',
    ),
    "bar word": (
        lambda: weight_bars([SCRIPT, "&"], np.array([0.9, 0.1]), np.array([2.0, 0.0])),
        f'<div class="word">{ESCAPED}</div>',
    ),
    "bar title": (
        lambda: weight_bars([SCRIPT, "&"], np.array([0.9, 0.1]), np.array([2.0, 0.0])),
        f'title="{ESCAPED}: weight 0.900',
    ),
    "struck source": (_struck_source, f'<s style="color:#d62728">{ESCAPED}</s>'),
}


@pytest.mark.parametrize("widget", WIDGETS)
def test_a_script_and_an_ampersand_in_a_word_come_out_as_text(widget):
    draw, where = WIDGETS[widget]
    html = draw()
    assert SCRIPT not in html and where in html
    assert "&amp;" in html and not BARE_AMPERSAND.search(html)
