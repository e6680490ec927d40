"""What the dashboard draws and says: chart builders (pure functions from Traces to plotly
and altair figures) and the words beside them (formulas, notes on models and on teaching),
as text the command line could print too; the HTML the pages draw is ``attnviz_ui``'s.
Imports ``analysis`` and the layers below; never streamlit.
"""
