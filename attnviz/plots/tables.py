"""The numbers behind the charts, as tables: a step's candidates, two models' attention compared
step by step, and a heatmap's matrix for export. Pure functions of Traces, like :mod:`.charts`,
whose token labels (``3:the``) they share."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..analysis import diagnostics
from ..decoding.trace import Trace
from ..i18n import N_
from .heatmaps import labels


class Table(NamedTuple):
    """A small table: its column names, untranslated (the page writes them in its language),
    and its rows. Built without pandas: a step's table is drawn at every step change, and a
    DataFrame of three short columns cost a millisecond to build."""

    columns: tuple[str, ...]
    rows: list[tuple]

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=list(self.columns))


CANDIDATE_COLUMNS = (N_("word"), N_("probability"), N_("chosen"))


def candidates_table(trace: Trace, step: int) -> Table:
    """The most probable next words at one step, with the one chosen marked."""
    chosen = trace.tgt_tokens[step]
    rows = [(c.token, c.prob, c.token == chosen) for c in trace.candidates[step]]
    return Table(CANDIDATE_COLUMNS, rows)


def comparison_frame(a: Trace, b: Trace) -> pd.DataFrame:
    """Per step: each model's output word and entropy (``a``'s on the left, ``b``'s on the
    right, whatever their attention: two models may share one), their Jensen-Shannon
    divergence and whether their argmax agrees (matrices of one shape: same output, e.g.
    forced decoding)."""
    return pd.DataFrame(
        {
            "step": range(1, len(a.tgt_tokens) + 1),
            "output": a.tgt_tokens,
            "entropy left": diagnostics.entropy(a.picture()),
            "entropy right": diagnostics.entropy(b.picture()),
            "JS divergence": diagnostics.js_divergence(a.picture(), b.picture()),
            "same argmax": diagnostics.same_argmax(a.picture(), b.picture()),
        }
    )


def weights_frame(trace: Trace) -> pd.DataFrame:
    """The attention matrix as a table: one row per output token, one column per source token."""
    return pd.DataFrame(
        trace.weights,
        index=pd.Index(labels(trace.tgt_tokens), name="output"),
        columns=labels(trace.src_tokens),
    )


def weights_json(trace: Trace) -> dict:
    """Everything needed to redraw a heatmap elsewhere, as JSON-ready lists."""
    if trace.weights is None or trace.scores is None:
        raise ValueError("a model without attention has no heatmap")
    return {
        "attention": trace.attention,
        "mode": trace.mode,
        "source": trace.source,
        "source_tokens": trace.src_tokens,
        "output_tokens": trace.tgt_tokens,
        "translation": trace.text,
        "weights": trace.weights.tolist(),
        "scores": [[float(x) if np.isfinite(x) else None for x in row] for row in trace.scores],
    }
