"""The one-sentence page: the sentence, both models' decodings and the chosen view."""

from __future__ import annotations

import time

import streamlit as st

from attnviz import explain, playback
from attnviz.align import gold_for
from attnviz.playback import Playback

from .attribution_view import attribution_view_ui
from .beam_view import beam_view_ui
from .cards_view import cards_view_ui
from .compare_view import compare_view_ui
from .export_view import export_view_ui
from .models import Choice, Side, load, translate
from .pages import VIEWS
from .step_view import step_view_ui

EXAMPLES = [
    "I am cold.",
    "Where is the station?",
    "She doesn't like apples.",
    "He bought a red car and a small house.",
    "Good morning!",
    "We will meet at the station tomorrow morning before the train leaves for Paris.",
]
OWN = "(type your own)"
PLAY_SECONDS = 0.8
MAX_CHARS = 4000  # per text box; the models refuse over 200 words before decoding anyway
PIECES = (
    "The models read and write subword pieces; ▁ starts a word, and a word never "
    "seen whole is spelled in several pieces (characters never seen, in bytes)."
)
WORDS = (
    "Words, as you typed them. The models work on subword pieces: a target word's "
    "attention to a source word is the attention between their pieces, summed over "
    "the source word's pieces and averaged over the target word's steps, so each "
    "row still sums to 1. Its probability is the product of its pieces'."
)


def _example() -> None:
    example = st.session_state.example
    st.session_state.sentence = "" if example == OWN else example
    st.session_state.reference = ""


def inputs_ui() -> tuple[str, str]:
    """The sentence and the reference translation typed ("" for none)."""
    st.selectbox("Examples", [OWN, *EXAMPLES], key="example", on_change=_example)
    sentence = st.text_input(
        "English sentence",
        placeholder="e.g. Where is the station?",
        key="sentence",
        max_chars=MAX_CHARS,
    )
    reference = st.text_input(
        "Reference translation (optional)",
        placeholder="French; both models are then force-decoded on it",
        key="reference",
        max_chars=MAX_CHARS,
    )
    return sentence, reference


def decode_ui(choice: Choice, sentence: str, reference: str) -> list[Side] | None:
    """Both models' decodings, or None after showing why a model refused the sentence."""
    sides = []
    for checkpoint in (choice.left, choice.right):
        trace = translate(checkpoint, sentence, choice.beam, reference.strip())
        if isinstance(trace, str):
            st.warning(f"{checkpoint.name}: {trace}")
            return None
        sides.append(Side(checkpoint.name, load(checkpoint), trace))
    return sides


def notes_ui(sides: list[Side]) -> list[Side]:
    """What to know before reading the output; with "Show subword pieces" on, the sides
    with their traces over pieces."""
    for side in sides:
        if note := side.trace.warning():
            st.warning(f"{side.name}: {note}")
    if note := explain.unknown_note(sides[0].trace):
        st.caption(note)
    if not any(side.trace.pieces for side in sides):
        return sides
    if st.toggle("Show subword pieces", key="pieces"):
        st.caption(PIECES)
        return [side._replace(trace=side.trace.pieces or side.trace) for side in sides]
    st.caption(WORDS)
    return sides


def step_ui(steps: int) -> int:
    """The step slider and the play button; the step shown, 0-based."""
    state = st.session_state
    shown = playback.before_run(
        Playback(state.get("step", 1), state.get("playing", False), state.pop("restart", False)),
        steps,
    )
    state.step, state.playing = shown.step, shown.playing
    cols = st.columns([5, 1])
    step = cols[0].slider("Step", 1, steps, key="step") - 1 if steps > 1 else 0
    if cols[1].button("⏸ Pause" if shown.playing else "▶ Play"):
        pressed = playback.toggled(Playback(step + 1, shown.playing), steps)
        state.playing, state.restart = pressed.playing, pressed.restart
        st.rerun()
    return step


def keep_playing_ui(steps: int) -> None:
    """While playing, run the page again on the next step after a pause."""
    state = st.session_state
    done, again = playback.after_run(Playback(state.step, state.get("playing", False)), steps)
    state.playing = done.playing
    if again:
        time.sleep(PLAY_SECONDS)
        st.rerun()


def view_ui(view: str, sides: list[Side], step: int, beam: int) -> None:
    """The chosen view of both sides at ``step`` (0-based)."""
    shown = [(side.name, side.trace) for side in sides]
    if view == VIEWS[0]:
        gold = st.session_state.get("gold")
        sentence, reference = st.session_state.sentence, st.session_state.reference
        for k, (col, side) in enumerate(zip(st.columns(2), sides, strict=True)):
            with col:
                links = gold_for(side.translator, side.trace, gold, sentence, reference)
                scaled = side.translator.model.config.scaled
                step_view_ui(k, side.name, side.trace, step, scaled, links)
    elif view == VIEWS[1]:
        compare_view_ui(shown, step)
    elif view == VIEWS[2]:
        beam_view_ui(shown, beam)
    elif view == VIEWS[3]:
        cards_view_ui([(s.name, s.translator.card, s.translator.model.config) for s in sides])
    else:
        export_view_ui(shown)


def sentence_page_ui(choice: Choice) -> None:
    """The sentence in, both models' decodings out, one view at a time."""
    sentence, reference = inputs_ui()
    if not sentence.strip():
        st.info("Type a sentence or pick an example to start.")
        return
    sides = decode_ui(choice, sentence, reference)
    if sides is None:
        return
    sides = notes_ui(sides)
    steps = max(len(side.trace.tgt_tokens) for side in sides)
    step = step_ui(steps)
    # One view at a time: a page draws only what is looked at, so it answers sooner.
    view = st.radio("View", VIEWS, horizontal=True, label_visibility="collapsed", key="view")
    view_ui(view, sides, step, choice.beam)
    attribution_view_ui(choice, sides, step)
    keep_playing_ui(steps)
