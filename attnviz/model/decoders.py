"""The GRU decoders, one per way of reading the source: Bahdanau's (attend with s_{t-1}, then
step), Luong's (step, then attend with h_t) and the fixed-context decoder of Cho et al. (2014),
which reads one context c at every step. Each step returns a :class:`~attnviz.model.interface.Step`.

Shapes, batch-first everywhere: B batch, S source length, T target length, E embedding size,
H hidden size, L layers, V target vocabulary.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn

from ..data.vocab import PAD_ID
from .attention import Attended, Memory, make_attention
from .interface import Step
from .model_config import ModelConfig


class DecoderState(NamedTuple):
    """The recurrent state carried from one decoding step to the next."""

    rnn: torch.Tensor  # (L, B, H) GRU state; rnn[-1] is s_{t-1} (Bahdanau) or h_{t-1} (Luong)
    feed: torch.Tensor | None  # (B, H) Luong's h~_{t-1} for input feeding, else None

    def select(self, index: torch.Tensor) -> DecoderState:
        """Rows ``index`` of the batch (beam search expands and reorders with this)."""
        feed = None if self.feed is None else self.feed[index]
        return DecoderState(self.rnn[:, index], feed)


def _one_step(weights: torch.Tensor | None) -> torch.Tensor | None:
    """A step's replacement weights (B, S) as the attention takes them, (B, 1, S)."""
    return None if weights is None else weights.unsqueeze(1)


class Decoder(nn.Module):
    """Shared machinery: teacher forcing loops over ``_read``; subclasses define the step."""

    def __init__(self, config: ModelConfig, rnn_input: int):
        super().__init__()
        c = config
        self.config = c
        _, tgt_vocab = c.require_vocab_sizes()
        self.embed = nn.Embedding(tgt_vocab, c.embed, padding_idx=PAD_ID)
        self.rnn = nn.GRU(
            rnn_input,
            c.hidden,
            c.layers,
            batch_first=True,
            dropout=c.dropout if c.layers > 1 else 0.0,
        )
        self.attention = (
            make_attention(c.attention, c.hidden, c.hidden, c.attn_dim or c.hidden, c.scaled)
            if c.has_attention
            else None
        )
        self.dropout = nn.Dropout(c.dropout)
        self.generator: nn.Module = nn.Linear(c.hidden, tgt_vocab)

    def init_state(self, enc_state: torch.Tensor) -> DecoderState:
        return DecoderState(enc_state, None)

    def _step(
        self,
        y_prev: torch.Tensor,
        state: DecoderState,
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, DecoderState, Attended, torch.Tensor | None]:
        """One step -> (features (B, H) for the generator, new state, attention (T = 1),
        the query (B, H) it scored); ``weights`` (B, S) replace the attention's own."""
        return self._read(self.dropout(self.embed(y_prev)), state, memory, weights)

    def _read(
        self,
        emb: torch.Tensor,
        state: DecoderState,
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, DecoderState, Attended, torch.Tensor | None]:
        """:meth:`_step` on the previous token's embedding ``emb`` (B, E), dropout applied."""
        raise NotImplementedError

    def memory(self, values: torch.Tensor, state: torch.Tensor, mask) -> Memory:
        """What every step reads of the source, given the encoder's outputs (B, S, H), its
        final state (L, B, H) and the :func:`~attnviz.model.interface.padding_mask`: all the
        outputs, with their keys projected once per sentence."""
        assert self.attention is not None  # the fixed-context decoder keeps its own memory
        return Memory(values, self.attention.keys(values), mask)

    def step(
        self,
        y_prev: torch.Tensor,
        state: DecoderState,
        memory: Memory,
        weights: torch.Tensor | None = None,
    ) -> Step:
        """Feed ``y_prev`` (B,) and return the distribution over the next token; ``weights``
        (B, S), when given, replace this step's attention weights (see :class:`Attention`)."""
        features, state, att, query = self._step(y_prev, state, memory, weights)
        return Step(
            self.generator(features),
            state,
            att.weights.squeeze(1),
            att.scores.squeeze(1),
            query,
            att.context.squeeze(1),
            features,
        )

    def features(
        self, tgt_in: torch.Tensor, state: DecoderState, memory: Memory
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing over ``tgt_in`` (B, T) -> generator inputs (B, T, H), weights.

        The target is embedded once, not step by step: the embedding's backward pass makes a
        dense (V, E) gradient per call, and zeroing one per step was an eighth of an update's
        time at the peer's size (issue 54)."""
        features, weights = [], []
        for emb in self.dropout(self.embed(tgt_in)).unbind(1):
            f, state, att, _ = self._read(emb, state, memory)
            features.append(f)
            weights.append(att.weights.squeeze(1))
        return torch.stack(features, 1), torch.stack(weights, 1)


class BahdanauDecoder(Decoder):
    """Bahdanau et al. (2015): attend with s_{t-1}, then run the GRU on [y_{t-1}; c_t]."""

    def __init__(self, config: ModelConfig):
        super().__init__(config, rnn_input=config.embed + config.hidden)
        c = config
        # Deep output (Bahdanau et al., appendix A.2.2, no maxout): t_i from s_i, c_i, y_{i-1}.
        self.pre_output = nn.Linear(2 * c.hidden + c.embed, c.hidden)

    def _read(self, emb, state, memory, weights=None):
        # The query is s_{t-1}, the top state BEFORE this step: that is what makes it Bahdanau.
        query = state.rnn[-1]  # (B, H)
        att = self.attention(query.unsqueeze(1), memory, _one_step(weights))
        context = att.context.squeeze(1)  # (B, H)
        out, rnn = self.rnn(torch.cat([emb, context], -1).unsqueeze(1), state.rnn)  # (B, 1, H)
        features = torch.tanh(self.pre_output(torch.cat([out.squeeze(1), context, emb], -1)))
        return self.dropout(features), DecoderState(rnn, None), att, query


class FixedContextDecoder(BahdanauDecoder):
    """Cho et al. (2014), the encoder-decoder before attention: the encoder's final state is
    the one context c, and every step reads the same c, in the GRU's input [y_{t-1}; c] and in
    the deep output t_i from s_i, c, y_{i-1}. It is Bahdanau's decoder with each step's c_t
    replaced by that one c, which is how Bahdanau et al. (2015) built RNNsearch on RNNencdec.

    Its memory holds c as one value (B, 1, H) and no keys: there is nothing to score, and no
    attention weights to show.
    """

    def memory(self, values, state, mask):
        c = state[-1].unsqueeze(1)  # (B, 1, H): the top layer's final state
        return Memory(c, c, None)

    def _step(self, y_prev, state, memory, weights=None):
        if weights is not None:
            raise ValueError("a model without attention has no attention weights to replace")
        emb = self.dropout(self.embed(y_prev))  # (B, E)
        c = memory.values[:, 0]  # (B, H), the same at every step
        out, rnn = self.rnn(torch.cat([emb, c], -1).unsqueeze(1), state.rnn)
        features = torch.tanh(self.pre_output(torch.cat([out.squeeze(1), c, emb], -1)))
        return self.dropout(features), DecoderState(rnn, None), None, None

    def step(self, y_prev, state, memory, weights=None):
        features, state, _, _ = self._step(y_prev, state, memory, weights)
        c = memory.values[:, 0]
        return Step(self.generator(features), state, None, None, None, c, features)

    def features(self, tgt_in, state, memory):
        # No step depends on an earlier step's attention, so the GRU runs over the whole
        # target at once.
        emb = self.dropout(self.embed(tgt_in))  # (B, T, E)
        c = memory.values.expand(-1, tgt_in.size(1), -1)  # (B, T, H)
        out, _ = self.rnn(torch.cat([emb, c], -1), state.rnn)  # (B, T, H)
        features = torch.tanh(self.pre_output(torch.cat([out, c, emb], -1)))
        return self.dropout(features), None


class LuongDecoder(Decoder):
    """Luong et al. (2015): GRU step first, then attend with h_t; h~_t = tanh(W_c [c_t; h_t])."""

    def __init__(self, config: ModelConfig):
        c = config
        super().__init__(c, rnn_input=c.embed + (c.hidden if c.input_feeding else 0))
        self.W_c = nn.Linear(2 * c.hidden, c.hidden, bias=False)  # eq. (5)

    def init_state(self, enc_state):
        feed = enc_state.new_zeros(enc_state.shape[1:]) if self.config.input_feeding else None
        return DecoderState(enc_state, feed)

    def _attend(self, h: torch.Tensor, memory: Memory, weights=None):
        """Score with h_t, the state AFTER the step: that is what makes it Luong. h (B, T, H)."""
        assert self.attention is not None  # a Luong decoder always has one
        att = self.attention(h, memory, weights)
        h_tilde = torch.tanh(self.W_c(torch.cat([att.context, h], -1)))  # (B, T, H)
        return h_tilde, att

    def _read(self, emb, state, memory, weights=None):
        x = emb  # (B, E)
        if state.feed is not None:
            x = torch.cat([x, state.feed], -1)  # input feeding, section 3.3
        out, rnn = self.rnn(x.unsqueeze(1), state.rnn)  # (B, 1, H)
        h_tilde, att = self._attend(out, memory, _one_step(weights))
        h_tilde = h_tilde.squeeze(1)  # (B, H)
        feed = h_tilde if self.config.input_feeding else None
        return self.dropout(h_tilde), DecoderState(rnn, feed), att, out.squeeze(1)

    def features(self, tgt_in, state, memory):
        if self.config.input_feeding:
            return super().features(tgt_in, state, memory)
        # Without input feeding no step depends on the previous attention, so the GRU runs over
        # the whole target at once and all steps attend in one batched product.
        out, _ = self.rnn(self.dropout(self.embed(tgt_in)), state.rnn)  # (B, T, H)
        h_tilde, att = self._attend(out, memory)
        return self.dropout(h_tilde), att.weights
