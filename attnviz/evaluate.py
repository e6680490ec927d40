"""Corpus BLEU with sacreBLEU, every reference translation of a source used."""

from __future__ import annotations

from dataclasses import dataclass

from sacrebleu.metrics import BLEU

from .text import normalize
from .translator import Translator


@dataclass(frozen=True)
class BleuResult:
    score: float  # corpus BLEU, 0-100
    signature: str  # sacreBLEU's signature: how to reproduce the number
    sentences: int  # source sentences translated


def reference_streams(refs: list[list[str]]) -> list[list[str | None]]:
    """sacreBLEU wants one stream per reference slot; sources with fewer references get None."""
    width = max(map(len, refs), default=0)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def corpus_bleu(
    translator: Translator,
    sources: list[str],
    refs: list[list[str]],
    beam: int = 1,
    batch_size: int = 64,
) -> BleuResult:
    """Translate ``sources`` and score them against all their references ``refs``."""
    hyps = [t.text for t in translator.translate_batch(sources, beam=beam, batch_size=batch_size)]
    metric = BLEU(lowercase=translator.text.lowercase)
    clean = [[normalize(r) for r in rs] for rs in refs]
    score = metric.corpus_score(hyps, reference_streams(clean))
    return BleuResult(round(score.score, 2), str(metric.get_signature()), len(sources))
