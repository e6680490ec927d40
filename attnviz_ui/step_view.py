"""Step by step: one model's output, alignment and the current step in detail."""

from __future__ import annotations

import streamlit as st

from attnviz import explain, plots
from attnviz.trace import Trace


def step_view_ui(
    side: int,
    name: str,
    trace: Trace,
    step: int,
    scaled: bool,
    gold: list[tuple[int, int]] | None = None,
) -> None:
    """One model's column (``side`` 0 left, 1 right) at ``step`` (0-based); ``scaled``: the
    model divides dot products by sqrt(H); ``gold``: token links to draw over the heatmap."""
    t = min(step, len(trace.tgt_tokens) - 1)
    st.subheader(name if name == trace.attention else f"{name} · {trace.attention}")
    st.markdown(explain.shaded_tokens(trace.tgt_tokens, trace.probs), unsafe_allow_html=True)
    st.caption("The output; each word shaded by the probability the model gave it.")
    st.plotly_chart(
        plots.heatmap(trace, step=t, title=f"{name}: alignment", gold=gold),
        key=f"heatmap-{side}",
        config={"toImageButtonOptions": {"format": "svg", "filename": f"{name}-attention"}},
    )
    st.caption(
        "Row = output word, column = source word, darker = more attention. The framed row is "
        "the current step. Hover for the raw score before the softmax."
        + (" Orange crosses: the human (gold) alignment." if gold else "")
    )
    _step_detail_ui(trace, t, scaled)


def _step_detail_ui(trace: Trace, t: int, scaled: bool) -> None:
    st.markdown(f"**Step {t + 1}: writing “{trace.tgt_tokens[t]}”**")
    st.markdown(explain.shaded_tokens(trace.src_tokens, trace.weights[t]), unsafe_allow_html=True)
    st.altair_chart(plots.step_bars(trace, t))
    st.caption("How this step's attention is spread over the source: the bars sum to 1.")
    st.dataframe(plots.candidates_frame(trace, t), hide_index=True)
    pieces = " For a word of several pieces: the pieces it weighed to start it."
    st.caption(
        "The words the model weighed for this step, most probable first."
        + (pieces if trace.pieces else "")
    )
    st.latex(explain.formula(trace.attention, scaled))
    st.latex(explain.WEIGHTS)
    summary = explain.step_summary(trace, t)
    st.markdown(
        f"Query = {explain.query_name(trace.attention)}: `{summary['query']}`  \n"
        f"Context c_t: `{summary['context']}`  \n"
        f"Most attended: `{summary['most attended']}` · output `{summary['output']}`"
    )
