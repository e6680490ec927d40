"""The precision a run trains in, chosen for the model it trains: "auto" times updates of
copies of the model on one of its own batches (:mod:`attnviz.tuning.training_precision`).
The model itself, and torch's random numbers, are left as they were."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

import torch
import torch.distributed as dist

from ..data.corpus import Batch
from ..model.precision import Precision
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from ..tuning.machine import native_bf16
from ..tuning.training_precision import probe_training, resolve_training
from .config import TrainConfig
from .update import optimizer, train_step


def timed_update(
    model: Seq2Seq | Transformer, batch: Batch, config: TrainConfig
) -> Callable[[Precision], None]:
    """A function that makes one update of a copy of ``model`` on ``batch`` in the precision
    it is given, each precision on a copy and an optimizer of its own, made on first use."""
    copies: dict[Precision, tuple[Seq2Seq | Transformer, torch.optim.Optimizer]] = {}

    def update(precision: Precision) -> None:
        if precision not in copies:
            twin = copy.deepcopy(model).train()
            copies[precision] = twin, optimizer(twin, config.lr)
        twin, opt = copies[precision]
        train_step(twin, opt, batch, replace(config, precision=precision))

    return update


def shape_of(model: Seq2Seq | Transformer, batch: Batch) -> str:
    """What a training update's speed depends on besides the machine."""
    c = model.config
    return (
        f"{c.attention} E{c.embed} H{c.hidden} L{c.layers} V{c.src_vocab}/{c.tgt_vocab} "
        f"tied {int(c.tie_embeddings)}{int(c.tie_output)}{int(c.output_projection)} "
        f"B{batch.src.shape[0]}"
    )


def choose_precision(
    config: TrainConfig,
    model: Seq2Seq | Transformer,
    batch: Batch,
    device: torch.device,
    joined: bool,
) -> tuple[Precision, dict]:
    """``config.precision`` as this run trains (see
    :func:`~attnviz.tuning.training_precision.resolve_training`), and what the card records of
    the choice: asked, chosen, and the probe's timings where it ran. Under torchrun rank 0
    decides and tells the others, so that every process trains alike."""
    asked = config.precision
    if asked != Precision.AUTO or not native_bf16(device):
        chosen = resolve_training(asked, device)
        return chosen, {"asked": asked, "chosen": chosen}
    record: list[dict] = [{}]  # rank 0's record, broadcast to the others
    if not joined or dist.get_rank() == 0:
        with torch.random.fork_rng(devices=[device] if device.type == "cuda" else []):
            probe = probe_training(
                device, timed_update(model, batch, config), shape_of(model, batch)
            )
        record = [
            {"asked": asked, "chosen": probe.fastest, "ms": probe.ms, "machine": probe.machine}
        ]
    if joined:
        dist.broadcast_object_list(record, src=0)
    return record[0]["chosen"], record[0]
