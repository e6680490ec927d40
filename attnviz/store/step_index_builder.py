"""Building a model's step index (:mod:`.step_index`) from the corpus index its card names:
a sample of the training split force-decoded, its word steps indexed, and the index checked
on held-out steps of the validation split. ``attnviz steps`` builds one here, and so does the
dashboard the first time a model's nearest training steps are asked for."""

from __future__ import annotations

import random
import shlex
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.step_states import same_word_share, step_states
from ..data.corpus import DataConfig
from ..decoding.translator import Translator
from .checkpoint import file_sha256, weights_digest
from .corpus_index import CorpusIndex, source_column
from .step_index import StepIndex, write_step_index

PAIRS = 8000  # training pairs sampled (27,000: 4.6-7.1 points more agree, twice the file)
HELD_OUT = 300  # validation pairs the index is checked on
SEED = 0


@dataclass(frozen=True)
class BuiltSteps:
    """What a build wrote, and how well its neighbours agree on held-out steps."""

    path: Path
    size: int  # bytes
    pairs: int  # training pairs indexed
    steps: int  # their word steps
    held_out: dict  # same_word_share's figures, with the held-out pairs counted
    query_ms: float  # median time of one nearest-steps query


def build_step_index(
    checkpoint: str | Path,
    translator: Translator,
    corpus_index: str | Path,
    out: str | Path,
    *,
    pairs: int = PAIRS,
    held_out: int = HELD_OUT,
    seed: int = SEED,
    batch_size: int = 64,
    command: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BuiltSteps:
    """Index the steps of ``pairs`` training pairs of ``checkpoint`` (loaded as ``translator``,
    in the precision the dashboard draws attention in) from ``corpus_index``, check them on
    ``held_out`` validation pairs and write ``out`` atomically. ``progress(done, total)`` is
    told the pairs force-decoded so far. ``command`` is recorded as how the file was made.
    Raises ValueError when the model has no attention or the corpus index is not its own."""
    for name, value in (("pairs", pairs), ("held_out", held_out), ("batch_size", batch_size)):
        if value < 1:
            raise ValueError(f"{name.replace('_', ' ')} must be positive")
    if not translator.model.config.has_attention:
        raise ValueError(f"{checkpoint}: a model without attention has no query to index")
    train, held = _samples(translator, Path(corpus_index), pairs, held_out, seed)
    total = len(train) + len(held)

    def told(offset: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(offset + done, total)

    steps = step_states(translator, train, batch_size, told(0))
    held_steps = step_states(translator, held, batch_size, told(len(train)))
    meta: dict[str, Any] = {
        "model": Path(checkpoint).name,
        "weights_digest": weights_digest(checkpoint),
        "corpus_index": {"file": Path(corpus_index).name, "sha256": file_sha256(corpus_index)},
        "sample": {"pairs": len(train), "steps": len(steps.words), "seed": seed},
        "usearch": _usearch_version(),
        "command": command or shlex.join(["python", "-m", "attnviz", "steps", str(checkpoint)]),
    }
    write_step_index(out, steps, meta)  # searched once to check it, then written with the check
    found = StepIndex(out).nearest_many(held_steps.queries)
    meta["held_out"] = {"pairs": len(held)} | same_word_share(steps.words, found, held_steps.words)
    size = write_step_index(out, steps, meta)
    took = _query_ms(StepIndex(out), held_steps.queries[:500])
    return BuiltSteps(Path(out), size, len(train), len(steps.words), meta["held_out"], took)


def _samples(
    translator: Translator, path: Path, pairs: int, held_out: int, seed: int
) -> tuple[list, list]:
    """The training and validation pairs drawn from the model's corpus index at ``path``."""
    data = translator.data
    if data is None:
        raise ValueError("the model's card does not say how its training data was prepared")
    index = CorpusIndex(path)
    refusal = index.refusal(translator.card, translator.text, data)
    if refusal is not None:
        raise ValueError(refusal)  # a Text: str() gives the English, the page its language
    source = source_column(data)[0]
    rng = random.Random(seed)
    train = _sample(index.split_pairs(source, "train"), pairs, data, rng)
    return train, _sample(index.split_pairs(source, "valid"), held_out, data, rng)


def _sample(pairs: list, n: int, data: DataConfig, rng: random.Random) -> list:
    """``n`` of ``pairs`` (all of them if fewer) that training kept, drawn by ``rng``."""
    kept = [p for p in pairs if data.keeps(p[1], p[2])]
    return sorted(rng.sample(kept, min(n, len(kept))))


def _usearch_version() -> str:
    from usearch import __version__

    return __version__


def _query_ms(index: StepIndex, queries) -> float:
    times = []
    for q in queries:
        start = time.perf_counter()
        index.nearest(q)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times) if times else 0.0
