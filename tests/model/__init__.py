"""Tests of attnviz.model: the attention variants, the networks and their configuration."""
