"""The Streamlit dashboard, by role (``dashboard.py`` at the repository root is its entry point;
nothing outside this package and it imports streamlit):

    pages/     the three pages and the sidebar: each lays out its views in order
    views/     one module per view: what it draws, from values the serving layer hands it
    widgets/   HTML (from templates) and Vega widgets, the page's style, the language switch
    state/     session-state keys and the play button's state machine (no streamlit)
    serving/   everything the page loads and runs: the only part that opens a file, calls a
               model, keeps a cache or sets the process (tests/ui/test_serving_boundary.py)

What the views show is computed by the ``attnviz`` package.
"""
