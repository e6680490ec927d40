"""A choice the sidebar holds, offered again on the page: a second widget that shows the
sidebar widget's value and sets it, so that a page read with the sidebar closed (as at 1024
pixels) still has the control it needs."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ..state.session_keys import Key


def mirror(key: Key, copy: Key) -> Callable[[], None]:
    """Call before the page's widget (key ``copy``) is drawn: it shows the sidebar widget's
    choice (key ``key``). Returns the page widget's ``on_change``, which sets the sidebar's
    choice to the page's before the next run draws it."""
    state = st.session_state
    if key in state:
        state[copy] = state[key]

    def chosen() -> None:
        state[key] = state[copy]

    return chosen
