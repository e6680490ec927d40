"""What the dashboard draws and says: chart builders (pure functions from Traces to plotly
and altair figures) and the explanations beside them. Imports ``analysis`` and the layers
below; never streamlit.
"""
