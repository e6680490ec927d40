"""Model cards: what each model is, what it was trained on, how it scored."""

from __future__ import annotations

import streamlit as st

from attnviz import explain, plots
from attnviz.model import ModelConfig


def cards_view_ui(cards: list[tuple[str, dict, ModelConfig]]) -> None:
    """One block per (name, card, config)."""
    for name, card, config in cards:
        st.subheader(name)
        st.markdown(explain.card_summary(card, config))
        if plots.has_curve(card):
            st.altair_chart(plots.curve_chart(card))
            st.caption("Validation loss per epoch; the red point is the epoch kept.")
        with st.expander("Full card"):
            st.json(card)
