"""Charts and tables of one decoding step in numbers (see :mod:`attnviz.decoding.step_math`): the
per-word terms of the score, and vectors of hundreds of numbers as colour strips."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..decoding.step_math import StepMath
from ..i18n import gettext as _
from .heatmaps import FONT, labels

STRIP_COLORS = "RdBu"  # diverging: negative red, positive blue, 0 white


def terms_frame(m: StepMath) -> pd.DataFrame:
    """Per source token: the score e_tj, exp(e_tj - max), the weight and its share of c_t."""
    return pd.DataFrame(
        {
            _("source"): labels(m.src_tokens),
            _("score e"): m.scores,
            "exp(e − max)": m.exp,
            _("weight α"): m.weights,
            _("share of c"): m.share,
        }
    )


def next_word_frame(m: StepMath) -> pd.DataFrame:
    """The most probable next tokens: their logit (the output layer's score) and probability."""
    return pd.DataFrame(
        [(tok, logit, p) for tok, logit, p in m.top], columns=[_("next word"), "logit", "p"]
    )


def strips(rows: dict[str, np.ndarray], title: str = "") -> go.Figure:
    """Vectors as colour strips, one row each (a matrix adds one row per source token). Each
    vector is drawn on its own scale, centred on 0 and named beside it (±largest value): on
    one scale for all, tanh's values (at most 1) and v's were blank beside the hundreds of
    a product. Hover reads any number."""
    names, z, raw = [], [], []
    for name, value in rows.items():
        value = np.atleast_2d(value)
        limit = float(np.nanmax(np.abs(value))) or 1.0
        label = f"{name} (±{limit:.2g})"
        names += [label] if len(value) == 1 else [f"{label} [{k + 1}]" for k in range(len(value))]
        z += list(value / limit)
        raw += list(value)
    width = max(len(r) for r in z)

    def padded(matrix):
        return np.array([np.pad(r, (0, width - len(r)), constant_values=np.nan) for r in matrix])

    fig = go.Figure(
        go.Heatmap(
            z=padded(z),
            customdata=padded(raw),
            y=names,
            zmin=-1,
            zmax=1,
            colorscale=STRIP_COLORS,
            # Three ticks: a strip of two rows is too short for plotly's own, which crowd.
            colorbar=dict(thickness=10, tickvals=[-1, 0, 1], ticktext=["−max", "0", "+max"]),
            hovertemplate=_("%{y}, dimension %{x}: %{customdata:.3f}") + "<extra></extra>",
        )
    )
    fig.update_layout(
        title=dict(text=title, font=dict(size=15)),
        font=FONT,
        height=90 + 22 * len(names),
        margin=dict(l=10, r=10, t=40, b=10),
        yaxis=dict(autorange="reversed"),
        xaxis=dict(title=_("dimension")),
    )
    return fig


def query_strips(m: StepMath) -> dict[str, np.ndarray]:
    """The vectors the score is made of, named as the model's formula names them."""
    luong = m.attention != "bahdanau"
    query = "hₜ" if luong else "sₜ₋₁"
    rows = {query: m.query}
    if "v" in m.parts:
        W, U = ("Wₐ[hₜ; ·]", "Wₐ[·; hⱼ]") if luong else ("Wₐ sₜ₋₁", "Uₐ hⱼ")
        rows[W] = m.parts["W q"]
        rows[U] = m.parts["U h_j"]
        rows["tanh(·)"] = m.parts["tanh(W q + U h_j)"]
        rows["vₐ"] = m.parts["v"]
    elif "W_a h_j" in m.parts:
        rows["Wₐ hⱼ"] = m.parts["W_a h_j"]
    else:
        rows["hⱼ"] = m.values
    return rows


def output_strips(m: StepMath) -> dict[str, np.ndarray]:
    """From the context to what the output layer reads."""
    out = "h̃ₜ = tanh(W·[cₜ; hₜ])" if m.attention != "bahdanau" else _("tₜ (deep output)")
    return {"cₜ": m.context, out: m.features}
