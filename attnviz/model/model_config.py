"""What a translation model is built from: :class:`ModelConfig`, one for both architectures
(the GRU encoder-decoder, :class:`attnviz.model.seq2seq.Seq2Seq`, and the Transformer,
:class:`attnviz.model.transformer.Transformer`), and the names of its choices. A checkpoint
stores ``asdict(config)`` and is rebuilt from it (:func:`attnviz.model.build.build_model`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..options import option
from .attention import SCORES

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

    def require_vocab_sizes(self) -> tuple[int, int]:
        """(src_vocab, tgt_vocab), what a model is built with: refused (ValueError) where a
        configuration does not have them yet."""
        if self.src_vocab is None or self.tgt_vocab is None:
            raise ValueError("a model needs its vocabulary sizes: set src_vocab and tgt_vocab")
        return self.src_vocab, self.tgt_vocab

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

    @property
    def picture_layer(self) -> int:
        """A Transformer's decoder layer (0-based) whose averaged heads make the one picture."""
        return self.align_layer % self.layers
