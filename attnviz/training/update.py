"""One training update: the loss of a batch, the optimizer, and the step that applies it."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from ..data.vocab import PAD_ID
from ..model.autocast import autocast
from ..model.precision import Precision
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer
from .config import TrainConfig
from .guide import guide_loss


def batch_loss(
    model: Seq2Seq | Transformer,
    batch,
    label_smoothing: float = 0.0,
    precision: Precision = Precision.FP32,
    guide_weight: float = 0.0,
) -> torch.Tensor:
    """Summed cross-entropy of a batch's target tokens, plus ``guide_weight`` times the
    guided-alignment loss where the batch has links (see :mod:`.guide`).

    The output layer, most of a step's cost, runs on the real (non-padding) positions only.
    With ``precision`` "bf16" the model runs under autocast and the loss is taken on the bf16
    logits directly: upcasting (B*T, V) logits would cost more than the product that made them.
    """
    with autocast(precision, batch.src.device):
        features, weights = model.features(batch.src, batch.src_lens, batch.tgt_in)  # (B, T, H)
        keep = batch.tgt_out != PAD_ID  # (B, T)
        logits = model.generator(features[keep])  # (N, V) for the N real target tokens
    loss = F.cross_entropy(
        logits, batch.tgt_out[keep], reduction="sum", label_smoothing=label_smoothing
    )
    if guide_weight and batch.guide is not None:
        if weights is None:
            raise ValueError("guided alignment needs a model whose teacher forcing gives weights")
        loss = loss + guide_weight * guide_loss(weights, batch.guide)
    return loss


def optimizer(model: Seq2Seq | Transformer, lr: float) -> torch.optim.Adam:
    """Adam with its fused kernel: the same update in one pass over the weights instead of a
    dozen."""
    return torch.optim.Adam(model.parameters(), lr=lr, fused=True)


def set_lr(opt: torch.optim.Optimizer, lr: float) -> None:
    """The learning rate of the next update."""
    for group in opt.param_groups:
        group["lr"] = lr


def train_step(model: Seq2Seq | Transformer, opt, batch, config: TrainConfig) -> float:
    """One update on ``batch``: mean token loss, backward, gradient clip, Adam. Returns the loss."""
    loss = (
        batch_loss(model, batch, config.label_smoothing, config.precision, config.guide_weight)
        / batch.n_tokens
    )
    update(model, opt, loss, config)
    return loss.item()


def update(model: Seq2Seq | Transformer, opt, loss: torch.Tensor, config: TrainConfig) -> None:
    """Backward from ``loss``, gradient clip, Adam."""
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), config.clip)
    opt.step()
