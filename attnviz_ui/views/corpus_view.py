"""Below the step view, on request: what each model's training corpus says about the current
step (drawn by :mod:`..widgets.corpus_notes`), read from the corpus index its card names,
beside the checkpoints (:mod:`..serving.corpus`); a missing or mismatched one is said, with the
command that builds it. A model's step index is built on first use, with a progress bar
(:mod:`..serving.step_builds`)."""

from __future__ import annotations

import streamlit as st

from attnviz.errors import Refused
from attnviz.i18n import gettext as _
from attnviz.i18n import shown
from attnviz.store.catalog import Checkpoint

from ..serving.corpus import Unbuilt, nearest_of, notes_of
from ..serving.models import Choice, Side
from ..serving.step_builds import step_build
from ..state.session_keys import Key
from ..widgets.corpus_notes import HOW, NEAREST, neighbours_html, notes_html
from ..widgets.language import bind_language

REFRESH_SECONDS = 1.0


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
    elif isinstance(nearest, Unbuilt):
        _build_ui(checkpoint, nearest)
    else:
        st.html(neighbours_html(nearest.steps, nearest.pairs, side.description.text))


def _build_ui(checkpoint: Checkpoint, unbuilt: Unbuilt) -> None:
    """The model's step index being built (started now if no session has started it): its
    progress, redrawn every second, and once it is written, the whole page once more."""
    build = step_build(checkpoint)
    if build.error is not None:
        st.caption(
            _("{why} Building it failed: {error}. Build it with `{command}`.").format(
                why=unbuilt.why,
                error=shown(build.error),
                command=f"python -m attnviz steps {checkpoint.path}",
            )
        )
        return

    @st.fragment(run_every=REFRESH_SECONDS)
    def redraw() -> None:
        bind_language()
        if not build.running:
            st.rerun()  # the whole page: the index is written, or the build failed
        text = _(
            "{why} Indexing the steps of {done:,} of {total:,} training pairs, once for this "
            "server…"
        ).format(why=unbuilt.why, done=build.done, total=build.total)
        left = build.seconds_left()
        if left is not None:
            text += " " + _("About {seconds:.0f} s left.").format(seconds=left)
        st.progress(build.fraction, text=text)

    redraw()
