"""The one-sentence page: the sentence, both models' decodings and the chosen view."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.i18n import keeping_language
from attnviz.plots import model_notes

from ..serving.figures import card_of
from ..serving.models import Choice, Side, description_of, side_of, translate
from ..state.session_keys import Key
from ..views.beam_view import beam_view_ui
from ..views.cards_view import cards_view_ui
from ..views.export_view import export_view_ui
from ..views.taught_view import taught_view_ui
from ..views.walk_through import taught_offer_ui, walk_through_ui
from ..views.why_view import why_view_ui
from .navigation import View
from .sentence_inputs import MAX_CHARS, inputs_ui
from .stepping import STEPPING_VIEWS, notes_ui, pieces_ui, stepping_ui


def decode_ui(choice: Choice, sentence: str, reference: str) -> list[Side] | None:
    """Both models' decodings, or None after showing why a model refused the sentence."""
    if note := description_of(choice.left).text.language_note(sentence):
        st.warning(note + _(" Choose the direction in the sidebar."), icon="🔤")
    sides = []
    for checkpoint in (choice.left, choice.right):
        trace = translate(checkpoint, sentence, choice.beam, reference.strip())
        if isinstance(trace, Refused):
            st.warning(f"{checkpoint.name}: {trace.message}")
            return None
        sides.append(side_of(checkpoint, trace))
    return sides


def shown_sides(sides: list[Side]) -> list[Side]:
    """The sides as the pictures show them: with "Show subword pieces" on (its widget is drawn
    with the view's switches, after this is read), their traces over pieces."""
    if st.session_state.get(Key.PIECES) and any(side.trace.pieces for side in sides):
        return [side._replace(trace=side.trace.pieces or side.trace) for side in sides]
    return sides


def _why_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    why_view_ui(choice, sentence)


def _taught_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    taught_view_ui(choice, sentence, reference)


def _beam_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    beam_view_ui([(side.name, side.trace) for side in sides], choice.beam)


def _cards_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    cards = [(side.name, card_of(side.checkpoint)) for side in sides]
    cards_view_ui(cards, sides[0].description.precision)


def _export_ui(choice: Choice, sides: list[Side], sentence: str, reference: str) -> None:
    export_view_ui([(side.name, side.trace) for side in sides])


# What each view that does not follow the step slider draws, given the page's choice, both
# sides, the sentence and the reference. The views that step are stepping.STEPPING_VIEWS.
STILL_VIEWS: dict[View, Callable[[Choice, list[Side], str, str], None]] = {
    View.WHY: _why_ui,
    View.TAUGHT: _taught_ui,
    View.BEAM: _beam_ui,
    View.CARDS: _cards_ui,
    View.EXPORT: _export_ui,
}


def sentence_page_ui(choice: Choice) -> None:
    """The sentence in, both models' decodings out, one view at a time."""
    sentence, reference = inputs_ui(choice)
    if not sentence.strip():
        st.info(_("Type a sentence or pick an example to start."))
        return
    if max(len(sentence), len(reference)) > MAX_CHARS:
        st.warning(_("A box holds at most {n:,} characters.").format(n=MAX_CHARS))
        return
    taught_offer_ui(sentence, reference)
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
    if view in STEPPING_VIEWS:
        slots = [col.container() for col in st.columns(len(sides))]
        stepping_ui(view, choice, sides, over_words)
    else:
        pieces_ui()
        slots = [col.container() for col in st.columns(len(sides))]
        STILL_VIEWS[view](choice, sides, sentence, reference)
    walk_through_ui(choice, sides, sentence, reference)
    notes_ui(slots, choice, over_words)
