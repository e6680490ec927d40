"""The command line, ``python -m attnviz``: its arguments and commands. Imports any layer."""
