"""Tied embeddings (Press & Wolf, 2017): an output layer that reads the embedding matrix, and
a state dict that lists a shared matrix once. The GRU encoder-decoder uses both; the
Transformer, whose output layer shares the matrix outright, :func:`store_once`.
"""

from __future__ import annotations

import torch
from torch import nn


class TiedOutput(nn.Module):
    """The output layer of tied embeddings: logits = E (P f) + b, where E (V, embed) is the
    embedding matrix both sides read, and P projects the features f (B, H) to the embedding
    size (none when H = embed). The embedding is not a submodule: it belongs to the encoder
    (tied embeddings) or the decoder (a tied output layer)."""

    def __init__(self, embedding: nn.Embedding, features: int):
        super().__init__()
        size = embedding.embedding_dim
        self.proj = nn.Linear(features, size, bias=False) if features != size else nn.Identity()
        self.bias = nn.Parameter(torch.zeros(embedding.num_embeddings))
        self._embedding = (embedding,)  # a tuple, so that nn.Module does not register it again

    @property
    def weight(self) -> torch.Tensor:
        return self._embedding[0].weight

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return nn.functional.linear(self.proj(features), self.weight, self.bias)

    def untied(self) -> nn.Sequential:
        """The same function as a projection and a Linear of its own (a copy of the
        embedding), which decoding can store in int8 or bf16 like an untied output layer."""
        out = nn.Linear(self.weight.size(1), self.weight.size(0), device=self.bias.device)
        with torch.no_grad():
            out.weight.copy_(self.weight)
            out.bias.copy_(self.bias)
        return nn.Sequential(self.proj, out)


def store_once(model: nn.Module, name: str, aliases: list[str]) -> None:
    """Make ``model``'s state dict list a shared matrix once, as ``name``: saving drops its
    ``aliases`` (the other names of the same tensor), loading fills them in from ``name``."""

    def drop(module, state, prefix, meta) -> None:
        for alias in aliases:
            state.pop(prefix + alias, None)

    def fill(module, state, prefix, *_) -> None:
        if prefix + name in state:
            for alias in aliases:
                state.setdefault(prefix + alias, state[prefix + name])

    model.register_state_dict_post_hook(drop)
    model.register_load_state_dict_pre_hook(fill)
