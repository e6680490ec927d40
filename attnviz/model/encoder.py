"""The GRU encoder of the recurrent encoder-decoder: embeddings, a (bidirectional) GRU, and the
bridge that turns its final states into the decoder's first state (Bahdanau et al., 2015).

Shapes, batch-first everywhere: B batch, S source length, T target length, E embedding size,
H hidden size, L layers, V target vocabulary.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from ..data.vocab import PAD_ID, SPECIALS
from .model_config import ModelConfig


class Encoder(nn.Module):
    """Embedding and GRU; returns the memory values (B, S, H) and the decoder's first state."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        c = config
        directions = 2 if c.bidirectional else 1
        src_vocab, _ = c.require_vocab_sizes()
        self.embed = nn.Embedding(src_vocab, c.embed, padding_idx=PAD_ID)
        self.rnn = nn.GRU(
            c.embed,
            c.hidden // directions,
            c.layers,
            batch_first=True,
            dropout=c.dropout if c.layers > 1 else 0.0,
            bidirectional=c.bidirectional,
        )
        # With tied embeddings the source <eos> is otherwise the output layer's <eos> row.
        self.specials = (
            nn.Embedding(len(SPECIALS), c.embed, padding_idx=PAD_ID) if c.untied_specials else None
        )
        self.dropout = nn.Dropout(c.dropout)
        # The source tokens' embeddings: a point the encoder alone calls (a tied embedding is
        # the decoder's too), where attribution reads the source.
        self.source = nn.Identity()
        # Bahdanau et al. start the decoder from tanh(W_s h_1), the backward direction's state
        # at the first word; "ends" from both directions' ends (docs/alignment.md compares them).
        self.backward_only = c.bridge == "backward"
        width = c.hidden // 2 if self.backward_only else c.hidden
        self.bridge = nn.Linear(width, c.hidden) if c.bidirectional else None

    def embedded(self, src: torch.Tensor) -> torch.Tensor:
        """The embeddings (B, S, E) of ``src`` (B, S): the special symbols' own rows where the
        model has them."""
        x = self.embed(src)
        if self.specials is None:
            return x
        special = (src < len(SPECIALS)).unsqueeze(-1)  # (B, S, 1)
        return torch.where(special, self.specials(src.clamp(max=len(SPECIALS) - 1)), x)

    def forward(
        self, src: torch.Tensor, src_lens: torch.Tensor, mask: torch.Tensor | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``src`` (B, S) ids, ``src_lens`` (B,) and their
        :func:`~attnviz.model.interface.padding_mask` -> outputs (B, S, H) and state (L, B, H)."""
        x = self.dropout(self.source(self.embedded(src)))  # (B, S, E)
        if mask is None:  # no padding (one sentence): nothing to skip
            out, state = self.rnn(x)  # state: (L * directions, B, H / directions)
        else:
            # Packing makes the final state (and the backward direction) start at each
            # sentence's real end rather than at its padding.
            packed = pack_padded_sequence(x, src_lens.cpu(), batch_first=True, enforce_sorted=False)
            out, state = self.rnn(packed)
            out, _ = pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        if self.bridge is not None:
            L, B = self.rnn.num_layers, src.size(0)
            state = state.view(L, 2, B, -1)  # (L, 2, B, H/2)
            ends = state[:, 1] if self.backward_only else torch.cat([state[:, 0], state[:, 1]], -1)
            state = torch.tanh(self.bridge(ends))  # (L, B, H)
        return out, state.contiguous()
