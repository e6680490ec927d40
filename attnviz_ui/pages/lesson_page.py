"""The Lesson page: the lecture notes' path from the fixed context to the Transformer, one screen
per step (attnviz.plots.lesson_notes), each with its words, one live picture of the class's
sentence from the shipped models, one thing to try, and Back and Next. The sentence is the one
page's sentence, typed in the same boxes."""

from __future__ import annotations

import streamlit as st

from attnviz.analysis.heads import heads_on_sentence
from attnviz.decoding.steer import piece_step
from attnviz.decoding.trace import Trace
from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.plots import formulas, heatmaps, step_charts
from attnviz.plots.context_charts import attention_picture
from attnviz.plots.heads_charts import heads_figure
from attnviz.plots.lesson_notes import (
    FURTHER,
    MISSING,
    NAMES,
    NUMBERS_NOTE,
    STEPS,
    grown_input,
    lesson_role,
    notes_table,
    notes_weights_text,
    opinions,
    opinions_text,
)

from ..builders.eflomal_agreement import eflomal_agreement
from ..serving.aligner import alignments_of
from ..serving.lesson import score_times_here
from ..serving.models import Checkpoint, Choice, description_of, translate
from ..serving.replays import step_numbers
from ..state.session_keys import Key, element_key
from ..views.walk_through import taught_offer_ui
from ..views.why_view import fixed_and_attention, lost_words_ui, struck_source
from ..widgets.html_widgets import shaded_tokens
from .sentence_inputs import inputs_ui


def lesson_page_ui(choice: Choice) -> None:
    """The sentence boxes, then the lesson's current step."""
    sentence, reference = inputs_ui(choice)
    k = _step_ui()
    step = STEPS[k]
    words, picture = st.columns([2, 3])
    with words:
        st.markdown(f"#### {k + 1}. {_(step.title)}")
        if not sentence.strip():
            st.info(_("Type a sentence or pick an example to start."))
            return
        text_slot = st.empty()
        try_slot = st.empty()  # under the words, above the numbers: on the first screen
        beside = st.container()  # the step's formula and numbers
    with picture:
        said = DRAWN[k](choice, sentence, reference.strip(), beside)
    if said is None:  # the direction has no model for this step: say so, offer nothing to try
        needs = _(step.needs)
        text_slot.info(_(MISSING).format(needs=needs, direction=choice.direction))
        return
    text_slot.markdown(_(step.text).format(**said))
    try_slot.caption(_("Try this: {what}").format(what=_(step.to_try)))


def _step_ui() -> int:
    """Back, the step's place in the lesson, and Next; the step shown, 0-based."""
    state = st.session_state
    k = min(max(int(state.get(Key.LESSON_STEP, 1)), 1), len(STEPS)) - 1
    state[Key.LESSON_STEP] = k + 1
    back, where, ahead = st.columns([1, 4, 1], vertical_alignment="center")
    back.button(
        _("Back"), icon="⬅️", disabled=k == 0, on_click=_go, args=(k,), key=Key.LESSON_BACK,
        use_container_width=True,
    )  # fmt: skip
    where.progress((k + 1) / len(STEPS), text=_("Step {k} of {n}").format(k=k + 1, n=len(STEPS)))
    ahead.button(
        _("Next step"), icon="➡️", disabled=k == len(STEPS) - 1, on_click=_go, args=(k + 2,),
        key=Key.LESSON_NEXT, use_container_width=True,
    )  # fmt: skip
    return k


def _go(step: int) -> None:
    st.session_state[Key.LESSON_STEP] = step


def _model(choice: Choice, role: str) -> Checkpoint | None:
    """The direction's model of ``role`` in the lesson (:func:`lesson_role`), the sidebar's
    first."""
    ranked = dict.fromkeys([choice.left, choice.right, *choice.models])
    return next((c for c in ranked if lesson_role(description_of(c).config) == role), None)


def _trace(checkpoint: Checkpoint, sentence: str, reference: str) -> Trace | None:
    """``checkpoint``'s greedy decoding of ``sentence`` (forced on ``reference``), or None
    after saying why it refused."""
    trace = translate(checkpoint, sentence, 1, reference)
    if isinstance(trace, Refused):
        st.warning(f"{checkpoint.name}: {trace.message}")
        return None
    return trace


PICTURE_HEIGHT = 420  # px at most: the picture ends on the first screen at 1024x768


def _shown(figure):
    """``figure`` no taller than :data:`PICTURE_HEIGHT`: its rows drawn closer, not cut."""
    height = figure.layout.height
    if height is not None and height > PICTURE_HEIGHT:
        figure.update_layout(height=PICTURE_HEIGHT)
    return figure


def _step_slider(trace: Trace) -> int:
    """The step slider shared by Bahdanau's and Luong's screens; the step, 0-based."""
    steps = len(trace.tgt_tokens)
    if steps == 1:
        return 0
    state = st.session_state  # the step kept from the other screen, or a link's, in range
    state[Key.LESSON_AT] = min(max(int(state.get(Key.LESSON_AT, 1)), 1), steps)
    return st.slider(_("Step"), 1, steps, key=Key.LESSON_AT) - 1


# Each step draws its picture beside its words and returns the values its words name, or None
# when the direction has no model for it.


def _fixed(choice: Choice, sentence: str, reference: str, beside) -> dict | None:
    """Step 1 grows an input of its own from a short sentence, one more sentence a notch, and
    strikes through the source words the fixed-context model loses."""
    fixed, _attending = fixed_and_attention(choice)
    further = FURTHER.get(choice.direction.source, [])
    if fixed is None or not further:
        return None
    count = st.slider(_("Sentences joined"), 1, len(further), 1, key=Key.LESSON_LENGTH)
    text = grown_input(further[0], further[1:], count, choice.direction.source)
    trace = _trace(fixed, text, "")
    if trace is not None:
        with beside:
            lost = lost_words_ui([fixed], {fixed.name: trace}).get(fixed.name)
            if lost is not None:
                st.html(struck_source(trace, lost))
                st.caption(_("{lost} source words lost").format(lost=sum(lost)))
            st.html(shaded_tokens(trace.output_tokens, trace.probs[: len(trace.output_tokens)]))
        picture = _shown(attention_picture(trace, title=fixed.name))
        st.plotly_chart(picture, key=element_key("lesson", 1))
    size = description_of(fixed).config.hidden
    return {"fixed": f"**{fixed.name}**", "size": size, "first": further[0]}


def _scored(attention: str, k: int):
    def draw(choice: Choice, sentence: str, reference: str, beside) -> dict | None:
        checkpoint = _model(choice, attention)
        if checkpoint is None:
            return None
        trace = _trace(checkpoint, sentence, reference)
        if trace is None:
            return {}
        with beside:  # the notes' own wording of their example, one click from forced
            taught_offer_ui(sentence, reference)
        if noted := notes_weights_text(sentence, trace, checkpoint.name):
            beside.caption(noted)
        t = min(_step_slider(trace), len(trace.tgt_tokens) - 1)
        picture = _shown(attention_picture(trace, step=t, title=checkpoint.name))
        st.plotly_chart(picture, key=element_key("lesson", k))
        beside.latex(formulas.step_formula(trace.attention, trace.scaled))
        hidden = description_of(checkpoint).config.hidden
        scaled = formulas.scaled_note(trace.attention, trace.scaled, hidden)
        if scaled is not None:
            beside.caption(scaled)
        own = trace.pieces or trace
        numbers = step_numbers(checkpoint, own, piece_step(trace, t))
        frame = step_charts.terms_frame(numbers).style.format(precision=3)
        beside.dataframe(frame, hide_index=True, height=150)
        beside.caption(_(NUMBERS_NOTE))
        return {}

    return draw


def _table(choice: Choice, sentence: str, reference: str, beside) -> dict | None:
    found = [c for c in (_model(choice, name) for name in NAMES) if c is not None]
    if len(found) < len(NAMES):
        return None
    traces = [_trace(c, sentence, reference) for c in found]
    if None in traces:
        return {}
    bahdanau, luong = traces
    configs = tuple(description_of(c).config for c in found)
    times = score_times_here(configs[0].hidden, len(bahdanau.src_tokens))
    rows = notes_table(bahdanau, luong, configs, times, _("on this machine"))
    header = ["", found[0].name, found[1].name, _("evidence")]
    st.table({name: column for name, column in zip(header, zip(*rows, strict=True), strict=True)})
    return {}


def _alignment(choice: Choice, sentence: str, reference: str, beside) -> dict | None:
    checkpoint = _model(choice, "luong") or _model(choice, "bahdanau")
    if checkpoint is None:
        return None
    trace = _trace(checkpoint, sentence, reference)
    if trace is None:
        return {}
    aligned = alignments_of([trace])
    figure = attention_picture(trace, title=checkpoint.name)
    if isinstance(aligned, Refused):
        st.caption(aligned.message)
    else:
        figure = heatmaps.with_eflomal(figure, list(aligned[0].symmetric))
        found = eflomal_agreement(trace, aligned[0], None)
        if found is not None:
            beside.metric(_("attention vs eflomal (AER)"), f"{found.attention:.0f}")
            beside.caption(opinions_text(opinions(trace, aligned[0].symmetric)))
    st.plotly_chart(_shown(figure), key=element_key("lesson", 5))
    return {}


def _transformer(choice: Choice, sentence: str, reference: str, beside) -> dict | None:
    checkpoint = _model(choice, "transformer")
    if checkpoint is None:
        return None
    trace = _trace(checkpoint, sentence, reference)
    if trace is None or trace.heads is None:
        return {}
    beside.latex(formulas.HEAD_SCORE)
    beside.latex(formulas.HEADS_TOGETHER)
    aligned = alignments_of([trace])
    figures = (
        None if isinstance(aligned, Refused) else heads_on_sentence(trace, aligned[0].symmetric)
    )
    best = figures.best if figures else None
    t = len(trace.tgt_tokens) - 1
    aer = figures.aer if figures else None
    st.plotly_chart(_shown(heads_figure(trace, t, aer, best)), key=element_key("lesson", 6))
    st.caption(
        _(
            "In each grid, the rows are the words it wrote (“{output}”) and the columns your "
            "sentence's (“{source}”); hover a cell to read them."
        ).format(output=trace.text, source=" ".join(trace.src_tokens[:-1]))
    )
    if best is not None:
        beside.caption(
            _("Head {head} of layer {layer} aligns best with eflomal here (AER {aer:.0f}).").format(
                head=best[1] + 1, layer=best[0] + 1, aer=figures.aer[best]
            )
        )
    return {}


# What each step draws beside its words, returning the values its words name.
DRAWN = (_fixed, _scored("bahdanau", 2), _scored("luong", 3), _table, _alignment, _transformer)
