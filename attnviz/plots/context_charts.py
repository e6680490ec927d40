"""The picture of a model without attention: every source word goes into one context vector c,
and every output word is written from that same c. Drawn in place of an attention heatmap, so
that a fixed-context model is never shown with weights it does not have."""

from __future__ import annotations

import plotly.graph_objects as go

from ..decoding.trace import Trace
from ..i18n import gettext as _
from .heatmaps import FONT, PLAIN_JSON, heatmap, labels, titled, unchecked_figure

SOURCE_X, CONTEXT_X, OUTPUT_X = 0.0, 1.0, 2.0
READ = "rgba(120, 120, 120, 0.45)"  # the encoder reading a word into c
WRITE = "rgba(31, 119, 180, 0.55)"  # a step reading c
CURRENT = "#d62728"  # the current step, framed red as on the heatmaps


def _lines(ends: list[tuple[float, float, float, float]]) -> tuple[list, list]:
    """Line segments (x0, y0, x1, y1) as one scatter trace's x and y, None between them."""
    xs, ys = [], []
    for x0, y0, x1, y1 in ends:
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


def context_figure(
    trace: Trace, step: int | None = None, title: str = "", reveal: bool = False
) -> go.Figure:
    """Source tokens down the left, the one context c in the middle, output tokens down the
    right: a line from every source token into c (the encoder reads them all into it) and from
    c to every output token (each step reads all of c, the same c). ``step`` (0-based) draws
    its line red; with ``reveal``, the words after it are not written yet."""
    if trace.has_attention:
        raise ValueError("context_figure draws a model without attention; use heatmap")
    src, out = labels(trace.src_tokens), labels(trace.tgt_tokens)
    if reveal and step is not None:
        out = out[: step + 1]
    rows = max(len(src), len(out), 1)
    middle = (rows - 1) / 2
    size = trace.context.shape[1] if trace.context is not None else 0
    traces = [*_line_traces(len(src), len(out), middle, step), *_word_traces(src, out)]
    traces.append(_context_trace(middle, size))
    return unchecked_figure(traces, _layout(titled(trace, title), src, out, rows))


def _line_traces(sources: int, outputs: int, middle: float, step: int | None) -> list[dict]:
    """The lines: every source word into c, and c to every output word; the current
    ``step``'s line red, drawn over the others."""
    read_x, read_y = _lines([(SOURCE_X, j, CONTEXT_X, middle) for j in range(sources)])
    others = [t for t in range(outputs) if t != step]
    write_x, write_y = _lines([(CONTEXT_X, middle, OUTPUT_X, t) for t in others])
    traces = [
        dict(type="scatter", x=read_x, y=read_y, mode="lines", line=dict(color=READ, width=1.5),
             hoverinfo="skip", name=_("the encoder reads every word into c")),
        dict(type="scatter", x=write_x, y=write_y, mode="lines", line=dict(color=WRITE, width=1.5),
             hoverinfo="skip", name=_("every step reads the same c")),
    ]  # fmt: skip
    if step is not None and 0 <= step < outputs:
        now_x, now_y = _lines([(CONTEXT_X, middle, OUTPUT_X, step)])
        traces.append(dict(type="scatter", x=now_x, y=now_y, mode="lines",
                           line=dict(color=CURRENT, width=3), hoverinfo="skip",
                           name=_("the current step reads c")))  # fmt: skip
    return traces


def _word_traces(src: list[str], out: list[str]) -> list[dict]:
    """The source words down the left, the output words down the right."""
    return [
        dict(type="scatter", x=[SOURCE_X] * len(src), y=list(range(len(src))), text=src,
             mode="markers+text", textposition="middle left", marker=dict(size=8, color="#555"),
             hovertemplate=_("source %{text}") + "<extra></extra>", showlegend=False),
        dict(type="scatter", x=[OUTPUT_X] * len(out), y=list(range(len(out))), text=out,
             mode="markers+text", textposition="middle right",
             marker=dict(size=8, color="#1f77b4"),
             hovertemplate=_("output %{text}: written from c") + "<extra></extra>",
             showlegend=False),
    ]  # fmt: skip


def _context_trace(middle: float, size: int) -> dict:
    """The one context c, a disc between the source and the output, of ``size`` numbers."""
    return dict(type="scatter", x=[CONTEXT_X], y=[middle], text=["c"], mode="markers+text",
                textposition="middle center", textfont=dict(size=20, color="white"),
                marker=dict(size=44, color="#444", line=dict(color="black", width=1)),
                hovertemplate=_(
                    "c: the encoder's final state, {size} numbers. The whole sentence must fit "
                    "in it; every step reads all of it."
                ).format(size=size) + "<extra></extra>",
                showlegend=False)  # fmt: skip


def _layout(title: str, src: list[str], out: list[str], rows: int) -> dict:
    """The figure's layout: hidden axes with room for the labels, source and output named."""
    longest = max((len(label) for label in src + out), default=1)
    return dict(
        template=PLAIN_JSON,
        title=dict(text=title, font=dict(size=17), y=1, yref="container", yanchor="top",
                   pad=dict(t=10)),
        font=FONT,
        height=max(320, 26 * rows + 170),
        margin=dict(l=10, r=10, t=60, b=10),
        # Room either side for the labels, which plotly does not count in the axis range.
        xaxis=dict(range=[SOURCE_X - 0.09 * longest / 4 - 0.4, OUTPUT_X + 0.09 * longest / 4 + 0.4],
                   visible=False),
        yaxis=dict(autorange="reversed", visible=False),
        legend=dict(orientation="h", y=-0.02, yanchor="top", x=0),
        plot_bgcolor="white",
        annotations=[
            dict(x=SOURCE_X, y=-0.9, text=_("source"), showarrow=False, xanchor="right"),
            dict(x=OUTPUT_X, y=-0.9, text=_("output"), showarrow=False, xanchor="left"),
        ],
    )  # fmt: skip


def attention_picture(
    trace: Trace,
    step: int | None = None,
    title: str = "",
    reveal: bool = False,
    gold: list[tuple[int, int]] | None = None,
) -> go.Figure:
    """Where the model looked: the attention heatmap (:func:`heatmaps.heatmap`, with ``gold``
    links), or for a model without attention the one context it read
    (:func:`context_figure`)."""
    if trace.has_attention:
        return heatmap(trace, step=step, title=title, gold=gold, reveal=reveal)
    return context_figure(trace, step=step, title=title, reveal=reveal)
