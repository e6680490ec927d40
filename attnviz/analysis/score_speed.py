"""Each attention score's time per decoding step, measured on this machine: the lecture notes'
table says Bahdanau's additive score is slow (a matrix product and a tanh over every source
word) and Luong's dot product fast. This checks the claim at a model's own size.

What is timed is what one greedy step of one sentence computes in attnviz.model.attention: the
scores of one query against the keys of ``source`` words (prepared once per sentence, as
decoding prepares them, and not timed), the softmax and the context; in fp32, on one thread,
by torch.utils.benchmark's Timer (its warm-up, and the median of blocks it sizes itself). The
scores are timed in turn, ``repeats`` rounds of all of them, so that a ratio of two scores is
taken within each round, where the machine's load is about the same for both: one number from
one run moved from 1.7x to 8.9x between runs on a shared machine, the spread over rounds says
how far to trust it.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import NamedTuple

import torch
from torch.utils import benchmark

from ..model.attention import SCORES, Memory, make_attention

MIN_RUN_SECONDS = 0.05  # each score's timing in a round: blocks of runs until this long
REPEATS = 5  # rounds of every score


class ScoreTime(NamedTuple):
    kind: str  # one of attnviz.model.attention.SCORES
    rounds: tuple[float, ...]  # each round's median time (µs) of one step's attention
    runs: int  # how many steps were timed in all

    @property
    def microseconds(self) -> float:
        """The median over the rounds."""
        return statistics.median(self.rounds)


def score_times(
    hidden: int, source: int, min_seconds: float = MIN_RUN_SECONDS, repeats: int = REPEATS
) -> list[ScoreTime]:
    """The time of one decoding step's attention for each score in SCORES, at states of size
    ``hidden`` (queries, keys and the additive scores' inner size alike) over ``source``
    source tokens; dot and general scaled as the shipped models are; ``repeats`` rounds."""
    torch.manual_seed(0)
    values = torch.randn(1, max(1, source), hidden)
    query = torch.randn(1, 1, hidden)
    timers = {}
    with torch.no_grad():
        for kind in SCORES:
            attention = make_attention(
                kind, hidden, hidden, hidden, scaled=kind in ("dot", "general")
            )
            memory = Memory(values, attention.keys(values), None)
            timers[kind] = benchmark.Timer(
                "attention(query, memory)",
                globals={"attention": attention, "query": query, "memory": memory},
                num_threads=1,
            )
        rounds: dict[str, list[float]] = {kind: [] for kind in SCORES}
        runs = dict.fromkeys(SCORES, 0)
        for _ in range(repeats):
            for kind, timer in timers.items():
                measured = timer.blocked_autorange(min_run_time=min_seconds)
                rounds[kind].append(measured.median * 1e6)
                runs[kind] += measured.number_per_run * len(measured.times)
    return [ScoreTime(kind, tuple(rounds[kind]), runs[kind]) for kind in SCORES]


def ratios(times: Sequence[ScoreTime], slow: str, fast: str) -> list[float]:
    """How many times as long ``slow`` took as ``fast``, round by round, sorted."""
    found = {t.kind: t.rounds for t in times}
    return sorted(a / max(b, 1e-9) for a, b in zip(found[slow], found[fast], strict=True))
