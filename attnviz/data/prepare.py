"""A corpus made ready for training: read, tokenized, split, with its vocabularies (and, for a
subword model, the sentencepiece models that cut its words into pieces), or those of the model
a run continues from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from .corpus import (
    Corpus,
    DataConfig,
    Example,
    Link,
    read_corpus,
    split_examples,
    split_of,
    to_pieces,
    tokenize_pairs,
)
from .subwords import Subwords
from .text import TextConfig
from .vocab import Vocab


@dataclass
class Prepared:
    corpus: Corpus
    splits: dict[str, list[Example]]
    src_vocab: Vocab
    tgt_vocab: Vocab
    subwords: Subwords | None = None  # the sentencepiece models, None for whole words


class Parent(Protocol):
    """What a run that continues from a model takes from it (a Translator has these)."""

    src_vocab: Vocab
    tgt_vocab: Vocab
    subwords: Subwords | None


def read(path: str | Path, data: DataConfig, log=print) -> Corpus:
    """The corpus at ``path``, refused when it holds no pair."""
    corpus = read_corpus(path, data.source_column)
    if not corpus.pairs:
        raise ValueError(f"{path}: no sentence pairs found ({corpus.skipped} malformed lines)")
    log(f"{path}: {len(corpus.pairs)} pairs, {corpus.skipped} malformed lines skipped")
    return corpus


def prepare(
    corpus: Corpus,
    text: TextConfig,
    data: DataConfig,
    log=print,
    parent: Parent | None = None,
    add_pieces: int = 0,
    links: Sequence[tuple[Link, ...]] | None = None,
) -> Prepared:
    """Tokenize and split ``corpus``; build both vocabularies on the training split (and,
    with ``data.subwords``, the sentencepiece models that split its words into pieces), or take
    those of ``parent``, the model a run continues from, grown by up to ``add_pieces`` pieces
    from the words of the training split (:meth:`Subwords.grown`). ``links``: one set per
    corpus pair, over its tokens (a guided run's teacher), carried to pieces and splits."""
    examples = tokenize_pairs(corpus.pairs, text)
    if links is not None:
        examples = [replace(e, links=x) for e, x in zip(examples, links, strict=True)]
    subwords = _subwords(examples, text, data, parent, add_pieces, corpus.path)
    if subwords:
        examples = to_pieces(examples, subwords)
    splits = split_examples(examples, data)
    if not splits["train"]:
        raise ValueError(f"{corpus.path}: the training split is empty")
    src_vocab, tgt_vocab = _vocabularies(splits["train"], data, parent, subwords)
    log(
        "split: "
        + ", ".join(f"{k} {len(v)}" for k, v in splits.items())
        + f"; vocabularies: source {len(src_vocab)}, target {len(tgt_vocab)}"
    )
    return Prepared(corpus, splits, src_vocab, tgt_vocab, subwords)


def _subwords(
    examples: list[Example],
    text: TextConfig,
    data: DataConfig,
    parent: Parent | None,
    add_pieces: int,
    path: str | Path,
) -> Subwords | None:
    """The sentencepiece models: the parent's (grown by ``add_pieces``), new ones trained on
    the training split with ``data.subwords``, or None for whole words."""
    inherited = parent.subwords if parent is not None else None
    if add_pieces:
        if not inherited:
            raise ValueError("--add-pieces grows a parent's sentencepiece pieces; it has none")
        return inherited.grown(_training_words(examples, data, path), add_pieces)
    if parent is not None:
        return inherited
    if not data.subwords:
        return None
    return Subwords.train(
        _training_words(examples, data, path),
        data.subwords,
        data.subword_model,
        data.joint_subwords,
        (text.src_lang, text.tgt_lang),
    )


def _vocabularies(
    train: list[Example], data: DataConfig, parent: Parent | None, subwords: Subwords | None
) -> tuple[Vocab, Vocab]:
    """The sentencepiece models', the parent's, or built on the training split."""
    if subwords:
        return subwords.src.vocab, subwords.tgt.vocab
    if parent is not None:
        return parent.src_vocab, parent.tgt_vocab
    return (
        Vocab.build((e.src_tokens for e in train), data.min_freq, data.max_vocab),
        Vocab.build((e.tgt_tokens for e in train), data.min_freq, data.max_vocab),
    )


def _training_words(
    examples: list[Example], data: DataConfig, path: str | Path
) -> list[tuple[list[str], list[str]]]:
    """The (source, target) words of the training split's pairs, which the sentencepiece
    models are trained or grown on."""
    words = [
        (e.src_tokens, e.tgt_tokens)
        for e in examples
        if split_of(e.src, data.valid_percent, data.test_percent) == "train"
    ]
    if not words:
        raise ValueError(f"{path}: the training split is empty")
    return words
