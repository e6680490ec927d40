"""The beam search view's figure: every hypothesis kept at each step, the winning path marked."""

from __future__ import annotations

import plotly.graph_objects as go

from ..data.subwords import WORD_START
from ..data.vocab import SPECIALS
from ..decoding.trace import Trace
from ..i18n import gettext as _
from .heatmaps import FONT, plain_json

WINNER = "winner"  # the name of the beam figure's nodes on the winning path


def piece_label(token: str) -> str:
    """A subword piece as a reader who asked for words reads it: a piece that starts a word
    (``▁ch``) as it is spelled (``ch``), one that goes on with the word (``at``) after a
    hyphen (``-at``); ``<eos>`` and whole words as they are."""
    if token.startswith(WORD_START):
        return token[len(WORD_START) :] or token
    return token if token in SPECIALS else f"-{token}"


def beam_figure(trace: Trace, marks: bool = True) -> go.Figure:
    """The beam-search tree: one column per step (numbered from 1, as the Step slider is), one
    node per kept hypothesis, edges to its parent; the winning path in red. Each node's word
    sits above it on a white label, clear of the dots and lines; its cumulative
    log-probability is on hover. A subword model's hypotheses are of pieces: without
    ``marks`` (the page shows words), each is written as :func:`piece_label` writes it."""
    if not trace.beam:
        raise ValueError("this trace has no beam: translate with beam > 1")
    fig = go.Figure()
    path = set(enumerate(trace.beam_path or []))
    for t, step in enumerate(trace.beam):
        if t == 0:
            continue
        for k, parent in enumerate(step.parents):
            on_path = (t, k) in path and (t - 1, parent) in path
            fig.add_trace(
                go.Scatter(
                    x=[t, t + 1],
                    y=[parent + 1, k + 1],
                    mode="lines",
                    line=dict(color="#d62728" if on_path else "#c7c7c7", width=3 if on_path else 1),
                    hoverinfo="skip",
                    showlegend=False,
                )
            )
    fig.add_trace(_beam_nodes(trace, path, on_path=False))
    fig.add_trace(_beam_nodes(trace, path, on_path=True))
    shown = (lambda token: token) if marks else piece_label
    label = dict(showarrow=False, yshift=17, bgcolor="rgba(255, 255, 255, 0.85)", borderpad=1)
    words = [
        dict(x=t + 1, y=k + 1, text="·" if finished else shown(token), font=dict(size=13), **label)
        for t, step in enumerate(trace.beam)
        for k, (token, finished) in enumerate(zip(step.tokens, step.finished, strict=True))
    ]
    fig.update_layout(
        font=FONT,
        height=140 + 70 * len(trace.beam[0].tokens),
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title=_("step"), dtick=1),
        yaxis=dict(title=_("hypothesis"), autorange="reversed", dtick=1),
        plot_bgcolor="white",
        annotations=words,
    )
    return fig


def _beam_nodes(trace: Trace, path: set[tuple[int, int]], on_path: bool) -> go.Scatter:
    """The beam's nodes on the winning ``path`` (red, named :data:`WINNER`) or off it, drawn
    at step and hypothesis numbered from 1."""
    xs, ys, hover = [], [], []
    node = _("step {step}, hypothesis {k}: {token}<br>log-prob {score:.2f}")
    for t, step in enumerate(trace.beam or []):
        for k, (token, score) in enumerate(zip(step.tokens, step.scores, strict=True)):
            if ((t, k) in path) != on_path:
                continue
            xs.append(t + 1)
            ys.append(k + 1)
            hover.append(node.format(step=t + 1, k=k + 1, token=token, score=score))
    return go.Scatter(
        x=xs,
        y=ys,
        mode="markers",
        marker=dict(size=10, color="#d62728" if on_path else "#1f77b4"),
        hovertext=hover,
        hoverinfo="text",
        name=WINNER if on_path else "hypotheses",
        showlegend=False,
    )


def beam_winner(fig: go.Figure | dict) -> list[tuple[int, int]]:
    """The (step, hypothesis) nodes a :func:`beam_figure` marks as the winner's, 0-based."""
    nodes = [d for d in plain_json(fig).get("data", []) if d.get("name") == WINNER]
    return [(int(x) - 1, int(y) - 1) for d in nodes for x, y in zip(d["x"], d["y"], strict=True)]
