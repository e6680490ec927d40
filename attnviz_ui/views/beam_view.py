"""Beam search: the hypotheses each model kept, step by step."""

from __future__ import annotations

import streamlit as st

from attnviz.decoding.trace import Trace
from attnviz.i18n import gettext as _
from attnviz.plots import beam_charts

from ..state.session_keys import element_key


def beam_view_ui(shown: list[tuple[str, Trace]], beam: int) -> None:
    """The beam tree of each (name, trace) decoded with a beam; ``beam`` 1 is greedy search."""
    if beam == 1:
        st.info(_("Choose beam search in the sidebar to see the hypotheses it keeps."))
    for side, (name, trace) in enumerate(shown):
        trace = trace.pieces or trace  # beam search keeps hypotheses of pieces
        if trace.beam:
            st.subheader(name)
            st.plotly_chart(beam_charts.beam_figure(trace), key=element_key("beam", side))
            st.caption(
                _(
                    "Each column is a step, each dot a hypothesis kept, with its cumulative "
                    "log-probability on hover; lines go to the hypothesis it extends. Red: the "
                    "winner. A dot shown as · has already ended."
                )
            )
