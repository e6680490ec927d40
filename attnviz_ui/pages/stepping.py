"""The views that follow the step slider (Step by step, Bahdanau vs Luong, To the Transformer):
the slider and Play, the step view's switches, the stepping fragment that redraws alone on a
step change, each model's notes under its heatmap, and the switch between words and pieces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.plots import model_notes

from ..serving.aligner import alignments_of, doubts_of
from ..serving.models import Choice, Side, gold_of
from ..state import playback
from ..state.playback import Playback
from ..state.session_keys import Key
from ..views import aligner_view
from ..views.attribution_view import attribution_view_ui
from ..views.compare_view import compare_view_ui
from ..views.corpus_view import corpus_view_ui
from ..views.step_view import (
    column,
    heatmap_ui,
    how_to_read,
    model_header_ui,
    numbers_ui,
    output_ui,
    step_detail_ui,
)
from ..views.transformer_view import transformer_view_ui
from ..views.what_if_view import WhatIf, what_if_choice_ui, what_if_ui
from ..widgets.follow_step import follow_step_ui
from ..widgets.language import bind_language
from .address_bar import step_shown_ui
from .navigation import View

PLAY_SECONDS = 0.8
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


def notes_ui(slots: list[DeltaGenerator], choice: Choice, sides: list[Side]) -> None:
    """In each side's slot, what a reader should know before trusting its output: the Trace's
    own warning, then why to check it (:func:`..serving.aligner.doubts_of`). Written once the
    pictures are sent: eflomal's check of a new sentence (its own process, and about 3 ms of
    this one's CPU, about 10 ms for a typed sentence's pairs: benchmarks/classroom/results.md)
    then delays no picture, which matters most when a class keeps the server busy."""
    found = doubts_of([choice.left, choice.right], [side.trace for side in sides])
    for slot, side, doubt in zip(slots, sides, found, strict=True):
        notes = [model_notes.trace_warning(side.trace), model_notes.doubts_note(doubt)]
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
    step_shown_ui(step, steps)  # the address follows the step
    STEPPING_VIEWS[view](choice, sides, over_words, step, switches)
    state = st.session_state
    playing = state[Key.PLAYING]
    done = playback.after_run(Playback(state[Key.STEP], playing), steps)[0]
    if playing and not done.playing:  # the last step: stop, and the fragment's timer with it
        state[Key.PLAYING], state[Key.PLAYED] = False, True
        st.rerun()


def _steps_ui(
    choice: Choice, sides: list[Side], over_words: list[Side], step: int, switches: StepSwitches
) -> None:
    """The step-by-step view at ``step`` (0-based), as ``switches`` say; each model's notes
    (on ``over_words``) under its heatmap, once both heatmaps are sent."""
    state = st.session_state
    gold, sentence, reference = state.get(Key.GOLD), state[Key.SENTENCE], state[Key.REFERENCE]
    # A what-if asked for, first: its controls and result right under the button that asked
    what_if_ui(switches.what_if, choice, sides, step, sentence)
    cols = st.columns(2)
    aligned = _eflomal_ui(sides) if switches.eflomal else None
    golds = [gold_of(s, gold, sentence, reference) for s in sides]
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
    if state.get(Key.PLAYING) or state.pop(Key.PLAYED, False):  # and the page drawn after it
        follow_step_ui(step)
    if aligned:
        aligner_view.agreement_ui(sides, aligned, golds)
    if switches.numbers:
        for col, side, c in zip(cols, sides, shown, strict=True):
            with col:
                numbers_ui(side, c.step)
    if switches.attributed:
        attribution_view_ui(choice, sides, step)
    corpus_view_ui(choice, sides, step)


def _compare_ui(
    choice: Choice, sides: list[Side], over_words: list[Side], step: int, switches: StepSwitches
) -> None:
    compare_view_ui([(side.name, side.trace) for side in sides], step)


def _transformer_ui(
    choice: Choice, sides: list[Side], over_words: list[Side], step: int, switches: StepSwitches
) -> None:
    transformer_view_ui(choice, sides, step, st.session_state[Key.SENTENCE])


# What each view that follows the step slider draws at a step, given the page's choice, both
# sides (as the pictures show them, and as words), the step (0-based) and the switches.
STEPPING_VIEWS: dict[View, Callable[[Choice, list[Side], list[Side], int, StepSwitches], None]] = {
    View.STEPS: _steps_ui,
    View.COMPARE: _compare_ui,
    View.TRANSFORMER: _transformer_ui,
}


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


def pieces_ui() -> None:
    """The switch between words and the models' own subword pieces, what each shows said in
    its help."""
    on = st.session_state.get(Key.PIECES, False)
    st.toggle(_("Show subword pieces"), key=Key.PIECES, help=_(PIECES) if on else _(WORDS))
