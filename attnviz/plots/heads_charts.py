"""A Transformer's cross-attention as small multiples: one little heatmap per head and layer,
the current step framed in each."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..analysis.score_chain import ChainLink
from ..decoding.trace import Trace
from ..i18n import gettext as _
from ..model.model_config import MULTIHEAD
from . import formulas
from .heatmaps import FONT, HEATMAP_COLORS, PLAIN_JSON, unchecked_figure

H_SPACING, V_SPACING = 0.02, 0.08  # between the heads across, and between the layers down
RED, ORANGE = "#d62728", "#ff7f0e"  # the step's frame, and the picked head's


def heads_figure(
    trace: Trace, step: int, aer: np.ndarray | None = None, picked: tuple[int, int] | None = None
) -> go.Figure:
    """Every head of ``trace`` (layers down, heads across) at ``step`` (0-based, framed in
    red); ``aer`` (layers, heads) in each title; the ``picked`` head framed in orange. Laid
    out as ``make_subplots`` lays out a grid, but built in one go, from plain values and
    unchecked (:func:`.heatmaps.unchecked_figure`): adding twelve heads one by one to a checked
    figure took 90 to 130 ms of each run of To the Transformer, this takes under 10."""
    every = trace.heads  # (T, L, N, S)
    if every is None:
        raise ValueError("only a Transformer has heads to draw")
    layers, heads = every.shape[1:3]
    across, down = _grid_domains(heads, H_SPACING), _grid_domains(layers, V_SPACING)[::-1]
    layout: dict = dict(
        template=PLAIN_JSON, annotations=[], shapes=[], font=FONT, height=140 * layers + 40,
        margin=dict(l=4, r=4, t=30, b=4), plot_bgcolor="white",
    )  # fmt: skip
    data = []
    for k, (layer, head) in enumerate(np.ndindex(layers, heads)):
        n = str(k + 1) if k else ""  # plotly's axes: x and y, then x2 and y2, ...
        x, y = across[head], down[layer]
        layout[f"xaxis{n}"] = dict(anchor=f"y{n}", domain=x, showticklabels=False)
        layout[f"yaxis{n}"] = dict(
            anchor=f"x{n}", domain=y, showticklabels=False, autorange="reversed"
        )  # fmt: skip
        data.append(
            dict(
                type="heatmap", z=every[:, layer, head], zmin=0, zmax=1, showscale=False,
                colorscale=HEATMAP_COLORS, xaxis=f"x{n}", yaxis=f"y{n}",
                hovertemplate=_("output %{y}, source %{x}: %{z:.2f}") + "<extra></extra>",
            )
        )  # fmt: skip
        frame = dict(type="rect", x0=-0.5, x1=every.shape[-1] - 0.5, xref=f"x{n}", yref=f"y{n}")
        layout["shapes"].append(frame | dict(y0=step - 0.5, y1=step + 0.5, line=_line(RED, 2)))
        if picked == (layer, head):
            rows = len(trace.tgt_tokens)
            layout["shapes"].append(frame | dict(y0=-0.5, y1=rows - 0.5, line=_line(ORANGE, 3)))
        title = _("L{layer} H{head}").format(layer=layer + 1, head=head + 1)
        if aer is not None:
            title += _(" · AER {aer:.0f}").format(aer=aer[layer, head])
        layout["annotations"].append(
            dict(
                text=title, x=sum(x) / 2, y=y[1], xref="paper", yref="paper", xanchor="center",
                yanchor="bottom", showarrow=False, font=dict(size=12),
            )
        )  # fmt: skip
    return unchecked_figure(data, layout)


def _line(color: str, width: int) -> dict:
    return dict(color=color, width=width)


def _grid_domains(n: int, spacing: float) -> list[list[float]]:
    """The domains of ``n`` cells side by side with ``spacing`` between them, in paper
    coordinates from 0 to 1, as ``make_subplots`` computes them."""
    width = (1 - spacing * (n - 1)) / n
    return [[k * (width + spacing), k * (width + spacing) + width] for k in range(n)]


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
