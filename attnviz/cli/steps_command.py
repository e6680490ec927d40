"""``attnviz steps CHECKPOINT``: the queries of a sample of a model's training steps in a
nearest-neighbour index beside it (see :mod:`attnviz.store.step_index_builder`), checked on
held-out steps: how often their nearest training steps wrote the same word."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from ..model.precision import Precision


def build_steps(args, argv: list[str]) -> int:
    """Force-decode a sample of the training split, index its steps, check them on the
    validation split, and write ``--out`` (default: beside the checkpoint)."""
    import torch

    from ..store.checkpoint import load
    from ..store.step_index import step_index_path
    from ..store.step_index_builder import build_step_index
    from .corpus_command import index_of

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    start = time.perf_counter()
    translator = load(args.checkpoint, precision=Precision.FP32)  # the dashboard's attention: fp32
    index = index_of(args.checkpoint, translator.card, args.index)
    out = Path(args.out) if args.out else step_index_path(args.checkpoint)
    print(f"{index.name}: force-decoding up to {args.pairs} training and {args.held_out} "
          "held-out pairs", file=sys.stderr)  # fmt: skip
    built = build_step_index(
        args.checkpoint,
        translator,
        index,
        out,
        pairs=args.pairs,
        held_out=args.held_out,
        seed=args.seed,
        batch_size=args.batch_size,
        command=shlex.join(["python", "-m", "attnviz", *argv]),
    )
    share = built.held_out
    print(
        f"saved {out}: {built.size / 1e6:.1f} MB, {built.steps} steps of {built.pairs} pairs, "
        f"{time.perf_counter() - start:.0f} s; on {share['held_out_steps']} held-out steps "
        f"writing a common word, {share['same_word']:.1%} of the 5 nearest training steps "
        f"wrote the same word ({share['first_same_word']:.1%} of the nearest); a query "
        f"takes {built.query_ms:.2f} ms (median)",
        file=sys.stderr,
    )
    return 0
