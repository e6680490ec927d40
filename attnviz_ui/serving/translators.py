"""One Translator per checkpoint file and precision, loaded once per process; and, for the
server, one description per file: what a model is, without its weights."""

from __future__ import annotations

import functools

import attnviz
from attnviz.model.precision import Precision
from attnviz.store.catalog import Models
from attnviz.store.checkpoint import load_without_weights


@functools.cache
def models(precision: Precision) -> Models:
    """One model per checkpoint file at ``precision``, failures included, loaded once per
    process and shared by its callers: each decoding process's, for what it decodes, and the
    server's, for the few things it runs itself (a step replayed, attribution, a corpus)."""
    return Models(functools.partial(attnviz.load, precision=precision))


@functools.cache
def descriptions(precision: Precision) -> Models:
    """One description per checkpoint file (:func:`~attnviz.store.checkpoint.load_without_weights`:
    every check of a load, no weights), failures included: what the server shows of a model
    (a page run asks about 35 times) while its decoding processes hold the weights. Fourteen
    shipped models took 620 MB loaded and 74 MB described."""
    return Models(functools.partial(load_without_weights, precision=precision))
