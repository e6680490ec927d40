"""The tests' small English->French corpus: attnviz's ``adjectives`` toy language, whose
French puts the adjective after the noun, with gold links (see :mod:`attnviz.data.toy`)."""

from attnviz.data.toy import ADJECTIVES, corpus, write_corpus

__all__ = ["ADJECTIVES", "corpus", "write_corpus"]
