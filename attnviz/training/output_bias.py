"""Where the output layer's bias starts: at the log of each target token's share of the
training targets (``--output-bias unigram``), the distribution a model that has read nothing
yet should predict. From zero, the first updates go to learning which of the vocabulary's
tokens are ever written; on a small corpus under sentencepiece most are not (byte pieces,
half-merged words), and a decoder that learns that while its attention is still uniform
learns it from the one key every sentence shares, the source <eos>, and keeps looking there
(docs/alignment.md, "A toy's attention and the never-written pieces")."""

from __future__ import annotations

from collections.abc import Iterable

import torch

from ..data.corpus import Example
from ..data.vocab import EOS_ID, Vocab
from ..model.seq2seq import Seq2Seq
from ..model.transformer import Transformer

# Added to every count: a token the training split never writes starts at about
# log(SMOOTHING / tokens), far below the written ones but finite.
SMOOTHING = 0.1


def unigram_log_shares(examples: Iterable[Example], vocab: Vocab) -> torch.Tensor:
    """log((count + SMOOTHING) / total) of each of ``vocab``'s tokens over the target tokens
    of ``examples``, each target's closing <eos> included: (V,)."""
    counts = torch.zeros(len(vocab), dtype=torch.float64)
    for e in examples:
        ids = torch.tensor([*vocab.encode(e.tgt_tokens), EOS_ID])
        counts.index_add_(0, ids, torch.ones(len(ids), dtype=torch.float64))
    shares = (counts + SMOOTHING) / (counts + SMOOTHING).sum()
    return shares.log().float()


@torch.no_grad()
def start_at_unigram(
    model: Seq2Seq | Transformer, examples: Iterable[Example], vocab: Vocab
) -> None:
    """Set ``model``'s output bias to :func:`unigram_log_shares` of ``examples``."""
    model.output_bias.copy_(unigram_log_shares(examples, vocab))
