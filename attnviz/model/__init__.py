"""The networks: the attention mechanisms (each formula in its class's docstring), the GRU
encoder-decoder, and numeric precision. Imports ``data`` (vocabularies) and the root modules.
"""
