"""The chart of BLEU and source words lost against source length, and the Corpus page's bars of
BLEU by length."""

from __future__ import annotations

from attnviz.analysis.compare_models import Item, SentenceScore, bleu_by_length
from attnviz.analysis.length_buckets import BUCKETS
from attnviz.plots.length_charts import (
    FIXED,
    FIXED_COLOR,
    bleu_by_length_bars,
    length_figure,
    length_summary,
)

from ..length_results import hand_length_result


def _lines(fig, axis: str) -> dict[str, object]:
    """The named lines (not the bands) of one panel, by legend name."""
    return {t.name: t for t in fig.data if t.name and t.yaxis == axis}


def test_one_line_per_model_with_its_band_and_the_fixed_context_model_grey_and_dashed():
    result = hand_length_result({"encdec": "none", "bahdanau": "bahdanau", "luong": "general"})
    fig = length_figure(result)
    bleu = _lines(fig, "y")
    assert list(bleu) == [FIXED, "bahdanau (bahdanau)", "luong (general)"]
    fixed = bleu[FIXED]
    assert fixed.line.dash == "dash" and fixed.line.color == FIXED_COLOR
    others = [t for t in bleu.values() if t is not fixed]
    assert all(t.line.dash == "solid" and t.line.color != FIXED_COLOR for t in others)
    # The first bucket is empty: each line starts at the second.
    assert list(fixed.x) == list(range(1, 13)) and fixed.y[0] == 37.0
    bands = [t for t in fig.data if t.fill == "toself" and t.yaxis == "y"]
    assert len(bands) == 3 and max(bands[0].y) == 41.0 and min(bands[0].y) == 0.0
    assert list(_lines(fig, "y2")) == list(bleu)  # the lost panel: the same models ...
    assert not any(t.showlegend for t in fig.data if t.yaxis == "y2")  # ... named once


def test_every_axis_and_panel_is_labelled():
    fig = length_figure(hand_length_result({"encdec": "none", "luong": "general"}))
    layout = fig.layout
    assert layout.title.text == "Translation quality against source length"
    assert layout.xaxis2.title.text == "source length (words)"
    assert (layout.yaxis.title.text, layout.yaxis2.title.text) == ("BLEU", "source words lost (%)")
    assert [a.text for a in layout.annotations] == [
        "BLEU (95% bootstrap interval)",
        "Source words lost (%)",
    ]
    assert list(layout.xaxis.ticktext) == ["1–5", *[f"{w}–{w + 4}" for w in range(6, 60, 5)], "61+"]


def test_without_the_lost_measure_the_title_says_why():
    result = hand_length_result({"encdec": "none", "luong": "general"}, lost=False)
    fig = length_figure(result)
    assert {t.yaxis for t in fig.data} == {"y"} and "yaxis2" not in fig.layout
    assert fig.layout.title.text.endswith(f"<br><sup>{result.notes[0]}</sup>")
    assert fig.layout.xaxis.title.text == "source length (words)"


def test_several_fixed_context_models_keep_their_names():
    result = hand_length_result({"encdec": "none", "encdec-big": "none"})
    assert list(_lines(length_figure(result), "y")) == [
        f"{FIXED} · encdec",
        f"{FIXED} · encdec-big",
    ]


def test_the_summary_names_the_inputs_and_the_longest_bucket():
    text = length_summary(hand_length_result({"encdec": "none", "luong": "general"}))
    assert text.startswith("120 inputs from 2340 test sentences of fra.txt")
    assert text.endswith(f"At 61+ words, {FIXED} scores BLEU 4.0, luong 34.0.")


def test_the_corpus_bars_follow_the_buckets_of_the_by_length_evaluation():
    items = [Item(" ".join(["w"] * n), ("w w",)) for n in (70, 3, 12)]
    done = SentenceScore("w w", None, 100.0, None, 1.0, 1.0, 0.0)
    frame = bleu_by_length(items, {"left": [done] * 3, "right": [done] * 3})
    assert list(dict.fromkeys(frame["words"])) == ["1–5", "11–15", "61+"]  # not the items' order
    spec = bleu_by_length_bars(frame).to_dict()
    assert spec["encoding"]["x"]["sort"] == [b.label for b in BUCKETS]
    assert spec["mark"]["type"] == "bar" and spec["encoding"]["xOffset"]["field"] == "model"
