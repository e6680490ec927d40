"""Tests of attnviz.plots: chart builders, captions and image export."""
