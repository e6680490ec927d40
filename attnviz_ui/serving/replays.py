"""A decoding replayed through the model's own layers, for the numbers the page shows: one
step's math taken apart, and the chain of scores from Bahdanau's to the Transformer's. Run in
the server's process, on the models it loaded (:mod:`.models`)."""

from __future__ import annotations

from attnviz.analysis.score_chain import ChainLink, Decoding, score_chain
from attnviz.decoding.step_math import StepMath, step_math
from attnviz.decoding.trace import Trace
from attnviz.decoding.translator import Translator


def step_numbers(translator: Translator, trace: Trace, t: int) -> StepMath:
    """Step ``t`` of ``trace`` (over the model's own tokens) replayed and its attention taken
    apart (:func:`attnviz.decoding.step_math.step_math`)."""
    return step_math(translator, trace, t)


def chain_of_scores(
    recurrent: list[Decoding], transformer: Decoding, t: int
) -> tuple[int, list[ChainLink]]:
    """The chain of scores at the Transformer's output word ``t``
    (:func:`attnviz.analysis.score_chain.score_chain`)."""
    return score_chain(recurrent, transformer, t)
