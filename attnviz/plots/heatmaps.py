"""Heatmaps: pure functions from Traces to plotly figures of attention (their numbers as tables:
:mod:`.tables`), with the current step framed, gold and eflomal links marked, and the difference
of two; the shared look (font, colours, labels) of every chart builder.

The dashboard only lays these out; tests call them directly. Tokens are labelled with their
1-based position (``3:the``) so that a repeated word keeps its own row or column.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import plotly.colors
import plotly.graph_objects as go
import plotly.io as pio

from ..analysis import diagnostics
from ..analysis.teaching import Shift
from ..decoding.trace import Trace
from ..i18n import N_
from ..i18n import gettext as _

FONT = dict(size=15)  # readable on a laptop and on a projector
# Colour scales as plotly writes them once it has checked a figure (a name expanded), so that
# a figure built unchecked (:func:`unchecked_figure`) is the same figure. Cividis (Nuñez et al.,
# 2018), made to read the same with any colour vision, light for 0 and dark for 1, so that
# "darker = more attention" stays true.
HEATMAP_COLORS = plotly.colors.get_colorscale("Cividis_r")
SIGNED_COLORS = plotly.colors.get_colorscale("RdBu")  # reversed: red positive, blue negative
FRAME = "current step"  # the name of the heatmap's frame around the current step
# plotly's empty template. Streamlit's default one only carries its palette's colours, which
# every matrix here sets for itself, yet it is most of a small figure's JSON and most of the
# time it takes to build one. By name for a checked figure, as its JSON for an unchecked one.
PLAIN = "none"
PLAIN_JSON = pio.templates[PLAIN].to_plotly_json()


def unchecked_figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure of ``data`` and ``layout`` as plotly would write them once checked: every title
    a ``dict(text=...)``, colour scales and the template as above. plotly does not check each
    property then (its ``_validate=False``, as it loads its own templates), which for a heatmap
    takes ten times as long as the rest (5 ms against 0.5 on a 2-core EPYC), on every Enter and
    every step change of every visitor. tests/plots holds each such figure's JSON to that of
    the figure plotly checks."""
    return go.Figure(data=data, layout=layout, _validate=False)


def _colorbar(title: str) -> dict:
    """A slim colour bar under the grid, level: beside it, it would take the columns' room."""
    return dict(
        title=dict(text=title, side="right"), orientation="h", thickness=8, len=0.6,
        x=0.5, xanchor="center", y=0, yanchor="top", ypad=6, outlinewidth=0,
    )  # fmt: skip


def weights_style() -> dict:
    """Every attention heatmap's scale and look: one scale, 0 to 1, for every model, so that
    two grids side by side compare cell by cell (its colour bar's title in the reader's
    language)."""
    return dict(
        zmin=0, zmax=1, colorscale=HEATMAP_COLORS, colorbar=_colorbar(_("weight")),
        xgap=1, ygap=1,
    )  # fmt: skip


def signed_style(name: str, top: float) -> dict:
    """The scale and look of a heatmap of signed values up to ``top`` in size (a difference
    of weights, an attribution): red positive, blue negative, white 0."""
    return dict(
        zmin=-top, zmax=top, colorscale=SIGNED_COLORS, reversescale=True, xgap=1, ygap=1,
        colorbar=_colorbar(name),
        hovertemplate=_("output %{y}<br>source %{x}<br>")
        + f"{name} %{{z:+.3f}}<extra></extra>",
    )  # fmt: skip


def labels(tokens: list[str]) -> list[str]:
    """``["the", "cat", "the"]`` -> ``["1:the", "2:cat", "3:the"]``."""
    return [f"{i}:{token}" for i, token in enumerate(tokens, 1)]


def wide_char(c: str) -> bool:
    """Whether the character ``c`` is East Asian wide (a Chinese character): about twice a
    Latin one across."""
    return unicodedata.east_asian_width(c) in "WF"


def label_width(text: str, size: int = FONT["size"]) -> int:
    """About how many pixels ``text`` takes at font ``size`` (the charts' by default): a
    Chinese character about twice a Latin one."""
    return round(sum(1.0 if wide_char(c) else 0.55 for c in text) * size)


# The room a grid's cells have in half of the page's width at a projector's 1024 px, the
# sidebar open (attnviz_ui/widgets/page_style.py): level source labels only where each fits its
# cell.
HALF_PAGE_CELLS = 280
UPRIGHT_FONT = 13  # px: an upright label is as wide as its line, narrower than a 14 px cell


def finite(a: np.ndarray) -> np.ndarray:
    """Non-finite values (the -inf score of a masked position) as NaN, which JSON can carry."""
    return np.where(np.isfinite(a), a, np.nan)


SHOWN_ROWS = 14  # rows a grid framed at a step shows at once: with its step's detail under it,
# what a projector's 768 px holds (issue 74); the others a drag away


def row_window(step: int, n_rows: int, revealed: bool = False) -> tuple[int, int] | None:
    """The rows (first, last), 0-based, a grid of ``n_rows`` framed at row ``step`` shows: all
    of them (None) up to :data:`SHOWN_ROWS`, else a window that holds the step with two rows
    after it where there are, as a player reveals rows downwards. A ``revealed`` grid, whose
    rows after the step are not written yet, shows no more of them than those two: it grows
    as the words are written, and the step's detail under it stays on a projector's screen
    however long the sentence (issue 74: 25 source words put the bars 240 px below it)."""
    last = min(step + 2 if revealed else max(step + 2, SHOWN_ROWS - 1), n_rows - 1)
    first = max(0, last - SHOWN_ROWS + 1)
    return None if (first, last) == (0, n_rows - 1) else (first, last)


def matrix_figure(
    traces: list[dict],
    title: str,
    n_rows: int,
    n_cols: int,
    step: int | None = None,
    frame_color: str = "#d62728",
    revealed: bool = False,
) -> go.Figure:
    """A matrix heatmap, ``traces`` (the heatmap first) under the layout every matrix shares:
    source across the top, output down (first row on top), a height that grows with the
    ``n_rows`` rows, upright source labels where level ones would crowd, and row ``step``
    (0-based; None or out of range: none) framed, in :func:`row_window`'s window of rows
    (``revealed``: the rows after the step are not written yet); a Chinese output title level,
    in the corner (:func:`_level_output_title`). Built in one go, from plain values
    (validating a figure piece by piece takes several times longer), and unchecked
    (:func:`unchecked_figure`)."""
    texts = [str(x) for x in traces[0].get("x", ())]
    longest = max((label_width(x) for x in texts), default=0)
    # One label per column, with its number: level where every label fits its cell, else
    # upright, each as wide as one line of text, so that neighbours never overlap.
    level = n_cols * (longest + 8) <= HALF_PAGE_CELLS
    tall = longest if level else max((label_width(x, UPRIGHT_FONT) for x in texts), default=0)
    top = 58 + (20 if level else tall + 8)  # the title and the axis's, then the labels
    layout = dict(
        template=PLAIN_JSON,
        title=dict(  # from the picture's left edge: a name whole over a third of the page
            text=title, font=dict(size=16), x=0, xref="container", y=1, yref="container",
            yanchor="top", pad=dict(t=8, l=4),
        ),
        font=FONT,
        height=26 * n_rows + top + 62,
        # Room above for the title and the source labels, below for the colour bar: an
        # exported picture has only this layout, and plotly's automargin would draw the title
        # over the labels. The output words push the left margin as they need (automargin).
        margin=dict(l=4, r=4, t=top, b=58),
        # dtick 1: every word labelled, where plotly would skip every other one in a narrow
        # column.
        xaxis=dict(
            title=dict(text=_("source")), side="top", tickangle=0 if level else -90, dtick=1,
            tickfont=dict(size=FONT["size"] if level else UPRIGHT_FONT),
        ),
        yaxis=dict(title=dict(text=_("output")), autorange="reversed", automargin=True, dtick=1),
        plot_bgcolor="white",
    )  # fmt: skip
    if step is not None and 0 <= step < n_rows:
        _frame_step(layout, step, n_rows, n_cols, frame_color, revealed)
    if wide(layout["yaxis"]["title"]["text"]):
        _level_output_title(layout)
    return unchecked_figure(traces, layout)


def _frame_step(
    layout: dict, step: int, n_rows: int, n_cols: int, color: str, revealed: bool
) -> None:
    """``layout`` with row ``step`` framed in ``color``, in :func:`row_window`'s window."""
    layout["shapes"] = [
        dict(type="rect", x0=-0.5, x1=n_cols - 0.5, y0=step - 0.5, y1=step + 0.5,
             line=dict(color=color, width=3), name=FRAME)
    ]  # fmt: skip
    if window := row_window(step, n_rows, revealed):
        _show_rows(layout, window, n_rows, layout["margin"]["t"], revealed)


def wide(text: str) -> bool:
    """Whether ``text`` holds Chinese (or other East Asian wide) characters."""
    return any(map(wide_char, text))


OUTPUT_TITLE = "output title"  # the name of the annotation a Chinese output title becomes
TITLE_FONT = 14  # px, of that annotation's lines
TITLE_LINE = 18  # px: one line of it


def _level_output_title(layout: dict) -> None:
    """``layout``'s output title written level in the corner above the output words, a line
    per phrase, where it is Chinese: an axis title is turned on its side, and Chinese on its
    side is hard to read (issue 74). A Latin title stays on the axis, where it reads well."""
    text = layout["yaxis"].pop("title")["text"]
    lines = [line for line in re.split(r"(?<=[：，；])|(?=（)", text) if line.strip()]
    widest = max(label_width(line, TITLE_FONT) for line in lines)
    margin = layout["margin"]
    margin["l"] = max(margin["l"], widest + 12)  # the output words may push it further
    # Room above the grid, under the picture's title (about 34 px), for every line.
    extra = max(0, 34 + TITLE_LINE * len(lines) + 4 - margin["t"])
    margin["t"] += extra
    layout["height"] += extra
    layout["annotations"] = [
        dict(text="<br>".join(lines), name=OUTPUT_TITLE, xref="paper", yref="paper", x=0, y=1,
             xanchor="right", yanchor="bottom", xshift=-6, yshift=4, align="right",
             textangle=0, showarrow=False, font=dict(size=TITLE_FONT, color="#444"))
    ]  # fmt: skip


def _show_rows(
    layout: dict, window: tuple[int, int], n_rows: int, top: int, revealed: bool
) -> None:
    """``layout``, of a grid of ``n_rows``, showing the rows of ``window`` alone (first and
    last, 0-based) and, where written rows are left out (a ``revealed`` grid's later rows are
    not written yet), saying so in the axis's title; the others a drag away."""
    first, last = window
    layout["height"] = 26 * (last - first + 1) + top + 62
    layout["yaxis"] |= dict(autorange=False, range=[last + 0.5, first - 0.5])
    if first > 0 or not revealed:
        title = _("output: {first}–{last} of {n}, drag for the rest").format(
            first=first + 1, last=last + 1, n=n_rows
        )
        layout["yaxis"]["title"] = dict(text=title)


def heatmap(
    trace: Trace,
    step: int | None = None,
    title: str = "",
    gold: list[tuple[int, int]] | None = None,
    reveal: bool = False,
) -> go.Figure:
    """Alignment heatmap: output tokens down, source tokens across, cell = attention weight.

    Hovering shows both tokens, the weight and the raw score before the softmax. ``step``
    (0-based output position) draws a frame around that row; with ``reveal``, the rows after
    it are blank and their words hidden, as the decoder has not written them yet. ``gold``
    draws (source, output) token links as crosses.
    """
    if trace.weights is None or trace.scores is None:
        raise ValueError("a model without attention has no heatmap")
    x, y = labels(trace.src_tokens), labels(trace.tgt_tokens)
    z, scores = trace.weights, finite(trace.scores)
    if reveal and step is not None:
        later = np.arange(len(y)) > step
        z = np.where(later[:, None], np.nan, z)
        scores = np.where(later[:, None], np.nan, scores)
        y = [f"{i}:…" if h else label for i, (label, h) in enumerate(zip(y, later, strict=True), 1)]
        gold = [(i, j) for i, j in gold or [] if j <= step]
    cells = dict(
        type="heatmap",
        z=z,
        x=x,
        y=y,
        customdata=scores,
        hovertemplate=_(
            "output %{y}<br>source %{x}<br>weight %{z:.3f}<br>raw score %{customdata:.3f}"
        )
        + "<extra></extra>",
        **weights_style(),
    )
    traces = [cells, gold_markers(x, y, gold)] if gold else [cells]
    revealed = reveal and step is not None
    return matrix_figure(traces, titled(trace, title), len(y), len(x), step, revealed=revealed)


FORCED = N_("forced: words given, not chosen")  # a forced decoding's picture says so


def titled(trace: Trace, title: str) -> str:
    """A picture's ``title``, saying on the picture itself when the words are not the model's
    own: a decoding forced to write given words (a reference, another model's output)."""
    if trace.mode != "forced":
        return title
    return f"{title} · {_(FORCED)}" if title else _(FORCED)


def gold_markers(x: list[str], y: list[str], gold: list[tuple[int, int]]) -> dict:
    """Gold (column, row) links as crosses over a heatmap with labels ``x`` and ``y``: a
    scatter trace for :func:`matrix_figure`."""
    marker = dict(symbol="x-thin", size=14, line=dict(width=2, color="#ff7f0e"))
    return _link_markers(x, y, gold, _("gold link"), marker)


def _link_markers(
    x: list[str], y: list[str], links: list[tuple[int, int]], name: str, marker: dict
) -> dict:
    """(column, row) ``links`` inside a heatmap with labels ``x`` and ``y`` as a scatter trace
    of ``marker``s called ``name``."""
    inside = [(i, j) for i, j in links if i < len(x) and j < len(y)]
    return dict(
        type="scatter",
        x=[x[i] for i, _ in inside],
        y=[y[j] for _, j in inside],
        mode="markers",
        marker=marker,
        name=name,
        hovertemplate=name + ": %{y} - %{x}<extra></extra>",
    )


def plain_json(fig: go.Figure | dict) -> dict:
    """A figure's layout and data as plain JSON values, from a Figure or its JSON (what the
    browser, and streamlit's AppTest, receive)."""
    return fig.to_plotly_json() if isinstance(fig, go.Figure) else fig


def framed_step(fig: go.Figure | dict) -> int | None:
    """The 0-based step a :func:`heatmap` frames, or None when it frames none."""
    shapes = plain_json(fig).get("layout", {}).get("shapes", [])
    frames = [s for s in shapes if s.get("name") == FRAME]
    return round(frames[0]["y0"] + 0.5) if frames else None


def difference_heatmap(a: Trace, b: Trace, title: str = "") -> go.Figure:
    """Weights of ``a`` minus weights of ``b``, cell by cell; both must have the same tokens
    (:func:`attnviz.analysis.diagnostics.comparable`: force-decode both models on one reference to
    compare translations that differ)."""
    if not diagnostics.comparable(a, b):
        raise ValueError(
            f"the translations differ ({a.picture().shape} vs {b.picture().shape} tokens); "
            "give a reference translation so both models are decoded on the same output"
        )
    x, y = labels(a.src_tokens), labels(a.tgt_tokens)
    cells = dict(
        type="heatmap", z=a.picture() - b.picture(), x=x, y=y, **signed_style(_("difference"), 1.0)
    )
    return matrix_figure([cells], title, len(y), len(x))


def shift_heatmap(shift: Shift, title: str = "") -> go.Figure:
    """Teaching's difference (:class:`attnviz.analysis.teaching.Shift`): the taught model's
    weights minus the natural one's, cell by cell, red where the taught model attends more and
    blue where less; hovering a cell also gives its row's total-variation distance."""
    trace = shift.natural
    x, y = labels(trace.src_tokens), labels(trace.tgt_tokens)
    rows = np.full(len(y), np.nan)  # a final <eos> step wrote no word: no distance
    rows[: len(shift.distance)] = shift.distance
    name = _("taught − natural")
    style = signed_style(name, 1.0) | dict(
        hovertemplate=_("output %{y}<br>source %{x}<br>")
        + f"{name} %{{z:+.3f}}<br>"
        + _("row moved %{customdata:.2f}")
        + "<extra></extra>"
    )
    moved = np.repeat(rows[:, None], len(x), 1)  # (T, S): each cell its row's distance
    cells = dict(type="heatmap", z=shift.difference, x=x, y=y, customdata=moved, **style)
    return matrix_figure([cells], title, len(y), len(x))


EFLOMAL_COLOR = "#2ca02c"  # green: apart from the gold crosses (orange) and the blue scale


def eflomal_markers(x: list[str], y: list[str], links: list[tuple[int, int]]) -> dict:
    """A statistical aligner's (column, row) links as open green circles over a heatmap with
    labels ``x`` and ``y`` (a cross of :func:`gold_markers` fits inside one): a scatter trace."""
    # An open symbol is stroked in marker.color (plotly ignores line.color for it): without
    # it, the circles take the colorway's next colour, the gold crosses' orange.
    marker = dict(symbol="circle-open", size=20, color=EFLOMAL_COLOR, line=dict(width=2.5))
    return _link_markers(x, y, links, _("eflomal link"), marker)


def with_eflomal(fig: go.Figure, links: list[tuple[int, int]], upto: int | None = None):
    """``fig``, a heatmap of :func:`heatmap`, with eflomal's (source, output) links drawn on it
    (with ``upto``, only those of the rows up to it, as a revealed heatmap shows)."""
    cells = fig.data[0]
    shown = [(i, j) for i, j in links if upto is None or j <= upto]
    fig.add_trace(eflomal_markers(list(cells.x), list(cells.y), shown))
    return fig
