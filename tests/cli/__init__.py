"""Tests of attnviz.cli: the command line, driven in-process."""
