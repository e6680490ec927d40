"""Tests of attnviz.store: checkpoints on disk and the catalog of a checkpoints folder."""
