"""Natural and taught models: which checkpoint is whose partner (told by their cards and the
files' digests), and what teaching moved on a sentence or over a corpus."""

from __future__ import annotations

import functools
from collections.abc import Callable

from attnviz.analysis import teaching
from attnviz.analysis.compare_models import Item
from attnviz.analysis.teaching import Shift, forced_shift, shared_output
from attnviz.errors import InputError, Refused
from attnviz.model.precision import Precision
from attnviz.store.catalog import Checkpoint, Teaching, teaching_pair
from attnviz.store.checkpoint import file_sha256

from ..widgets.language import session_language
from .models import available, page_precision, running_translator_of, translator_of


@functools.lru_cache(maxsize=64)
def _digest(checkpoint: Checkpoint) -> str:
    """A checkpoint file's sha256, once per version of the file."""
    return file_sha256(checkpoint.path)


def teaching_of(chosen: Checkpoint) -> Teaching | None:
    """``chosen`` and its partner among the checkpoints that load, told by their cards; None
    when it has none."""
    found = available()[0]
    return teaching_pair(chosen, found, lambda c: translator_of(c).card, _digest)


def shift_of(pair: Teaching, sentence: str, reference: str, beam: int) -> Shift | Refused:
    """Both models force-decoded on the reference (else on the natural model's translation)
    and what teaching moved; or why not, in the session's language. Cached per input and per
    the models' precision."""
    return _shift(pair, sentence, reference, beam, session_language(), page_precision())


@functools.lru_cache(maxsize=128)
def _shift(
    pair: Teaching,
    sentence: str,
    reference: str,
    beam: int,
    language: str,
    precision: Precision,
) -> Shift | Refused:
    """``language`` keys the cache (a refusal is worded in it), and ``precision``."""
    natural = running_translator_of(pair.natural, precision)
    taught = running_translator_of(pair.taught, precision)
    try:
        target = shared_output(natural, sentence, reference, beam)
        return forced_shift(natural, taught, sentence, target)
    except (InputError, ValueError) as e:
        return Refused(str(e))


def strays(
    pair: Teaching, items: list[Item], progress: Callable[[int, int], None]
) -> list[float | None]:
    """:func:`attnviz.analysis.teaching.corpus_strays` of ``pair`` over ``items``: how far the
    natural model's attention strays from its taught partner's on each sentence."""
    return teaching.corpus_strays(
        running_translator_of(pair.natural), running_translator_of(pair.taught), items, progress
    )
