"""Training a model: the loop and its configuration, the state a resumed run needs, runs on
several processes, continuing from a parent (lineage), and the dashboard's live toy runs.
Imports ``store`` and the layers below.
"""
