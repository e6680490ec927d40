"""What if…: make the models write another word at a step, or make one look elsewhere, and
see how the rest of the translation changes."""

from __future__ import annotations

from enum import StrEnum

import streamlit as st

from attnviz.analysis.heads import best_picture_head
from attnviz.data.text import language_name
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import formulas, tables
from attnviz.plots.context_charts import attention_picture
from attnviz.plots.markup import markdown_text

from ..builders import what_if
from ..serving.models import Checkpoint, Choice, Side, description_of, steered
from ..state.session_keys import Key, element_key


class WhatIf(StrEnum):
    """The what-ifs on offer at a step, by their labels."""

    NOTHING = N_("Nothing")
    WORD = N_("Another word here")
    ATTENTION = N_("Attention elsewhere")


EDITS = {  # the label of each attention edit
    what_if.Edit.ALL_ON: N_("All on one source word"),
    what_if.Edit.WITHOUT: N_("Remove one source word"),
    what_if.Edit.OTHER: N_("The other model's attention"),
}
WORD = N_(
    "Pick a word for this step: both models are made to write the chosen model's output up "
    "to here, then that word, and go on with their own search from there. Rows above the "
    "dashed line were given, not chosen."
)
ATTENTION = N_(
    "Replace one model's attention at this step: the context cₜ is recomputed from the "
    "weights you set, and decoding goes on from there (greedy search). The scores are the "
    "model's own; only the weights change. For a subword model, a word's weight is shared "
    "among its pieces as the model shared it."
)

HEAD = N_(
    "A Transformer's picture is the average of the {heads} heads of layer {layer}. Your weights "
    "replace one head's; the other heads keep reading the sentence their own way, so the "
    "picture moves by 1/{heads} of your change, and the layers above read the result."
)


def what_if_choice_ui() -> WhatIf:
    """Which what-if to show at the current step (outside the stepping fragment: it does not
    change with the step)."""
    return st.selectbox(
        _("What if…"), list(WhatIf), format_func=keeping_language(_), key=Key.WHAT_IF
    )


def what_if_ui(kind: WhatIf, choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    """The ``kind`` of what-if at ``step`` (0-based): its controls and both outcomes."""
    if kind != WhatIf.NOTHING:
        st.subheader(_("What if… {what}").format(what=_(kind).lower()))
    if kind == WhatIf.WORD:
        _word_ui(choice, sides, step, sentence)
    elif kind == WhatIf.ATTENTION:
        _attention_ui(choice, sides, step, sentence)


def _model_ui(label: str, sides: list[Side], key: Key) -> int:
    """Which of the two models (0 left, 1 right), picked by name."""
    names = [s.name for s in sides]
    return st.radio(label, [0, 1], format_func=names.__getitem__, horizontal=True, key=key)


def _word_ui(choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    st.caption(_(WORD))
    base = _model_ui(_("Continue the output of"), sides, Key.WHAT_IF_BASE)
    trace = sides[base].trace
    own = trace.tgt_tokens[min(step, len(trace.tgt_tokens) - 1)]
    words = what_if.words_offered(trace, step)
    cols = st.columns([2, 2])
    picked = cols[0].selectbox(
        _("Instead of “{own}”, write").format(own=own), words, key=Key.WHAT_IF_WORD
    )
    target = language_name(choice.direction.target)
    typed = cols[1].text_input(
        _("…or type a {language} word").format(language=target), key=Key.WHAT_IF_TYPED, max_chars=60
    )
    word = typed.strip() or picked
    if not word:
        return
    prefix = what_if.word_prefix(trace, step, word)
    st.markdown(_("Prefix: **{prefix}**").format(prefix=markdown_text(" ".join(prefix))))
    outcomes = [steered(_checkpoint(choice, k), sentence, choice.beam, prefix) for k in range(2)]
    _outcomes_ui(sides, outcomes, len(prefix) - 1, word)


def _attention_ui(choice: Choice, sides: list[Side], step: int, sentence: str) -> None:
    st.caption(_(ATTENTION))
    k = _model_ui(_("Edit the attention of"), sides, Key.WHAT_IF_MODEL)
    side, other = sides[k], sides[1 - k]
    if not side.trace.has_attention:
        st.info(_(formulas.NO_ATTENTION).format(name=side.name))
        return
    own = _greedy(choice, k, sentence, side)
    t = min(step, len(own.tgt_tokens) - 1)
    cols = st.columns(2)
    edits = what_if.edits_offered(side.trace, other.trace, step)
    how = cols[0].selectbox(
        _("Edit"), edits, format_func=keeping_language(lambda e: _(EDITS[e])), key=Key.WHAT_IF_EDIT
    )
    source, words = 0, own.src_tokens
    if how != what_if.Edit.OTHER:
        source = cols[1].selectbox(
            _("Source word"),
            range(len(words)),
            format_func=lambda i: f"{i + 1}:{words[i]}",
            key=Key.WHAT_IF_SOURCE,
        )
    head = _head_ui(_checkpoint(choice, k)) if side.trace.heads is not None else None
    edit = (*what_if.attention_edit(own, step, how, source, other.trace), head)
    edited = steered(_checkpoint(choice, k), sentence, 1, None, edit)
    if isinstance(edited, Refused):
        st.warning(edited.message)
        return
    st.caption(_("Compared with the model's own greedy translation.") if choice.beam > 1 else "")
    cols = st.columns(2)
    versions = [("trained", _("as trained"), own), ("edited", _("edited"), edited)]
    for col, (key, label, trace) in zip(cols, versions, strict=True):
        with col:
            st.markdown(f"**{side.name}, {label}:** {markdown_text(trace.text)}")
            frame = tables.candidates_table(trace, min(t, len(trace.tgt_tokens) - 1)).frame()
            st.dataframe(frame.set_axis([_(c) for c in frame.columns], axis=1), hide_index=True)
            st.plotly_chart(
                attention_picture(trace, step=t, title=f"{side.name}, {label}"),
                key=element_key("what-if-att", key),
            )
    st.caption(
        _(
            "Left: the model as trained; right: with your weights at step {step}. The tables are "
            "the next word's probabilities at that step; the framed row is the edited step."
        ).format(step=t + 1)
    )


def _greedy(choice: Choice, k: int, sentence: str, side: Side) -> Trace:
    """The side's own decoding if greedy, else its greedy decoding (edits are greedy)."""
    if choice.beam == 1 and side.trace.mode == "greedy":
        return side.trace
    trace = steered(_checkpoint(choice, k), sentence, 1)
    return trace if isinstance(trace, Trace) else side.trace


def _head_ui(checkpoint: Checkpoint) -> int:
    """The head of a Transformer's picture layer that the edit replaces (0-based); the one
    that aligned best on its card's gold pairs comes first."""
    model = description_of(checkpoint)
    layer, heads = model.config.picture_layer, model.config.heads
    st.caption(_(HEAD).format(heads=heads, layer=layer + 1))
    return st.selectbox(
        _("Head"),
        range(heads),
        index=best_picture_head(model.card, layer),
        format_func=lambda h: _("head {head} of layer {layer}").format(head=h + 1, layer=layer + 1),
        key=Key.WHAT_IF_HEAD,
    )


def _checkpoint(choice: Choice, k: int) -> Checkpoint:
    return choice.left if k == 0 else choice.right


def _grown_note(outcome: Trace, given: int, word: str) -> str | None:
    """What to say where ``word``, given at output word ``given``, was only the start of a word
    for the model ("ache", a piece of "achevé"), or None: it wrote the word as given."""
    if given >= len(outcome.tgt_tokens) or outcome.tgt_tokens[given] == word:
        return None
    return _(
        "“{word}” is only the start of a word for this model: it went on to write “{written}”."
    ).format(word=markdown_text(word), written=markdown_text(outcome.tgt_tokens[given]))


def _outcomes_ui(sides: list[Side], outcomes: list[Trace | Refused], given: int, word: str) -> None:
    """Each model's translation from the prefix that ends in ``word``, output word ``given``."""
    for k, (col, side, outcome) in enumerate(zip(st.columns(2), sides, outcomes, strict=True)):
        with col:
            if isinstance(outcome, Refused):
                st.warning(f"{side.name}: {outcome.message}")
                continue
            own, given_text = side.trace.text, outcome.text
            st.markdown(
                _("**{name}, its own:** {text}").format(name=side.name, text=markdown_text(own))
            )
            st.markdown(
                _("**{name}, from the prefix:** {text}").format(
                    name=side.name, text=markdown_text(given_text)
                )
            )
            if note := _grown_note(outcome, given, word):
                st.caption(note)
            title = _("{name} from the prefix").format(name=side.name)
            fig = attention_picture(outcome, step=given, title=title)
            fig.add_hline(y=given + 0.5, line_dash="dash", line_color="#ff7f0e")
            st.plotly_chart(fig, key=element_key("what-if-word", k))
    st.caption(
        _(
            "The framed row is the word you chose. Compare how each model continues and where "
            "it looks after being made to write it."
        )
    )
