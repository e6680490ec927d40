"""Subword pieces under the words: sentencepiece models that split words into pieces and
read pieces back as words.

A sentence is normalized and split into words by the Moses tokenizer (:mod:`attnviz.data.text`);
sentencepiece then splits each word into pieces from a fixed vocabulary. A word's first piece
starts with ``▁``, so pieces never straddle two words and every piece has one owner word.
Characters never seen in training fall back to their UTF-8 bytes (``<0xF0>`` ...), so no input
becomes ``<unk>``. How a decoding over pieces is read as words is :mod:`attnviz.decoding.words`.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
from collections import Counter
from collections.abc import Iterable

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2

from .vocab import SPECIALS, Vocab

WORD_START = "\u2581"  # "▁", sentencepiece's mark of a word's first piece
MODEL_TYPES = ("unigram", "bpe")
# Share of the training text's characters that get a piece of their own; the rarest rest are
# spelled in bytes. Chinese has thousands of characters, and sentencepiece advises 0.9995 for it.
CHARACTER_COVERAGE = {"zh": 0.9995}
DEFAULT_COVERAGE = 0.9999


def character_coverage(*langs: str) -> float:
    """The character coverage for text in ``langs`` (the least of theirs)."""
    return min(CHARACTER_COVERAGE.get(lang, DEFAULT_COVERAGE) for lang in langs)


def train_pieces(
    sentences: Iterable[str],
    vocab_size: int,
    model_type: str = "bpe",
    coverage: float = DEFAULT_COVERAGE,
) -> bytes:
    """A sentencepiece model (serialized) trained on whitespace-tokenized ``sentences``.

    Ids 0-3 are attnviz's ``<pad> <unk> <bos> <eos>``, so sentencepiece's ids are the model's.
    The text is taken as it is (attnviz normalized it already), and ``vocab_size`` is an upper
    bound: a small corpus gets the pieces it has. ``coverage`` is sentencepiece's
    character_coverage; characters left out, or never seen, fall back to bytes. One thread, so
    the same text gives the same model on every machine.
    """
    if model_type not in MODEL_TYPES:
        raise ValueError(f"subword model must be one of {MODEL_TYPES}, not {model_type!r}")
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences),
        model_writer=out,
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=coverage,
        byte_fallback=True,
        hard_vocab_limit=False,
        normalization_rule_name="identity",
        split_digits=True,
        pad_id=0,
        unk_id=1,
        bos_id=2,
        eos_id=3,
        pad_piece=SPECIALS[0],
        unk_piece=SPECIALS[1],
        bos_piece=SPECIALS[2],
        eos_piece=SPECIALS[3],
        num_threads=1,
        minloglevel=2,
    )
    return out.getvalue()


def wanted_words(sentences: Iterable[list[str]]) -> list[str]:
    """The words of letters in tokenized ``sentences``, most frequent first, a word's case
    variants counted together: "Really" starts a sentence far more rarely than "really" is
    written, and should read as the same word."""
    counts = Counter(w for words in sentences for w in words if w.isalpha())
    folded: Counter[str] = Counter()
    for word, n in counts.items():
        folded[word.lower()] += n
    return sorted(counts, key=lambda w: (-folded[w.lower()], -counts[w], w))


def with_words(proto: bytes, words: Iterable[str], limit: int) -> bytes:
    """The BPE model ``proto`` grown by up to ``limit`` pieces, so that each of ``words`` it
    splits, taken in order until the limit, is read as one piece.

    A word of k pieces gets the chain of its prefixes (its first two pieces joined, the first
    three, ..., the whole word), for sentencepiece's BPE reaches a piece only by joining two it
    has. Every new piece scores below all the model's own, so a word is first split as before
    and only then joined further: other words keep their pieces, but for the few that begin
    like a new prefix. Words that hold a byte or special piece are passed over. The model's
    pieces keep their ids; the new ones follow in the order added.
    """
    model = sentencepiece_model_pb2.ModelProto()
    model.ParseFromString(proto)
    if model.trainer_spec.model_type != model.trainer_spec.BPE:
        raise ValueError("only a BPE sentencepiece model grows by joining pieces")
    sp = spm.SentencePieceProcessor(model_proto=proto)
    have = {p.piece for p in model.pieces}
    added: list[str] = []
    for word in words:
        ids = sp.encode(word)
        if len(ids) < 2 or any(sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i) for i in ids):
            continue
        pieces = [sp.id_to_piece(i) for i in ids]
        chain = ("".join(pieces[:k]) for k in range(2, len(pieces) + 1))
        new = [p for p in chain if p not in have]
        if len(added) + len(new) > limit:
            break
        added += new
        have.update(new)
    lowest = min(p.score for p in model.pieces)
    for i, piece in enumerate(added):
        model.pieces.add(piece=piece, score=lowest - 1 - i, type=model.pieces[0].NORMAL)
    return model.SerializeToString()


class Pieces:
    """One side's sentencepiece model: words to pieces and back."""

    def __init__(self, proto: bytes):
        self.proto = bytes(proto)
        try:
            self.sp = spm.SentencePieceProcessor(model_proto=self.proto)
        except Exception as e:  # sentencepiece raises RuntimeError or OSError on a bad proto
            raise ValueError(f"not a sentencepiece model: {e}") from e
        self.vocab = Vocab(self.sp.id_to_piece(i) for i in range(self.sp.get_piece_size()))
        # A sentence is split several times on its way to a Trace (its length checked, the
        # model fed, its words read back), and an output joined twice (its text, its word
        # view): the last few of each are kept, per model.
        self._split = functools.lru_cache(maxsize=64)(self._encode_words)
        self._join = functools.lru_cache(maxsize=64)(self._join_pieces)

    def split(self, words: list[str]) -> tuple[list[str], list[int]]:
        """The pieces of ``words`` and, for each piece, the index of its word.

        Words of text (what tokenizers and ``str.split`` give) are encoded as one line, each
        starting a new piece with ``▁``: faster than encoding them as a list, which sentencepiece
        hands to a thread pool. An empty word, or one holding whitespace, has the words encoded
        one by one instead."""
        pieces, owner = self._split(tuple(words))
        return list(pieces), list(owner)

    def _encode_words(self, words: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """:meth:`split`, uncached, as tuples."""
        # U+2581 typed by a user would read as a word boundary; it is a plain character here.
        plain = [w.replace(WORD_START, "_") for w in words]
        if all(w and not any(c.isspace() for c in w) for w in plain):
            pieces = self.sp.encode(" ".join(plain), out_type=str)
            starts = [p.startswith(WORD_START) for p in pieces]
            if sum(starts) == len(plain) and (not pieces or starts[0]):
                return tuple(pieces), tuple(i - 1 for i in itertools.accumulate(starts))
        per_word = self.sp.encode(plain, out_type=str)
        return tuple(p for word in per_word for p in word), tuple(
            i for i, word in enumerate(per_word) for _ in word
        )

    def sample(self, words: list[str], alpha: float) -> tuple[list[str], list[int]]:
        """:meth:`split` with a split sampled anew at each call (subword regularization):
        each BPE merge skipped with probability ``alpha`` (BPE-dropout), or for a unigram
        model a segmentation drawn from its lattice with smoothing ``alpha``. One sentence
        per call, so that sentencepiece's generator (``set_random_generator_seed``) gives
        the same pieces for the same seed; never cached."""
        owner, pieces = [], []
        for i, word in enumerate(words):
            plain = word.replace(WORD_START, "_")
            drawn = self.sp.encode(
                plain, out_type=str, enable_sampling=True, alpha=alpha, nbest_size=-1
            )
            pieces += drawn
            owner += [i] * len(drawn)
        return pieces, owner

    def encode(self, words: list[str]) -> list[str]:
        """The pieces of ``words``."""
        return self.split(words)[0]

    def join(self, pieces: list[str]) -> tuple[list[str], list[int]]:
        """The words that ``pieces`` spell and, for each piece, its word's index.

        A piece starting with ``▁`` starts a word (so does the first piece, whatever it is,
        and a special token such as ``<unk>``), except after a bare ``▁``, which starts the
        word its next piece spells; byte pieces are decoded as UTF-8, invalid sequences as
        U+FFFD.
        """
        words, owner = self._join(tuple(pieces))
        return list(words), list(owner)

    def _join_pieces(self, pieces: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """:meth:`join`, uncached, as tuples."""
        owner: list[int] = []
        groups: list[list[str]] = []
        for piece in pieces:
            special = piece in SPECIALS
            bare = groups and groups[-1] == [WORD_START]
            if (
                not groups
                or special
                or groups[-1][-1] in SPECIALS
                or (piece.startswith(WORD_START) and not bare)
            ):
                groups.append([])
            groups[-1].append(piece)
            owner.append(len(groups) - 1)
        words = tuple(self.sp.decode_pieces(g).strip() or g[0] for g in groups)
        return words, tuple(owner)

    def is_byte(self, piece: str) -> bool:
        """True for a byte-fallback piece (a character never seen in training)."""
        i = self.vocab.stoi.get(piece)
        return i is not None and self.sp.is_byte(i)


class Subwords:
    """The source and target sentencepiece models of one translator: two, or one model both
    sides share (joint), under which a name or a number is spelled the same in both languages
    and copying it is the same piece in and out."""

    def __init__(self, src: bytes, tgt: bytes | None = None):
        """``tgt`` None: ``src`` is the joint model of both sides."""
        self.src = Pieces(src)
        self.tgt = self.src if tgt is None else Pieces(tgt)

    @property
    def joint(self) -> bool:
        return self.tgt is self.src

    @classmethod
    def train(
        cls,
        pairs: Iterable[tuple[list[str], list[str]]],
        vocab_size: int,
        model_type: str = "bpe",
        joint: bool = False,
        langs: tuple[str, str] = ("en", "fr"),
    ) -> Subwords:
        """Models trained on tokenized (source, target) pairs: one per side, or with ``joint``
        one of ``vocab_size`` pieces on both sides' sentences; ``langs``, the (source, target)
        languages, decide the character coverage."""
        src, tgt = zip(*((" ".join(s), " ".join(t)) for s, t in pairs), strict=True)
        if joint:
            return cls(
                train_pieces([*src, *tgt], vocab_size, model_type, character_coverage(*langs))
            )
        return cls(
            train_pieces(src, vocab_size, model_type, character_coverage(langs[0])),
            train_pieces(tgt, vocab_size, model_type, character_coverage(langs[1])),
        )

    def grown(self, pairs: list[tuple[list[str], list[str]]], limit: int) -> Subwords:
        """These models grown by up to ``limit`` pieces each (:func:`with_words`): the words of
        the tokenized (source, target) ``pairs`` they split, most frequent first (both sides'
        for a joint model)."""
        src, tgt = [s for s, _ in pairs], [t for _, t in pairs]
        if self.joint:
            return Subwords(with_words(self.src.proto, wanted_words([*src, *tgt]), limit))
        return Subwords(
            with_words(self.src.proto, wanted_words(src), limit),
            with_words(self.tgt.proto, wanted_words(tgt), limit),
        )

    def sha256(self) -> str:
        """A fingerprint of both models, so that a resumed run can tell they are the same."""
        return hashlib.sha256(self.src.proto + b"\0" + self.tgt.proto).hexdigest()

    def protos(self) -> dict[str, bytes]:
        """The serialized models by name, as a checkpoint stores them: ``joint``, or ``src``
        and ``tgt``."""
        if self.joint:
            return {"joint": self.src.proto}
        return {"src": self.src.proto, "tgt": self.tgt.proto}

    @classmethod
    def from_protos(cls, protos: dict[str, bytes]) -> Subwords | None:
        """The models :meth:`protos` stored; None for none (a whole-word model)."""
        if not protos:
            return None
        if set(protos) == {"joint"}:
            return cls(protos["joint"])
        if set(protos) == {"src", "tgt"}:
            return cls(protos["src"], protos["tgt"])
        raise ValueError(f"subword models {sorted(protos)}: expected src and tgt, or joint")

    def side(self, side: str) -> Pieces:
        if side not in ("src", "tgt"):
            raise ValueError(f"side must be 'src' or 'tgt', not {side!r}")
        return self.src if side == "src" else self.tgt
