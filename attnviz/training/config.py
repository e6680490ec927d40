"""How a model is trained: the one place each training setting and its default are written,
and :class:`TrainingRun`, all that describes one run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.corpus import DataConfig
from ..data.text import TextConfig
from ..model.model_config import ModelConfig
from ..model.precision import Precision, precision_names
from ..options import option
from ..tuning.training_precision import TRAINING

if TYPE_CHECKING:
    from ..analysis.history import Probe

STORAGE = ("fp32", "fp16")  # how a checkpoint may store its weights
SCHEDULES = ("step", "linear")  # how the learning rate moves over a run
OUTPUT_BIASES = ("unigram", "zero")  # how the output layer's bias starts


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
    schedule: str = option(
        "step",
        "step: --lr, then x --lr-decay each epoch after --decay-after; linear: from --lr down "
        "to 0 over --epochs, a little every update (for a run whose length is known in "
        "advance, the better use of it: Li et al., 2020, 'Budgeted training')",
        choices=SCHEDULES,
    )
    warmup: float = option(
        0.0,
        "epochs over which the learning rate rises linearly from 0 to what the schedule "
        "gives, at the start of the run (a Transformer needs it: Vaswani et al., 2017); 0: none",
    )
    clip: float = option(1.0, "gradient-norm clip")
    seed: int = option(0, "seeds the weights, dropout and batch order: same seed, same model")
    label_smoothing: float = option(0.0, "cross-entropy label smoothing")
    bleu_sentences: int = option(
        1000, "validation sentences translated for BLEU at each snapshot (0: all)"
    )
    test_beam: int = option(5, "beam width of the second test BLEU in the card (1: skip)")
    precision: Precision = option(
        Precision.AUTO,
        "bf16: autocast (bf16 products, fp32 weights); auto: bf16 where the hardware has "
        "it natively (AVX-512 BF16, AMX, recent GPUs), else fp32",
        choices=precision_names(TRAINING),
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
        "twice; at most 4; see attnviz.data.swap)",
    )
    subword_dropout: float = option(
        0.0,
        "subword regularization: each epoch splits every training word into pieces anew, "
        "skipping each BPE merge with this probability (BPE-dropout, Provilkov et al., 2020; "
        "for a unigram model, a split sampled from its lattice with this alpha, Kudo, 2018), "
        "so that the model also reads words in the pieces that rarer spellings split them "
        "into (0: the one split; needs --subwords)",
    )
    short_copies: float = option(
        0.0,
        "copies of the training pairs whose source has at most 5 words, per such pair, added "
        "each epoch, so that the model meets short everyday inputs more often (0: none; at "
        "most 4; see attnviz.data.typed)",
    )
    typed_fraction: float = option(
        0.0,
        "share of the training sources written anew each epoch as people type them: lower "
        "case, no final punctuation, or both; the targets unchanged (0: none)",
    )
    output_bias: str = option(
        "unigram",
        "the output layer's bias at the start: unigram: the log of each target token's share "
        "of the training split's target tokens, so that the first updates need not learn "
        "which tokens the corpus writes and which never (a small corpus under the default "
        "--subwords has hundreds of pieces it never writes, and learning that first put a "
        "toy's attention on <eos>: docs/alignment.md); zero: PyTorch's initialization, as the "
        "shipped checkpoints were trained",
        choices=OUTPUT_BIASES,
    )
    probe_sentences: int = option(
        20, "held-out pairs, spread over lengths, whose attention the history records (0: none)"
    )
    guide_weight: float = option(
        1.0,
        "with --guide or --guide-links: the weight of the guided-alignment loss, the "
        "cross-entropy between each target token's attention and its links, beside the "
        "translation loss (both summed per target token)",
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
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}, not {self.schedule!r}")
        if self.schedule == "linear" and self.decay_after:
            raise ValueError("--decay-after belongs to the step schedule, not to linear")
        for name, most in (
            ("join_fraction", 1),
            ("swap_fraction", 4),
            ("short_copies", 4),
            ("typed_fraction", 1),
        ):
            if not 0 <= getattr(self, name) <= most:
                raise ValueError(f"{name} must be in [0, {most}], got {getattr(self, name)}")
        if self.warmup < 0:
            raise ValueError(f"warmup must be >= 0 epochs, got {self.warmup}")
        if not 0 <= self.subword_dropout < 1:
            raise ValueError(f"subword_dropout must be in [0, 1), got {self.subword_dropout}")
        if self.guide_weight < 0:
            raise ValueError(f"guide_weight must be >= 0, got {self.guide_weight}")
        if self.output_bias not in OUTPUT_BIASES:
            raise ValueError(
                f"output_bias must be one of {OUTPUT_BIASES}, not {self.output_bias!r}"
            )
        # a name from the command line or a card, read as a Precision
        precision = Precision.among(self.precision, TRAINING, "precision")
        object.__setattr__(self, "precision", precision)

    def lr_at(self, epoch: float) -> float:
        """The learning rate at ``epoch`` (0-based; 2.5 is halfway through the third): a
        function of the run's progress alone, so a resumed run follows the same schedule as
        an uninterrupted one."""
        rising = min(1.0, epoch / self.warmup) if self.warmup else 1.0
        if self.schedule == "linear":
            return rising * self.lr * max(0.0, 1 - epoch / self.epochs)
        if not self.decay_after:
            return rising * self.lr
        return rising * self.lr * self.lr_decay ** max(0, int(epoch) + 1 - self.decay_after)


@dataclass(frozen=True)
class TrainingRun:
    """One training run, all that decides it: what it learns from and writes, the model, the
    text, data and training settings (the training precision among them), how the weights are
    stored, and where it runs. ``python -m attnviz train`` and the dashboard's live toy runs
    build one; :func:`attnviz.training.train.train` runs it.

    ``model``'s vocabulary sizes are left None: the run's vocabularies decide them.
    ``init_from`` starts from that checkpoint's weights, with its architecture, text settings
    and vocabularies (see :mod:`attnviz.training.lineage`): ``model`` is then None (the
    parent's) or the parent's with only a changeable field changed (dropout); ``text`` and
    ``data``'s vocabulary settings are the parent's whatever they say here.
    """

    corpus: str | Path  # the corpus file, source<TAB>target per line
    out: str | Path  # the checkpoint written (.safetensors); the training state goes to OUT.state
    model: ModelConfig | None = None  # the architecture, its vocabulary sizes left None
    text: TextConfig = TextConfig()  # how sentences become tokens
    data: DataConfig = DataConfig()  # split, vocabularies, subword pieces
    train: TrainConfig = TrainConfig()  # schedule, batches, seed, training precision
    storage: str = "fp32"  # how the checkpoint stores the weights: fp16 halves the file
    device: str = "cpu"  # a torch device; under torchrun cpu or cuda (cuda:LOCAL_RANK each)
    resume: bool = False  # go on from OUT.state, the training state of the last epoch done
    init_from: str | Path | None = None  # a checkpoint whose weights the run starts from
    fresh_attention: bool = False  # with init_from: the attention's score from new weights
    # with init_from: grow the parent's sentencepiece models by up to this many pieces each
    add_pieces: int = 0
    # guided alignment (see .guide): "eflomal", or a Path to Pharaoh links; None: natural
    guide: str | Path | None = None
    probes: tuple[Probe, ...] = ()  # more probes for the history (pairs with gold, say)
    about: Mapping = field(default_factory=dict)  # for the card: corpus license, command run

    def __post_init__(self):
        if self.storage not in STORAGE:
            raise ValueError(f"storage must be one of {STORAGE}, not {self.storage!r}")
        if self.model is None and not self.init_from:
            raise ValueError("a run needs a model configuration, unless init_from gives it")
        if self.fresh_attention and not self.init_from:
            raise ValueError("fresh_attention renews a parent's attention: it needs init_from")
        if self.add_pieces < 0 or (self.add_pieces and not self.init_from):
            raise ValueError("add_pieces grows a parent's pieces: it needs init_from and N >= 0")
        if isinstance(self.guide, str) and self.guide != "eflomal":
            raise ValueError(f"guide is 'eflomal' or a Path to a links file, not {self.guide!r}")
        if self.model is not None and not self.model.has_attention and self.guide:
            raise ValueError(
                "guided alignment teaches attention where to look; a model with --attention "
                "none has no attention"
            )
        if self.init_from or self.model is None:
            return  # the parent's architecture and vocabularies: see .lineage
        if self.model.tie_embeddings and not self.data.joint_subwords:
            raise ValueError(
                "tied embeddings need one vocabulary for both languages: add --joint-subwords"
            )
