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
from .heatmaps import FONT, HEATMAP_COLORS, PLAIN_JSON, labels, unchecked_figure

H_SPACING, V_SPACING = 0.02, 0.08  # shares of the figure between heads across, layers down
RED, ORANGE = "#d62728", "#ff7f0e"  # the step's frame, and the picked head's


def heads_figure(
    trace: Trace, step: int, aer: np.ndarray | None = None, picked: tuple[int, int] | None = None
) -> go.Figure:
    """Every head of ``trace`` (layers down, heads across) at ``step`` (0-based, framed in
    red); ``aer`` (layers, heads) in each title; the ``picked`` head framed in orange.

    The heads lie where ``make_subplots`` would put them, but on one pair of axes: twelve
    heads as twelve subplots took the browser about 190 ms to draw, on one pair 80 ms less.
    Built in one go, from plain values and unchecked (:func:`.heatmaps.unchecked_figure`):
    adding them one by one to a checked figure took 90 to 180 ms of each run, this 1 to 2.
    """
    every = trace.heads  # (T, L, N, S)
    if every is None:
        raise ValueError("only a Transformer has heads to draw")
    rows, layers, heads, cols = every.shape
    gap_x, gap_y = _gap(cols, heads, H_SPACING), _gap(rows, layers, V_SPACING)  # in cells
    width, height = heads * cols + (heads - 1) * gap_x, layers * rows + (layers - 1) * gap_y
    # On one pair of axes x and y are the grid's: a cell's own row and column are its data.
    hover = _("output %{y}, source %{x}: %{z:.2f}") + "<extra></extra>"
    hover = hover.replace("%{y}", "%{customdata[0]}").replace("%{x}", "%{customdata[1]}")
    # (T, S, 2): each cell's output and source word, numbered from 1 as the other grids
    # number them ("4:chat"), so that a grid's hover names the class's sentence
    out, src = labels(trace.tgt_tokens[:rows]), labels(trace.src_tokens[:cols])
    at = np.array([[[out[t], src[j]] for j in range(cols)] for t in range(rows)], dtype=object)
    data, shapes, titles = [], [], []
    for layer, head in np.ndindex(layers, heads):
        x, y = head * (cols + gap_x), layer * (rows + gap_y)  # the head's first cell
        data.append(
            dict(
                type="heatmap", z=every[:, layer, head], x0=x, dx=1, y0=y, dy=1, zmin=0, zmax=1,
                colorscale=HEATMAP_COLORS, showscale=False, customdata=at, hovertemplate=hover,
            )
        )  # fmt: skip
        frame = dict(type="rect", x0=x - 0.5, x1=x + cols - 0.5)
        shapes.append(frame | dict(y0=y + step - 0.5, y1=y + step + 0.5, line=_line(RED, 2)))
        if picked == (layer, head):
            shapes.append(frame | dict(y0=y - 0.5, y1=y + rows - 0.5, line=_line(ORANGE, 3)))
        title = _("L{layer} H{head}").format(layer=layer + 1, head=head + 1)
        if aer is not None:
            title += _(" · AER {aer:.0f}").format(aer=aer[layer, head])
        titles.append(
            dict(
                text=title, x=x + (cols - 1) / 2, y=y - 0.5, xanchor="center", yanchor="bottom",
                showarrow=False, font=dict(size=12),
            )
        )  # fmt: skip
    return unchecked_figure(
        data, _layout(width, height, layers) | dict(shapes=shapes, annotations=titles)
    )


def _layout(width: float, height: float, layers: int) -> dict:
    """One pair of bare axes over a grid ``width`` cells wide and ``height`` cells high (the
    first row on top), 140 px a layer."""
    bare = dict(showticklabels=False, showgrid=False, zeroline=False)
    return dict(
        template=PLAIN_JSON, xaxis=bare | dict(range=[-0.5, width - 0.5]),
        yaxis=bare | dict(range=[height - 0.5, -0.5]), font=FONT, height=140 * layers + 40,
        margin=dict(l=4, r=4, t=30, b=4), plot_bgcolor="white",
    )  # fmt: skip


def _line(color: str, width: int) -> dict:
    return dict(color=color, width=width)


def _gap(cells: int, n: int, spacing: float) -> float:
    """The gap between ``n`` grids of ``cells`` cells each, in cells, that ``make_subplots``
    leaves with ``spacing`` (a share of the whole) between its ``n`` subplots."""
    return cells * spacing * n / (1 - spacing * (n - 1))


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
