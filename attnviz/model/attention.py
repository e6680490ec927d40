"""The attention scores: Bahdanau's additive score and Luong's dot, general and concat.

Every module works on a *memory*: the encoder outputs ``values`` (B, S, H), their ``keys``
projected once per sentence by :meth:`Attention.prepare`, and a boolean ``mask`` (B, S) that is
True at real tokens (None when no sentence of the batch is padded). Queries are (B, T, H): one
row per target step, so teacher forcing can score all steps at once where the model allows it,
and a decoding step passes T = 1.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import torch
from torch import nn

from .autocast import without_autocast

SCORES = ("bahdanau", "dot", "general", "concat")


class Memory(NamedTuple):
    """What attention looks at: one entry per source sentence in the batch."""

    values: torch.Tensor  # (B, S, H) encoder outputs h_j
    keys: torch.Tensor  # (B, S, A) keys, projected once per sentence
    mask: torch.Tensor | None  # (B, S) True at real tokens; None where no row has padding

    def select(self, index: torch.Tensor) -> Memory:
        """Rows ``index`` of the batch (beam search expands and reorders with this)."""
        mask = None if self.mask is None else self.mask[index]
        return Memory(self.values[index], self.keys[index], mask)


class Attended(NamedTuple):
    context: torch.Tensor  # (B, T, H) weighted sum of the values
    weights: torch.Tensor  # (B, T, S) softmax of the scores; exactly 0 at padding
    scores: torch.Tensor  # (B, T, S) raw scores before the softmax; -inf at padding


def mask_scores(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``scores`` (B, T, S) with -inf at padding; ``mask`` (B, S) is True at real tokens.

    Out of place: the caller's tensor is not modified.
    """
    return scores.masked_fill(~mask.unsqueeze(1), float("-inf"))


class Attention(nn.Module):
    """Base class: ``prepare`` the keys once per sentence, then ``score`` each query."""

    FORMULA: ClassVar[str]  # the score e_tj (LaTeX), written by each variant

    def prepare(self, values: torch.Tensor) -> torch.Tensor:
        """Keys from the encoder outputs (B, S, H) -> (B, S, A); identity unless overridden."""
        return values

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """Raw scores (B, T, S) of queries (B, T, H) against keys (B, S, A)."""
        raise NotImplementedError

    def keys(self, values: torch.Tensor) -> torch.Tensor:
        """:meth:`prepare` in fp32, also under bf16 autocast (see :meth:`forward`)."""
        with without_autocast(values.device.type):
            return self.prepare(values.float())

    def forward(
        self, query: torch.Tensor, memory: Memory, weights: torch.Tensor | None = None
    ) -> Attended:
        """Score ``query`` (B, T, H) against ``memory``; ``weights`` (B, T, S), when given,
        replace the softmax of the scores (an edit of the attention: the scores are still
        computed, to be shown, and the context is recomputed from the given weights)."""
        # Keys and scores are fp32 under bf16 autocast too: Luong's products of H terms reach
        # the hundreds, which bf16's 8-bit mantissa rounds by whole units, an error the softmax
        # then exponentiates. Next to the GRU and the output layer they cost little.
        with without_autocast(query.device.type):
            scores = self.score(query.float(), memory.keys)  # (B, T, S)
        if memory.mask is not None:
            scores = mask_scores(scores, memory.mask)
        # The softmax runs in fp32 even in a bf16 model, so the weights shown sum to 1.
        if weights is None:
            weights = scores.softmax(dim=-1, dtype=torch.float32)  # (B, T, S)
        context = torch.bmm(weights.to(memory.values.dtype), memory.values)  # (B, T, H)
        return Attended(context, weights, scores)


class AdditiveAttention(Attention):
    """Bahdanau et al. (2015), eq. (6) and appendix A.1.2: the score :attr:`FORMULA`, with the
    state before the step, s_{t-1} (the modules W, U, v are the paper's W_a, U_a, v_a). U h_j
    does not depend on the step, so it is computed once per sentence in
    :meth:`prepare`."""

    FORMULA = r"e_{tj} = v_a^\top \tanh(W_a\,s_{t-1} + U_a\,h_j)"

    def __init__(self, query_dim: int, key_dim: int, attn_dim: int):
        super().__init__()
        self.W = nn.Linear(query_dim, attn_dim, bias=False)
        self.U = nn.Linear(key_dim, attn_dim)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def prepare(self, values: torch.Tensor) -> torch.Tensor:
        return self.U(values)  # (B, S, A)

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        hidden = torch.tanh(self.W(query).unsqueeze(2) + keys.unsqueeze(1))  # (B, T, S, A)
        return hidden @ self.v.weight[0]  # (B, T, S); a third of the time of calling self.v


class ConcatAttention(AdditiveAttention):
    """Luong et al. (2015), eq. (8) *concat*: the score :attr:`FORMULA`. Splitting W_a into the
    halves that multiply h_t and the source state makes it the additive form, with the query
    h_t taken *after* the step."""

    FORMULA = r"e_{tj} = v_a^\top \tanh(W_a[h_t;\,h_j])"


class DotAttention(Attention):
    """Luong et al. (2015), eq. (8) *dot*: the score :attr:`FORMULA`. No parameters.

    ``scale`` multiplies the scores: 1 is Luong's form; 1/sqrt(H) (Vaswani et al., 2017) keeps
    a product of H terms from growing with H, so the softmax does not saturate into one-hot
    weights early in training, where no gradient can correct a wrong choice.
    """

    FORMULA = r"e_{tj} = h_t^\top h_j"

    def __init__(self, scale: float = 1.0):
        super().__init__()
        self.scale = scale

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        scores = torch.bmm(query, keys.transpose(1, 2))  # (B, T, H) @ (B, H, S) -> (B, T, S)
        return scores * self.scale if self.scale != 1.0 else scores


class GeneralAttention(DotAttention):
    """Luong et al. (2015), eq. (8) *general*: the score :attr:`FORMULA`. W_a times each source
    state is computed once per sentence in :meth:`prepare`."""

    FORMULA = r"e_{tj} = h_t^\top W_a\,h_j"

    def __init__(self, query_dim: int, key_dim: int, scale: float = 1.0):
        super().__init__(scale)
        self.W_a = nn.Linear(key_dim, query_dim, bias=False)

    def prepare(self, values: torch.Tensor) -> torch.Tensor:
        return self.W_a(values)  # (B, S, H)


def make_attention(
    kind: str, query_dim: int, key_dim: int, attn_dim: int, scaled: bool = False
) -> Attention:
    """The attention module for ``kind``, one of :data:`SCORES`; ``scaled`` divides dot and
    general scores by the square root of the query size."""
    scale = query_dim**-0.5 if scaled else 1.0
    if kind in ("bahdanau", "concat"):
        cls = AdditiveAttention if kind == "bahdanau" else ConcatAttention
        return cls(query_dim, key_dim, attn_dim)
    if kind == "general":
        return GeneralAttention(query_dim, key_dim, scale)
    if kind == "dot":
        if query_dim != key_dim:
            raise ValueError(
                f"dot attention needs equal query and key sizes, got {query_dim}, {key_dim}"
            )
        return DotAttention(scale)
    raise ValueError(f"attention must be one of {SCORES}, not {kind!r}")


CLASSES: dict[str, type[Attention]] = {
    "bahdanau": AdditiveAttention,
    "dot": DotAttention,
    "general": GeneralAttention,
    "concat": ConcatAttention,
}


def formula(kind: str, scaled: bool = False) -> str:
    """The score formula (LaTeX) of attention ``kind``, its class's ``FORMULA``: the one place
    each formula is written, every rendering of a score made from it (attnviz.plots.formulas).
    ``scaled`` dot and general scores end in ``/ sqrt(H)``. The encoder's outputs are h_j in
    every formula (Luong et al. write them h̄_s), as in the context c_t = sum_j alpha_tj h_j."""
    if kind not in CLASSES:
        raise ValueError(f"attention must be one of {SCORES}, not {kind!r}")
    text = CLASSES[kind].FORMULA
    return text + r" \,/\, \sqrt{H}" if scaled and kind in ("dot", "general") else text
