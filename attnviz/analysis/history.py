"""The training history: how attention and the scores moved while a model learned.

A run picks a fixed probe set before it starts: about 20 held-out sentence pairs spread over
lengths, plus any pairs given with gold alignments. At every snapshot (after each epoch, and a
few times within the first) it force-decodes each probe's reference and keeps the attention
between its whitespace words (float16), the AER where there is gold, and the validation loss
and BLEU. The metadata lives in the card as JSON; the matrices travel as one flat float16
tensor per snapshot, ``history.attention.K``, in the checkpoint and the training state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import NamedTuple

import numpy as np
import torch

from ..data import chinese
from ..data.corpus import spread_sample
from ..data.text import TextConfig
from ..decoding.translator import Translator
from ..errors import InputError
from .aer import Gold, score
from .align import extract_links, forced_words, word_weights

TENSOR_PREFIX = "history.attention."
FIRST_EPOCH_POINTS = (0.1, 0.25, 0.5)  # fractions of the first epoch that get a snapshot too


@dataclass(frozen=True)
class Probe:
    source: str  # whitespace-separated words
    target: str  # the reference, force-decoded
    gold: Gold | None = None  # (source word, target word) links, when known
    # (target words, source words + 1) as the run that recorded it counted them; None: its
    # whitespace words (histories recorded before Chinese was read as jieba's words)
    size: tuple[int, int] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """(target words, source words + the source <eos>) of its attention matrix."""
        if self.size is not None:
            return self.size
        return len(self.target.split()), len(self.source.split()) + 1

    def words(self) -> tuple[list[str], list[str]]:
        """Its source and target words, as the columns (before ``<eos>``) and rows of its
        matrix: whitespace words, or jieba's for a side whose recorded size counted them so
        (the only way :meth:`TextConfig.words` counts otherwise)."""
        src, tgt = self.source.split(), self.target.split()
        if self.size is not None:
            rows, cols = self.size
            tgt = tgt if len(tgt) == rows else chinese.words(self.target)
            src = src if len(src) + 1 == cols else chinese.words(self.source)
        return src, tgt

    def counted(self, text: TextConfig) -> Probe:
        """This probe with its size counted as ``text`` counts words (what the forced decoding
        of a new history reads: Chinese by jieba)."""
        words = len(text.words(self.target, "tgt")), len(text.words(self.source, "src")) + 1
        return replace(self, size=words)

    def to_json(self) -> dict:
        out: dict = {"source": self.source, "target": self.target}
        if self.size is not None:
            out["shape"] = list(self.size)
        if self.gold is not None:
            out["gold_sure"] = sorted(map(list, self.gold.sure))
            out["gold_possible"] = sorted(map(list, self.gold.possible - self.gold.sure))
        return out

    @classmethod
    def from_json(cls, d: dict) -> Probe:
        gold = None
        if "gold_sure" in d:
            sure = {tuple(x) for x in d["gold_sure"]}
            gold = Gold(sure, sure | {tuple(x) for x in d["gold_possible"]})
        size = tuple(d["shape"]) if "shape" in d else None
        return cls(d["source"], d["target"], gold, size)


def choose_probes(pairs: list[tuple[str, str]], n: int = 20) -> list[Probe]:
    """``n`` (source, first reference) pairs spread evenly over source lengths (none for 0)."""
    if n < 1:
        return []
    by_length = sorted(pairs, key=lambda p: (len(p[0].split()), p[0]))
    sources, targets = spread_sample([s for s, _ in by_length], [t for _, t in by_length], n)
    return [Probe(s, t) for s, t in zip(sources, targets, strict=True)]


class ProbeAttention(NamedTuple):
    """What a snapshot records of the probes."""

    flat: np.ndarray  # every probe's word attention, flattened and concatenated (float16)
    aer: float | None  # percent, argmax links, over the probes with gold that were forced
    refused: int  # probes the model refuses to force (an InputError: over its length limit,
    # say): stored as zeros to keep the layout, and left out of the AER


@dataclass(frozen=True)
class Snapshot:
    """What a snapshot records besides the probes' attention (kept in
    :attr:`History.attention`, one flat array per snapshot, in the same order)."""

    epoch: float  # when it was taken, in (fractional) epochs of the run's lineage
    valid_loss: float  # validation loss per target token
    valid_bleu: float | None  # validation BLEU; None where the run had no validation sentences
    aer: float | None  # percent, argmax links, over the probes with gold that were forced
    refused: int | None = None  # probes the model refused to force; None: recorded before
    # refusals were counted

    def to_json(self) -> dict:
        """As the card stores it (``refused`` only where it was recorded)."""
        out = asdict(self)
        if self.refused is None:
            del out["refused"]
        return out

    @classmethod
    def from_json(cls, d: dict) -> Snapshot:
        return cls(d["epoch"], d["valid_loss"], d["valid_bleu"], d["aer"], d.get("refused"))


def attention_of(translator: Translator, probes: list[Probe]) -> ProbeAttention:
    """The probes' word attention and the AER of those with gold, as :class:`ProbeAttention`
    says; None for the AER where no probe with gold was forced."""
    flat, golds, hyps, refused = [], [], [], 0
    for probe in probes:
        try:
            wt = forced_words(translator, probe.source, probe.target)
        except InputError:
            refused += 1
            flat.append(np.zeros(probe.shape[0] * probe.shape[1]))
            continue
        matrix = word_weights(wt.trace, wt.src_owner, wt.tgt_owner, wt.n_src, wt.n_tgt)
        flat.append(matrix.reshape(-1))
        if probe.gold is not None:
            golds.append(probe.gold)
            hyps.append(set(extract_links(matrix, "argmax")))
    aer = round(score(golds, hyps).aer, 2) if golds else None
    return ProbeAttention(np.concatenate([np.zeros(0), *flat]).astype(np.float16), aer, refused)


def probe_aer(matrix: np.ndarray, gold: Gold) -> float:
    """The AER (percent) of one probe's argmax links in ``matrix`` against its gold."""
    return round(score([gold], [set(extract_links(matrix, "argmax"))]).aer, 2)


def unflatten(flat: np.ndarray, probes: list[Probe]) -> list[np.ndarray]:
    """One snapshot's flat attention back into one (target words, source words + 1) matrix
    per probe."""
    out, k = [], 0
    for probe in probes:
        rows, cols = probe.shape
        out.append(np.asarray(flat[k : k + rows * cols], dtype=np.float32).reshape(rows, cols))
        k += rows * cols
    return out


class History:
    """What a run recorded: per-epoch curves, the probes, and the snapshots."""

    def __init__(self, meta: dict | None = None, tensors: dict[str, torch.Tensor] | None = None):
        meta = dict(meta or {})
        self.epochs: dict[str, list] = {
            k: list(meta.get(k, [])) for k in ("valid_loss", "valid_bleu", "epoch_seconds")
        }
        self.best = {k: meta[k] for k in ("best_loss", "best_epoch") if k in meta}
        self.probes = [Probe.from_json(p) for p in meta.get("probes", [])]
        self.snapshots = [Snapshot.from_json(s) for s in meta.get("snapshots", [])]
        tensors = tensors or {}
        self.attention = [
            tensors[f"{TENSOR_PREFIX}{k}"].numpy() for k in range(len(self.snapshots))
        ]

    def add(
        self, translator: Translator, epoch: float, valid_loss: float, bleu: float | None
    ) -> None:
        """Record a snapshot of ``translator`` at (fractional) ``epoch``."""
        probed = attention_of(translator, self.probes)
        self.snapshots.append(
            Snapshot(round(epoch, 3), round(valid_loss, 4), bleu, probed.aer, probed.refused)
        )
        self.attention.append(probed.flat)

    def to_json(self) -> dict:
        return {
            **self.epochs,
            **self.best,
            "probes": [p.to_json() for p in self.probes],
            "snapshots": [s.to_json() for s in self.snapshots],
        }

    def tensors(self) -> dict[str, torch.Tensor]:
        return {f"{TENSOR_PREFIX}{k}": torch.from_numpy(a) for k, a in enumerate(self.attention)}

    def matrices(self, snapshot: int) -> list[np.ndarray]:
        """Each probe's word attention at ``snapshot``."""
        return unflatten(self.attention[snapshot], self.probes)

    def at(self, epoch: float) -> int:
        """The last snapshot taken by ``epoch`` (the first one if none was)."""
        taken = [k for k, s in enumerate(self.snapshots) if s.epoch <= epoch]
        return taken[-1] if taken else 0

    def find(self, probe: Probe) -> int | None:
        """Where this history keeps ``probe`` (same source and target), if it does."""
        for k, mine in enumerate(self.probes):
            if (mine.source, mine.target) == (probe.source, probe.target):
                return k
        return None


def most_changed(histories: list[History]) -> int:
    """The probe of ``histories[0]`` whose attention moved most over training: the mean over
    its output words of the total-variation distance between the first and the last
    snapshot's rows, averaged over the histories that recorded it."""
    probes = histories[0].probes
    moved = np.zeros(len(probes))
    for history in histories:
        if not history.snapshots:
            continue
        first, last = history.matrices(0), history.matrices(len(history.snapshots) - 1)
        for k, probe in enumerate(probes):
            j = history.find(probe)
            if j is not None and first[j].size:
                moved[k] += 0.5 * np.abs(last[j] - first[j]).sum(axis=1).mean()
    return int(moved.argmax()) if len(probes) else 0


def moments(histories: list[History]) -> list[float]:
    """Every epoch at which any of ``histories`` took a snapshot, in order."""
    return sorted({s.epoch for h in histories for s in h.snapshots})
