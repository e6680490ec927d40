"""Model cards: what each model is, what it was trained on, how it scored."""

from __future__ import annotations

import streamlit as st

from attnviz.i18n import gettext as _
from attnviz.plots import model_notes

from ..serving.figures import Card
from ..state.session_keys import element_key
from ..widgets.vega import vega_chart


def cards_view_ui(models: list[tuple[str, Card]], precision: str) -> None:
    """One block per (name, card) (:func:`attnviz_ui.serving.figures.card_of`), of models
    decoded at ``precision``."""
    st.caption(_(model_notes.SINK))
    if models:  # loaded at one precision: the page's
        st.caption(model_notes.decoded(precision))
    for k, (name, card) in enumerate(models):
        st.subheader(name)
        st.markdown(card.summary)
        if card.losses is not None:
            vega_chart(card.losses)
            st.caption(_("Validation loss per epoch; the red point is the epoch kept."))
        full = st.expander(_("Full card"), key=element_key("full-card", k), on_change="rerun")
        if full.open:  # a card's tree is up to 1,200 nodes: a second in the browser, if drawn
            full.json(card.card)
