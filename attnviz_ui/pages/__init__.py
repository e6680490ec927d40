"""The dashboard's pages (Sentence, Corpus, Training), the sidebar and the names of the views:
each page lays out its views in order. Imports ``views``, ``widgets``, ``state`` and ``serving``.
"""
