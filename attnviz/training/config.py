"""How a model is trained: the one place each training setting and its default are written."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.precision import TRAINING
from ..options import option


@dataclass(frozen=True)
class TrainConfig:
    """How a model is trained; stored in the model card."""

    epochs: int = option(10, "passes over the training split")
    batch_size: int = option(64, "sentence pairs per step (over all processes under torchrun)")
    lr: float = option(1e-3, "Adam learning rate")
    decay_after: int = option(
        0,
        "after this many epochs, multiply the learning rate by --lr-decay every epoch "
        "(0: constant rate)",
    )
    lr_decay: float = option(0.5, "learning-rate factor per decayed epoch")
    clip: float = option(1.0, "gradient-norm clip")
    seed: int = option(0, "seeds the weights, dropout and batch order: same seed, same model")
    label_smoothing: float = option(0.0, "cross-entropy label smoothing")
    bleu_sentences: int = option(
        1000, "validation sentences translated for BLEU at each snapshot (0: all)"
    )
    test_beam: int = option(5, "beam width of the second test BLEU in the card (1: skip)")
    precision: str = option(
        "auto",
        "bf16: autocast (bf16 products, fp32 weights); auto: bf16 where the hardware has "
        "it natively (AVX-512 BF16, AMX, recent GPUs), else fp32",
        choices=TRAINING,
    )
    join_fraction: float = option(
        0.3,
        "share of the training pairs joined two or three at a time into longer ones, drawn "
        "anew each epoch, so that the model learns long sentences (0: none); a joined pair "
        "may be up to three times --max-len",
    )
    swap_fraction: float = option(
        0.0,
        "copies of the training pairs that carry a name or a number verbatim on both sides, "
        "per such pair, added each epoch with them swapped for new ones, the same on both "
        "sides, so that the model learns to copy what it has not seen (0: none; 2: each "
        "twice; at most 4; see attnviz.swap)",
    )
    probe_sentences: int = option(
        20, "held-out pairs, spread over lengths, whose attention the history records (0: none)"
    )

    def __post_init__(self):
        for name in ("epochs", "batch_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.lr <= 0:
            raise ValueError(f"lr must be positive, got {self.lr}")
        if self.decay_after < 0 or not 0 < self.lr_decay <= 1:
            raise ValueError(
                f"need decay_after >= 0 and 0 < lr_decay <= 1, got {self.decay_after}, "
                f"{self.lr_decay}"
            )
        for name, most in (("join_fraction", 1), ("swap_fraction", 4)):
            if not 0 <= getattr(self, name) <= most:
                raise ValueError(f"{name} must be in [0, {most}], got {getattr(self, name)}")
        if self.precision not in TRAINING:
            raise ValueError(f"precision must be one of {TRAINING}, not {self.precision!r}")

    def lr_at(self, epoch: int) -> float:
        """The learning rate of ``epoch`` (0-based): a function of the epoch alone, so a resumed
        run follows the same schedule as an uninterrupted one."""
        if not self.decay_after:
            return self.lr
        return self.lr * self.lr_decay ** max(0, epoch + 1 - self.decay_after)
