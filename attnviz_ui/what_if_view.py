"""What if…: make the models write another word at a step, or make one look elsewhere, and
see how the rest of the translation changes."""

from __future__ import annotations

from enum import StrEnum

import streamlit as st

from attnviz.data.text import language_name
from attnviz.decoding import steer
from attnviz.decoding.trace import Trace
from attnviz.plots import charts, explain

from .cache import Checkpoint, Choice, Side, steered


class WhatIf(StrEnum):
    """The what-ifs on offer at a step, by their labels."""

    NOTHING = "Nothing"
    WORD = "Another word here"
    ATTENTION = "Attention elsewhere"


EDITS = {  # the label of each attention edit
    steer.Edit.ALL_ON: "All on one source word",
    steer.Edit.WITHOUT: "Remove one source word",
    steer.Edit.OTHER: "The other model's attention",
}
WORD = (
    "Pick a word for this step: both models are made to write the chosen model's output up "
    "to here, then that word, and go on with their own search from there. Rows above the "
    "dashed line were given, not chosen."
)
ATTENTION = (
    "Replace one model's attention at this step: the context c_t is recomputed from the "
    "weights you set, and decoding goes on from there (greedy search). The scores are the "
    "model's own; only the weights change. For a subword model, a word's weight is shared "
    "among its pieces as the model shared it."
)


def what_if_choice_ui() -> WhatIf:
    """Which what-if to show at the current step (outside the stepping fragment: it does not
    change with the step)."""
    return st.selectbox("What if…", list(WhatIf), key="what_if")


def what_if_ui(kind: WhatIf, choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    """The ``kind`` of what-if at ``step`` (0-based): its controls and both outcomes."""
    if kind != WhatIf.NOTHING:
        st.subheader(f"What if… {kind.lower()}")
    if kind == WhatIf.WORD:
        _word_ui(choice, sides, step, sentence)
    elif kind == WhatIf.ATTENTION:
        _attention_ui(choice, sides, step, sentence)


def _model_ui(label: str, sides: list[Side], key: str) -> int:
    """Which of the two models (0 left, 1 right), picked by name."""
    names = [s.name for s in sides]
    return st.radio(label, [0, 1], format_func=names.__getitem__, horizontal=True, key=key)


def _word_ui(choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    st.caption(WORD)
    base = _model_ui("Continue the output of", sides, "what_if_base")
    trace = sides[base].trace
    own = trace.tgt_tokens[min(step, len(trace.tgt_tokens) - 1)]
    words = steer.words_offered(trace, step)
    cols = st.columns([2, 2])
    picked = cols[0].selectbox(f"Instead of “{own}”, write", words, key="what_if_word")
    target = language_name(choice.direction.target)
    typed = cols[1].text_input(f"…or type a {target} word", key="what_if_typed", max_chars=60)
    word = typed.strip() or picked
    if not word:
        return
    prefix = steer.word_prefix(trace, step, word)
    st.markdown(f"Prefix: **{explain.markdown_text(' '.join(prefix))}**")
    outcomes = [steered(_checkpoint(choice, k), sentence, choice.beam, prefix) for k in range(2)]
    _outcomes_ui(sides, outcomes, len(prefix) - 1)


def _attention_ui(choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    st.caption(ATTENTION)
    k = _model_ui("Edit the attention of", sides, "what_if_model")
    side, other = sides[k], sides[1 - k]
    own = _greedy(choice, k, sentence, side)
    t = min(step, len(own.tgt_tokens) - 1)
    cols = st.columns(2)
    edits = steer.edits_offered(side.trace, other.trace, step)
    how = cols[0].selectbox("Edit", edits, format_func=EDITS.__getitem__, key="what_if_edit")
    source, words = 0, own.src_tokens
    if how != steer.Edit.OTHER:
        source = cols[1].selectbox(
            "Source word",
            range(len(words)),
            format_func=lambda i: f"{i + 1}:{words[i]}",
            key="what_if_source",
        )
    edit = steer.attention_edit(own, step, how, source, other.trace)
    edited = steered(_checkpoint(choice, k), sentence, 1, None, edit)
    if isinstance(edited, str):
        st.warning(edited)
        return
    st.caption("Compared with the model's own greedy translation." if choice.beam > 1 else "")
    cols = st.columns(2)
    for col, (label, trace) in zip(cols, [("as trained", own), ("edited", edited)], strict=True):
        with col:
            st.markdown(f"**{side.name}, {label}:** {explain.markdown_text(trace.text)}")
            st.dataframe(
                charts.candidates_frame(trace, min(t, len(trace.tgt_tokens) - 1)), hide_index=True
            )
            st.plotly_chart(
                charts.heatmap(trace, step=t, title=f"{side.name}, {label}"),
                key=f"what-if-att-{label}",
            )
    st.caption(
        f"Left: the model as trained; right: with your weights at step {t + 1}. The tables are "
        "the next word's probabilities at that step; the framed row is the edited step."
    )


def _greedy(choice: Choice, k: int, sentence: str, side: Side) -> Trace:
    """The side's own decoding if greedy, else its greedy decoding (edits are greedy)."""
    if choice.beam == 1 and side.trace.mode == "greedy":
        return side.trace
    trace = steered(_checkpoint(choice, k), sentence, 1)
    return trace if isinstance(trace, Trace) else side.trace


def _checkpoint(choice: Choice, k: int) -> Checkpoint:
    return choice.left if k == 0 else choice.right


def _outcomes_ui(sides: list[Side], outcomes: list, given: int) -> None:
    for k, (col, side, outcome) in enumerate(zip(st.columns(2), sides, outcomes, strict=True)):
        with col:
            if isinstance(outcome, str):
                st.warning(f"{side.name}: {outcome}")
                continue
            st.markdown(f"**{side.name}, its own:** {explain.markdown_text(side.trace.text)}")
            st.markdown(f"**{side.name}, from the prefix:** {explain.markdown_text(outcome.text)}")
            fig = charts.heatmap(outcome, step=given, title=f"{side.name} from the prefix")
            fig.add_hline(y=given + 0.5, line_dash="dash", line_color="#ff7f0e")
            st.plotly_chart(fig, key=f"what-if-word-{k}")
    st.caption(
        "The framed row is the word you chose. Compare how each model continues and where it "
        "looks after being made to write it."
    )
