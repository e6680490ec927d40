"""The floor for benchmarks/classroom/dashboard_latency.py: the least a Streamlit page can do for
the dashboard's gesture. A sentence box, a Step slider, two plotly heatmaps and one altair bar chart
of random attention over the words typed, with plain library defaults; nothing else.

    streamlit run benchmarks/classroom/minimal_app.py -- "the sentence it opens on"
"""

import sys

import altair as alt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="minimal", layout="wide")
sentence = st.text_input("English sentence", sys.argv[1] if len(sys.argv) > 1 else "")
source = [f"{i}:{w}" for i, w in enumerate([*sentence.split(), "<eos>"], 1)]
output = [f"{i}:{w.upper()}" for i, w in enumerate([*sentence.split(), "<eos>"], 1)]
step = st.slider("Step", 1, len(output), key="step") - 1 if len(output) > 1 else 0
rng = np.random.default_rng(len(sentence))
weights = [rng.dirichlet(np.ones(len(source)), size=len(output)) for _ in range(2)]
for col, w in zip(st.columns(2), weights, strict=True):
    fig = go.Figure(go.Heatmap(z=w, x=source, y=output, zmin=0, zmax=1, colorscale="Blues"))
    fig.add_shape(  # the frame around the current step, named as the dashboard names it
        type="rect", x0=-0.5, x1=len(source) - 0.5, y0=step - 0.5, y1=step + 0.5,
        name="current step",
    )  # fmt: skip
    fig.update_layout(xaxis=dict(side="top"), yaxis=dict(autorange="reversed"))
    col.plotly_chart(fig)
bars = pd.DataFrame({"source": source, "weight": weights[0][step]})
st.altair_chart(alt.Chart(bars).mark_bar().encode(x=alt.X("source:N", sort=None), y="weight:Q"))
