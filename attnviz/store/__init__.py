"""Checkpoints on disk: saving and loading one file (safetensors and a JSON card, never
pickle), and the catalog of the shipped files. Imports ``analysis`` and the layers below.
"""
