"""The pages' plain-HTML pieces: what a user typed stays text, and each value shows."""

import numpy as np

from attnviz_ui.widgets.html_widgets import shaded_tokens, weight_bars


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
