"""The note a visitor gets when their session could not be resumed: the replica that held it
stopped (or it expired), so the page they had open reconnected to a fresh session.

Streamlit's page reconnects its websocket with the id of the session it had (the third entry of
``Sec-WebSocket-Protocol``); a server that does not hold that session starts a new one. Behind
deploy/nginx.conf, a student whose replica died reconnects to a live replica this way, and
this module tells them why the page started over."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attnviz.i18n import gettext as _

from ..state.session_keys import Key


def restarted(protocol: str | None, session_id: str) -> bool:
    """Whether a websocket whose ``Sec-WebSocket-Protocol`` is ``protocol`` asked to resume a
    session other than the one it got, ``session_id``."""
    entries = [e.strip() for e in (protocol or "").split(",")]
    return len(entries) >= 3 and bool(entries[2]) and entries[2] != session_id


def replica_note_ui() -> None:
    """A warning at the top of the page, in every run of a session that replaced a lost one
    (reloading the page opens a session of its own, without it). Told once per session: its
    websocket's headers do not change, and reading them costs every run about 2 ms."""
    state = st.session_state
    if Key.RESTARTED not in state:
        run = get_script_run_ctx()
        protocol = st.context.headers.get("Sec-WebSocket-Protocol")
        state[Key.RESTARTED] = run is not None and restarted(protocol, run.session_id)
    if not state[Key.RESTARTED]:
        return
    st.warning(
        _(
            "The server that held your session stopped, so this page reconnected to another "
            "one and your session restarted: choices and sentences typed before are gone. "
            "Carry on from here; reloading the page removes this note."
        )
    )
