"""How far a model's attention is from eflomal's links on one decoding, and from the gold
links where there are some: the numbers the eflomal switch shows under the heatmaps."""

from __future__ import annotations

from typing import NamedTuple

from attnviz.analysis.aer import Gold, score
from attnviz.analysis.align import trace_links
from attnviz.analysis.eflomal_aligner import Alignment, aer_against
from attnviz.decoding.trace import Trace


class EflomalAgreement(NamedTuple):
    """AERs in percent (0: the same links, 100: none in common)."""

    attention: float  # the attention's argmax links against eflomal's, taken as the answer
    # against the gold links, every one counted as sure: (the attention's, eflomal's); None
    # without gold
    gold: tuple[float, float] | None


def eflomal_agreement(
    trace: Trace, alignment: Alignment, gold: list[tuple[int, int]] | None
) -> EflomalAgreement | None:
    """The attention of ``trace`` against eflomal's ``alignment`` of the same pair, and both
    against ``gold`` (token links on the trace, or None); None for a model without attention."""
    if not trace.has_attention:
        return None
    attention = set(trace_links(trace))
    against_gold = None
    if gold is not None:
        reference = Gold(set(gold), set(gold))
        against_gold = (
            score([reference], [attention]).aer,
            score([reference], [set(alignment.symmetric)]).aer,
        )
    return EflomalAgreement(aer_against(alignment, attention).aer, against_gold)
