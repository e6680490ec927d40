"""What teaching changed: a natural model and its taught partner (fine-tuned from it with guided
alignment, :mod:`attnviz.training.guide`) on one sentence, or on many.

Both models are force-decoded on one output (the reference, or else the natural model's own
translation), so that their attention rows line up: row t of each is the attention paid while
writing the same word t. :func:`attention_shift` then says how far each row moved
(total-variation distance, :func:`attnviz.analysis.diagnostics.total_variation`) and which
words now look most at another source token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..decoding.trace import Trace
from ..decoding.translator import Translator
from ..errors import InputError, Refused
from . import diagnostics
from .compare_models import Item


@dataclass(frozen=True)
class Move:
    """An output word that looks most at another source token once taught."""

    step: int  # 0-based output position
    output: str  # the word written
    natural: str  # the source token the natural model attends to most there
    taught: str  # the one the taught model attends to most


@dataclass(frozen=True)
class Shift:
    """Where teaching moved one sentence's attention, both models on the same output."""

    natural: Trace  # the natural model's forced decoding
    taught: Trace  # the taught model's, over the same tokens
    difference: np.ndarray  # (T, S) taught minus natural weights, every step
    distance: np.ndarray  # (W,) total-variation distance of each row that wrote a word
    moves: tuple[Move, ...]  # the words whose most attended source token changed

    @property
    def mean_distance(self) -> float:
        """The mean of :attr:`distance`: 0 when teaching changed nothing, 1 when every word
        now looks at other source tokens entirely; NaN without a word."""
        return float(self.distance.mean()) if len(self.distance) else float("nan")


def attention_shift(natural: Trace, taught: Trace) -> Shift:
    """How ``taught``'s attention differs from ``natural``'s on the same tokens (two forced
    decodings of one output); a ValueError when the tokens differ."""
    if not diagnostics.comparable(natural, taught):
        raise ValueError(
            "the two decodings have different tokens: force-decode both models on one output"
        )
    before, after = natural.output_picture(), taught.output_picture()
    distance = diagnostics.total_variation(before, after)
    moved = np.flatnonzero(before.argmax(-1) != after.argmax(-1))
    src = natural.src_tokens
    moves = tuple(
        Move(int(t), natural.tgt_tokens[t], src[before[t].argmax()], src[after[t].argmax()])
        for t in moved
    )
    return Shift(natural, taught, taught.picture() - natural.picture(), distance, moves)


def shared_output(natural: Translator, source: str, reference: str = "", beam: int = 1) -> str:
    """The output both models are decoded on: ``reference`` when given, else the natural
    model's translation of ``source``."""
    return reference.strip() or natural.translate(source, beam=beam).text


def forced_shift(natural: Translator, taught: Translator, source: str, target: str) -> Shift:
    """:func:`attention_shift` of both models force-decoded on ``target``."""
    return attention_shift(natural.align(source, target), taught.align(source, target))


def corpus_strays(
    natural: Translator,
    taught: Translator,
    items: list[Item],
    progress: Callable[[int, int], None] | None = None,
) -> list[float | None]:
    """Per item, how far the natural model's attention strays from the taught one's: the
    :attr:`Shift.mean_distance` of both force-decoded on its first reference (without one, on
    the natural model's greedy translation); None where a model refuses the sentence.
    ``progress(done, total)`` after each item."""
    outputs = _outputs(natural, items)
    out: list[float | None] = []
    for item, target in zip(items, outputs, strict=True):
        try:
            out.append(forced_shift(natural, taught, item.source, target).mean_distance)
        except InputError:
            out.append(None)
        if progress:
            progress(len(out), len(items))
    return out


def _outputs(natural: Translator, items: list[Item]) -> list[str]:
    """Each item's first reference, or the natural model's translation where it has none
    (those translated in one batch; "" where the model refuses the sentence)."""
    missing = [k for k, item in enumerate(items) if not item.references]
    traces = dict(
        zip(missing, natural.translate_each([items[k].source for k in missing]), strict=True)
    )
    own = {k: "" if isinstance(t, Refused) else t.text for k, t in traces.items()}
    return [own[k] if k in own else item.references[0] for k, item in enumerate(items)]


STRAYS = "strays from"  # a corpus table's column: "NATURAL strays from TAUGHT"


def strays_column(natural: str, taught: str) -> str:
    return f"{natural} {STRAYS} {taught}"


def with_strays(frame: pd.DataFrame, strays: dict[str, list[float | None]]) -> pd.DataFrame:
    """The corpus table (:func:`attnviz.analysis.compare_models.table`, rows numbered by
    ``#`` from 1) with a column per entry of ``strays`` (name -> one value per sentence, in
    the sentences' order) after ``words``, rows sorted by the first, largest first: where
    the natural model's attention strays furthest from the taught one's."""
    if not strays:
        return frame
    frame = frame.copy()
    at = frame.columns.get_loc("words") + 1
    for k, (name, values) in enumerate(strays.items()):
        frame.insert(at + k, name, [_rounded(values[n - 1]) for n in frame["#"]])
    first = next(iter(strays))
    frame = frame.sort_values(first, ascending=False, kind="stable", na_position="last")
    return frame.reset_index(drop=True)


def _rounded(value: float | None) -> float | None:
    return None if value is None or np.isnan(value) else round(value, 3)
