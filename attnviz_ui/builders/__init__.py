"""What a view draws, built as plain values before it is drawn: pure Python from Traces, model
descriptions and cards, with no Streamlit, so that each is tested without a page. Imports
``attnviz`` and ``widgets`` (HTML made from templates) only.
"""
