"""Text in and out: tokenization, vocabularies, subword pieces, corpora and their splits, a
corpus prepared for training (``prepare``), and the toy languages. Imports nothing else of
attnviz but ``options`` and ``i18n``.
"""
