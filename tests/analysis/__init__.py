"""Tests of attnviz.analysis: alignment, AER, attribution, diagnostics, eflomal, model
comparison."""
