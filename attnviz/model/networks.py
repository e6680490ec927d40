"""GRU encoder-decoder translation models with Bahdanau or Luong attention, or none: the
fixed-context encoder-decoder of Cho et al. (2014) that attention was invented to fix.

Shapes, batch-first everywhere: B batch, S source length, T target length, E embedding size,
H hidden size, L layers, V target vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from ..data.vocab import PAD_ID, SPECIALS
from ..options import option
from .attention import SCORES, Attended, Memory, make_attention

BRIDGES = ("ends", "backward")  # how a bidirectional encoder starts the decoder
NONE = "none"  # the fixed-context model: no attention, one context vector for every step
MULTIHEAD = "multihead"  # the Transformer's scaled dot product, several heads in every layer
ATTENTIONS = (*SCORES, NONE, MULTIHEAD)
MODELS = ("gru", "transformer")  # the recurrent encoder-decoder, or Vaswani et al.'s


@dataclass(frozen=True)
class ModelConfig:
    """Everything needed to rebuild a model: ``Seq2Seq(ModelConfig(**asdict(config)))``.

    The vocabulary sizes may be left None while a training run is described: training sets them
    from the vocabularies it builds. A model is built only from a configuration that has them.
    """

    src_vocab: int | None = None  # source vocabulary size, specials included
    tgt_vocab: int | None = None  # target vocabulary size, specials included
    attention: str = option(
        "bahdanau",
        "bahdanau: additive score on s_{t-1}; dot/general/concat: Luong scores on h_t; "
        "none: no attention, the encoder's final state is the one context c that every "
        "decoder step reads (Cho et al., 2014); multihead: the Transformer's (required for a "
        "GRU, unless --init-from gives it)",
        choices=ATTENTIONS,
        no_default=True,
    )
    embed: int = option(256, "embedding size E, both sides")
    hidden: int = option(256, "GRU state size H; the encoder outputs have this size too")
    layers: int = option(1, "GRU layers in encoder and decoder")
    dropout: float = option(
        0.2, "dropout on embeddings, between GRU layers and before the output layer"
    )
    bidirectional: bool = option(
        True, "bidirectional encoder as in Bahdanau et al., H/2 per direction, tanh bridge"
    )
    bridge: str = option(
        "ends",
        "bidirectional encoder: the decoder's first state is tanh(W [forward end; backward "
        "end]) (ends), or tanh(W_s h_1) of the backward direction alone (backward: Bahdanau et "
        "al., 2015), whose first state reads the sentence towards its first word",
        choices=BRIDGES,
    )
    input_feeding: bool = option(
        True, "Luong: feed h~_{t-1} into the next step (ignored for bahdanau)"
    )
    attn_dim: int = option(0, "hidden size of the additive scores (bahdanau, concat); 0: H")
    scaled: bool = option(
        False,
        "dot/general: divide the scores by sqrt(hidden) (Vaswani et al., 2017) so that "
        "attention does not saturate into one-hot weights during training",
        flag="--scaled-scores",
    )
    tie_embeddings: bool = option(
        False,
        "one matrix for the source embedding, the target embedding and the output layer "
        "(Press & Wolf, 2017), with a projection from the output layer's input to the "
        "embedding size; needs one vocabulary for both languages (--joint-subwords)",
    )
    output_projection: bool = option(
        False,
        "untied: the output layer goes through the embedding size, logits = W (P f) + b, with "
        "P (H -> E) and W (V x E) of its own: a tied output layer's shape without the tying, "
        "half the products and a smaller file",
    )
    untied_specials: bool = option(
        False,
        "with --tie-embeddings: the source side's special symbols (<eos>, <unk>) read rows of "
        "their own instead of the rows the output layer writes <eos> and <unk> with",
    )
    tie_output: bool = option(
        False,
        "one matrix for the target embedding and the output layer only (Press & Wolf, 2017), "
        "with the same projection: half the products of the 8,000-way output layer, any "
        "vocabularies (--tie-embeddings implies it)",
    )

    model: str = option(
        "gru",
        "gru: the GRU encoder-decoder; transformer: the encoder-decoder Transformer of Vaswani "
        "et al. (2017), pre-norm, --layers layers a side of size --hidden, --heads heads and "
        "--ff feed-forward units (its attention is multihead)",
        choices=MODELS,
    )
    heads: int = option(4, "transformer: attention heads per layer; must divide --hidden")
    ff: int = option(1024, "transformer: the feed-forward block's inner size")
    align_layer: int = option(
        -1,
        "transformer: the decoder layer (0-based; negative counts from the last) whose "
        "cross-attention heads, averaged, are the one picture drawn wherever a heatmap is; "
        "-1: the last (evaluate --gold measures which aligns best)",
    )

    def __post_init__(self):
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, not {self.model!r}")
        if self.attention not in ATTENTIONS:
            raise ValueError(f"attention must be one of {ATTENTIONS}, not {self.attention!r}")
        if (self.model == "transformer") != (self.attention == MULTIHEAD):
            raise ValueError(
                "a transformer's attention is multihead, and multihead attention belongs to "
                f"a transformer: got model {self.model!r} with attention {self.attention!r}"
            )
        if self.model == "transformer":
            self._check_transformer()
        sizes = [name for name in ("src_vocab", "tgt_vocab") if getattr(self, name) is not None]
        for name in (*sizes, "embed", "hidden", "layers", "attn_dim"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be an integer, got {getattr(self, name)!r}")
        for name in (*sizes, "embed", "hidden", "layers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if not 0 <= self.dropout < 1:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if self.bidirectional and self.hidden % 2:
            raise ValueError(
                f"a bidirectional encoder needs an even hidden size, got {self.hidden}"
            )
        if self.bridge not in BRIDGES:
            raise ValueError(f"bridge must be one of {BRIDGES}, not {self.bridge!r}")
        if self.attn_dim < 0:
            raise ValueError(
                f"attn_dim must be 0 (same as hidden) or positive, got {self.attn_dim}"
            )
        if self.output_projection and (self.tie_embeddings or self.tie_output):
            raise ValueError(
                "output_projection is the untied shape of a tied output layer, which projects "
                "already: drop it with tie_embeddings or tie_output"
            )
        if self.untied_specials and not self.tie_embeddings:
            raise ValueError("untied_specials unties a tied model's specials: add tie_embeddings")
        if self.tie_embeddings and self.src_vocab != self.tgt_vocab:
            raise ValueError(
                "tied embeddings need one vocabulary for both languages, got "
                f"{self.src_vocab} source and {self.tgt_vocab} target entries"
            )

    def require_vocab_sizes(self) -> None:
        """Refuse to build a model from a configuration without its vocabulary sizes."""
        if self.src_vocab is None or self.tgt_vocab is None:
            raise ValueError("a model needs its vocabulary sizes: set src_vocab and tgt_vocab")

    def _check_transformer(self) -> None:
        """A transformer's sizes: one for embeddings and states, heads that divide it, and a
        picture layer it has."""
        if self.embed != self.hidden:
            raise ValueError(
                f"a transformer's embeddings have the model's size: embed {self.embed} must "
                f"equal hidden {self.hidden}"
            )
        if self.heads < 1 or self.hidden % self.heads:
            raise ValueError(f"heads must divide hidden ({self.hidden}), got {self.heads}")
        if not -self.layers <= self.align_layer < self.layers:
            raise ValueError(
                f"align_layer must be a layer in [-{self.layers}, {self.layers}), got "
                f"{self.align_layer}"
            )

    @property
    def is_luong(self) -> bool:
        return self.attention in ("dot", "general", "concat")

    @property
    def has_attention(self) -> bool:
        """False for the fixed-context model, which has no attention weights at all."""
        return self.attention != NONE


class DecoderState(NamedTuple):
    """The recurrent state carried from one decoding step to the next."""

    rnn: torch.Tensor  # (L, B, H) GRU state; rnn[-1] is s_{t-1} (Bahdanau) or h_{t-1} (Luong)
    feed: torch.Tensor | None  # (B, H) Luong's h~_{t-1} for input feeding, else None

    def select(self, index: torch.Tensor) -> DecoderState:
        """Rows ``index`` of the batch (beam search expands and reorders with this)."""
        feed = None if self.feed is None else self.feed[index]
        return DecoderState(self.rnn[:, index], feed)


class Step(NamedTuple):
    """What one decoding step computed."""

    logits: torch.Tensor  # (B, V) scores of the next token, before log-softmax
    state: DecoderState  # state after the step
    # The three below are None for the fixed-context model, which has no attention.
    weights: torch.Tensor | None  # (B, S) attention weights; rows sum to 1, padding gets 0
    scores: torch.Tensor | None  # (B, S) raw attention scores before the softmax; -inf at padding
    query: torch.Tensor | None  # (B, H) what was scored against the keys: s_{t-1} or h_t
    context: torch.Tensor  # (B, H) c_t, the weighted sum of the encoder outputs; or the one c
    features: torch.Tensor  # (B, H) what the output layer reads: Bahdanau's t_i, Luong's h~_t
    heads: torch.Tensor | None = None  # (B, L, N, S) a Transformer's every cross-attention head


class Output(NamedTuple):
    logits: torch.Tensor  # (B, T, V)
    weights: torch.Tensor | None  # (B, T, S); None without attention


def padding_mask(src: torch.Tensor, src_lens: torch.Tensor) -> torch.Tensor | None:
    """(B, S) True at real tokens of ``src``, or None where no sentence is padded (one sentence,
    or all of one length): then there is nothing to mask, or to pack."""
    if int(src_lens.min()) == src.size(1):
        return None
    return torch.arange(src.size(1), device=src.device) < src_lens.to(src.device)[:, None]


def _one_step(weights: torch.Tensor | None) -> torch.Tensor | None:
    """A step's replacement weights (B, S) as the attention takes them, (B, 1, S)."""
    return None if weights is None else weights.unsqueeze(1)


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


class Encoder(nn.Module):
    """Embedding and GRU; returns the memory values (B, S, H) and the decoder's first state."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        c = config
        directions = 2 if c.bidirectional else 1
        self.embed = nn.Embedding(c.src_vocab, c.embed, padding_idx=PAD_ID)
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
        """``src`` (B, S) ids, ``src_lens`` (B,) and their :func:`padding_mask` -> outputs
        (B, S, H) and state (L, B, H)."""
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


class Decoder(nn.Module):
    """Shared machinery: teacher forcing loops over ``_read``; subclasses define the step."""

    def __init__(self, config: ModelConfig, rnn_input: int):
        super().__init__()
        c = config
        self.config = c
        self.embed = nn.Embedding(c.tgt_vocab, c.embed, padding_idx=PAD_ID)
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
        self.generator = nn.Linear(c.hidden, c.tgt_vocab)

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
        final state (L, B, H) and the :func:`padding_mask`: all the outputs, with their keys
        projected once per sentence."""
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


class Seq2Seq(nn.Module):
    """Encoder, attention and decoder built from one :class:`ModelConfig`."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        config.require_vocab_sizes()
        self.config = config
        self.encoder = Encoder(config)
        if config.is_luong:
            self.decoder = LuongDecoder(config)
        elif config.has_attention:
            self.decoder = BahdanauDecoder(config)
        else:
            self.decoder = FixedContextDecoder(config)
        if config.tie_embeddings:
            self._tie()
        elif config.tie_output:
            self.decoder.generator = TiedOutput(
                self.decoder.embed, self.decoder.generator.in_features
            )
        elif config.output_projection:
            self.decoder.generator = nn.Sequential(
                nn.Linear(config.hidden, config.embed, bias=False),
                nn.Linear(config.embed, config.tgt_vocab),
            )

    def _tie(self) -> None:
        """Share the encoder's embedding with the decoder and the output layer. The state
        dict lists the matrix once, as ``encoder.embed.weight``, and loading fills in the
        decoder's name for it."""
        # The encoder's N(0, 1) initialization serves all three: on the toy names language a
        # scale of embed^-0.5 (as fairseq shares embeddings) left 2 of 3 seeds unable to learn.
        shared = self.encoder.embed
        self.decoder.embed = shared
        self.decoder.generator = TiedOutput(shared, self.decoder.generator.in_features)
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
        return generator[-1].bias if isinstance(generator, nn.Sequential) else generator.bias

    @property
    def generator(self) -> nn.Module:
        """The output layer: features (..., H) -> logits (..., V); a Linear, or with tied
        embeddings a :class:`TiedOutput` (for decoding in int8 or bf16, its untied copy)."""
        return self.decoder.generator

    def forward(self, src: torch.Tensor, src_lens: torch.Tensor, tgt_in: torch.Tensor) -> Output:
        """Teacher forcing: logits (B, T, V) for the next token at each position of ``tgt_in``."""
        features, weights = self.features(src, src_lens, tgt_in)
        return Output(self.generator(features), weights)
