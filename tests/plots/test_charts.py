"""Chart builders: what each figure shows, checked on its data."""

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from attnviz import i18n
from attnviz.plots import beam_charts, context_charts, heatmaps, history_charts, tables

from ..handmade import hand_trace
from ..helpers import tiny_transformer, tiny_translator


@pytest.fixture(scope="module")
def trace():
    return tiny_translator("general").translate("the cat sees the dog .", max_len=6)


def test_labels_keep_repeated_words_apart():
    assert heatmaps.labels(["the", "cat", "the"]) == ["1:the", "2:cat", "3:the"]


def test_heatmap_shows_the_weights_with_scores_on_hover_and_marks_the_step(trace):
    fig = heatmaps.heatmap(trace, step=2, gold=[(1, 0), (99, 0)])
    hm = fig.data[0]
    np.testing.assert_array_equal(np.asarray(hm.z), trace.weights)
    np.testing.assert_array_equal(np.asarray(hm.customdata), trace.scores)
    assert list(hm.x) == heatmaps.labels(trace.src_tokens)
    assert len(set(hm.x)) == len(hm.x)  # "the" twice, two columns
    assert list(hm.y) == heatmaps.labels(trace.tgt_tokens)
    assert "raw score" in hm.hovertemplate
    assert heatmaps.framed_step(fig) == 2
    assert heatmaps.framed_step(heatmaps.heatmap(trace)) is None
    gold = fig.data[1]  # the out-of-range link is dropped, not drawn off the axis
    assert list(gold.x) == [hm.x[1]] and list(gold.y) == [hm.y[0]]


def test_a_heatmap_leaves_room_for_its_labels_and_title_outside_the_page():
    """An exported picture (kaleido) has no Streamlit theme to push the margins: the output
    labels must make room for themselves, and the top must hold the title, the upright source
    labels and their title, more of it for longer words; the colour bar lies under the grid,
    level, where beside it it would take the columns' width."""
    short = heatmaps.heatmap(hand_trace(np.full((2, 12), 1 / 12), ["a"] * 12, ["x", "y"]))
    long = heatmaps.heatmap(
        hand_trace(np.full((2, 12), 1 / 12), ["extraordinary"] * 12, ["x", "y"])
    )
    assert short.layout.yaxis.automargin and short.layout.xaxis.tickangle == -90
    assert long.layout.margin.t > short.layout.margin.t > 80
    assert short.data[0].colorbar.orientation == "h" and short.layout.margin.b >= 50
    assert short.layout.title.yref == "container" and short.layout.title.yanchor == "top"


@pytest.mark.parametrize(
    "words, tilted",
    [
        (["a", "b", "c"], False),  # three short words fit level
        (["▁我", "▁昨天", "▁在", "▁图书馆"], True),  # the Chinese pieces overlapped
        (["a", "bird", "likes", "the", "red", "fish"], True),  # and the toy model's words
    ],
)
def test_source_labels_stand_upright_where_level_ones_would_overlap(words, tilted):
    n = len(words)
    fig = heatmaps.heatmap(hand_trace(np.full((2, n), 1 / n), words, ["x", "y"]))
    assert (fig.layout.xaxis.tickangle == -90) == tilted


def test_difference_heatmap_subtracts_cell_by_cell_and_refuses_other_shapes(trace):
    a = tiny_translator("general").align(trace.source, trace.text)
    b = tiny_translator("bahdanau").align(trace.source, trace.text)
    fig = heatmaps.difference_heatmap(a, b)
    np.testing.assert_allclose(np.asarray(fig.data[0].z), a.weights - b.weights)
    shorter = tiny_translator("bahdanau").translate(trace.source, max_len=2)
    with pytest.raises(ValueError, match="reference"):
        heatmaps.difference_heatmap(a, shorter)
    other_words = hand_trace(a.weights, a.src_tokens, ["X", *a.tgt_tokens[1:]])
    with pytest.raises(ValueError, match="reference"):  # one shape, another output
        heatmaps.difference_heatmap(a, other_words)


def test_weights_exports_keep_the_matrix_and_labels(trace):
    frame = tables.weights_frame(trace)
    np.testing.assert_array_equal(frame.to_numpy(), trace.weights)
    assert list(frame.columns) == heatmaps.labels(trace.src_tokens)
    data = tables.weights_json(trace)
    assert data["weights"] == trace.weights.tolist() and data["output_tokens"] == trace.tgt_tokens


def test_comparison_frame_per_step(trace):
    frame = tables.comparison_frame(trace, trace)  # one attention on both sides: two columns
    assert len(frame) == len(trace.tgt_tokens) and frame.shape[1] == 6
    np.testing.assert_allclose(frame["JS divergence"], 0, atol=1e-12)
    assert frame["same argmax"].all()


def test_the_beam_figure_marks_the_winning_path(trace):
    beamed = tiny_translator("general").translate(trace.source, beam=3, max_len=6)
    fig = beam_charts.beam_figure(beamed)
    assert beam_charts.beam_winner(fig) == list(enumerate(beamed.beam_path))
    assert beam_charts.beam_winner(fig.to_plotly_json()) == beam_charts.beam_winner(fig)  # as sent
    with pytest.raises(ValueError, match="beam"):
        beam_charts.beam_figure(trace)


def test_a_beam_of_pieces_reads_as_words_when_the_page_shows_words():
    assert [beam_charts.piece_label(p) for p in ("▁ch", "at", "<eos>", "▁")] == [
        "ch",
        "-at",
        "<eos>",
        "▁",
    ]


def test_a_card_has_a_curve_only_with_validation_losses():
    assert history_charts.card_has_losses({"history": {"valid_loss": [3.1, 2.5]}, "best_epoch": 2})
    assert not history_charts.card_has_losses({"history": {"valid_loss": []}})
    assert not history_charts.card_has_losses({})


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


def _checked(fig) -> dict:
    """``fig`` as JSON once plotly has checked every property of it."""
    return _json(go.Figure(fig.to_plotly_json()))


def test_every_figure_built_unchecked_is_the_figure_plotly_checks(trace):
    # matrix_figure and context_figure skip plotly's checks for speed: each must be written
    # as the checked figure would be (a misspelt property would raise in the check)
    fixed = tiny_translator("none").translate("the cat sees the dog .", max_len=6)
    figures = [
        heatmaps.heatmap(trace),
        heatmaps.heatmap(trace, step=2, gold=[(1, 0)], reveal=True),
        heatmaps.with_eflomal(heatmaps.heatmap(trace, step=1), [(0, 0), (2, 3)], upto=1),
        heatmaps.difference_heatmap(trace, trace),
        context_charts.context_figure(fixed, step=1, reveal=True),
    ]
    for fig in figures:
        assert _json(fig) == _checked(fig)
    wrong = heatmaps.unchecked_figure([dict(type="heatmap", z=[[1]], colorscale="nonesuch")], {})
    with pytest.raises(ValueError):
        _checked(wrong)


def test_the_heads_figure_puts_each_head_where_make_subplots_would_and_frames_the_step():
    from plotly.subplots import make_subplots

    from attnviz.plots import heads_charts

    trace = tiny_transformer().translate("the cat sees the dog .", max_len=6)
    rows, layers, heads, cols = trace.heads.shape
    aer = np.arange(layers * heads, dtype=float).reshape(layers, heads)
    fig = heads_charts.heads_figure(trace, 2, aer, picked=(1, 2))
    assert _json(fig) == _checked(fig)  # built unchecked: as plotly would write it checked
    grid = make_subplots(
        rows=layers, cols=heads, horizontal_spacing=heads_charts.H_SPACING,
        vertical_spacing=heads_charts.V_SPACING, subplot_titles=["."] * (layers * heads),
    ).to_plotly_json()["layout"]  # fmt: skip
    drawn = fig.to_plotly_json()["layout"]
    (x0, x1), (y1, y0) = drawn["xaxis"]["range"], drawn["yaxis"]["range"]  # y: first row on top

    def across(x):  # the share of the width from the left, as make_subplots' domains are
        return (x - x0) / (x1 - x0)

    def down(y):  # the share of the height from the bottom
        return (y1 - y) / (y1 - y0)

    for k, (layer, head) in enumerate(np.ndindex(layers, heads)):
        cells = fig.data[k]
        np.testing.assert_array_equal(np.asarray(cells.z), trace.heads[:, layer, head])
        assert list(cells.customdata[3][1]) == [
            f"4:{trace.tgt_tokens[3]}",
            f"2:{trace.src_tokens[1]}",
        ]
        n = str(k + 1) if k else ""
        place = [across(cells.x0 - 0.5), across(cells.x0 + cols - 0.5)]
        np.testing.assert_allclose(place, grid[f"xaxis{n}"]["domain"], atol=1e-9)
        place = [down(cells.y0 + rows - 0.5), down(cells.y0 - 0.5)]
        np.testing.assert_allclose(place, grid[f"yaxis{n}"]["domain"], atol=1e-9)
        title, above = drawn["annotations"][k], grid["annotations"][k]
        assert (across(title["x"]), down(title["y"])) == pytest.approx((above["x"], above["y"]))
        assert title["text"] == f"L{layer + 1} H{head + 1} · AER {k}"
    frames = [(s["x0"], s["y0"], s["y1"], s["line"]["color"]) for s in drawn["shapes"]]
    red = [f for f in frames if f[3] == heads_charts.RED]
    assert len(red) == layers * heads
    for f, cells in zip(red, fig.data, strict=True):  # row 2 of each head
        assert f[:3] == pytest.approx((cells.x0 - 0.5, cells.y0 + 1.5, cells.y0 + 2.5))
    picked = fig.data[heads + 2]  # layer 2, head 3
    assert [f for f in frames if f[3] == heads_charts.ORANGE] == [
        (picked.x0 - 0.5, picked.y0 - 0.5, picked.y0 + rows - 0.5, heads_charts.ORANGE)
    ]


def test_the_chain_table_shows_a_heads_missing_score_as_missing_not_as_none():
    from attnviz.analysis.score_chain import ChainLink
    from attnviz.plots.heads_charts import chain_frame

    heads = [ChainLink("head", "transformer", None, w, h) for h, w in enumerate((0.4, 0.3))]
    for links in ([ChainLink("general", "luong", 2.5, 0.6), *heads], heads):
        frame = chain_frame(links)
        assert frame["e"].dtype == float and frame["e"].isna().tolist()[-2:] == [True, True]
        shown = frame.style.format(precision=3, na_rep="–").to_html()  # as the view draws it
        assert "None" not in shown and "–" in shown


def test_the_snapshot_caption_names_the_snapshots_the_history_has():
    continued = [0.0, 0.1, 0.25, 0.5, 1, 2.0, 2.1, 2.25, 2.5, 3, 4, 5, 6.0, 6.1, 6.25, 6.5, 7, 8]
    note = history_charts.snapshots_note(continued)
    assert "18 snapshots" in note and "2.25" in note and "start at epochs: 2, 6;" in note
    assert "start at epochs" not in history_charts.snapshots_note([0.0, 0.1, 0.25, 0.5, 1, 2])


def test_a_long_grid_framed_at_a_step_shows_a_window_of_rows_that_holds_it():
    from attnviz.plots.heatmaps import SHOWN_ROWS, row_window

    assert row_window(3, SHOWN_ROWS) is None  # short enough: every row
    for n, step in [(30, 0), (30, 12), (30, 20), (30, 29), (15, 14)]:
        first, last = row_window(step, n)
        assert last - first + 1 == SHOWN_ROWS and 0 <= first <= step <= last < n
        assert last >= min(step + 2, n - 1)  # the rows just after it, where there are
    long = hand_trace(np.full((30, 3), 1 / 3), ["a", "b", "<eos>"], [f"w{k}" for k in range(30)])
    layout = heatmaps.heatmap(long, step=20).to_plotly_json()["layout"]
    first, last = row_window(20, 30)
    assert layout["yaxis"]["range"] == [last + 0.5, first - 0.5]
    assert f"{first + 1}–{last + 1} of 30" in layout["yaxis"]["title"]["text"]
    assert "range" not in heatmaps.heatmap(long).to_plotly_json()["layout"]["yaxis"]  # export


def test_a_grid_revealed_step_by_step_shows_its_written_rows_and_two_ahead():
    from attnviz.plots.heatmaps import SHOWN_ROWS, row_window

    assert row_window(0, 12, revealed=True) == (0, 2)  # where a 12-row grid showed all 12
    assert row_window(9, 12, revealed=True) is None and row_window(11, 12, revealed=True) is None
    for n, step in [(30, 0), (30, 5), (30, 20), (30, 29), (15, 14)]:
        first, last = row_window(step, n, revealed=True)
        assert last == min(step + 2, n - 1) and first == max(0, last - SHOWN_ROWS + 1)
    twelve = hand_trace(np.full((12, 3), 1 / 3), ["a", "b", "<eos>"], [f"w{k}" for k in range(12)])
    first_step = heatmaps.heatmap(twelve, step=0, reveal=True).to_plotly_json()["layout"]
    whole = heatmaps.heatmap(twelve, step=0).to_plotly_json()["layout"]
    assert first_step["yaxis"]["range"] == [2.5, -0.5]
    assert first_step["height"] == whole["height"] - 26 * 9  # nine rows not yet written
    assert first_step["yaxis"]["title"] == whole["yaxis"]["title"]  # nothing written left out
    later = heatmaps.heatmap(
        hand_trace(np.full((30, 3), 1 / 3), ["a", "b", "<eos>"], [f"w{k}" for k in range(30)]),
        step=20,
        reveal=True,
    ).to_plotly_json()["layout"]
    assert "10–23 of 30" in later["yaxis"]["title"]["text"]  # written rows 1-9 a drag away


@pytest.fixture
def in_chinese():
    i18n.bind(i18n.catalog("zh"))
    yield
    i18n.bind(None)


def _checked_layout(fig: go.Figure) -> dict:
    """``fig``'s layout as plotly writes it once it has checked every property."""
    return go.Figure(fig.to_plotly_json()).to_plotly_json()["layout"]


def _output_title(layout: dict) -> dict | None:
    named = [a for a in layout.get("annotations", []) if a["name"] == heatmaps.OUTPUT_TITLE]
    return named[0] if named else None


def test_a_chinese_output_title_is_written_level_in_the_corner_above_the_output_words(in_chinese):
    grid = hand_trace(np.full((2, 3), 1 / 3), ["a", "b", "<eos>"], ["x", "y"])
    layout = _checked_layout(heatmaps.heatmap(grid, step=0))
    assert not layout["yaxis"].get("title", {}).get("text")  # not on the axis, on its side
    title = _output_title(layout)
    assert title["text"] == "输出" and title["textangle"] == 0
    assert (title["xref"], title["x"], title["xanchor"]) == ("paper", 0, "right")  # left of it
    assert (title["yref"], title["y"], title["yanchor"]) == ("paper", 1, "bottom")  # above it
    assert layout["margin"]["l"] >= heatmaps.label_width("输出", heatmaps.TITLE_FONT) + 6


def test_a_long_chinese_output_title_is_a_line_per_phrase_that_fits_its_corner(in_chinese):
    rows = [f"w{k}" for k in range(30)]
    layout = _checked_layout(
        heatmaps.heatmap(hand_trace(np.full((30, 3), 1 / 3), list("ab."), rows), step=20)
    )
    lines = _output_title(layout)["text"].split("<br>")
    assert lines[0] == "输出：" and len(lines) > 2 and "30" in "".join(lines)
    assert all(
        heatmaps.label_width(line, heatmaps.TITLE_FONT) + 6 <= layout["margin"]["l"]
        for line in lines
    )
    assert layout["margin"]["t"] >= 34 + heatmaps.TITLE_LINE * len(lines)  # under the title


def test_an_english_output_title_stays_on_its_axis_and_a_title_starts_at_the_left_edge():
    grid = hand_trace(np.full((2, 3), 1 / 3), ["a", "b", "<eos>"], ["x", "y"])
    layout = _checked_layout(heatmaps.heatmap(grid, step=0, title="transformer-pieces"))
    assert layout["yaxis"]["title"]["text"] == "output" and _output_title(layout) is None
    # from the picture's edge, not the grid's: a name whole over a grid a third of a page wide
    assert (layout["title"]["xref"], layout["title"]["x"]) == ("container", 0)
