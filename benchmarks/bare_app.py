"""The baseline for benchmarks/dashboard_latency.py: a bare Streamlit page that, on the same
gestures, draws what the dashboard's step view draws and nothing else. Type a sentence and
press Enter: per column a plotly heatmap, an altair bar chart and a small table. Move the
Step slider: the same charts again, the heatmap's frame and the bars on the new step."""

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
    z = [rng.dirichlet(np.ones(len(words)), size=len(words) + 1) for _ in range(2)]
    step = st.slider("Step", 1, len(words) + 1, key="step") - 1
    for col, weights in zip(st.columns(2), z, strict=True):
        with col:
            fig = go.Figure(go.Heatmap(z=weights, x=words, y=[f"{i}" for i in range(len(z))]))
            fig.add_shape(type="rect", x0=-0.5, x1=len(words) - 0.5, y0=step - 0.5, y1=step + 0.5)
            st.plotly_chart(fig)
            st.markdown(f"**Step {step + 1}: writing “{words[min(step, len(words) - 1)]}”**")
            frame = pd.DataFrame({"source": words, "weight": weights[step]})
            st.altair_chart(alt.Chart(frame).mark_bar().encode(x="source:N", y="weight:Q"))
            st.dataframe(frame.nlargest(5, "weight"), hide_index=True)
