"""The GRU encoder-decoder: :class:`Seq2Seq` puts an :class:`~attnviz.model.encoder.Encoder`
and one of :mod:`attnviz.model.decoders` together, with Bahdanau or Luong attention, or none:
the fixed-context encoder-decoder of Cho et al. (2014) that attention was invented to fix.

Shapes, batch-first everywhere: B batch, S source length, T target length, E embedding size,
H hidden size, L layers, V target vocabulary.
"""

from __future__ import annotations

import torch
from torch import nn

from .attention import Memory
from .decoders import BahdanauDecoder, Decoder, DecoderState, FixedContextDecoder, LuongDecoder
from .encoder import Encoder
from .interface import Output, Step, padding_mask
from .model_config import ModelConfig
from .tying import TiedOutput, store_once


class Seq2Seq(nn.Module):
    """Encoder, attention and decoder built from one :class:`ModelConfig`."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        _, tgt_vocab = config.require_vocab_sizes()
        self.config = config
        self.encoder = Encoder(config)
        self.decoder: Decoder
        if config.is_luong:
            self.decoder = LuongDecoder(config)
        elif config.has_attention:
            self.decoder = BahdanauDecoder(config)
        else:
            self.decoder = FixedContextDecoder(config)
        if config.tie_embeddings:
            self._tie()
        elif config.tie_output:
            self.decoder.generator = TiedOutput(self.decoder.embed, config.hidden)
        elif config.output_projection:
            self.decoder.generator = nn.Sequential(
                nn.Linear(config.hidden, config.embed, bias=False),
                nn.Linear(config.embed, tgt_vocab),
            )

    def _tie(self) -> None:
        """Share the encoder's embedding with the decoder and the output layer. The state
        dict lists the matrix once, as ``encoder.embed.weight``, and loading fills in the
        decoder's name for it."""
        # The encoder's N(0, 1) initialization serves all three: on the toy names language a
        # scale of embed^-0.5 (as fairseq shares embeddings) left 2 of 3 seeds unable to learn.
        shared = self.encoder.embed
        self.decoder.embed = shared
        self.decoder.generator = TiedOutput(shared, self.config.hidden)
        store_once(self, "encoder.embed.weight", ["decoder.embed.weight"])

    def encode(self, src: torch.Tensor, src_lens: torch.Tensor) -> tuple[Memory, DecoderState]:
        """Run the encoder once per sentence: the memory to attend to (for the fixed-context
        model, the one context c) and the first state."""
        mask = padding_mask(src, src_lens)
        values, enc_state = self.encoder(src, src_lens, mask)
        memory = self.decoder.memory(values, enc_state, mask)
        return memory, self.decoder.init_state(enc_state)

    def step(
        self,
        y_prev: torch.Tensor,
        state: DecoderState,
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> Step:
        return self.decoder.step(y_prev, state, memory, weights)

    def features(
        self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing up to the generator: its inputs (B, T, H) and the weights (B, T, S),
        None without attention.

        Training applies :attr:`generator` to the non-padding positions only.
        """
        memory, state = self.encode(src, src_lens)
        return self.decoder.features(tgt_in, state, memory)

    @property
    def output_bias(self) -> nn.Parameter:
        """The output layer's bias (V,), whichever shape the output layer has."""
        generator = self.generator
        last = generator[-1] if isinstance(generator, nn.Sequential) else generator
        return last.get_parameter("bias")  # a Linear's, or a TiedOutput's

    @property
    def generator(self) -> nn.Module:
        """The output layer: features (..., H) -> logits (..., V); a Linear, or with tied
        embeddings a :class:`TiedOutput` (for decoding in int8 or bf16, its untied copy)."""
        return self.decoder.generator

    def forward(self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor) -> Output:
        """Teacher forcing: logits (B, T, V) for the next token at each position of ``tgt_in``."""
        features, weights = self.features(src, src_lens, tgt_in)
        return Output(self.generator(features), weights)
