"""The one-sentence page: the sentence, both models' decodings and the chosen view."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attnviz.analysis.align import gold_to_draw
from attnviz.data.text import language_name
from attnviz.errors import Refused
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import model_notes
from attnviz.store.catalog import Direction

from ..serving.aligner import alignments_of, doubts_of
from ..serving.models import Choice, Side, load, translate
from ..state import playback
from ..state.playback import Playback
from ..state.session_keys import Key
from ..views import aligner_view
from ..views.attribution_view import attribution_view_ui
from ..views.beam_view import beam_view_ui
from ..views.cards_view import cards_view_ui
from ..views.compare_view import compare_view_ui
from ..views.corpus_view import corpus_view_ui
from ..views.export_view import export_view_ui
from ..views.step_view import (
    column,
    heatmap_ui,
    how_to_read,
    model_header_ui,
    numbers_ui,
    output_ui,
    step_detail_ui,
)
from ..views.taught_view import taught_view_ui
from ..views.transformer_view import transformer_view_ui
from ..views.walk_through import is_taught, taught_reference, walk_through_ui
from ..views.what_if_view import WhatIf, what_if_choice_ui, what_if_ui
from ..views.why_view import why_view_ui
from ..widgets.language import bind_language
from .navigation import STEPPING, View

# By direction ("source-target"); the first is translated when the page opens, shown finished.
EXAMPLES = {
    "en-fr": [
        "He bought a red car and a small house.",
        "I am cold.",
        "Where is the station?",
        "She doesn't like apples.",
        "Good morning!",
        "We will meet at the station tomorrow morning before the train leaves for Paris.",
    ],
    "zh-en": [
        "我爱吃苹果。",
        "汤姆有三个孩子。",
        "玛丽每天早上7点起床。",
        "你叫什么名字？",
        "这本书多少钱？",
        "我们明天在车站见面。",
    ],
    "en-zh": [  # the lecture notes' examples first
        "I love you.",
        "I love deep learning.",
        "Tom has three children.",
        "Mary gets up at 7 every morning.",
        "How much is this book?",
        "We will meet at the station tomorrow.",
    ],
}


def examples_of(direction: Direction) -> list[str]:
    """The examples of ``direction``; for a direction without its own, those of another
    from the same source language; none for another language."""
    own = EXAMPLES.get(f"{direction.source}-{direction.target}")
    if own is not None:
        return own
    return next((e for key, e in EXAMPLES.items() if key.split("-")[0] == direction.source), [])


OWN = N_("(type your own)")
PLAY_SECONDS = 0.8
# Per text box, checked on the server: a box with max_chars shows a "55/4000" counter that
# covers the end of the sentence. The models refuse over 200 words before decoding anyway.
MAX_CHARS = 4000
PIECES = N_(
    "The models read and write subword pieces; ▁ starts a word, and a word never "
    "seen whole is spelled in several pieces (characters never seen, in bytes)."
)
WORDS = N_(
    "Words, as you typed them. The models work on subword pieces: a target word's "
    "attention to a source word is the attention between their pieces, summed over "
    "the source word's pieces and averaged over the target word's steps, so each "
    "row still sums to 1. Its probability is the product of its pieces'."
)


@dataclass(frozen=True)
class StepSwitches:
    """The step-by-step view's switches, as the stepping fragment is drawn with them (the
    Bahdanau vs Luong view has none: it takes the defaults)."""

    reveal: bool = True  # write the output step by step ("Show the finished translation" off)
    numbers: bool = False  # "Show the numbers of this step"
    what_if: WhatIf = WhatIf.NOTHING  # the what-if shown below the step
    attributed: bool = False  # "Attribution beside attention"
    eflomal: bool = False  # eflomal's links on the heatmaps


def _example() -> None:
    state = st.session_state
    example = state[Key.EXAMPLE]
    state[Key.SENTENCE] = "" if example == OWN else example
    state[Key.REFERENCE] = taught_reference(example)  # the notes' walk-through, forced
    _new_sentence(example != OWN)


def _new_sentence(example: bool) -> None:
    """Before a new sentence's run: it is shown finished, at its last step; a typed sentence
    drops a walk-through's reference the page filled in."""
    shown = playback.new_sentence()
    state = st.session_state
    if not example:  # the Examples box no longer names the sentence shown
        state[Key.EXAMPLE] = OWN
    if not example and is_taught(state.get(Key.REFERENCE, "")):
        state[Key.REFERENCE] = ""
    state[Key.STEP], state[Key.PLAYING] = shown.step, shown.playing
    state[Key.TO_LAST] = shown.to_last


def _open_on(examples: list[str]) -> None:
    """Show the first example, finished (no examples: an empty box)."""
    state = st.session_state
    state[Key.EXAMPLE] = examples[0] if examples else OWN
    first = (examples or [""])[0]
    state[Key.SENTENCE], state[Key.REFERENCE] = first, taught_reference(first)
    _new_sentence(example=True)


def inputs_ui(direction: Direction) -> tuple[str, str]:
    """The sentence and the reference translation typed ("" for none); the examples are those
    of ``direction``'s source language, and switching the direction opens on its first."""
    state = st.session_state
    examples = examples_of(direction)
    if Key.NEXT_REFERENCE in state:  # asked for by a button of the compare view
        state[Key.REFERENCE] = state.pop(Key.NEXT_REFERENCE)
    shown_for = state.get(Key.EXAMPLES_OF)
    if shown_for != tuple(direction):
        state[Key.EXAMPLES_OF] = tuple(direction)
        # A new visitor sees a translation before typing anything (unless the corpus page
        # sent a sentence); a new direction, its own first example.
        if shown_for is not None or Key.SENTENCE not in state:
            _open_on(examples)
    # One row, so that the pictures below start higher up the screen.
    cols = st.columns([2, 3, 3])
    cols[0].selectbox(
        _("Examples"),
        [OWN, *examples],
        format_func=keeping_language(lambda e: _(e) if e == OWN else e),
        key=Key.EXAMPLE,
        on_change=_example,
    )
    sentence = cols[1].text_input(
        _("{language} sentence").format(language=language_name(direction.source)),
        placeholder=_("e.g. {example}").format(example=examples[-1]) if examples else "",
        key=Key.SENTENCE,
        on_change=_new_sentence,
        args=(False,),
    )
    reference = cols[2].text_input(
        _("Reference translation (optional)"),
        placeholder=_("{language}; both models are then force-decoded on it").format(
            language=language_name(direction.target)
        ),
        key=Key.REFERENCE,
    )
    return sentence, reference


def decode_ui(choice: Choice, sentence: str, reference: str) -> list[Side] | None:
    """Both models' decodings, or None after showing why a model refused the sentence."""
    if note := load(choice.left).text.language_note(sentence):
        st.warning(note + _(" Choose the direction in the sidebar."), icon="🔤")
    sides = []
    for checkpoint in (choice.left, choice.right):
        trace = translate(checkpoint, sentence, choice.beam, reference.strip())
        if isinstance(trace, Refused):
            st.warning(f"{checkpoint.name}: {trace.message}")
            return None
        sides.append(Side(checkpoint.name, load(checkpoint), trace))
    return sides


def pieces_ui() -> None:
    """The switch between words and the models' own subword pieces, what each shows said in
    its help."""
    on = st.session_state.get(Key.PIECES, False)
    st.toggle(_("Show subword pieces"), key=Key.PIECES, help=_(PIECES) if on else _(WORDS))


def shown_sides(sides: list[Side]) -> list[Side]:
    """The sides as the pictures show them: with "Show subword pieces" on (its widget is drawn
    with the view's switches, after this is read), their traces over pieces."""
    if st.session_state.get(Key.PIECES) and any(side.trace.pieces for side in sides):
        return [side._replace(trace=side.trace.pieces or side.trace) for side in sides]
    return sides


def notes_ui(slots: list[DeltaGenerator], choice: Choice, sides: list[Side]) -> None:
    """In each side's slot, what a reader should know before trusting its output: the Trace's
    own warning, then why to check it (:func:`..serving.aligner.doubts_of`). Written once the
    pictures are sent: eflomal's check of a new sentence (its own process, and about 3 ms of
    this one's CPU, about 10 ms for a typed sentence's pairs: benchmarks/classroom/results.md)
    then delays no picture, which matters most when a class keeps the server busy."""
    found = doubts_of([choice.left, choice.right], [side.trace for side in sides])
    for slot, side, doubt in zip(slots, sides, found, strict=True):
        notes = [side.trace.warning(), model_notes.doubts_note(doubt)]
        if text := " ".join(n for n in notes if n):
            slot.warning(text, icon="🔎")


def step_ui(steps: int) -> int:
    """The step slider, inside the stepping fragment; the step shown, 0-based. While playing,
    each run shows the next step."""
    state = st.session_state
    asked = Playback(
        state.get(Key.STEP, 1),
        state.get(Key.PLAYING, False),
        state.pop(Key.RESTART, False),
        state.pop(Key.TO_LAST, False),
    )
    shown = playback.before_run(asked, steps)
    state[Key.STEP], state[Key.PLAYING] = shown.step, shown.playing
    if steps == 1:
        return 0
    return st.slider(_("Step"), 1, steps, key=Key.STEP, label_visibility="collapsed") - 1


def stepping_ui(view: View, choice: Choice, sides: list[Side], over_words: list[Side]) -> None:
    """The step-dependent views: a fragment that reruns alone on a step change, and every
    PLAY_SECONDS while playing; above it, on one row, what does not change with the step
    (Play, the switches, the what-if, how to read the pictures), then each model's name,
    formula and notes. That part is drawn after the fragment, in a container that keeps its
    place on the page, so that both heatmaps are the first pictures sent once the models have
    decoded; the fragment reads the switches from the session state, which holds a widget's
    new value from the start of the run. ``over_words``: the sides as words, which the notes
    under the heatmaps name."""
    state = st.session_state
    steps = max(len(side.trace.tgt_tokens) for side in sides)
    playing = state.get(Key.PLAYING, False)
    above = st.container()
    fragment = st.fragment(_stepping, run_every=PLAY_SECONDS if playing else None)
    stepwise = view == View.STEPS
    switches = step_switches() if stepwise else StepSwitches()  # the compare view has none
    fragment(view, choice, sides, over_words, steps, switches)
    with above:
        cols = st.columns(4, vertical_alignment="bottom")
        _play_ui(cols[0], steps, playing)
        if stepwise:
            with cols[1].popover(_("Switches"), use_container_width=True, key=Key.SWITCHES):
                _switches_ui()
            with cols[2].popover(_("What if…"), use_container_width=True):
                what_if_choice_ui()
            pieces = any(side.trace.pieces for side in sides)
            fixed = not all(side.trace.has_attention for side in sides)
            gold = bool(state.get(Key.GOLD))
            with cols[3].popover(_("How to read"), use_container_width=True):
                st.markdown(how_to_read(switches.reveal, gold, pieces, fixed))
        if stepwise:
            for col, side in zip(st.columns(2), sides, strict=True):
                with col:
                    model_header_ui(side)


def _switches_ui() -> None:
    """The step view's switches, in a popover that keeps them off the first screen."""
    st.toggle(_("Show the finished translation"), key=Key.FINISHED)
    st.toggle(_("Show the numbers of this step"), key=Key.NUMBERS)
    st.toggle(_("Attribution beside attention"), key=Key.ATTRIBUTION_ON)
    aligner_view.switch_ui()
    pieces_ui()


def step_switches() -> StepSwitches:
    """The switches as the session state holds them: read before their widgets are drawn, above
    the fragment but after it on the page's run."""
    state = st.session_state
    return StepSwitches(
        reveal=not state.get(Key.FINISHED, False),
        numbers=state.get(Key.NUMBERS, False),
        what_if=state.get(Key.WHAT_IF, WhatIf.NOTHING),
        attributed=state.get(Key.ATTRIBUTION_ON, False),
        eflomal=state.get(Key.EFLOMAL_ON, False),
    )


def _play_ui(where, steps: int, playing: bool) -> None:
    label, icon = playback.face(playing)
    where.button(
        _(label),
        icon=icon,
        key=Key.PLAY,
        on_click=_play_pressed,
        args=(steps,),
    )


def _play_pressed(steps: int) -> None:
    """Play or Pause pressed, before the run it starts: that run draws the fragment with its
    timer started or stopped."""
    state = st.session_state
    pressed = playback.toggled(
        Playback(state.get(Key.STEP, 1), state.get(Key.PLAYING, False)), steps
    )
    state[Key.PLAYING], state[Key.RESTART] = pressed.playing, pressed.restart


def _stepping(
    view: View,
    choice: Choice,
    sides: list[Side],
    over_words: list[Side],
    steps: int,
    switches: StepSwitches,
) -> None:
    bind_language()  # a step change reruns this fragment alone
    step = step_ui(steps)
    if view == View.STEPS:
        _steps_ui(choice, sides, over_words, step, switches)
    elif view == View.TRANSFORMER:
        transformer_view_ui(choice, sides, step, st.session_state[Key.SENTENCE])
    else:
        compare_view_ui([(side.name, side.trace) for side in sides], step)
    state = st.session_state
    playing = state[Key.PLAYING]
    done = playback.after_run(Playback(state[Key.STEP], playing), steps)[0]
    if playing and not done.playing:  # the last step: stop, and the fragment's timer with it
        state[Key.PLAYING] = False
        st.rerun()


def _steps_ui(
    choice: Choice, sides: list[Side], over_words: list[Side], step: int, switches: StepSwitches
) -> None:
    """The step-by-step view at ``step`` (0-based), as ``switches`` say; each model's notes
    (on ``over_words``) under its heatmap, once both heatmaps are sent."""
    state = st.session_state
    gold, sentence, reference = state.get(Key.GOLD), state[Key.SENTENCE], state[Key.REFERENCE]
    cols = st.columns(2)
    aligned = _eflomal_ui(sides) if switches.eflomal else None
    golds = [gold_to_draw(s.translator, s.trace, gold, sentence, reference) for s in sides]
    shown = [
        column(side, step, switches.reveal, links, list(aligned[k].symmetric) if aligned else None)
        for k, (side, links) in enumerate(zip(sides, golds, strict=True))
    ]
    # Both heatmaps first, then both steps' bars, then what lies below them: the page
    # is drawn in the order it is looked at, every piece of it built beforehand.
    slots, notes = [], []
    for k, (col, side, c) in enumerate(zip(cols, sides, shown, strict=True)):
        with col:
            slots.append(heatmap_ui(k, side, c))
            notes.append(st.container())
    for slot, c in zip(slots, shown, strict=True):
        output_ui(slot, c)
    notes_ui(notes, choice, over_words)
    for col, side, c in zip(cols, sides, shown, strict=True):
        with col:
            step_detail_ui(side, c)
    if aligned:
        aligner_view.agreement_ui(sides, [choice.left, choice.right], aligned, golds)
    if switches.numbers:
        for col, side, c in zip(cols, sides, shown, strict=True):
            with col:
                numbers_ui(side, c.step)
    what_if_ui(switches.what_if, choice, sides, step, sentence)
    if switches.attributed:
        attribution_view_ui(choice, sides, step)
    corpus_view_ui(choice, sides, step)


def _eflomal_ui(sides: list[Side]):
    """eflomal's alignment of each side, or None after saying why there is none."""
    if st.session_state.get(Key.PIECES):
        st.caption(
            _("eflomal aligns words: switch off “{switch}” to see its links.").format(
                switch=_("Show subword pieces")
            )
        )
        return None
    aligned = alignments_of([side.trace for side in sides])
    if isinstance(aligned, Refused):
        st.warning(aligned.message)
        return None
    return aligned


def view_ui(view: View, sides: list[Side], beam: int) -> None:
    """One of the views that do not step."""
    shown = [(side.name, side.trace) for side in sides]
    if view == View.BEAM:
        beam_view_ui(shown, beam)
    elif view == View.CARDS:
        cards_view_ui([(s.name, s.translator) for s in sides])
    else:
        export_view_ui(shown)


def sentence_page_ui(choice: Choice) -> None:
    """The sentence in, both models' decodings out, one view at a time."""
    sentence, reference = inputs_ui(choice.direction)
    if not sentence.strip():
        st.info(_("Type a sentence or pick an example to start."))
        return
    if max(len(sentence), len(reference)) > MAX_CHARS:
        st.warning(_("A box holds at most {n:,} characters.").format(n=MAX_CHARS))
        return
    sides = decode_ui(choice, sentence, reference)
    if sides is None:
        return
    over_words = sides  # the notes name words, whichever the pictures show
    sides = shown_sides(sides)
    if note := model_notes.unknown_note(sides[0].trace):
        st.caption(note)
    # One view at a time: a page draws only what is looked at, so it answers sooner.
    view = st.radio(
        _("View"),
        list(View),
        format_func=keeping_language(_),
        horizontal=True,
        label_visibility="collapsed",
        key=Key.VIEW,
    )
    if view == View.STEPS:  # each model's notes under its heatmap
        stepping_ui(view, choice, sides, over_words)
        walk_through_ui(choice, sides, sentence, reference)
        return
    if view in (View.COMPARE, View.TRANSFORMER):
        slots = [col.container() for col in st.columns(len(sides))]
        stepping_ui(view, choice, sides, over_words)
    else:
        pieces_ui()
        slots = [col.container() for col in st.columns(len(sides))]
    if view == View.WHY:
        why_view_ui(choice, sentence)
    elif view == View.TAUGHT:
        taught_view_ui(choice, sentence, reference)
    elif view not in STEPPING:
        view_ui(view, sides, choice.beam)
    walk_through_ui(choice, sides, sentence, reference)
    notes_ui(slots, choice, over_words)
