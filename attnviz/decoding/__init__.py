"""Translating: greedy and beam search, the Translator that turns text into a Trace, the Trace
itself, the word-level view of a decoding over pieces, steering (what-if edits) and the step's
math. Imports ``model`` and ``data``.
"""
