"""The BLEU-by-length table shipped beside the checkpoints (``evaluate --by-length --json``),
read and drawn once per version of the files and language, and shared by every session."""

from __future__ import annotations

import functools
from pathlib import Path

import plotly.graph_objects as go

from attnviz.plots import length_charts
from attnviz.store.by_length_file import is_current, read_result
from attnviz.store.catalog import Checkpoint

from ..widgets.language import session_language
from .models import file_version


def length_curve(models: list[Checkpoint], path: Path) -> tuple[go.Figure, str] | None:
    """The length curve and its summary, in the session's language, of the table at ``path``
    if it scores ``models`` as their files are now, else None."""
    return _curve(str(path), file_version(path), tuple(models), session_language())


@functools.lru_cache(maxsize=8)
def _curve(
    path: str, version: tuple | None, models: tuple[Checkpoint, ...], language: str
) -> tuple[go.Figure, str] | None:
    """Checking the table means hashing each checkpoint, and building its figure took most of
    a switch to the Why view (40 ms of server CPU, benchmarks/classroom/gesture_cost.py).
    ``language`` keys the cache: the figure's words are in it."""
    result = read_result(path) if version else None
    if result is None or not is_current(result, [c.path for c in models]):
        return None
    return length_charts.length_figure(result), length_charts.length_summary(result)
