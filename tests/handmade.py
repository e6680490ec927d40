"""Traces written by hand, for tests of what is computed from a Trace without a model."""

from __future__ import annotations

import numpy as np

from attnviz.decoding.trace import Candidate, Trace


def hand_trace(weights, src_tokens: list[str], tgt_tokens: list[str], **fields) -> Trace:
    """A Trace with the given (T, S) ``weights`` and tokens; every other field a plain default."""
    w = np.asarray(weights, dtype=np.float64)
    T = len(tgt_tokens)
    values = dict(
        source=" ".join(t for t in src_tokens if t != "<eos>"),
        src_known=[True] * len(src_tokens),
        text=" ".join(t for t in tgt_tokens if t != "<eos>"),
        scores=np.log(np.maximum(w, 1e-9)),
        probs=np.full(T, 0.5),
        candidates=[[Candidate(t, 0.5)] for t in tgt_tokens],
        replaced=[None] * T,
        mode="greedy",
        attention="general",
        log_prob=float(T * np.log(0.5)),
    )
    values.update(fields)
    return Trace(src_tokens=src_tokens, tgt_tokens=tgt_tokens, weights=w, **values)
