"""Bahdanau vs Luong: two models' attention on one sentence, side by side and cell by cell."""

from __future__ import annotations

import math

import streamlit as st

from attnviz.analysis import diagnostics
from attnviz.decoding.trace import Trace
from attnviz.i18n import gettext as _
from attnviz.plots import formulas, heatmaps, tables, weight_charts
from attnviz.plots.context_charts import attention_picture
from attnviz.plots.markup import markdown_text

from ..state.session_keys import Key, element_key
from ..widgets.vega import vega_chart, vega_charts


def compare_view_ui(shown: list[tuple[str, Trace]], step: int) -> None:
    """The two (name, trace) columns at ``step`` (0-based), then what can be said of both; a
    model without attention shows its one context, and the figures of weights leave it out."""
    st.markdown(_(formulas.DIFFERENCE))
    cols = st.columns(2)
    for side, (col, (name, trace)) in enumerate(zip(cols, shown, strict=True)):
        t = min(step, len(trace.tgt_tokens) - 1)
        fig = attention_picture(trace, step=t, title=_("{name}: alignment").format(name=name))
        col.plotly_chart(fig, key=element_key("compare-heatmap", side))
    for col, (name, trace) in zip(cols, shown, strict=True):  # once both heatmaps are sent
        if not trace.has_attention:
            col.info(_(formulas.NO_ATTENTION).format(name=name))
            continue
        t = min(step, len(trace.tgt_tokens) - 1)
        col.markdown(_("**{name}: step {step}**").format(name=markdown_text(name), step=t + 1))
        vega_charts(weight_charts.scores_and_weights(trace, t), col)
    shown = [(name, trace) for name, trace in shown if trace.has_attention]
    if not shown:
        return
    _coverage_ui(shown)
    _summary_ui(shown)
    if len(shown) < 2:
        return
    (left, a), (right, b) = shown
    if diagnostics.comparable(a, b):
        _difference_ui(left, a, right, b)
    else:
        _not_comparable_ui(shown)


def _coverage_ui(shown: list[tuple[str, Trace]]) -> None:
    """How to read the scores and weights above, and each source word's coverage."""
    st.caption(
        _(
            "Raw scores (upper chart) and the softmax weights they become (lower chart) at the "
            "current step. The softmax turns score differences into weight ratios: a gap of 1 is "
            "a factor e."
        )
    )
    vega_chart(weight_charts.coverage_chart(dict(shown)))
    st.caption(
        _(
            "Coverage: total attention each source word received. Near 0: the word may be left "
            "out (under-translation); well above 1: it may be translated twice."
        )
    )


def _not_comparable_ui(shown: list[tuple[str, Trace]]) -> None:
    """Two different outputs: why their matrices cannot be compared, and a button per model
    that decodes both on its output."""
    st.info(
        _(
            "The two translations differ, so their matrices cannot be compared cell by "
            "cell. Decode both models on one of the outputs (forced decoding: each model is "
            "made to write that translation, and shows where it would have looked), or type "
            "a reference translation."
        )
    )
    for side, (col, (name, trace)) in enumerate(zip(st.columns(2), shown, strict=True)):
        if col.button(
            _("Decode both on {name}'s output").format(name=name),
            key=element_key("force-on", side),
        ):
            # The reference box is outside this fragment: set it on the next full run.
            st.session_state[Key.NEXT_REFERENCE] = trace.text
            st.rerun()


def _difference_ui(left: str, a: Trace, right: str, b: Trace) -> None:
    """Two decodings of one output: the difference of their matrices, and step by step."""
    st.plotly_chart(
        heatmaps.difference_heatmap(
            a, b, title=_("{left} minus {right}").format(left=left, right=right)
        )
    )
    st.caption(_("Red: the left model attends more; blue: the right model attends more."))
    # Every step shown, not ten and a scroll bar inside the table that hides the last ones.
    table = _headers(tables.comparison_frame(a, b), a, b)
    st.dataframe(table, hide_index=True, height="content")
    st.caption(
        _(
            "Per step: each model's attention entropy (0 = all on one word), the Jensen–Shannon "
            "divergence between them (0 = identical, 1 = disjoint) and whether they agree on the "
            "most attended word."
        )
    )


def _headers(frame, a: Trace, b: Trace):
    """The comparison table with its headers in the reader's language."""
    names = [_("step"), _("output")]
    shown = [a.attention, b.attention] if a.attention != b.attention else [_("left"), _("right")]
    names += [_("entropy {attention}").format(attention=name) for name in shown]
    names += [_("JS divergence"), _("same argmax")]
    return frame.set_axis(names, axis=1)


def _summary_ui(shown: list[tuple[str, Trace]]) -> None:
    """Each model's sentence figures, as the corpus page's table gives them."""
    for col, (name, trace) in zip(st.columns(len(shown)), shown, strict=True):
        figures = diagnostics.summary(trace)
        entropy, tau = figures.entropy, figures.monotonicity
        # A model's two figures one above the other under its own column: labels read whole.
        col.metric(
            _("{name}: mean entropy").format(name=name),
            "–" if math.isnan(entropy) else _("{bits:.2f} bits").format(bits=entropy),
        )
        col.metric(
            _("{name}: monotonicity (τ)").format(name=name),
            "–" if math.isnan(tau) else f"{tau:.2f}",
        )
