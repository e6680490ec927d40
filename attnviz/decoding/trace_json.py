"""A Trace as JSON: the numbers a page needs to draw one translation, read off the Trace once
and carried as plain lists. ``attnviz translate --json`` prints it, and every handout page
(:mod:`attnviz.handout`) holds it, so a page's numbers are the command line's."""

from __future__ import annotations

import numpy as np

from .trace import Trace


def _floats(values) -> list:
    """float32 values as the shortest decimals that read back as the same float32 (JSON's
    numbers are doubles; 17 digits of a float32 say nothing the 9 do not); -inf (a masked
    score) as None."""
    if isinstance(values, np.ndarray) and values.ndim > 1:
        return [_floats(row) for row in values]
    return [float(str(np.float32(x))) if np.isfinite(x) else None for x in values]


def trace_json(trace: Trace) -> dict:
    """What ``trace`` did, step by step: its tokens, each step's attention weights and raw
    scores over the source (None for a model without attention), the probability of each
    output token and the candidates it beat. Rows are output tokens (T), columns source
    tokens (S), as in :class:`Trace`."""
    return {
        "source": trace.source,
        "translation": trace.text,
        "attention": trace.attention,
        "mode": trace.mode,
        "precision": trace.precision,  # how the weights were stored when it decoded
        "source_tokens": list(trace.src_tokens),
        "source_known": [bool(k) for k in trace.src_known],
        "output_tokens": list(trace.tgt_tokens),
        "weights": None if trace.weights is None else _floats(trace.weights),  # (T, S)
        "scores": None if trace.scores is None else _floats(trace.scores),  # (T, S)
        "probs": _floats(trace.probs),  # (T,)
        "candidates": [  # (T, k)
            [{"token": c.token, "prob": _floats([c.prob])[0]} for c in step]
            for step in trace.candidates
        ],
        "log_prob": float(trace.log_prob),
        "ended": trace.ended,
    }
