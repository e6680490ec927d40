"""Beam search: the hypotheses each model kept, step by step."""

from __future__ import annotations

import streamlit as st

from attnviz.decoding.trace import Trace
from attnviz.i18n import N_, keeping_language
from attnviz.i18n import gettext as _
from attnviz.plots import beam_charts

from ..state.session_keys import Key, element_key
from ..widgets.mirror import mirror

PIECES = N_(
    "Beam search keeps hypotheses of subword pieces: “-at” goes on with the word before it, as "
    "“ch” “-at” spell “chat”."
)
SEARCHES = [N_("greedy"), N_("beam")]  # the sidebar's and this view's choice of search


def beam_view_ui(shown: list[tuple[str, Trace]], beam: int) -> None:
    """The search, chosen here as in the sidebar, then the beam tree of each (name, trace)
    decoded with a beam; ``beam`` 1 is greedy search."""
    st.radio(
        _("Search"),
        SEARCHES,
        format_func=keeping_language(_),
        horizontal=True,
        key=Key.PAGE_SEARCH,
        on_change=mirror(Key.SEARCH, Key.PAGE_SEARCH),
    )
    if beam == 1:
        st.info(_("Choose beam search to see the hypotheses it keeps."))
    for side, (name, trace) in enumerate(shown):
        words = trace.pieces is not None  # the page shows words; the beam kept pieces
        trace = trace.pieces or trace
        if trace.beam:
            st.subheader(name)
            figure = beam_charts.beam_figure(trace, marks=not words)
            st.plotly_chart(figure, key=element_key("beam", side))
            if words:
                st.caption(_(PIECES))
            st.caption(
                _(
                    "Each column is a step, each dot a hypothesis kept, with its cumulative "
                    "log-probability on hover; lines go to the hypothesis it extends. Red: the "
                    "winner. A dot shown as · has already ended."
                )
            )
