"""attnviz: see how attention works in a neural translator.

import attnviz
tr = attnviz.load("checkpoints/bahdanau-pieces.safetensors")
trace = tr.translate("I am cold.")
trace.text, trace.weights  # the translation and its (output x source) attention matrix
"""

from .checkpoint import CheckpointError, load, save
from .data import DataConfig
from .model import ModelConfig, Seq2Seq
from .text import TextConfig
from .trace import BeamStep, Candidate, Trace
from .translator import InputError, Translator
from .vocab import Vocab

__all__ = [
    "BeamStep",
    "Candidate",
    "CheckpointError",
    "DataConfig",
    "InputError",
    "ModelConfig",
    "Seq2Seq",
    "TextConfig",
    "Trace",
    "Translator",
    "Vocab",
    "load",
    "save",
]
