"""One Translator per checkpoint file and precision, loaded once per process."""

from __future__ import annotations

import functools

import attnviz
from attnviz.store.catalog import Models


@functools.cache
def models(precision: str) -> Models:
    """One model per checkpoint file at ``precision``, failures included, loaded once per
    process and shared by its callers (a page run asks for models about 35 times): the
    server's, for what the page draws of a model, and each decoding process's, for what it
    decodes."""
    return Models(functools.partial(attnviz.load, precision=precision))
