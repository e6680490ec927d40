"""Checkpoints on disk: saving and loading one file (safetensors and a JSON card, never
pickle), the catalog of the shipped files, and the files made from checkpoints that are kept
beside them (eflomal's priors, the scores by source length, the corpus indexes and the
nearest-training-step indexes). Imports ``analysis`` and the layers below.
"""
