"""The server's live training runs of toy models, shared by every session: at most
``MAX_RUNS`` at once, one per session (its owner key)."""

from __future__ import annotations

import functools

from attnviz.errors import Refused
from attnviz.store.catalog import Checkpoint
from attnviz.training.live import Run, RunRefused, Runs, ToySettings

from ..widgets.session import session_owner

MAX_RUNS = 2  # live runs at once over all sessions: the server's CPU is shared


@functools.cache
def _runs() -> Runs:
    return Runs(cap=MAX_RUNS)


def live_run(owner: str) -> Run | None:
    """The live run of the session ``owner``, running or ended; None before its first."""
    return _runs().get(owner)


def session_models() -> list[Checkpoint]:
    """The model this session trained live, once its run has ended well."""
    run = live_run(session_owner())
    if run is None or run.card is None:
        return []
    return [Checkpoint.at(run.checkpoint, run.settings.name)]


def start_live_run(owner: str, settings: ToySettings) -> Run | Refused:
    """A new live run for the session ``owner``, training in the background; or why not (the
    server runs as many as it may, or the session's own still runs)."""
    try:
        return _runs().start(owner, settings)
    except RunRefused as e:
        return Refused(str(e))
