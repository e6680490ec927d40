"""The networks: the attention mechanisms (each formula in its class's docstring), the GRU
encoder-decoder, bf16 autocast, and weights stored below fp32 for decoding. Imports ``data``
(vocabularies) and the root modules; times nothing and reads no machine state (that is
``tuning``'s).
"""
