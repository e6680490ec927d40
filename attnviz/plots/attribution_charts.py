"""Chart builders for attribution beside attention: pure functions of a Trace and its
:class:`attnviz.analysis.attribution.Attribution`, returning plotly figures, altair charts and
tables."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..analysis import attribution
from ..analysis.attribution import Attribution
from ..decoding.trace import Trace
from ..i18n import gettext as _
from . import heatmaps
from .heatmaps import labels, matrix_figure
from .weight_charts import bar_height, source_axis


def attribution_heatmap(att: Attribution, step: int | None = None, title: str = "") -> go.Figure:
    """Output words down, source words across, cell = attribution: red where the source word
    made the written word likelier, blue where it made it less likely; the colour scale is
    symmetric about 0 and spans the largest value of the sentence. ``step`` frames a row."""
    x, y = labels(att.src_words), labels(att.tgt_words)
    top = float(np.abs(att.values).max()) if att.values.size else 1.0
    style = heatmaps.signed_style(_("attribution"), top)
    cells = dict(type="heatmap", z=att.values, x=x, y=y, **style)
    return matrix_figure([cells], title, len(y), len(x), step, frame_color="#2ca02c")


def step_frame(trace: Trace, att: Attribution, step: int) -> pd.DataFrame:
    """One step's attention and attribution over the source words (no ``<eos>``), long form:
    columns source, measure ("attention" or the method), value; a model without attention
    has attribution rows only."""
    words = labels(att.src_words)
    n = len(words)
    attention = [] if trace.weights is None else [trace.weights[step, :n]]
    return pd.DataFrame(
        {
            "source": words * (1 + len(attention)),
            "measure": ["attention"] * n * len(attention) + [att.method] * n,
            "value": np.concatenate([*attention, att.values[step]]),
        }
    )


def attribution_bars(trace: Trace, att: Attribution, step: int) -> list[alt.Chart]:
    """One step's attention bars, then its attribution bars, per source word in sentence
    order, down each chart (every word named, level); attribution bars are red above 0 and
    blue below. A model without attention has its attribution bars alone. Each chart is as
    wide as where it is drawn."""
    frame = step_frame(trace, att, step)
    order = list(dict.fromkeys(frame["source"]))
    y = alt.Y("source:N", sort=order, title=None, axis=source_axis())
    tooltip = [
        alt.Tooltip("source:N", title=_("source")),
        alt.Tooltip("value:Q", format="+.3f", title=_("value")),
    ]
    height = bar_height(len(order))
    left = (
        alt.Chart(frame[frame.measure == "attention"])
        .mark_bar(color="#1f77b4")
        .encode(y=y, x=alt.X("value:Q", title=_("attention weight")), tooltip=tooltip)
        .properties(height=height)
    )
    right = (
        alt.Chart(frame[frame.measure != "attention"])
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("value:Q", title=_(attribution.METHODS[att.method].label)),
            color=alt.condition("datum.value >= 0", alt.value("#d62728"), alt.value("#1f77b4")),
            tooltip=tooltip,
        )
        .properties(height=height)
    )
    return [left, right] if trace.has_attention else [right]


def step_agreement(trace: Trace, att: Attribution, step: int) -> tuple[float, bool]:
    """Spearman's rho of one step's attention (``<eos>`` left out) against its attribution
    importance, and whether their argmax source words agree."""
    weights, values = trace.picture()[step : step + 1], att.values[step : step + 1]
    return (
        float(attribution.step_correlations(weights, values)[0]),
        bool(attribution.attention_argmax_is_important(weights, values)[0]),
    )


def delta_note(att: Attribution) -> str | None:
    """Integrated gradients' convergence: the largest |delta| against the largest row sum."""
    if att.delta is None:
        return None
    return _(
        "{steps} steps; completeness gap (captum's delta) up to {gap:.3f} nats, against row sums "
        "up to {sums:.3f}."
    ).format(steps=att.steps, gap=np.abs(att.delta).max(), sums=np.abs(att.values.sum(1)).max())
