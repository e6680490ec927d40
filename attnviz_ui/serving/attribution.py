"""Attribution for the page: gradients and erasures through each model's fp32 weights, in the
server's process (the decoding processes decode only), cached per input."""

from __future__ import annotations

import functools
from collections.abc import Callable

from attnviz.analysis import attribution, compare_models
from attnviz.analysis.compare_models import Item
from attnviz.errors import Refused
from attnviz.i18n import N_
from attnviz.i18n import gettext as _
from attnviz.model.precision import Precision
from attnviz.store.catalog import Checkpoint

from ..widgets.language import session_language
from .models import fp32_translator_of, page_precision, translate

IG_MAX_WORDS = 40  # longest source for integrated gradients here: cost grows with length squared
TOO_LONG = N_(
    "integrated gradients are computed here for sentences of up to {n} words (their cost grows "
    "with the square of the length); choose erasure or saliency, or run "
    "`attnviz align --source attribution` on the command line."
)


def attribution_of(
    checkpoint: Checkpoint, sentence: str, beam: int, reference: str, method: str, pieces: bool
) -> attribution.Attribution | Refused:
    """The attribution of the decoding the page shows (over pieces when ``pieces``), or why
    not; cached per checkpoint, sentence and method, the session's language (that of a
    refusal's message) and the page's precision (that of the decoding shown)."""
    return _attribution(
        checkpoint, sentence, beam, reference, method, pieces, session_language(), page_precision()
    )


@functools.lru_cache(maxsize=256)
def _attribution(
    checkpoint: Checkpoint,
    sentence: str,
    beam: int,
    reference: str,
    method: str,
    pieces: bool,
    language: str,
    precision: Precision,
) -> attribution.Attribution | Refused:
    trace = translate(checkpoint, sentence, beam, reference, language, precision)
    if isinstance(trace, Refused):
        return trace
    if method == "integrated_gradients" and len(trace.src_tokens) - 1 > IG_MAX_WORDS:  # <eos>
        return Refused(_(TOO_LONG).format(n=IG_MAX_WORDS))
    return attribution.attribute(
        fp32_translator_of(checkpoint), (trace.pieces or trace) if pieces else trace, method
    )


def agreement_of(
    checkpoint: Checkpoint,
    items: list[Item],
    method: str,
    beam: int,
    progress: Callable[[int, int], None],
) -> list:
    """Per sentence of ``items``, ``checkpoint``'s attention against its attribution by
    ``method`` (:func:`attnviz.analysis.compare_models.attribution_agreement`)."""
    return compare_models.attribution_agreement(
        fp32_translator_of(checkpoint), items, method, beam, progress
    )
