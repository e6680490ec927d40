"""Step by step: one model's output so far, its alignment so far, and the current step in detail
(the weights as bars, the candidates it weighed, and on request the step's numbers)."""

from __future__ import annotations

import functools
from typing import NamedTuple

import plotly.graph_objects as go
import streamlit as st

from attnviz.analysis.diagnostics import sunk_steps
from attnviz.decoding import steer
from attnviz.decoding.trace import Trace
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.plots import formulas, heatmaps, model_notes, step_charts, tables
from attnviz.plots.context_charts import attention_picture
from attnviz.plots.markup import markdown_text
from attnviz.store.catalog import Checkpoint

from ..serving.identical import Identical
from ..serving.models import Side
from ..serving.replays import step_numbers
from ..state.session_keys import element_key
from ..widgets.html_widgets import html_table, shaded_tokens, weight_bars
from ..widgets.language import session_language
from ..widgets.templates import render, rendered

NUMBERS = N_(
    "The step in numbers, as the model computed it. For each source token: its score e, "
    "exp(e − max) (the softmax's numerator, kept from overflowing by subtracting the largest "
    "score), its weight α = exp / Σ exp, and its share of the context cₜ (αⱼ hⱼ · cₜ / "
    "|cₜ|², so the shares sum to 1). Then the vectors the score is made of, as colour strips "
    "(red negative, blue positive, each vector on its own scale, its largest value beside its "
    "name; hover for a number), the context and what the output layer reads, and the next "
    "word's logits and probabilities."
)
ONE_CONTEXT = N_(
    "It reads the one context c, as every step does: the encoder's final state, the whole "
    "sentence in one vector. No source word is looked at more than another."
)
EDITED = N_(
    "This step's attention was edited: the weights are yours, not the softmax of the scores."
)


def model_header_ui(s: Side) -> None:
    """A model's name and, one click away, its score formula. Drawn outside the stepping
    fragment: the browser typesets every formula on the page again on each rerun, and a step
    change should not wait for that."""
    trace = s.trace
    cols = st.columns([3, 2], vertical_alignment="center")  # "Formula" whole at 1024 px
    label = formulas.attention_label(trace.attention)
    name = markdown_text(s.name)
    line = f"**{name}**" if s.name == trace.attention else f"**{name}** · {label}"
    precision = str(trace.precision).replace("-", "\u2011")  # int8‑output on one line
    cols[0].markdown(
        f"{line} · `{precision}`", help=_(model_notes.PRECISION_WORDS[trace.precision])
    )
    with cols[1].popover(_("Formula"), use_container_width=True):
        st.latex(formula_latex(s))
        if note := formulas.scaled_note(trace.attention, trace.scaled, s.description.config.hidden):
            st.caption(note)


def formula_latex(s: Side) -> str:
    """The model's score formula and the softmax and context, as one LaTeX block; for a model
    without attention, what its steps compute instead."""
    return formulas.step_formula(s.trace.attention, s.trace.scaled)


class Column(NamedTuple):
    """What one model's column shows at a step, all of it built before any of it is drawn: the
    page then sends the column in one burst, instead of building each piece while the browser,
    busy drawing the heatmaps already sent, holds the cores."""

    step: int  # 0-based, within this model's output
    heatmap: go.Figure  # the alignment so far (all of it without reveal)
    output: str  # HTML: the output so far, each word shaded by its probability
    detail: str  # HTML: the word written, the source shaded by its attention, the weights as
    # bars and the words the model weighed: one element, redrawn as text at every step


def column(
    s: Side,
    step: int,
    reveal: bool,
    gold: list[tuple[int, int]] | None = None,
    eflomal: list[tuple[int, int]] | None = None,
) -> Column:
    """The column of ``s`` at ``step`` (0-based): with ``reveal``, only what the decoder has
    written so far; ``gold`` and ``eflomal``: token links to draw over the heatmap.

    Made once per trace, step, switches and language, and shared by every session: a Trace is
    frozen and cached per input (:func:`..serving.models.translate`), so a class that types
    the same sentences, or a step shown again, finds its column built. Building one took
    1.4-1.5 ms, the two of a run about 15% of its script's CPU
    (benchmarks/classroom/results.md). Nobody changes a Column: Streamlit copies a figure
    before it sends it. The last 256 are kept, 46 kB each, with the Traces they hold alive
    (about 120 kB each, most of them held by the translate cache anyway)."""
    return _column(
        s.checkpoint, Identical(s.trace), step, reveal, None if gold is None else tuple(gold),
        None if eflomal is None else tuple(eflomal), session_language(),
    )  # fmt: skip


@functools.lru_cache(maxsize=256)
def _column(
    checkpoint: Checkpoint,
    trace_key: Identical,
    step: int,
    reveal: bool,
    gold: tuple[tuple[int, int], ...] | None,
    eflomal: tuple[tuple[int, int], ...] | None,
    language: str,
) -> Column:
    """``language`` keys the cache: the column's words are in it, bound for this run."""
    trace: Trace = trace_key.objects[0]
    t = min(step, len(trace.tgt_tokens) - 1)
    shown = slice(0, t + 1) if reveal else slice(None)
    heading = _("Step {step}: writing “{word}”").format(step=t + 1, word=trace.tgt_tokens[t])
    # the pieces below are HTML their own templates rendered, their words escaped there
    candidates = rendered(html_table(tables.candidates_table(trace, t)))
    if trace.has_attention:
        title = _("{name}: alignment").format(name=checkpoint.name)
        looked = {
            "sink": rendered(_sink_note(trace, t)),
            "shaded": rendered(shaded_tokens(trace.src_tokens, trace.weights[t])),
            "bars": rendered(weight_bars(trace.src_tokens, trace.weights[t], trace.scores[t])),
            "one_context": None,
        }
    else:
        title = _("{name}: no attention, one context c").format(name=checkpoint.name)
        looked = {"sink": None, "shaded": None, "bars": None, "one_context": _(ONE_CONTEXT)}
    links = None if gold is None else list(gold)
    fig = attention_picture(trace, step=t, title=title, gold=links, reveal=reveal)
    if eflomal is not None and trace.has_attention:
        fig = heatmaps.with_eflomal(fig, list(eflomal), t if reveal else None)
    return Column(
        step=t,
        heatmap=fig,
        output=shaded_tokens(trace.tgt_tokens[shown], trace.probs[shown]),
        detail=render("step_detail", step=t, heading=heading, candidates=candidates, **looked),
    )


def _sink_note(trace, t: int) -> str:
    """HTML: a word on step ``t`` that looks most at a sink (the source ``<eos>``, or the final
    punctuation while it writes a word), or nothing; a final ``<eos>`` step looks where it
    likes."""
    on_eos, on_punct = sunk_steps(trace)
    if t >= len(on_eos) or not (on_eos[t] or on_punct[t]):
        return ""
    top = trace.src_tokens[int(trace.weights[t].argmax())]
    return render(
        "sink_note", note=_(" · looks most at “{top}”: an attention sink").format(top=top)
    )


def heatmap_ui(side: int, s: Side, c: Column):
    """The heatmap of column ``c`` (``side`` 0 left, 1 right); returns the empty slot under
    it, for :func:`output_ui` to fill once both heatmaps are sent. Under it, so that both grids
    start at the same height, near the top of the screen, however long either output is."""
    st.plotly_chart(
        c.heatmap,
        key=element_key("heatmap", side),
        config={"toImageButtonOptions": {"format": "svg", "filename": f"{s.name}-attention"}},
    )
    return st.empty()


def output_ui(slot, c: Column) -> None:
    """In ``slot``, the output so far."""
    slot.html(c.output)


def how_to_read(reveal: bool, gold: bool, pieces: bool, fixed: bool = False) -> str:
    """What the step view's pictures mean, said once above them: a step change redraws
    everything in the columns, so they hold no words that do not change with the step.
    ``fixed``: a column shows a model without attention."""
    return (
        _(
            "Each model translates the sentence word by word; at every step its attention "
            "decides which source words to look at. "
        )
        + (_("In each column: the output so far") if reveal else _("In each column: the output"))
        + _(
            ", each word shaded by the probability the model gave it; the alignment heatmap "
            "(row = output word, column = source word, darker = more attention; the framed row "
            "is the current step"
        )
        + (_("; rows below it stay blank until the model writes them") if reveal else "")
        + _("; hover for the raw score before the softmax")
        + (_("; orange crosses: the human (gold) alignment") if gold else "")
        + _(
            "); the current step's attention as bars (they sum to 1); and the words the model "
            "weighed for it, most probable first"
        )
        + (
            _(" (for a word of several pieces: the pieces it weighed to start it).")
            if pieces
            else _(".")
        )
        + _(
            " A step whose attention sits on `<eos>` or on the final full stop is a sink: the "
            "model writes that word without reading one (see the Model cards view)."
        )
        + (
            _(
                " A model without attention has no heatmap: its picture joins every source word "
                "to one context c, and c to every output word, as each step reads all of it."
            )
            if fixed
            else ""
        )
    )


def step_detail_ui(s: Side, c: Column) -> None:
    """The current step below the heatmap: the word written, the source shaded by its
    attention, the weights as bars and the words the model weighed."""
    if c.step in s.trace.edited:
        st.info(_(EDITED))
    st.html(c.detail)


def numbers_ui(s: Side, t: int) -> None:
    """The step's numbers, over the model's own tokens (a subword model's pieces)."""
    if not s.trace.has_attention:
        st.info(_(formulas.NO_ATTENTION).format(name=s.name))
        return
    if s.trace.heads is not None:
        st.info(_(formulas.MULTIHEAD_NUMBERS).format(name=s.name))
        return
    own = s.trace.pieces or s.trace
    piece = steer.piece_step(s.trace, t)
    m = step_numbers(s.checkpoint, own, piece)
    st.latex(formula_latex(s))
    if s.trace.pieces:
        st.caption(
            _("Over the model's subword pieces: the step that wrote “{piece}”.").format(
                piece=own.tgt_tokens[piece]
            )
        )
    st.dataframe(step_charts.terms_frame(m).style.format(precision=3), hide_index=True)
    query = formulas.query_name(s.trace.attention)
    scale = (
        ""
        if m.scale == 1.0
        else _(" The dot products are multiplied by 1/√H = {scale:.4f}.").format(scale=m.scale)
    )
    title = _("The score: query {query}").format(query=query)
    st.plotly_chart(step_charts.strips(step_charts.query_strips(m), title))
    st.caption(formulas.parts_note(s.trace.attention, s.trace.scaled) + scale)
    st.plotly_chart(step_charts.strips(step_charts.output_strips(m), _("From cₜ to the output")))
    st.dataframe(step_charts.next_word_frame(m).style.format(precision=3), hide_index=True)
    st.caption(_(NUMBERS))
