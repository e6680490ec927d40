"""What both architectures give decoding and training: one decoding step's :class:`Step`,
teacher forcing's :class:`Output`, the source mask each builds once per sentence
(:func:`padding_mask`), and :class:`DecodingModel`, what decoding asks of either. Greedy, beam
and forced decoding call ``step`` alike, whichever model answers.

Shapes, batch-first: B batch, S source length, T target length, H hidden size, L layers,
N heads, V target vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import torch
from torch import nn

if TYPE_CHECKING:  # each of these imports this module: named for the type checker alone
    from .attention import Memory
    from .decoders import DecoderState
    from .model_config import ModelConfig
    from .transformer import TransformerState


class Step(NamedTuple):
    """What one decoding step computed."""

    logits: torch.Tensor  # (B, V) scores of the next token, before log-softmax
    # The state after the step, each with select(rows) for beam search; None from a
    # Transformer's forced_steps, which reads every step of a known target at once.
    state: DecoderState | TransformerState | None
    # The three below are None for the fixed-context model, which has no attention.
    weights: torch.Tensor | None  # (B, S) attention weights; rows sum to 1, padding gets 0
    scores: torch.Tensor | None  # (B, S) raw attention scores before the softmax; -inf at padding
    query: torch.Tensor | None  # (B, H) what was scored against the keys: s_{t-1} or h_t
    context: torch.Tensor  # (B, H) c_t, the weighted sum of the encoder outputs; or the one c
    features: torch.Tensor  # (B, H) what the output layer reads: Bahdanau's t_i, Luong's h~_t
    heads: torch.Tensor | None = None  # (B, L, N, S) a Transformer's every cross-attention head

    def next_state(self) -> DecoderState | TransformerState:
        """:attr:`state`, to go on from: ValueError for forced_steps', which has none."""
        if self.state is None:
            raise ValueError("a Transformer's forced_steps read every step: there is no next one")
        return self.state


class Output(NamedTuple):
    """What teacher forcing computed: every position of the target at once."""

    logits: torch.Tensor  # (B, T, V)
    weights: torch.Tensor | None  # (B, T, S); None without attention


def padding_mask(src: torch.Tensor, src_lens: torch.Tensor) -> torch.Tensor | None:
    """(B, S) True at real tokens of ``src``, or None where no sentence is padded (one sentence,
    or all of one length): then there is nothing to mask, or to pack."""
    if int(src_lens.min()) == src.size(1):
        return None
    return torch.arange(src.size(1), device=src.device) < src_lens.to(src.device)[:, None]


class SourceReader(Protocol):
    """An encoder, as attribution reads it."""

    @property
    def source(self) -> nn.Module:
        """The module whose output is the source tokens' embeddings, called by the encoder
        alone."""
        ...


class DecodingModel(Protocol):
    """What decoding asks of a model: the GRU encoder-decoder
    (:class:`~attnviz.model.seq2seq.Seq2Seq`) and the Transformer
    (:class:`~attnviz.model.transformer.Transformer`) both answer it, neither inherits from it.
    ``encode`` runs once per sentence; ``step`` once per token, from the state it returned.
    Attribution (:mod:`attnviz.analysis.attribution`) reads the same model by teacher forcing:
    ``features``, then ``generator``, and differentiates through ``encoder.source``."""

    config: ModelConfig

    @property
    def encoder(self) -> SourceReader: ...

    @property
    def generator(self) -> nn.Module:
        """The output layer: features (..., H) -> logits (..., V)."""
        ...

    def features(
        self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Teacher forcing up to the output layer: its inputs (B, T, H), and the weights
        (B, T, S) where the model returns them."""
        ...

    def eval(self) -> object: ...  # nn.Module's: dropout off

    def parameters(self, recurse: bool = True) -> Iterator[nn.Parameter]: ...

    def state_dict(self) -> dict[str, Any]: ...  # nn.Module's: what a checkpoint stores

    def encode(
        self, src: torch.Tensor, src_lens: torch.Tensor
    ) -> tuple[Memory, DecoderState | TransformerState]: ...

    def step(
        self,
        y_prev: torch.Tensor,
        state: Any,  # the state its own encode or step gave (each model takes only its own)
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> Step: ...
