"""What the views draw that does not change from one run to the next, made once per process and
shared by every session: each model's card, the training curves, and the export images.

A model card's lines and its chart, and the curves of the Training page, are kept per
checkpoint file (a :class:`~attnviz.store.catalog.Checkpoint` carries the file's modification
time and size: a new version of the file is a new key) and per language, since their words are
in it; an export image per figure, by the figure's JSON. A Vega-Lite spec kept here is shared
by every session, and nobody changes it: Streamlit copies a spec's top level before it moves
the data out, and the one change it makes deeper (a colour legend's null title) has nothing
to change in these.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import plotly.graph_objects as go
import plotly.io as pio

from attnviz.plots import history_charts, image_export, model_notes
from attnviz.store.catalog import Checkpoint

from ..widgets.language import session_language
from ..widgets.vega import vega_spec
from .models import history_of, page_precision
from .translators import descriptions


class Card(NamedTuple):
    """What the Model cards view shows of one model, in one language."""

    summary: str  # the card in markdown lines (attnviz.plots.model_notes.card_summary)
    losses: dict | None  # the Vega-Lite spec of its validation loss per epoch; None: no losses
    card: dict  # the whole card, as the file keeps it


def card_of(checkpoint: Checkpoint) -> Card:
    """``checkpoint``'s card as the view shows it, in the session's language: made once per
    file, language and precision (that of the description it is read from). Its chart took
    30-50 ms of each run of the view, its JSON tree in the browser more than a second."""
    return _card(checkpoint, session_language(), page_precision())


@functools.lru_cache(maxsize=64)
def _card(checkpoint: Checkpoint, language: str, precision: str) -> Card:
    """``language`` keys the cache (the words of the lines and the chart are in it, bound
    for this run), and ``precision`` (the description read)."""
    described = descriptions(precision).get(checkpoint)
    card = described.card
    losses = history_charts.card_loss_chart(card) if history_charts.card_has_losses(card) else None
    return Card(
        model_notes.card_summary(card, described.model.config, described.data),
        None if losses is None else vega_spec(losses),
        card,
    )


def curves_of(checkpoints: tuple[Checkpoint, ...], epoch: float) -> list[dict]:
    """The Vega-Lite specs of the training curves of the models of ``checkpoints``, the
    moment ``epoch`` marked (:func:`attnviz.plots.history_charts.curves_chart`), in the
    session's language: made once per files, moment and language. Building and converting
    them took 90 ms of each run of the Training page."""
    return _curves(checkpoints, epoch, session_language())


@functools.lru_cache(maxsize=256)
def _curves(checkpoints: tuple[Checkpoint, ...], epoch: float, language: str) -> list[dict]:
    """``language`` keys the cache: the curves' titles are in it, bound for this run."""
    histories = {c.name: history_of(c) for c in checkpoints}
    frame = history_charts.history_frame(histories)
    return [vega_spec(chart) for chart in history_charts.curves_chart(frame, epoch)]


def image_of(figure: go.Figure, fmt: str) -> bytes:
    """``figure`` as a PNG or SVG (:func:`attnviz.plots.image_export.to_image`), made once
    per figure and format: kaleido starts a browser for each image, 2.7 s on two shared
    cores, and the Export view offers the same pictures run after run, visitor after
    visitor."""
    return _image(pio.to_json(figure, validate=False), fmt)


@functools.lru_cache(maxsize=32)
def _image(spec: str, fmt: str) -> bytes:
    """The figure whose JSON is ``spec``, as an image: its JSON (its hash, then itself) is
    the key, so that the same picture is found whichever run or session built it."""
    return image_export.to_image(pio.from_json(spec), fmt)
