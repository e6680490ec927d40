"""The Streamlit dashboard, by role (``dashboard.py`` at the repository root is its entry point;
nothing outside this package and it imports streamlit):

    pages/     the three pages and the sidebar: each lays out its views in order, from a table
               of views (one drawer per view)
    views/     one module per view: what it draws, from values the serving layer hands it
               (Traces, a model's Description, cards, figures), never a model
    serving/   everything the page loads and runs: the only part that opens a file, calls a
               model, keeps a cache or sets the process (tests/ui/test_serving_boundary.py)
    builders/  what a view draws, built as plain values with no streamlit (what-ifs, eflomal's
               agreement, Why attention's conclusion)
    widgets/   HTML (from templates) and Vega widgets, the page's style, the language switch
    state/     session-state keys, the play button's state machine and the address (no streamlit)

Each role imports only those below it in this list: ``.importlinter`` holds it and
tests/scripts/test_layers.py checks it. The figures and numbers are computed by the
``attnviz`` package (``attnviz.plots`` builds the charts).
"""
