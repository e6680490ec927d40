"""Who this session is, for what the server shares among sessions: its key among the live runs
(:mod:`..serving.live`), kept in the session state."""

from __future__ import annotations

import uuid

import streamlit as st

from ..state.session_keys import Key


def session_owner() -> str:
    """This session's key among the server's live runs: made on its first call, kept after."""
    return st.session_state.setdefault(Key.LIVE_OWNER, uuid.uuid4().hex)
