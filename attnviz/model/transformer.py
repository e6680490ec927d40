"""The encoder-decoder Transformer of Vaswani et al. (2017), pre-norm, at a size that trains on
two CPU cores; the step after Luong in the story attnviz tells.

Its cross-attention is Luong's dot score scaled by 1/sqrt(d) and run by several heads at once,
in every decoder layer: q = W_q x_t, k_j = W_k h_j, e_tj = q . k_j / sqrt(d), each head with its
own W_q, W_k, W_v on d = D / heads of the D numbers, the heads' contexts concatenated and
projected by W_o.

It speaks the decoding interface of :class:`~attnviz.model.seq2seq.Seq2Seq`: ``encode`` once per
sentence, then one :meth:`Transformer.step` per token, so greedy, beam and forced decoding run it
unchanged. Training runs the whole target at once through ``scaled_dot_product_attention``; a
decoding step computes the cross-attention's weights explicitly, every head of every layer, and
caches each layer's self-attention keys and values so that a step does not recompute the prefix.

Shapes: B batch, S source length, T target length, D model size, L layers, N heads, d = D / N.
"""

from __future__ import annotations

import math
from typing import NamedTuple, cast

import torch
import torch.nn.functional as F
from torch import nn

from ..data.vocab import PAD_ID
from .attention import Memory
from .interface import Output, Step, padding_mask
from .model_config import ModelConfig
from .tying import store_once


def sinusoids(length: int, size: int) -> torch.Tensor:
    """The sinusoidal positions of Vaswani et al. (2017), section 3.5: (length, size), on the CPU
    whatever device a model is built on (a meta table would import torch's compiler)."""
    position = torch.arange(length, dtype=torch.float32, device="cpu")[:, None]  # (P, 1)
    steps = torch.arange(0, size, 2, dtype=torch.float32, device="cpu")
    rate = torch.exp(steps * (-math.log(1e4) / size))
    table = torch.zeros(length, size, device="cpu")
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate)
    return table


class Embedding(nn.Module):
    """Token embedding scaled by sqrt(D), plus the sinusoidal position, then dropout."""

    MAX_POSITIONS = 1024  # longer than any input the Translator lets through
    positions: torch.Tensor  # (MAX_POSITIONS, D) a buffer: moved with the model, not saved

    def __init__(self, vocab: int, size: int, dropout: float):
        super().__init__()
        self.embed = nn.Embedding(vocab, size, padding_idx=PAD_ID)
        # N(0, 1/D), so that scaled by sqrt(D) a token's embedding is as large as its position's
        # (torch's N(0, 1) scaled would drown the positions 16 to 1 at D = 256), and a tied
        # output layer starts with logits of about 1.
        nn.init.normal_(self.embed.weight, std=size**-0.5)
        with torch.no_grad():
            self.embed.weight[PAD_ID].zero_()
        # The looked-up rows, before scale and position: a point of this side's own (the
        # table may be tied to the other side's) where attribution reads the tokens.
        self.tokens = nn.Identity()
        self.register_buffer("positions", sinusoids(self.MAX_POSITIONS, size), persistent=False)
        self.scale = math.sqrt(size)
        self.dropout = nn.Dropout(dropout)

    def forward(self, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        """``ids`` (B, T) at positions ``start``, ``start`` + 1, ... -> (B, T, D)."""
        x = self.tokens(self.embed(ids)) * self.scale + self.positions[start : start + ids.size(1)]
        return self.dropout(x)


def _split(x: torch.Tensor, heads: int) -> torch.Tensor:
    """(B, T, D) -> (B, N, T, d): one slice of d numbers per head."""
    B, T, D = x.shape
    return x.view(B, T, heads, D // heads).transpose(1, 2)


def _merge(x: torch.Tensor) -> torch.Tensor:
    """(B, N, T, d) -> (B, T, D): the heads' outputs concatenated."""
    B, N, T, d = x.shape
    return x.transpose(1, 2).reshape(B, T, N * d)


class FeedForward(nn.Sequential):
    """The position-wise feed-forward block: Linear, ReLU, dropout, Linear."""

    def __init__(self, size: int, inner: int, dropout: float):
        super().__init__(
            nn.Linear(size, inner), nn.ReLU(), nn.Dropout(dropout), nn.Linear(inner, size)
        )


class CrossAttended(NamedTuple):
    """One decoder layer's cross-attention at one decoding step, every head."""

    query: torch.Tensor  # (B, D) the layer's queries W_q x_t, the heads' side by side
    context: torch.Tensor  # (B, D) the heads' contexts concatenated, before W_o
    weights: torch.Tensor  # (B, N, S) each head's softmax; exactly 0 at padding
    scores: torch.Tensor  # (B, N, S) each head's scaled scores q . k / sqrt(d); -inf at padding


class DecoderLayer(nn.Module):
    """Pre-norm decoder layer: masked self-attention, cross-attention, feed-forward, each on
    the layer-normed input and added back to it."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        D, p = config.hidden, config.dropout
        self.heads = config.heads
        self.norm_self, self.norm_cross, self.norm_ff = (nn.LayerNorm(D) for _ in range(3))
        self.self_qkv = nn.Linear(D, 3 * D)
        self.self_out = nn.Linear(D, D)
        self.cross_q = nn.Linear(D, D)
        self.cross_kv = nn.Linear(D, 2 * D)
        self.cross_out = nn.Linear(D, D)
        self.ff = FeedForward(D, config.ff, p)
        self.dropout = nn.Dropout(p)
        self.p = p

    def source_keys(self, memory: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The cross-attention's keys and values of the encoder's output (B, S, D), each
        (B, N, S, d): computed once per sentence."""
        k, v = self.cross_kv(memory).chunk(2, -1)
        return _split(k, self.heads), _split(v, self.heads)

    def forward(
        self, x: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, mask: torch.Tensor | None
    ) -> torch.Tensor:
        """Teacher forcing: ``x`` (B, T, D) against the source's ``keys`` and ``values``
        (B, N, S, d); ``mask`` (B, S) True at real tokens, or None."""
        p = self.p if self.training else 0.0
        q, k, v = (_split(t, self.heads) for t in self.self_qkv(self.norm_self(x)).chunk(3, -1))
        a = F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=True)
        x = x + self.dropout(self.self_out(_merge(a)))
        q = _split(self.cross_q(self.norm_cross(x)), self.heads)  # (B, N, T, d)
        allowed = None if mask is None else mask[:, None, None, :]  # (B, 1, 1, S)
        a = F.scaled_dot_product_attention(q, keys, values, attn_mask=allowed, dropout_p=p)
        x = x + self.dropout(self.cross_out(_merge(a)))
        return x + self.dropout(self.ff(self.norm_ff(x)))

    def forced(
        self, x: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, mask: torch.Tensor | None
    ) -> tuple[torch.Tensor, CrossAttended]:
        """Every step of a known target ``x`` (B, T, D) at once, as :meth:`step` computes each:
        the output and every head's cross-attention, a T axis after B (weights (B, T, N, S))."""
        q, k, v = (_split(t, self.heads) for t in self.self_qkv(self.norm_self(x)).chunk(3, -1))
        x = x + self.self_out(_merge(F.scaled_dot_product_attention(q, k, v, is_causal=True)))
        x, att = self._read_source(x, keys, values, mask)
        weights, scores = att.weights.transpose(1, 2), att.scores.transpose(1, 2)
        return x, att._replace(weights=weights, scores=scores)

    def _read_source(
        self,
        x: torch.Tensor,
        keys: torch.Tensor,
        values: torch.Tensor,
        mask: torch.Tensor | None,
        weights: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, CrossAttended]:
        """Cross-attention, explicit, then the feed-forward block, for ``x`` (B, T, D); weights
        and scores (B, N, T, S). ``weights``, where not NaN, replace the softmax."""
        query = self.cross_q(self.norm_cross(x))  # (B, T, D)
        q = _split(query, self.heads)  # (B, N, T, d)
        scores = (q @ keys.transpose(-1, -2)) / math.sqrt(q.size(-1))  # (B, N, T, S)
        if mask is not None:
            scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        own = scores.softmax(-1, dtype=torch.float32)
        weights = own if weights is None else torch.where(weights.isnan(), own, weights)
        context = _merge(weights.to(values.dtype) @ values)  # (B, T, D)
        x = x + self.cross_out(context)
        x = x + self.ff(self.norm_ff(x))
        return x, CrossAttended(query, context, weights, scores)

    def step(
        self,
        x: torch.Tensor,
        past_k: torch.Tensor,
        past_v: torch.Tensor,
        keys: torch.Tensor,
        values: torch.Tensor,
        mask: torch.Tensor | None,
        weights: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, CrossAttended]:
        """One decoding step: ``x`` (B, 1, D) attends to the cached prefix ``past_k``,
        ``past_v`` (B, N, t, d) and to the source. Returns the output (B, 1, D), the cache
        with this step added (B, N, t + 1, d) and the cross-attention of every head, computed
        explicitly. ``weights`` (B, N, S), when given, replace the softmax of each head whose
        row is not NaN; a NaN row keeps that head's own (a what-if edits one head)."""
        q, k, v = (_split(t, self.heads) for t in self.self_qkv(self.norm_self(x)).chunk(3, -1))
        past_k, past_v = torch.cat([past_k, k], 2), torch.cat([past_v, v], 2)  # (B, N, t+1, d)
        x = x + self.self_out(_merge(F.scaled_dot_product_attention(q, past_k, past_v)))
        edit = None if weights is None else weights.unsqueeze(2)  # (B, N, 1, S)
        x, att = self._read_source(x, keys, values, mask, edit)
        one = (att.query.squeeze(1), att.context.squeeze(1), *(a.squeeze(2) for a in att[2:]))
        return x, past_k, past_v, CrossAttended(*one)


def edited_head(weights: torch.Tensor, head: int, heads: int) -> torch.Tensor:
    """What-if weights (B, S) for head ``head`` of ``heads`` as a Transformer step takes them,
    (B, N, S): that head's row, NaN for the heads that keep their own."""
    edit = weights.new_full((weights.size(0), heads, weights.size(1)), float("nan"))
    edit[:, head] = weights
    return edit


class TransformerState(NamedTuple):
    """What a decoding step carries to the next: each layer's self-attention keys and values
    of the tokens fed so far."""

    keys: torch.Tensor  # (L, B, N, t, d)
    values: torch.Tensor  # (L, B, N, t, d)

    def select(self, index: torch.Tensor) -> TransformerState:
        """Rows ``index`` of the batch (beam search expands and reorders with this)."""
        return TransformerState(self.keys[:, index], self.values[:, index])


class TransformerEncoder(nn.Module):
    """Embedding, then torch's pre-norm encoder layers and a final LayerNorm."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        c = config
        self.embedding = Embedding(c.require_vocab_sizes()[0], c.hidden, c.dropout)
        layer = nn.TransformerEncoderLayer(
            c.hidden, c.heads, c.ff, c.dropout, batch_first=True, norm_first=True
        )
        self.layers = nn.TransformerEncoder(layer, c.layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(c.hidden)

    @property
    def embed(self) -> nn.Embedding:
        """The token embedding (with --tie-embeddings, the decoder's too)."""
        return self.embedding.embed

    @property
    def source(self) -> nn.Module:
        """The module whose output is the source tokens' embeddings, called by the encoder
        alone: where attribution reads the source."""
        return self.embedding.tokens

    def forward(self, src: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        """``src`` (B, S) ids and their :func:`padding_mask` -> the outputs h_j (B, S, D)."""
        padding = None if mask is None else ~mask
        return self.norm(self.layers(self.embedding(src), src_key_padding_mask=padding))


class TransformerDecoder(nn.Module):
    """Embedding, the decoder layers, a final LayerNorm and the output layer."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        c = config
        self.config = c
        self.embedding = Embedding(c.require_vocab_sizes()[1], c.hidden, c.dropout)
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.layers))
        self.norm = nn.LayerNorm(c.hidden)
        self.generator = nn.Linear(c.hidden, c.require_vocab_sizes()[1])

    @property
    def embed(self) -> nn.Embedding:
        return self.embedding.embed

    @property
    def stack(self) -> list[DecoderLayer]:  # the layers, as torch's ModuleList does not type them
        return cast("list[DecoderLayer]", list(self.layers))


class Transformer(nn.Module):
    """Encoder and decoder built from one :class:`ModelConfig` with ``model == "transformer"``.

    The one attention picture of a step (``Step.weights``) is the average of the heads of
    :attr:`picture_layer`; ``Step.heads`` holds every head of every layer.
    """

    def __init__(self, config: ModelConfig):
        super().__init__()
        config.require_vocab_sizes()
        self.config = config
        self.encoder = TransformerEncoder(config)
        self.decoder = TransformerDecoder(config)
        if config.tie_embeddings or config.tie_output:
            self._tie(config.tie_embeddings)

    def _tie(self, all_three: bool) -> None:
        """One matrix for the target embedding and the output layer (Press & Wolf, 2017), and
        with ``all_three`` the source embedding too (Vaswani et al., 2017, on one vocabulary for
        both languages). The state dict lists the matrix once, under its first name; loading
        fills in the others."""
        shared = (self.encoder if all_three else self.decoder).embedding.embed
        self.decoder.embedding.embed = shared
        self.decoder.generator.weight = shared.weight
        name = ("encoder" if all_three else "decoder") + ".embedding.embed.weight"
        aliases = ["decoder.generator.weight"] + (
            ["decoder.embedding.embed.weight"] if all_three else []
        )
        store_once(self, name, aliases)

    @property
    def picture_layer(self) -> int:
        """The decoder layer (0-based) whose averaged heads make the one picture."""
        return self.config.picture_layer

    @property
    def generator(self) -> nn.Module:
        return self.decoder.generator

    @property
    def output_bias(self) -> nn.Parameter:
        return self.decoder.generator.bias

    def encode(self, src: torch.Tensor, src_lens: torch.Tensor) -> tuple[Memory, TransformerState]:
        """Run the encoder once per sentence. The memory holds every decoder layer's
        cross-attention keys and values, (B, L, N, S, d), so that steps only project their
        query; the state starts with an empty self-attention cache."""
        mask = padding_mask(src, src_lens)
        h = self.encoder(src, mask)  # (B, S, D)
        kv = [layer.source_keys(h) for layer in self.decoder.stack]
        keys = torch.stack([k for k, _ in kv], 1)  # (B, L, N, S, d)
        values = torch.stack([v for _, v in kv], 1)
        B, L, N, _, d = keys.shape
        empty = h.new_zeros(L, B, N, 0, d)
        return Memory(values, keys, mask), TransformerState(empty, empty)

    def step(
        self,
        y_prev: torch.Tensor,
        state: TransformerState,
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> Step:
        """Feed ``y_prev`` (B,) and return the distribution over the next token with every
        head's cross-attention. ``weights`` (B, N, S), when given, replace the weights of the
        picture layer's heads whose rows are not NaN (see :func:`edited_head`)."""
        x = self.decoder.embedding(y_prev[:, None], start=state.keys.size(3))  # (B, 1, D)
        new_k, new_v, heads = [], [], []
        for i, layer in enumerate(self.decoder.stack):
            edit = weights if i == self.picture_layer else None
            x, k, v, att = layer.step(
                x,
                state.keys[i],
                state.values[i],
                memory.keys[:, i],
                memory.values[:, i],
                memory.mask,
                edit,
            )
            new_k.append(k)
            new_v.append(v)
            heads.append(att)
        features = self.decoder.norm(x).squeeze(1)  # (B, D)
        shown = heads[self.picture_layer]
        return Step(
            self.decoder.generator(features),
            TransformerState(torch.stack(new_k), torch.stack(new_v)),
            shown.weights.mean(1),  # (B, S): the picture, the layer's heads averaged
            # The picture's scores: the heads' scaled scores averaged, the scores whose
            # softmax a single head of the same layer would give if the heads agreed.
            shown.scores.mean(1),
            shown.query,
            shown.context,
            features,
            torch.stack([a.weights for a in heads], 1),  # (B, L, N, S)
        )

    def forced_steps(self, memory: Memory, tgt_in: torch.Tensor) -> Step:
        """What :meth:`step` computes at each position of the known target ``tgt_in`` (B, T),
        ``<bos>`` first, in one pass: the Step's fields with a T axis after B (heads (B, T, L,
        N, S)), no state. An inference engine found the words; this is the model's reading."""
        x = self.decoder.embedding(tgt_in)  # (B, T, D)
        heads = []
        for i, layer in enumerate(self.decoder.stack):
            x, att = layer.forced(x, memory.keys[:, i], memory.values[:, i], memory.mask)
            heads.append(att)
        features = self.decoder.norm(x)  # (B, T, D)
        shown = heads[self.picture_layer]
        # a row at a time, as steps give it: a quantized layer scales by the rows it is given
        logits = torch.stack([self.decoder.generator(f) for f in features.unbind(1)], 1)
        averaged = (shown.weights.mean(2), shown.scores.mean(2))  # (B, T, S), as step's
        every = torch.stack([a.weights for a in heads], 2)  # (B, T, L, N, S)
        return Step(logits, None, *averaged, shown.query, shown.context, features, every)

    def features(
        self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor
    ) -> tuple[torch.Tensor, None]:
        """Teacher forcing up to the output layer: its inputs (B, T, D), and no weights
        (``scaled_dot_product_attention`` does not return them; decoding records them)."""
        mask = padding_mask(src, src_lens)
        h = self.encoder(src, mask)
        x = self.decoder.embedding(tgt_in)  # (B, T, D)
        for layer in self.decoder.stack:
            keys, values = layer.source_keys(h)
            x = layer(x, keys, values, mask)
        return self.decoder.norm(x), None

    def forward(self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor) -> Output:
        features, _ = self.features(src, src_lens, tgt_in)
        return Output(self.generator(features), None)
