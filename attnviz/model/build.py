"""The one place a model is built from its configuration, whichever architecture it names."""

from __future__ import annotations

from .model_config import ModelConfig
from .seq2seq import Seq2Seq
from .transformer import Transformer


def build_model(config: ModelConfig) -> Seq2Seq | Transformer:
    """A new model of ``config``: the GRU encoder-decoder, or the Transformer. Both speak the
    same decoding interface (``encode``, ``step``, ``features``, ``generator``)."""
    return Transformer(config) if config.model == "transformer" else Seq2Seq(config)
