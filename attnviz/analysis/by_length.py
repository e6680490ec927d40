"""Translation quality against source length, on the same inputs for every model: Bahdanau et
al. (2015), Figure 2, on our checkpoints.

A fixed-context encoder-decoder squeezes the whole source into one vector, so its BLEU should
fall as sentences grow, while a model with attention holds. Every model translates the same
inputs (:mod:`attnviz.analysis.length_inputs`: test sentences, and consecutive ones joined to
make the long inputs), bucketed by source length (:mod:`attnviz.analysis.length_buckets`).

Per bucket and model: corpus BLEU with a 95% bootstrap interval, and the share of the source's
content words that eflomal links to nothing in the model's output ("source words lost"), both
from :mod:`attnviz.analysis.length_bootstrap`. This module runs the models and keeps the result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..data.corpus import Corpus, DataConfig, held_out
from ..decoding.trace import Trace
from ..decoding.translator import Translator
from ..model.precision import Precision
from .eflomal_aligner import EflomalAligner
from .length_bootstrap import CONFIDENCE, RESAMPLES, BucketScore, bucket_scores
from .length_buckets import BUCKETS, Bucket
from .length_inputs import PER_BUCKET, LengthInput, length_inputs, source_words
from .lost_words import content_mask, describe_lost, lost_in_outputs

FORMAT = "attnviz-by-length/1"


def lost_counts(
    inputs: Sequence[LengthInput], outputs: Sequence[str], aligner: EflomalAligner, lang: str
) -> np.ndarray:
    """(inputs, 2): each input's source words lost in its output (:func:`lost_in_outputs`)
    and its content words."""
    words = [source_words(x.source, lang) for x in inputs]
    lost = lost_in_outputs(
        aligner, list(zip(words, [o.split() for o in outputs], strict=True)), lang
    )
    counts = [
        (sum(flags), sum(content_mask(w, lang))) for w, flags in zip(words, lost, strict=True)
    ]
    return np.array(counts, dtype=np.int64).reshape(len(inputs), 2)


@dataclass(frozen=True)
class BucketInputs:
    """What a bucket holds, the same for every model."""

    low: int  # source words, at least
    high: int | None  # at most; None: no bound
    inputs: int  # inputs scored
    words: float | None  # their mean length in source words; None when there is none

    @property
    def label(self) -> str:
        return Bucket(self.low, self.high).label


@dataclass(frozen=True)
class ModelScores:
    """One checkpoint's scores, one per bucket of :data:`BUCKETS`."""

    name: str  # the checkpoint's file name without its extension
    attention: str  # ModelConfig.attention: "none" is the fixed-context model
    sha256: str  # of the checkpoint file: what tells a stale result
    signature: str  # sacreBLEU's
    refused: int  # inputs the model refused (over its length limit), scored as empty output
    buckets: tuple[BucketScore, ...]

    @property
    def has_attention(self) -> bool:
        return self.attention != "none"


@dataclass(frozen=True)
class LengthResult:
    """Every model's scores by source length, and how they were made."""

    buckets: tuple[BucketInputs, ...]
    models: tuple[ModelScores, ...]
    corpus: dict  # file (name), sha256, test_sentences: the test split the inputs come from
    seed: int  # of the joining, the draw and the bootstrap
    per_bucket: int  # inputs per bucket, at most
    resamples: int  # bootstrap resamples per bucket
    confidence: float  # percent
    precision: Precision  # how the models' weights were stored for decoding
    lost_words: str  # which source words count for "lost", and by which links
    notes: tuple[str, ...] = ()  # what was left out and why

    def to_json(self) -> dict:
        return {"format": FORMAT, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict) -> LengthResult:
        """The result :meth:`to_json` gave; ValueError for anything else."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a by-length result (expected format {FORMAT})")
        try:
            fields = {k: v for k, v in data.items() if k != "format"}
            fields["precision"] = Precision(fields["precision"])  # the name the file holds
            models = tuple(
                ModelScores(**{**m, "buckets": tuple(BucketScore(**b) for b in m["buckets"])})
                for m in fields.pop("models")
            )
            buckets = tuple(BucketInputs(**b) for b in fields.pop("buckets"))
            result = cls(buckets, models, **{**fields, "notes": tuple(fields.get("notes", ()))})
        except (KeyError, TypeError) as e:
            raise ValueError(f"a by-length result with missing or unknown fields ({e})") from None
        if len(buckets) != len(BUCKETS) or any(len(m.buckets) != len(BUCKETS) for m in models):
            raise ValueError(f"a by-length result needs {len(BUCKETS)} buckets per model")
        return result


def check_comparable(models: Mapping[str, Translator]) -> None:
    """Refuse (ValueError) models that were not trained on one corpus, split and direction:
    their test splits would differ, and their scores could not be set side by side."""
    if not models:
        raise ValueError("no model to evaluate")
    for name, tr in models.items():
        if tr.data is None:
            raise ValueError(f"{name}: the checkpoint does not record how its data was split")

    def differ(what: str, key: Callable[[Translator], object], among=models) -> None:
        values = {name: key(tr) for name, tr in among.items()}
        if len(set(values.values())) > 1:
            shown = ", ".join(f"{name}: {value}" for name, value in values.items())
            raise ValueError(f"the checkpoints differ in {what} ({shown}); compare models of one")

    recorded = {n: tr for n, tr in models.items() if (tr.card.get("corpus") or {}).get("sha256")}
    differ("corpus (sha256)", lambda tr: tr.card["corpus"]["sha256"][:12], recorded)
    differ(
        "split (valid %, test %)", lambda tr: (data_of(tr).valid_percent, data_of(tr).test_percent)
    )
    differ(
        "direction (source column, languages)",
        lambda tr: (data_of(tr).source_column, f"{tr.text.src_lang}->{tr.text.tgt_lang}"),
    )


def data_of(tr: Translator) -> DataConfig:
    """How ``tr``'s corpus was split, which :func:`check_comparable` requires."""
    if tr.data is None:
        raise ValueError("the checkpoint does not record how its data was split")
    return tr.data


def evaluate_by_length(
    models: Mapping[str, Translator],
    corpus: Corpus,
    sha256: Mapping[str, str],
    aligner: EflomalAligner | None = None,
    per_bucket: int = PER_BUCKET,
    seed: int = 0,
    resamples: int = RESAMPLES,
    batch_size: int = 64,
    notes: Sequence[str] = (),
    log: Callable[[str], None] = lambda message: None,
) -> LengthResult:
    """Every model (by name) scored by source length on the same inputs, drawn from the test
    split of ``corpus`` (read as the models read it); ``sha256``: each model's file's. Without
    an ``aligner`` the lost measure is left out. Each model translates greedily; an input it
    refuses counts as an empty output."""
    check_comparable(models)
    first = next(iter(models.values()))
    lang = first.text.src_lang
    data = data_of(first)
    sources, refs = held_out(corpus, data.valid_percent, data.test_percent, "test")
    if not sources:
        raise ValueError(f"{corpus.path}: the test split is empty")
    inputs = length_inputs(sources, refs, per_bucket, seed, lang)
    scored = tuple(
        _model_scores(name, tr, sha256[name], inputs, aligner, resamples, seed, batch_size, log)
        for name, tr in models.items()
    )
    return LengthResult(
        buckets=_bucket_inputs(inputs),
        models=scored,
        corpus={
            "file": Path(corpus.path).name,
            "sha256": corpus.sha256,
            "test_sentences": len(sources),
        },
        seed=seed,
        per_bucket=per_bucket,
        resamples=resamples,
        confidence=CONFIDENCE,
        precision=first.precision,
        lost_words=describe_lost(lang),
        notes=tuple(notes),
    )


def _model_scores(
    name: str,
    tr: Translator,
    sha256: str,
    inputs: Sequence[LengthInput],
    aligner: EflomalAligner | None,
    resamples: int,
    seed: int,
    batch_size: int,
    log: Callable[[str], None],
) -> ModelScores:
    """One model's scores by bucket: its greedy translations of ``inputs`` (an input it refuses
    counts as an empty output) and, with an ``aligner``, the source words they lost."""
    log(f"{name}: translating {len(inputs)} inputs")
    results = tr.translate_each([x.source for x in inputs], batch_size=batch_size)
    outputs = [r.text if isinstance(r, Trace) else "" for r in results]
    lost = None
    if aligner is not None:
        log(f"{name}: aligning its outputs with eflomal")
        lost = lost_counts(inputs, outputs, aligner, tr.text.src_lang)
    buckets, signature = bucket_scores(
        inputs, outputs, tr.text.lowercase, lost, resamples, seed, tr.text.tgt_lang
    )
    refused = sum(not isinstance(r, Trace) for r in results)
    return ModelScores(name, tr.model.config.attention, sha256, signature, refused, buckets)


def _bucket_inputs(inputs: Sequence[LengthInput]) -> tuple[BucketInputs, ...]:
    out = []
    for b, bucket in enumerate(BUCKETS):
        words = [x.words for x in inputs if x.bucket == b]
        mean = round(sum(words) / len(words), 2) if words else None
        out.append(BucketInputs(bucket.low, bucket.high, len(words), mean))
    return tuple(out)
