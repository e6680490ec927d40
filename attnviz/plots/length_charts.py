"""Translation quality against source length, in the buckets of
:mod:`attnviz.analysis.length_buckets`: the chart of Bahdanau et al. (2015), Figure 2, a pure
function of an :class:`attnviz.analysis.by_length.LengthResult` returning a plotly figure for
the dashboard and for a PNG (:func:`attnviz.plots.image_export.to_image`); and the Corpus page's
bars of two models' corpus BLEU by length (:func:`bleu_by_length_bars`)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import hex_to_rgb, qualitative
from plotly.subplots import make_subplots

from ..analysis.by_length import LengthResult, ModelScores
from ..analysis.length_buckets import BUCKETS
from ..i18n import N_
from ..i18n import gettext as _
from .heatmaps import FONT, PLAIN

FIXED = N_("fixed context (no attention)")  # the legend's name of a model without attention
FIXED_COLOR = "#7f7f7f"  # grey, dashed: the baseline the attention models are read against
COLORS = [c for c in qualitative.Plotly if c.lower() != FIXED_COLOR]
BAND_OPACITY = 0.15


def model_label(model: ModelScores, result: LengthResult) -> str:
    """A model's name in the legend: :data:`FIXED` for the fixed-context model (with its file's
    name when there are several), else its file's name and its attention."""
    if model.has_attention:
        return f"{model.name} ({model.attention})"
    several = sum(not m.has_attention for m in result.models) > 1
    return f"{_(FIXED)} · {model.name}" if several else _(FIXED)


def length_summary(result: LengthResult) -> str:
    """A caption for :func:`length_figure`: what was measured, and the longest bucket's BLEU of
    the fixed-context model against the best attention model's."""
    corpus = result.corpus
    text = _(
        "{inputs} inputs from {sentences} test sentences of {file}: the sentences themselves, "
        "and consecutive ones joined into longer inputs, at most {per_bucket} per length; each "
        "model translates greedily ({precision}). Bands: {confidence:g}% bootstrap intervals."
    ).format(
        inputs=sum(b.inputs for b in result.buckets),
        sentences=corpus["test_sentences"],
        file=corpus["file"],
        per_bucket=result.per_bucket,
        precision=result.precision,
        confidence=result.confidence,
    )
    filled = [k for k, b in enumerate(result.buckets) if b.inputs]
    fixed = [m for m in result.models if not m.has_attention]
    attention = [m for m in result.models if m.has_attention]
    if filled and fixed and attention:
        k = filled[-1]
        best = max(attention, key=lambda m: m.buckets[k].bleu or 0.0)  # filled: every one has
        text += " " + _(
            "At {label} words, {fixed} scores BLEU {fixed_bleu:.1f}, {best} {best_bleu:.1f}."
        ).format(
            label=result.buckets[k].label,
            fixed=model_label(fixed[0], result),
            fixed_bleu=fixed[0].buckets[k].bleu,
            best=best.name,
            best_bleu=best.buckets[k].bleu,
        )
    return text


def length_figure(result: LengthResult, title: str | None = None) -> go.Figure:
    """BLEU against source length, one line per model with its bootstrap interval as a band;
    below, the share of source words each model's output leaves out (when it was measured;
    else the title says why). The fixed-context model is grey and dashed. A bucket without
    inputs is left out of the lines."""
    measured = any(b.lost is not None for m in result.models for b in m.buckets)
    bleu_title = _("BLEU ({confidence:g}% bootstrap interval)").format(confidence=result.confidence)
    rows = 2 if measured else 1
    fig = make_subplots(
        rows=rows,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.1,
        subplot_titles=(bleu_title, _("Source words lost (%)"))[:rows],
    )
    colors = iter(COLORS * (1 + len(result.models) // len(COLORS)))
    for model in result.models:
        name = model_label(model, result)
        color = next(colors) if model.has_attention else FIXED_COLOR
        for row, key in ((1, "bleu"), (2, "lost"))[:rows]:
            for trace in _line(result, model, key, name, color, legend=row == 1):
                fig.add_trace(trace, row=row, col=1)
    ticks = dict(
        tickvals=list(range(len(result.buckets))), ticktext=[b.label for b in result.buckets]
    )
    fig.update_xaxes(**ticks, range=[-0.5, len(result.buckets) - 0.5])
    fig.update_xaxes(title_text=_("source length (words)"), row=rows, col=1)
    fig.update_yaxes(title_text=_("BLEU"), rangemode="tozero", row=1, col=1)
    if measured:
        fig.update_yaxes(title_text=_("source words lost (%)"), range=[0, 100], row=2, col=1)
    heading = title or _("Translation quality against source length")
    if not measured:
        why = next(iter(result.notes), _("source words lost not measured"))
        heading += f"<br><sup>{why}</sup>"
    fig.update_layout(
        template=PLAIN,
        font=FONT,
        height=720 if measured else 480,
        title=dict(text=heading, x=0.5, xanchor="center"),
        legend=dict(orientation="h", y=-0.12 if measured else -0.3, yanchor="top", x=0.5,
                    xanchor="center"),
        hovermode="x unified",
        margin=dict(l=70, r=30, t=90 if measured else 130, b=110 if measured else 130),
    )  # fmt: skip
    fig.update_xaxes(showgrid=True, gridcolor="#eee", zeroline=False)
    fig.update_yaxes(showgrid=True, gridcolor="#eee", zeroline=False)
    return fig


def _line(
    result: LengthResult, model: ModelScores, key: str, name: str, color: str, legend: bool
) -> list[go.Scatter]:
    """A model's band (the interval) and line for ``key`` ("bleu" or "lost"), over the buckets
    that have a value."""
    points = [
        (x, getattr(s, key), getattr(s, f"{key}_low"), getattr(s, f"{key}_high"), b)
        for x, (s, b) in enumerate(zip(model.buckets, result.buckets, strict=True))
        if getattr(s, key) is not None
    ]
    if not points:
        return []
    xs, ys, lows, highs, buckets = zip(*points, strict=True)
    band = [h if h is not None else y for h, y in zip(highs, ys, strict=True)]
    band += [lo if lo is not None else y for lo, y in zip(lows[::-1], ys[::-1], strict=True)]
    rgb = ", ".join(map(str, hex_to_rgb(color)))
    measure = _("BLEU") if key == "bleu" else _("lost %")
    fixed = not model.has_attention
    return [
        go.Scatter(
            x=[*xs, *xs[::-1]],
            y=band,
            fill="toself",
            fillcolor=f"rgba({rgb}, {BAND_OPACITY})",
            line=dict(width=0),
            hoverinfo="skip",
            showlegend=False,
            legendgroup=model.name,
        ),
        go.Scatter(
            x=list(xs),
            y=list(ys),
            name=name,
            legendgroup=model.name,
            showlegend=legend,
            mode="lines+markers",
            line=dict(color=color, width=2.5, dash="dash" if fixed else "solid"),
            marker=dict(size=7, symbol="square" if fixed else "circle"),
            customdata=[
                [lo, hi, b.inputs, b.words] for lo, hi, b in zip(lows, highs, buckets, strict=True)
            ],
            hovertemplate=f"{name}<br>{measure} %{{y:.1f}} [%{{customdata[0]:.1f}}, "
            f"%{{customdata[1]:.1f}}]<br>"
            + _("{n} inputs, {words} words on average").format(
                n="%{customdata[2]}", words="%{customdata[3]:.1f}"
            )
            + "<extra></extra>",
        ),
    ]


def bleu_by_length_bars(frame: pd.DataFrame) -> alt.Chart:
    """Corpus BLEU per source-length bucket, one bar per model, the buckets in their order (a
    :func:`attnviz.analysis.compare_models.bleu_by_length` frame)."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("words:N", sort=[b.label for b in BUCKETS], title=_("source words")),
            xOffset="model:N",
            y=alt.Y("BLEU:Q", title=_("corpus BLEU")),
            color=alt.Color("model:N", title=_("model")),
            tooltip=[
                alt.Tooltip("model:N", title=_("model")),
                alt.Tooltip("words:N", title=_("source words")),
                alt.Tooltip("BLEU:Q", format=".1f"),
                alt.Tooltip("sentences:Q", title=_("sentences")),
            ],
        )
        .properties(height=260)
    )
