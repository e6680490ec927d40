"""One step's attention as bars (raw scores, then the softmax weights) and each source word's
coverage: altair charts of a Trace, for the step and comparison views."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..analysis import diagnostics
from ..decoding.trace import Trace
from ..i18n import gettext as _
from .heatmaps import finite, labels

# Ticks on a quantity's axis: a half column at 1024 px took one every 0.05 and their labels
# ran into each other.
QUANTITY_TICKS = 5


def _source_frame(trace: Trace, step: int) -> pd.DataFrame:
    """One step's attention over the source words: position, source (labelled), weight and
    raw score."""
    if trace.weights is None or trace.scores is None:
        raise ValueError("a model without attention has no weights to chart")
    return pd.DataFrame(
        {
            "position": range(1, len(trace.src_tokens) + 1),
            "source": labels(trace.src_tokens),
            "weight": trace.weights[step],
            "score": finite(trace.scores[step]),
        }
    )


def source_axis(**kwargs) -> alt.Axis:
    """The axis of a bar chart's source words: every word named, written level (Vega-Lite
    would drop every other label where they crowd, and tilt Chinese characters on their side),
    one band per word."""
    return alt.Axis(labelOverlap=False, labelLimit=180, labelAngle=0, labelFontSize=13, **kwargs)


def bar_height(n_bars: int) -> int:
    """A horizontal bar chart's height for ``n_bars`` bars: room for each one's label, and for
    the title and axis that the page's width-filling layout counts in it."""
    return 90 + 24 * n_bars  # 24 px a bar: a Chinese label's box is about 20 px tall


def scores_and_weights(trace: Trace, step: int) -> list[alt.Chart]:
    """One step's raw scores, then the softmax weights they become, per source word: two
    charts, each as wide as the column it is drawn in (a pair side by side outgrew a column).
    No title: the page's layout counts one in the chart's height, which left the bars of the
    first chart less room than its labels (issue 63); the page names the step above them."""
    frame = _source_frame(trace, step)
    order = list(frame["source"])
    base = alt.Chart(frame).encode(
        y=alt.Y("source:N", sort=order, title=None, axis=source_axis()),
        tooltip=[
            alt.Tooltip("source:N", title=_("source")),
            alt.Tooltip("score:Q", format=".3f", title=_("score")),
            alt.Tooltip("weight:Q", format=".3f", title=_("weight")),
        ],
    )
    scores = base.mark_bar(color="#9467bd").encode(
        x=alt.X("score:Q", title=_("raw score eₜⱼ"), axis=alt.Axis(tickCount=QUANTITY_TICKS))
    )
    weights = base.mark_bar(color="#1f77b4").encode(
        x=alt.X(
            "weight:Q",
            title=_("weight αₜⱼ = softmax(eₜ)ⱼ"),
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(values=[0, 0.25, 0.5, 0.75, 1], format=".2f"),  # 0.25, not 0.3
        )
    )
    height = bar_height(len(order))
    return [
        scores.properties(height=height).configure_axis(titleFontSize=14),
        weights.properties(height=height).configure_axis(titleFontSize=14),
    ]


def coverage_chart(traces: dict[str, Trace]) -> alt.Chart:
    """Total attention per source word for each model: about 1 for a word translated once,
    near 0 for a word left out, well above 1 for a word translated twice. One band per source
    word, down the chart, its label level."""
    rows = [
        {"model": name, "source": label, "position": i, "coverage": c}
        for name, tr in traces.items()
        for i, (label, c) in enumerate(
            zip(labels(tr.src_tokens), diagnostics.coverage(tr.picture()), strict=True)
        )
    ]
    frame = pd.DataFrame(rows)
    order = list(dict.fromkeys(frame["source"])) if rows else []
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("source:N", sort=order, title=None, axis=source_axis()),
            yOffset="model:N",
            x=alt.X(
                "coverage:Q",
                title=_("total attention received"),
                axis=alt.Axis(tickCount=QUANTITY_TICKS),
            ),
            color=alt.Color("model:N", title=_("model"), legend=alt.Legend(orient="top")),
            tooltip=[
                alt.Tooltip("model:N", title=_("model")),
                alt.Tooltip("source:N", title=_("source")),
                alt.Tooltip("coverage:Q", format=".2f", title=_("coverage")),
            ],
        )
        .properties(height=bar_height(len(order) * max(1, len(traces))))
    )
