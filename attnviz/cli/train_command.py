"""``attnviz train``: the run the options describe (with --init-from, checked against the
parent, which is loaded once), trained by :func:`attnviz.training.train.train`."""

from __future__ import annotations

import shlex
import sys
import time
from dataclasses import fields, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.aer import read_gold_of_pairs, read_pairs
from ..data.corpus import DataConfig
from ..data.text import TextConfig
from ..model.model_config import MULTIHEAD, ModelConfig
from ..model.precision import Precision
from ..options import from_options
from ..training.config import TrainConfig, TrainingRun
from .arguments import typed_train_options

if TYPE_CHECKING:
    from ..decoding.translator import Translator

TATOEBA = {"license": "CC-BY 2.0", "attribution": "www.manythings.org/anki and tatoeba.org"}


def train_command(args, argv: list[str]) -> int:
    """Train as ``args`` say; ``argv``, the command as typed, goes into the model card."""
    import torch

    from ..training.distributed import is_main
    from ..training.train import train

    if args.threads is not None:
        if args.threads < 1:
            raise ValueError(f"--threads must be positive, got {args.threads}")
        torch.set_num_threads(args.threads)
    parent = _parent(args)  # loaded once: for the options read against it, and to train from
    run = _training_run(args, argv, parent)
    log = partial(print, file=sys.stderr)
    progress = None if args.minutes is None else within_minutes(args.minutes)
    card = train(run, log=log, progress=progress, parent=parent)
    if is_main():  # under torchrun, rank 0 alone wrote the file
        print(
            f"saved {args.out}: best epoch {card.get('best_epoch')}, "
            f"test BLEU {card.get('test_bleu')}",
            file=sys.stderr,
        )
    return 0


def within_minutes(minutes: float):
    """A training progress callback that stops the run once another epoch, as long as the
    last, would end more than ``minutes`` after the callback was made."""
    if not minutes > 0:
        raise ValueError(f"--minutes must be positive, got {minutes}")
    last = time.monotonic()
    deadline = last + 60 * minutes

    def progress(_history) -> bool:
        nonlocal last
        now = time.monotonic()
        epoch, last = now - last, now
        return now + epoch > deadline

    return progress


def _training_run(args, argv: list[str], parent: Translator | None) -> TrainingRun:
    """The training run ``args`` describe; ``argv``, as typed, is the card's command;
    ``parent``: the --init-from checkpoint, loaded."""
    corpus = dict(TATOEBA) if args.tatoeba else {}
    corpus.update(
        {k: v for k, v in (("license", args.license), ("attribution", args.attribution)) if v}
    )
    command = shlex.join(a for a in argv if a != "--resume")
    given = typed_train_options(argv[1:]) if parent else {}
    return TrainingRun(
        corpus=args.data,
        out=args.out,
        model=_model(args, parent, given),
        text=from_options(TextConfig, args),
        data=_data(args, parent, given),
        train=from_options(TrainConfig, args),
        storage="fp16" if args.half else "fp32",
        device=args.device,
        resume=args.resume,
        init_from=args.init_from,
        fresh_attention=args.fresh_attention,
        add_pieces=args.add_pieces,
        guide=Path(args.guide_links) if args.guide_links else args.guide,
        probes=tuple(_probes(args)),
        about={"corpus": corpus, "command": f"python -m attnviz {command}"},
    )


def _parent(args) -> Translator | None:
    """The --init-from checkpoint, loaded once (in fp32, as training takes it) for the options
    read against it and the run that starts from it."""
    if not args.init_from:
        return None
    from ..store.checkpoint import load

    return load(args.init_from, precision=Precision.FP32)


def _model(args, parent: Translator | None, given: dict[str, object]) -> ModelConfig:
    """The model's configuration, its vocabulary sizes left to the data; with --init-from, the
    checkpoint's, with the options typed (``given``) applied once checked against it."""
    if parent is None:
        if args.model == "transformer":
            if args.attention not in (None, MULTIHEAD):
                raise ValueError(f"a transformer's attention is {MULTIHEAD}, not {args.attention}")
            args.attention = MULTIHEAD
        elif args.attention is None:
            raise ValueError("--attention is required (unless --init-from gives it)")
        return from_options(ModelConfig, args)
    from ..training.lineage import check_options

    check_options(parent, given, args.init_from)
    model_fields = {f.name for f in fields(ModelConfig)}
    changed: dict[str, Any] = {k: v for k, v in given.items() if k in model_fields}
    return replace(parent.model.config, **changed)


def _data(args, parent: Translator | None, given: dict[str, object]) -> DataConfig:
    """The data configuration the options give; with --init-from and no --source-column typed,
    the column the checkpoint read its source from (a Chinese → English model goes on reading
    cmn.txt's second column, not English as Chinese)."""
    data = from_options(DataConfig, args)
    if parent is None or parent.data is None or "source_column" in given:
        return data
    return replace(data, source_column=parent.data.source_column)


def _probes(args):
    """The --probe-pairs with their --probe-gold, as training-history probes."""
    from ..analysis.history import Probe

    if not args.probe_pairs:
        if args.probe_gold:
            raise ValueError("--probe-gold needs --probe-pairs")
        return []
    pairs = read_pairs(args.probe_pairs)
    gold = None
    if args.probe_gold:
        gold = read_gold_of_pairs(args.probe_gold, args.probe_reverse_gold, pairs)
    if gold is not None and len(gold) != len(pairs):
        raise ValueError(f"{len(pairs)} probe pairs but {len(gold)} gold alignments")
    return [Probe(s, t, gold[i] if gold else None) for i, (s, t) in enumerate(pairs)]
