"""Translation quality against source length, on the same inputs for every model: Bahdanau et
al. (2015), Figure 2, on our checkpoints.

A fixed-context encoder-decoder squeezes the whole source into one vector, so its BLEU should
fall as sentences grow, while a model with attention holds. Tatoeba's test sentences are short
(6 words on average), so long inputs are made by joining consecutive test sentences after a
seeded shuffle (as ``benchmarks/quality/joined_bleu.py`` does), k = 2, 3, 4 ... at a time, until
every bucket up to 60 words holds ``per_bucket`` inputs or the split has no more to give. Every
input is scored against its first reference (a joined input against its parts' first
references, joined), so that no bucket gains from the extra references short sentences have.

Per bucket and model: corpus BLEU with a 95% bootstrap interval, and the share of the source's
content words that eflomal links to nothing in the model's output ("source words lost"). The
resamples are drawn once per bucket and shared by the models, so their intervals are paired.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..data import chinese
from ..data.corpus import Corpus, held_out
from ..data.text import normalize
from ..decoding.trace import Trace
from ..decoding.translator import Translator
from .eflomal_aligner import EflomalAligner
from .evaluate import BleuStatistics, bleu, bleu_statistics
from .lost_words import content_mask, describe_lost, lost_in_outputs

FORMAT = "attnviz-by-length/1"
WIDTH = 5  # source words per bucket
LAST = 60  # the last bucket of WIDTH words ends here; longer inputs share one open bucket
PER_BUCKET = 100  # inputs scored per bucket, at most
RESAMPLES = 1000  # bootstrap resamples of each bucket's inputs
CONFIDENCE = 95.0  # percent: the bootstrap interval's coverage
MAX_ROUNDS = 50  # rounds of joining (k = 2, 3 ...) at most, while buckets are still short


@dataclass(frozen=True)
class Bucket:
    """A range of source lengths in words, ``high`` None for the open last one."""

    low: int
    high: int | None

    @property
    def label(self) -> str:
        return f"{self.low}+" if self.high is None else f"{self.low}–{self.high}"


BUCKETS = (*(Bucket(w, w + WIDTH - 1) for w in range(1, LAST, WIDTH)), Bucket(LAST + 1, None))


def bucket_index(words: int) -> int:
    """The index in :data:`BUCKETS` of a source of ``words`` words (at least 1)."""
    if words < 1:
        raise ValueError(f"a source has at least one word, got {words}")
    return min((words - 1) // WIDTH, len(BUCKETS) - 1)


def source_words(source: str, lang: str) -> list[str]:
    """A source's words: ``str.split()``, or for Chinese its words as alignments count them
    (:func:`chinese.words`: jieba's, unless the text is already cut)."""
    return chinese.words(normalize(source)) if lang == "zh" else source.split()


@dataclass(frozen=True)
class LengthInput:
    """One input scored: a test sentence, or several joined with spaces."""

    source: str
    reference: str  # the first reference of each part, joined the same way
    parts: tuple[int, ...]  # the test sentences it is made of (indices into the split's sources)
    words: int  # source words (:func:`source_words`)

    @property
    def bucket(self) -> int:
        return bucket_index(self.words)


def length_inputs(
    sources: Sequence[str],
    refs: Sequence[Sequence[str]],
    per_bucket: int = PER_BUCKET,
    seed: int = 0,
    lang: str = "en",
) -> list[LengthInput]:
    """At most ``per_bucket`` inputs per bucket of :data:`BUCKETS`, ordered by bucket, drawn
    with ``seed``: the test sentences themselves first, then joined ones where there are too
    few (see the module's docstring)."""
    if per_bucket < 1:
        raise ValueError(f"per_bucket must be at least 1, got {per_bucket}")
    singles = [
        LengthInput(s, r[0], (i,), len(source_words(s, lang)))
        for i, (s, r) in enumerate(zip(sources, refs, strict=True))
    ]
    singles = [x for x in singles if x.words]
    rng = random.Random(seed)
    joined = _joined(singles, per_bucket, rng)
    chosen = []
    for b in range(len(BUCKETS)):
        picked = _sample(rng, [x for x in singles if x.bucket == b], per_bucket)
        more = _sample(rng, [x for x in joined if x.bucket == b], per_bucket - len(picked))
        chosen += sorted([*picked, *more], key=lambda x: (len(x.parts), x.parts))
    return chosen


def _sample(rng: random.Random, items: list, n: int) -> list:
    return rng.sample(items, min(n, len(items)))


def _joined(singles: list[LengthInput], per_bucket: int, rng: random.Random) -> list[LengthInput]:
    """Test sentences joined k = 2, 3, ... at a time, consecutive after a shuffle, each k's
    groups a new shuffle's; whole rounds of k again while they still feed a bucket short of
    ``per_bucket`` inputs."""
    have = Counter(x.bucket for x in singles)
    seen: set[tuple[int, ...]] = set()
    out: list[LengthInput] = []
    for _ in range(MAX_ROUNDS):
        if all(have[b] >= per_bucket for b in range(len(BUCKETS))):
            break
        fed = False
        for k in range(2, len(singles) + 1):
            order = list(range(len(singles)))
            rng.shuffle(order)
            level = [tuple(order[j : j + k]) for j in range(0, len(order) - k + 1, k)]
            for group in level:
                if group in seen:
                    continue
                seen.add(group)
                x = _join([singles[i] for i in group])
                fed |= have[x.bucket] < per_bucket
                have[x.bucket] += 1
                out.append(x)
            if min(sum(singles[i].words for i in g) for g in level) > LAST:
                break  # a larger k only makes longer inputs still
        if not fed:
            break
    return out


def _join(parts: list[LengthInput]) -> LengthInput:
    return LengthInput(
        " ".join(p.source for p in parts),
        " ".join(p.reference for p in parts),
        tuple(i for p in parts for i in p.parts),
        sum(p.words for p in parts),
    )


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
class BucketScore:
    """One model on one bucket; every value None when the bucket is empty."""

    bleu: float | None  # corpus BLEU, 0-100
    bleu_low: float | None  # the bootstrap interval (CONFIDENCE percent)
    bleu_high: float | None
    lost: float | None  # percent of content words linked to nothing; None: not measured
    lost_low: float | None
    lost_high: float | None


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
    precision: str  # how the models' weights were stored for decoding
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


def bucket_scores(
    inputs: Sequence[LengthInput],
    outputs: Sequence[str],
    lowercase: bool = False,
    lost: np.ndarray | None = None,
    resamples: int = RESAMPLES,
    seed: int = 0,
    target: str = "",
) -> tuple[tuple[BucketScore, ...], str]:
    """Each bucket's :class:`BucketScore` for ``outputs`` of ``inputs``, and sacreBLEU's
    signature. ``lost``: :func:`lost_counts`, or None to leave that measure out; ``target``:
    the outputs' language (Chinese is scored by characters: :func:`.evaluate.metric`).

    The point BLEU is :func:`attnviz.analysis.evaluate.bleu` of the bucket. Its interval is
    the percentile bootstrap: the bucket's inputs resampled with replacement ``resamples``
    times (with ``seed``, so every model gets the same resamples), corpus BLEU of each resample
    from per-sentence sufficient statistics (sacreBLEU's ``BLEU._extract_corpus_statistics``
    once, then ``_compute_score_from_stats`` of each resample's sums, as its paired bootstrap
    does). The lost share is pooled, lost words over content words, resampled alike.
    """
    refs = [[x.reference] for x in inputs]
    stats = bleu_statistics(list(outputs), refs, lowercase, target)
    signature = bleu(list(outputs), refs, lowercase, target)[1]
    rng = np.random.default_rng(seed)
    scores = []
    for b in range(len(BUCKETS)):
        rows = np.array([k for k, x in enumerate(inputs) if x.bucket == b], dtype=np.int64)
        draws = rows[rng.integers(0, len(rows), (resamples, len(rows)))] if len(rows) else None
        if draws is None:
            scores.append(BucketScore(None, None, None, None, None, None))
            continue
        point = bleu([outputs[k] for k in rows], [refs[k] for k in rows], lowercase, target)[0]
        low, high = _interval(_bootstrap_bleu(stats, draws))
        shares = (None, None, None)
        if lost is not None:
            shares = (_share(lost[rows].sum(0)), *_interval(_bootstrap_lost(lost, draws)))
        scores.append(BucketScore(round(point, 2), low, high, *shares))
    return tuple(scores), signature


def _bootstrap_bleu(stats: BleuStatistics, draws: np.ndarray) -> np.ndarray:
    sums = stats.counts[draws].sum(1)  # (R, 10): each resample's summed counts
    return np.array([stats.score(s) for s in sums])


def _bootstrap_lost(lost: np.ndarray, draws: np.ndarray) -> np.ndarray:
    sums = lost[draws].sum(1)  # (R, 2): lost and content words of each resample
    return np.array([_share(s) for s in sums], dtype=float)


def _share(summed: np.ndarray) -> float | None:
    """Percent of content words lost; None without any content word."""
    return round(100 * float(summed[0]) / float(summed[1]), 2) if summed[1] else None


def _interval(values: np.ndarray) -> tuple[float | None, float | None]:
    values = values[~np.isnan(values.astype(float))]
    if not len(values):
        return None, None
    tail = (100 - CONFIDENCE) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return round(float(low), 2), round(float(high), 2)


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
    differ("split (valid %, test %)", lambda tr: (tr.data.valid_percent, tr.data.test_percent))
    differ(
        "direction (source column, languages)",
        lambda tr: (tr.data.source_column, f"{tr.text.src_lang}->{tr.text.tgt_lang}"),
    )


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
    sources, refs = held_out(corpus, first.data.valid_percent, first.data.test_percent, "test")
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
