"""What the Lesson page measures on this machine, once per process: each attention score's
time per decoding step (attnviz.analysis.score_speed), by size."""

from __future__ import annotations

import functools

from attnviz.analysis.score_speed import ScoreTime, score_times


@functools.lru_cache(maxsize=64)
def score_times_here(hidden: int, source: int) -> tuple[ScoreTime, ...]:
    """:func:`attnviz.analysis.score_speed.score_times` at ``hidden`` over ``source`` source
    tokens, measured on the first ask (about a second) and kept for every session."""
    return tuple(score_times(hidden, source))
