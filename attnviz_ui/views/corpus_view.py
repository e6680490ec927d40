"""Below the step view, on request: what each model's training corpus says about the current
step (drawn by :mod:`..widgets.corpus_notes`), read from the corpus index its card names,
beside the checkpoints (:mod:`..serving.corpus`); a missing or mismatched one is said, with the
command that builds it."""

from __future__ import annotations

import streamlit as st

from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.store.catalog import Checkpoint

from ..serving.corpus import nearest_of, notes_of
from ..serving.models import Choice, Side
from ..state.session_keys import Key
from ..widgets.corpus_notes import HOW, NEAREST, neighbours_html, notes_html


def corpus_view_ui(choice: Choice, sides: list[Side], step: int) -> None:
    """The switch, and with it on, each model's notes at ``step`` (0-based), in columns."""
    if not st.toggle(_("What the corpus says"), key=Key.CORPUS_ON, help=_(HOW)):
        return
    if st.session_state.get(Key.PIECES):
        st.caption(
            _("The corpus counts words: switch off “{switch}” to see what it says.").format(
                switch=_("Show subword pieces")
            )
        )
        return
    checkpoints = (choice.left, choice.right)
    for col, side, checkpoint in zip(st.columns(len(sides)), sides, checkpoints, strict=True):
        with col:
            _side_ui(side, step, checkpoint)


def _side_ui(side: Side, step: int, checkpoint: Checkpoint) -> None:
    trace = side.trace
    t = min(step, len(trace.tgt_tokens) - 1)
    notes = notes_of(checkpoint, trace, t) if trace.has_attention else None
    if isinstance(notes, Refused):
        st.info(notes.message)
        return
    if notes is None:
        st.caption(
            _("{name} attends to no word: the corpus is asked about none.").format(name=side.name)
        )
        return
    st.html(notes_html(notes, side.description.text))
    st.markdown("**" + _("The nearest training steps") + "**", help=_(NEAREST))
    nearest = nearest_of(checkpoint, trace, t)
    if isinstance(nearest, Refused):
        st.caption(nearest.message)
        return
    st.html(neighbours_html(nearest.steps, nearest.pairs, side.description.text))
