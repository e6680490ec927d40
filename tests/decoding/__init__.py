"""Tests of attnviz.decoding: greedy, beam and forced decoding, steering."""
