"""Tests of attnviz.training: the loss, guided alignment, distributed and live runs, and what
tiny models learn."""
