"""Model cards: what each model is, what it was trained on, how it scored."""

from __future__ import annotations

import streamlit as st

from attnviz.i18n import gettext as _
from attnviz.plots import history_charts, model_notes

from ..serving.models import Description
from ..widgets.vega import vega_chart


def cards_view_ui(models: list[tuple[str, Description]]) -> None:
    """One block per (name, model)."""
    st.caption(_(model_notes.SINK))
    if models:  # loaded at one precision: the page's
        st.caption(model_notes.decoded(models[0][1].precision))
    for name, model in models:
        card = model.card
        st.subheader(name)
        st.markdown(model_notes.card_summary(card, model.config, model.data))
        if history_charts.card_has_losses(card):
            vega_chart(history_charts.card_loss_chart(card))
            st.caption(_("Validation loss per epoch; the red point is the epoch kept."))
        with st.expander(_("Full card")):
            st.json(card)
