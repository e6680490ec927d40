"""Tests of attnviz.data: text, corpus and batches, vocabularies, subwords, the toy languages,
Chinese."""
