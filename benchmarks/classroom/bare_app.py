"""The baseline for benchmarks/classroom/dashboard_latency.py: a bare Streamlit page that, on the
same gestures, draws the charts the dashboard's step view draws, from the same chart builders, and
nothing else: no model, no decoding, no fragment. Type a sentence and press Enter: per column the
alignment heatmap (rows revealed up to the step) and, in one HTML element, the step's bars and its
candidates table. Move the Step slider: the same charts again, on the new step.

    streamlit run benchmarks/classroom/bare_app.py -- "the sentence it opens on"
"""

import sys

import numpy as np
import streamlit as st

from attnviz.decoding.trace import Candidate, Trace
from attnviz.plots import heatmaps, tables
from attnviz_ui.serving.process import freeze_heap
from attnviz_ui.widgets.html_widgets import html_table, weight_bars


def fake_trace(words: list[str], seed: int) -> Trace:
    """A Trace of random attention over ``words``, shaped like a translation of them."""
    rng = np.random.default_rng(seed)
    src = [*words, "<eos>"]
    tgt = [*(w.upper() for w in words), "<eos>"]
    weights = rng.dirichlet(np.ones(len(src)), size=len(tgt)).astype(np.float32)
    return Trace(
        source=" ".join(words),
        src_tokens=src,
        src_known=[True] * len(src),
        tgt_tokens=tgt,
        text=" ".join(tgt[:-1]),
        weights=weights,
        scores=np.log(weights),
        probs=rng.uniform(0.3, 1.0, len(tgt)).astype(np.float32),
        candidates=[[Candidate(w, 0.2) for w in tgt[:5]] for _ in tgt],
        replaced=[None] * len(tgt),
        mode="greedy",
        attention="bahdanau",
        log_prob=-1.0,
    )


st.set_page_config(page_title="bare", layout="wide")
sentence = st.text_input("English sentence", sys.argv[1] if len(sys.argv) > 1 else "")
if sentence:
    words = sentence.split()
    step = st.slider("Step", 1, len(words) + 1, key="step") - 1
    for seed, col in enumerate(st.columns(2)):
        with col:
            trace = fake_trace(words, seed)
            st.plotly_chart(heatmaps.heatmap(trace, step=step, title="alignment", reveal=True))
            bars = weight_bars(trace.src_tokens, trace.weights[step], trace.scores[step])
            table = html_table(tables.candidates_table(trace, step))
            st.html(f"<b>Step {step + 1}: writing “{trace.tgt_tokens[step]}”</b>{bars}{table}")
    freeze_heap()  # as the dashboard does
