"""The inputs every model is scored on by source length, the same for all of them.

Tatoeba's test sentences are short (6 words on average), so long inputs are made by joining
consecutive test sentences after a seeded shuffle (as ``benchmarks/quality/joined_bleu.py``
does), k = 2, 3, 4 ... at a time, until every bucket up to 60 words holds ``per_bucket`` inputs
or the split has no more to give. Every input is scored against its first reference (a joined
input against its parts' first references, joined), so that no bucket gains from the extra
references short sentences have.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..data import chinese
from ..data.text import normalize
from .length_buckets import BUCKETS, LAST, bucket_index

PER_BUCKET = 100  # inputs scored per bucket, at most
MAX_ROUNDS = 50  # rounds of joining (k = 2, 3 ...) at most, while buckets are still short


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
