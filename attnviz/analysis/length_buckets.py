"""The one way source lengths are bucketed wherever BLEU is shown by length: buckets of
:data:`WIDTH` words up to :data:`LAST` (Bahdanau et al., 2015, Figure 2, reads to 60 words),
then one open bucket, labelled ``1–5``, ``6–10``, ... ``61+``. The by-length evaluation
(:mod:`attnviz.analysis.by_length`) and the corpus page's BLEU by length
(:func:`attnviz.analysis.compare_models.bleu_by_length`) both count by these.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 5  # source words per bucket
LAST = 60  # the last bucket of WIDTH words ends here; longer inputs share one open bucket


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
