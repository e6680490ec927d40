"""``attnviz steps CHECKPOINT``: the queries of a sample of a model's training steps in a
nearest-neighbour index beside it (see :mod:`attnviz.store.step_index`), checked on held-out
steps: how often their nearest training steps wrote the same word."""

from __future__ import annotations

import random
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.precision import Precision

if TYPE_CHECKING:
    from ..data.corpus import DataConfig


def build_steps(args, argv: list[str]) -> int:
    """Force-decode a sample of the training split, index its steps, check them on the
    validation split, and write ``--out`` (default: beside the checkpoint)."""
    import torch

    from ..analysis.step_states import same_word_share, step_states
    from ..store.checkpoint import load
    from ..store.step_index import StepIndex, step_index_path, write_step_index

    for name in ("pairs", "held_out", "batch_size"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be positive")
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    start = time.perf_counter()
    translator = load(args.checkpoint, precision=Precision.FP32)  # the dashboard's attention: fp32
    if not translator.model.config.has_attention:
        raise ValueError(f"{args.checkpoint}: a model without attention has no query to index")
    path, train, held = _samples(args, translator)
    steps = step_states(translator, train, args.batch_size)
    held_steps = step_states(translator, held, args.batch_size)
    out = Path(args.out) if args.out else step_index_path(args.checkpoint)
    meta = _meta(args, argv, path, len(train), len(steps.words))
    write_step_index(out, steps, meta)
    found = StepIndex(out).nearest_many(held_steps.queries)
    meta["held_out"] = {"pairs": len(held)} | same_word_share(steps.words, found, held_steps.words)
    size = write_step_index(out, steps, meta)
    took = _query_ms(StepIndex(out), held_steps.queries[:500])
    share = meta["held_out"]
    print(
        f"saved {out}: {size / 1e6:.1f} MB, {len(steps.words)} steps of {len(train)} pairs, "
        f"{time.perf_counter() - start:.0f} s; on {share['held_out_steps']} held-out steps "
        f"writing a common word, {share['same_word']:.1%} of the 5 nearest training steps "
        f"wrote the same word ({share['first_same_word']:.1%} of the nearest); a query "
        f"takes {took:.2f} ms (median)",
        file=sys.stderr,
    )
    return 0


def _samples(args, translator) -> tuple[Path, list, list]:
    """The model's corpus index, and the training and validation pairs drawn from it."""
    from ..store.corpus_index import CorpusIndex, source_column
    from .corpus_command import index_of

    path = index_of(args.checkpoint, translator.card, args.index)
    index = CorpusIndex(path)
    refusal = index.refusal(translator.card, translator.text, translator.data)
    if refusal is not None:
        raise ValueError(str(refusal))
    source = source_column(translator.data)[0]
    rng = random.Random(args.seed)
    train, held = (
        _sample(index.split_pairs(source, split), n, translator.data, rng)
        for split, n in (("train", args.pairs), ("valid", args.held_out))
    )
    print(
        f"{path.name}: force-decoding {len(train)} training and {len(held)} held-out pairs",
        file=sys.stderr,
    )
    return path, train, held


def _meta(args, argv: list[str], index: Path, pairs: int, steps: int) -> dict:
    """What the file records of how it was made."""
    from usearch import __version__ as usearch_version

    from ..store.checkpoint import file_sha256, weights_digest

    return {
        "model": Path(args.checkpoint).name,
        "weights_digest": weights_digest(args.checkpoint),
        "corpus_index": {"file": index.name, "sha256": file_sha256(index)},
        "sample": {"pairs": pairs, "steps": steps, "seed": args.seed},
        "usearch": usearch_version,
        "command": shlex.join(["python", "-m", "attnviz", *argv]),
    }


def _sample(pairs: list, n: int, data: DataConfig, rng: random.Random) -> list:
    """``n`` of ``pairs`` (all of them if fewer) that training kept, drawn by ``rng``."""
    kept = [p for p in pairs if data.keeps(p[1], p[2])]
    return sorted(rng.sample(kept, min(n, len(kept))))


def _query_ms(index, queries) -> float:
    times = []
    for q in queries:
        start = time.perf_counter()
        index.nearest(q)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times) if times else 0.0
