"""A decoding replayed through the model's own layers, for the numbers the page shows: one
step's math taken apart, and the chain of scores from Bahdanau's to the Transformer's. Run in
the server's process, on the models it loads for them (:func:`.models.running_translator_of`)."""

from __future__ import annotations

from attnviz.analysis.score_chain import ChainLink, score_chain
from attnviz.decoding.step_math import StepMath, step_math
from attnviz.decoding.trace import Trace
from attnviz.store.catalog import Checkpoint

from .models import running_translator_of

Replayed = tuple[Checkpoint, Trace]  # a model and its decoding


def step_numbers(checkpoint: Checkpoint, trace: Trace, t: int) -> StepMath:
    """Step ``t`` of ``trace`` (over the model's own tokens) replayed and its attention taken
    apart (:func:`attnviz.decoding.step_math.step_math`)."""
    return step_math(running_translator_of(checkpoint), trace, t)


def chain_of_scores(
    recurrent: list[Replayed], transformer: Replayed, t: int
) -> tuple[int, list[ChainLink]]:
    """The chain of scores at the Transformer's output word ``t``
    (:func:`attnviz.analysis.score_chain.score_chain`)."""

    def decoding(replayed: Replayed):
        checkpoint, trace = replayed
        return checkpoint.name, running_translator_of(checkpoint), trace

    return score_chain([decoding(r) for r in recurrent], decoding(transformer), t)
