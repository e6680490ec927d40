"""A Transformer's cross-attention as small multiples: one little heatmap per head and layer,
the current step framed in each."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..analysis.score_chain import ChainLink
from ..decoding.trace import Trace
from ..i18n import gettext as _
from ..model.model_config import MULTIHEAD
from . import formulas
from .heatmaps import FONT, HEATMAP_COLORS


def heads_figure(
    trace: Trace, step: int, aer: np.ndarray | None = None, picked: tuple[int, int] | None = None
) -> go.Figure:
    """Every head of ``trace`` (layers down, heads across) at ``step`` (0-based, framed in
    red); ``aer`` (layers, heads) in each title; the ``picked`` head framed in orange."""
    every = trace.heads  # (T, L, N, S)
    if every is None:
        raise ValueError("only a Transformer has heads to draw")
    layers, heads = every.shape[1:3]
    titles = [
        _("L{layer} H{head}").format(layer=layer + 1, head=head + 1)
        + ("" if aer is None else _(" · AER {aer:.0f}").format(aer=aer[layer, head]))
        for layer in range(layers)
        for head in range(heads)
    ]
    fig = make_subplots(
        rows=layers, cols=heads, subplot_titles=titles, horizontal_spacing=0.02,
        vertical_spacing=0.08,
    )  # fmt: skip
    rows = len(trace.tgt_tokens)
    for layer in range(layers):
        for head in range(heads):
            fig.add_trace(
                go.Heatmap(
                    z=every[:, layer, head],
                    zmin=0, zmax=1, colorscale=HEATMAP_COLORS, showscale=False,
                    hovertemplate=_("output %{y}, source %{x}: %{z:.2f}") + "<extra></extra>",
                ),
                row=layer + 1, col=head + 1,
            )  # fmt: skip
            color = "#ff7f0e" if picked == (layer, head) else None
            frame = dict(x0=-0.5, x1=every.shape[-1] - 0.5, row=layer + 1, col=head + 1)
            fig.add_shape(
                type="rect", y0=step - 0.5, y1=step + 0.5, line=dict(color="#d62728", width=2),
                **frame,
            )  # fmt: skip
            if color:
                fig.add_shape(
                    type="rect", y0=-0.5, y1=rows - 0.5, line=dict(color=color, width=3),
                    **frame,
                )  # fmt: skip
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False, autorange="reversed")
    fig.update_annotations(font=dict(size=12))
    fig.update_layout(
        font=FONT, height=140 * layers + 40, margin=dict(l=4, r=4, t=30, b=4),
        plot_bgcolor="white",
    )  # fmt: skip
    return fig


def chain_form(link: ChainLink) -> str:
    """A link of the score chain named by its formula, as every surface writes it
    (:func:`.formulas.score_text`); a head alone, by its number."""
    if link.form == "head" and link.head is not None:  # (a head's link names it)
        return _("head {head} alone (its weight)").format(head=link.head + 1)
    kind = {"additive": "bahdanau", "scaled": MULTIHEAD}.get(link.form, link.form)
    return formulas.score_text(kind, link.scaled)


def chain_frame(links: list[ChainLink]) -> pd.DataFrame:
    """The chain of scores at one step as a table: the formula, the model whose vectors made
    the score, the score and the weight its softmax gave the word. A head alone has a weight
    and no score of its own: NaN, which a table shows as missing (None showed as "None")."""
    rows = [
        {
            _("score"): chain_form(link),
            _("model"): link.model,
            "e": math.nan if link.score is None else link.score,
            "α": link.weight,
        }
        for link in links
    ]
    return pd.DataFrame(rows)
