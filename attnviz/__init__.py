"""attnviz: see how attention works in a neural translator.

import attnviz
tr = attnviz.load("checkpoints/bahdanau-pieces.safetensors")
trace = tr.translate("I am cold.")
trace.text, trace.weights  # the translation and its (output x source) attention matrix

The layers, each a subpackage that imports only those above it in this list (and the root's
``options``, ``errors``, ``files`` and ``i18n``); the contracts in ``.importlinter`` hold them,
and the suite checks them:

    data/       text, vocabularies, subword pieces, corpora, toy languages
    model/      attention mechanisms, the GRU encoder-decoder, autocast, low-precision weights
    decoding/   search, Translator, Trace, the word-level view, steering, a step's math
    tuning/     the precision "auto" takes, measured on this machine; process settings
    analysis/   diagnostics, alignment and AER, attribution, evaluation, training history
    store/      checkpoint files and the shipped catalog
    training/   the training loop, its configuration and state, distributed runs, live runs
    plots/      chart builders and explanations for the dashboard (beside store and training)
    handout/    a lesson's handout: static HTML pages, one per sentence
    cli/        python -m attnviz
"""

from .data.corpus import DataConfig
from .data.text import TextConfig
from .data.vocab import Vocab
from .decoding.trace import BeamStep, Candidate, Trace
from .decoding.translator import Translator
from .errors import InputError
from .model.model_config import ModelConfig
from .model.seq2seq import Seq2Seq
from .store.checkpoint import CheckpointError, load, save

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
