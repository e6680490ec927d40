"""The decoder's query at training steps: what a model attends with as it writes each word of
its training pairs (teacher-forced, as :meth:`Translator.align_tokens` decodes), for the
nearest training steps of a step the dashboard shows (:mod:`attnviz.store.step_index`).

A step is a target *word*, as the dashboard shows it: for a subword model, its query is the
mean of its pieces' queries and its attention the words' attention, as
:func:`attnviz.decoding.words.words_trace` makes them, so a step decoded now and a training
step are compared alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..decoding.translator import Translator

Pair = tuple[int, list[str], list[str]]  # (pair id in the corpus index, source, target tokens)


@dataclass(frozen=True)
class Steps:
    """Every word step of some pairs: its query, where it is, what it wrote, where it looked."""

    queries: np.ndarray  # (N, H) float32: the query of each step (s_{t-1} or h_t)
    pair: np.ndarray  # (N,) int64: the pair's id in the corpus index
    step: np.ndarray  # (N,) int64: the step's position in the pair's target; its length: <eos>
    words: list[str]  # (N,) the word written ("<eos>" at the last step)
    weights: list[np.ndarray]  # (N,) each step's attention over the source words and <eos>


def step_states(
    translator: Translator,
    pairs: Sequence[Pair],
    batch_size: int = 64,
    progress: Callable[[int], None] | None = None,
) -> Steps:
    """The steps of ``pairs``, force-decoded ``batch_size`` pairs at a time; ``progress`` is
    told how many pairs are done after each batch."""
    queries, pair, step, words, weights = [], [], [], [], []
    for k in range(0, len(pairs), batch_size):
        chunk = pairs[k : k + batch_size]
        traces = translator.align_many([(src, tgt) for _, src, tgt in chunk], topk=1)
        if progress is not None:
            progress(k + len(chunk))
        for (n, _, _), trace in zip(chunk, traces, strict=True):
            if trace.query is None:
                raise ValueError("a model without attention has no queries to index")
            for t, word in enumerate(trace.tgt_tokens):
                queries.append(trace.query[t])
                pair.append(n)
                step.append(t)
                words.append(word)
                weights.append(np.asarray(trace.picture()[t], dtype=np.float32))
    h = translator.model.config.hidden
    return Steps(
        np.asarray(queries, dtype=np.float32).reshape(-1, h),
        np.asarray(pair, dtype=np.int64),
        np.asarray(step, dtype=np.int64),
        words,
        weights,
    )


def same_word_share(
    indexed: Sequence[str],
    neighbours: np.ndarray,
    held_out: Sequence[str],
    common: int = 100,
) -> dict:
    """How often the nearest indexed steps (``neighbours``: (M, k) indices into ``indexed``,
    the words those steps wrote) of held-out steps (the words ``held_out`` wrote) wrote the
    same word, over the held-out steps that write one of the ``common`` words written most
    in ``indexed``: the share of all k neighbours, and of the first."""
    frequent = {w for w, _ in Counter(indexed).most_common(common)}
    rows = [i for i, w in enumerate(held_out) if w in frequent]
    if not rows:
        return {"held_out_steps": 0, "same_word": 0.0, "first_same_word": 0.0}
    same = np.array([[indexed[j] == held_out[i] for j in neighbours[i]] for i in rows])
    return {
        "held_out_steps": len(rows),
        "common_words": common,
        "same_word": round(float(same.mean()), 4),
        "first_same_word": round(float(same[:, 0].mean()), 4),
    }
