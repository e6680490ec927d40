"""The Streamlit dashboard's pages and views: widgets and layout only.

Each module draws one part of the page with ``*_ui`` functions of plain values (names, Traces,
cards); what they show is computed by the ``attnviz`` package. The page's state machines
(``playback``) are plain functions beside the views that use them, importing no streamlit.
``dashboard.py`` at the repository root is the entry point; nothing outside this package (and
it) imports streamlit.
"""
