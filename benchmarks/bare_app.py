"""The baseline for benchmarks/dashboard_latency.py: a bare Streamlit page that, on the same
gesture (type a sentence, press Enter), draws two plotly heatmaps and one altair chart of the
size the dashboard shows, and nothing else."""

import altair as alt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="bare", layout="wide")
sentence = st.text_input("English sentence")
if sentence:
    words = [*sentence.split(), "<eos>"]
    rng = np.random.default_rng(len(sentence))
    for col in st.columns(2):
        z = rng.dirichlet(np.ones(len(words)), size=len(words) + 1)
        col.plotly_chart(go.Figure(go.Heatmap(z=z, x=words, y=[f"{i}" for i in range(len(z))])))
    frame = pd.DataFrame({"source": words, "weight": z[0]})
    st.altair_chart(alt.Chart(frame).mark_bar().encode(x="source:N", y="weight:Q"))
