"""Each attention score's time per decoding step, measured on this machine: the lecture notes'
table says Bahdanau's additive score is slow (a matrix product and a tanh over every source
word) and Luong's dot product fast. This checks the claim at a model's own size.

What is timed is what one greedy step of one sentence computes in attnviz.model.attention: the
scores of one query against the keys of ``source`` words (prepared once per sentence, as
decoding prepares them, and not timed), the softmax and the context; in fp32, on one thread,
by torch.utils.benchmark's Timer (its warm-up, and the median of blocks it sizes itself).
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch.utils import benchmark

from ..model.attention import SCORES, Memory, make_attention

MIN_RUN_SECONDS = 0.2  # each score's timing: blocks of runs until this long, then their median


class ScoreTime(NamedTuple):
    kind: str  # one of attnviz.model.attention.SCORES
    microseconds: float  # median time of one step's attention: scores, softmax, context
    runs: int  # how many steps the median is over


def score_times(hidden: int, source: int, min_seconds: float = MIN_RUN_SECONDS) -> list[ScoreTime]:
    """The time of one decoding step's attention for each score in SCORES, at states of size
    ``hidden`` (queries, keys and the additive scores' inner size alike) over ``source``
    source tokens; dot and general scaled as the shipped models are."""
    torch.manual_seed(0)
    values = torch.randn(1, max(1, source), hidden)
    query = torch.randn(1, 1, hidden)
    times = []
    with torch.no_grad():
        for kind in SCORES:
            attention = make_attention(
                kind, hidden, hidden, hidden, scaled=kind in ("dot", "general")
            )
            memory = Memory(values, attention.keys(values), None)
            timer = benchmark.Timer(
                "attention(query, memory)",
                globals={"attention": attention, "query": query, "memory": memory},
                num_threads=1,
            )
            measured = timer.blocked_autorange(min_run_time=min_seconds)
            times.append(
                ScoreTime(
                    kind, measured.median * 1e6, measured.number_per_run * len(measured.times)
                )
            )
    return times
