"""From a corpus file to batches: reading, the held-out split, encoding, length bucketing.

The corpus is the Tatoeba/manythings format: ``first<TAB>second[<TAB>attribution]`` per line;
the source is the first column, or the second with ``source_column=2`` (cmn.txt's Chinese).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import sentencepiece
import torch

from ..options import option
from .subwords import MODEL_TYPES, Subwords
from .text import TextConfig, normalize
from .vocab import BOS_ID, EOS_ID, PAD_ID, Vocab

SPLITS = ("train", "valid", "test")
SOURCE_COLUMNS = (1, 2)  # the corpus column a model reads: 2 trains the other direction
Link = tuple[int, int]  # (source position, target position), 0-based


@dataclass
class Corpus:
    """Sentence pairs read from one file, with what was skipped and the file's fingerprint."""

    path: str
    pairs: list[tuple[str, str]]  # (source, target), as written in the file
    skipped: int  # malformed lines: fewer than two columns, an empty side, bad UTF-8
    sha256: str  # of the file's bytes, for the model card
    attributions: int = 0  # lines with a third column (each pair's authors, Tatoeba's licence)


def read_corpus(path: str | Path, source_column: int = 1) -> Corpus:
    """Read ``first<TAB>second[<TAB>attribution]`` lines as (source, target) pairs, the source
    from column ``source_column`` (1 or 2) and the target from the other; malformed lines are
    counted, never fatal."""
    if source_column not in SOURCE_COLUMNS:
        raise ValueError(f"source_column must be one of {SOURCE_COLUMNS}, not {source_column!r}")
    s, t = (0, 1) if source_column == 1 else (1, 0)
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such corpus file")
    digest = hashlib.sha256()
    pairs, skipped, attributions = [], 0, 0
    with path.open("rb") as f:
        for raw in f:
            digest.update(raw)
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                skipped += 1
                continue
            cols = line.split("\t")
            if len(cols) < 2 or not normalize(cols[0]) or not normalize(cols[1]):
                skipped += int(bool(line.strip()))  # blank lines are not malformed
                continue
            pairs.append((cols[s], cols[t]))
            attributions += len(cols) > 2 and bool(cols[2].strip())
    return Corpus(str(path), pairs, skipped, digest.hexdigest(), attributions)


def read_sources(path: str | Path) -> list[str]:
    """The source sentence of each non-empty line of ``path``: the whole line, or what comes
    before its ` ||| ` or its first tab (a file of pairs, or a corpus)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    sources = (line.split("|||", 1)[0].split("\t", 1)[0].strip() for line in lines)
    return [s for s in sources if s]


def split_of(source: str, valid_percent: float = 2.0, test_percent: float = 2.0) -> str:
    """``"train"``, ``"valid"`` or ``"test"`` for a source sentence, from a hash of its text.

    Keyed on the normalized source alone, so every translation of one sentence lands on the
    same side and the split is the same on every machine and every run.
    """
    key = hashlib.sha1(normalize(source).encode("utf-8")).digest()
    u = int.from_bytes(key[:8], "big") / 2**64 * 100
    if u < test_percent:
        return "test"
    return "valid" if u < test_percent + valid_percent else "train"


@dataclass(frozen=True)
class DataConfig:
    """How a corpus becomes training data; stored in every checkpoint."""

    source_column: int = option(
        1,
        "the corpus column the source is read from, the target from the other of the first "
        "two: 2 trains the other direction (cmn.txt is English<TAB>Chinese: 2 reads Chinese)",
        choices=SOURCE_COLUMNS,
    )
    min_freq: int = option(2, "--subwords 0 only: drop words seen fewer times in training")
    max_vocab: int | None = option(
        None, "--subwords 0 only: cap on each vocabulary, specials included"
    )
    max_len: int = option(50, "drop training pairs with a side longer than this (model tokens)")
    valid_percent: float = option(2.0, "source sentences held out for validation (percent)")
    test_percent: float = option(2.0, "source sentences held out for testing (percent)")
    subwords: int = option(
        8000,
        "sentencepiece vocabulary of each side (of both, with --joint-subwords), trained on "
        "the training split and stored in the checkpoint (0: whole words, with --min-freq and "
        "--max-vocab)",
    )
    subword_model: str = option("bpe", "sentencepiece model", choices=MODEL_TYPES)
    joint_subwords: bool = option(
        False,
        "one sentencepiece model of --subwords pieces for both languages, trained on both "
        "sides of the training split: a name or a number is the same pieces in English and "
        "French, so copying it is one identity to learn (Sennrich et al., 2016)",
    )

    def __post_init__(self):
        if self.source_column not in SOURCE_COLUMNS:
            raise ValueError(f"source_column must be one of {SOURCE_COLUMNS}")
        if self.max_len < 1:
            raise ValueError(f"max_len must be positive, got {self.max_len}")
        if not 0 <= self.valid_percent + self.test_percent < 100:
            raise ValueError("valid_percent + test_percent must be in [0, 100)")
        if self.subwords < 0:
            raise ValueError(f"subwords must be 0 (whole words) or positive, got {self.subwords}")
        if self.subword_model not in MODEL_TYPES:
            raise ValueError(f"subword_model must be one of {MODEL_TYPES}")
        if self.joint_subwords and not self.subwords:
            raise ValueError("joint_subwords needs subwords (a sentencepiece vocabulary size)")

    def keeps(self, src: Sequence, tgt: Sequence) -> bool:
        """Whether training keeps a pair of these tokens (the model's: pieces for a subword
        model): neither side longer than ``max_len``. The one rule; every reader of the
        training split (the index, the lookup, the step index) asks it."""
        return max(len(src), len(tgt)) <= self.max_len


@dataclass
class Example:
    """One tokenized sentence pair, raw text kept for BLEU references."""

    src: str
    tgt: str
    src_tokens: list[str]
    tgt_tokens: list[str]
    # (source token, target token) links a guided run pulls attention towards, 0-based; None:
    # not supervised (see attnviz.training.guide)
    links: tuple[Link, ...] | None = None


def tokenize_pairs(pairs: list[tuple[str, str]], text: TextConfig) -> list[Example]:
    return [Example(s, t, text.tokenize(s, "src"), text.tokenize(t, "tgt")) for s, t in pairs]


def to_pieces(examples: list[Example], subwords: Subwords) -> list[Example]:
    """The same examples with their tokens split into subword pieces, and their links between
    tokens made links between the tokens' pieces."""
    out = []
    for ex in examples:
        src, src_owner = subwords.src.split(ex.src_tokens)
        tgt, tgt_owner = subwords.tgt.split(ex.tgt_tokens)
        links = None if ex.links is None else owned_links(ex.links, src_owner, tgt_owner)
        out.append(replace(ex, src_tokens=src, tgt_tokens=tgt, links=links))
    return out


def resampled(
    examples: list[Example], subwords: Subwords, alpha: float, seed: int
) -> list[Example]:
    """The same examples with each side's words split into pieces drawn anew
    (:meth:`.subwords.Pieces.sample`, from sentencepiece's generator seeded with ``seed``),
    their links carried from piece to word to the new pieces: one epoch's subword
    regularization, the same for the same seed."""
    sentencepiece.set_random_generator_seed(seed)
    out = []
    for ex in examples:
        (src_words, src_was), (tgt_words, tgt_was) = (
            subwords.src.join(ex.src_tokens), subwords.tgt.join(ex.tgt_tokens)
        )  # fmt: skip
        src, src_owner = subwords.src.sample(src_words, alpha)
        tgt, tgt_owner = subwords.tgt.sample(tgt_words, alpha)
        links = None
        if ex.links is not None:
            words = {(src_was[i], tgt_was[j]) for i, j in ex.links}
            links = owned_links(words, src_owner, tgt_owner)
        out.append(replace(ex, src_tokens=src, tgt_tokens=tgt, links=links))
    return out


def owned_links(
    links: Iterable[Link], src_owner: list[int], tgt_owner: list[int]
) -> tuple[Link, ...]:
    """Links between parts (pieces of words, tokens of words) from links between their
    owners: parts i and j are linked when their owners ``src_owner[i]`` and ``tgt_owner[j]``
    are. The inverse of regrouping links by owner (Alignment.regrouped)."""
    links = set(links)
    return tuple(
        (i, j) for i, a in enumerate(src_owner) for j, b in enumerate(tgt_owner) if (a, b) in links
    )


def training_examples(
    pairs: list[tuple[str, str]], text: TextConfig, data: DataConfig, subwords: Subwords | None
) -> list[Example]:
    """Text pairs as training examples, made as a corpus's are (tokens, then pieces for a
    subword model); pairs over ``data.max_len`` tokens are dropped, as from the training split."""
    examples = tokenize_pairs(pairs, text)
    if subwords:
        examples = to_pieces(examples, subwords)
    return [e for e in examples if data.keeps(e.src_tokens, e.tgt_tokens)]


def join_examples(
    examples: list[Example], fraction: float, generator: torch.Generator
) -> list[Example]:
    """The examples with ``fraction`` of them, drawn at random, joined two or three at a time
    into longer ones (source to source, target to target): the same tokens, in longer
    sentences, so that a model learns to keep its place beyond the corpus's lengths."""
    if not fraction:
        return examples
    perm = torch.randperm(len(examples), generator=generator).tolist()
    n_joined = int(len(examples) * fraction)
    out = [examples[i] for i in perm[n_joined:]]
    sizes = torch.randint(2, 4, (n_joined,), generator=generator).tolist()
    k = 0
    for size in sizes:
        group = [examples[i] for i in perm[k : min(k + size, n_joined)]]
        if not group:
            break
        k += len(group)
        out.append(
            Example(
                " ".join(e.src for e in group),
                " ".join(e.tgt for e in group),
                [tok for e in group for tok in e.src_tokens],
                [tok for e in group for tok in e.tgt_tokens],
                _joined_links(group),
            )
        )
    return out


def _joined_links(group: list[Example]) -> tuple[Link, ...] | None:
    """The links of examples joined end to end, each shifted past those before it; None
    unless every one of them is supervised."""
    links: list[Link] = []
    i = j = 0
    for e in group:
        if e.links is None:
            return None
        links += [(a + i, b + j) for a, b in e.links]
        i, j = i + len(e.src_tokens), j + len(e.tgt_tokens)
    return tuple(links)


def split_examples(examples: list[Example], config: DataConfig) -> dict[str, list[Example]]:
    """Group examples by split; long training pairs are dropped, held-out ones kept whole."""
    out: dict[str, list[Example]] = {name: [] for name in SPLITS}
    for ex in examples:
        name = split_of(ex.src, config.valid_percent, config.test_percent)
        if name != "train" or config.keeps(ex.src_tokens, ex.tgt_tokens):
            out[name].append(ex)
    return out


def group_references(pairs: Iterable[tuple[str, str]]) -> tuple[list[str], list[list[str]]]:
    """Distinct sources, each with every target it has in ``pairs`` (multi-reference BLEU)."""
    refs: dict[str, list[str]] = {}
    for src, tgt in pairs:
        refs.setdefault(src, []).append(tgt)
    return list(refs), list(refs.values())


def spread_sample(sources: list, refs: list, n: int) -> tuple[list, list]:
    """``n`` sources with their references, evenly spread over the list (all when ``n`` is 0
    or more than there are). Tatoeba files are sorted by length, so the first ``n`` would be
    the shortest sentences, and their BLEU far above the test set's."""
    if not n or n >= len(sources):
        return sources, refs
    picks = [round(i * (len(sources) - 1) / (n - 1)) for i in range(n)] if n > 1 else [0]
    return [sources[i] for i in picks], [refs[i] for i in picks]


def held_out(corpus: Corpus, valid_percent: float, test_percent: float, split: str = "test"):
    """Distinct sources of a held-out ``split`` of ``corpus`` with all their references, as
    :func:`split_of` assigns them (what a model trained with these percentages never saw)."""
    return group_references(
        (s, t) for s, t in corpus.pairs if split_of(s, valid_percent, test_percent) == split
    )


class Batch(NamedTuple):
    """Padded tensors of one batch, batch-first."""

    src: torch.Tensor  # (B, S) source ids ending in <eos>, then <pad>
    src_lens: torch.Tensor  # (B,) real source lengths, <eos> included
    tgt_in: torch.Tensor  # (B, T) <bos> y_1 ... y_n, then <pad>
    tgt_out: torch.Tensor  # (B, T) y_1 ... y_n <eos>, then <pad>
    n_tokens: int  # non-pad target tokens
    # (B, T, S): where each target token's attention should go, a row summing to 1 over the
    # source tokens it is linked to, 0 where it is linked to none; None when no example has
    # links (see attnviz.training.guide)
    guide: torch.Tensor | None = None

    def to(self, device: torch.device | str) -> Batch:
        return Batch(
            self.src.to(device),
            self.src_lens,  # lengths stay on the CPU: pack_padded_sequence wants them there
            self.tgt_in.to(device),
            self.tgt_out.to(device),
            self.n_tokens,
            None if self.guide is None else self.guide.to(device),
        )


def pad(seqs: list[list[int]]) -> torch.Tensor:
    """Right-pad id lists with ``<pad>`` into a (len(seqs), longest) tensor."""
    longest = max(map(len, seqs))
    return torch.tensor([[*s, *[PAD_ID] * (longest - len(s))] for s in seqs], dtype=torch.long)


def encode_source(tokens: list[str], vocab: Vocab) -> list[int]:
    return [*vocab.encode(tokens), EOS_ID]


def make_batch(examples: list[Example], src_vocab: Vocab, tgt_vocab: Vocab) -> Batch:
    src = [encode_source(ex.src_tokens, src_vocab) for ex in examples]
    tgt = [tgt_vocab.encode(ex.tgt_tokens) for ex in examples]
    tgt_out = pad([[*t, EOS_ID] for t in tgt])
    lens = torch.tensor([len(s) for s in src])
    return Batch(
        pad(src),
        lens,
        pad([[BOS_ID, *t] for t in tgt]),
        tgt_out,
        int((tgt_out != PAD_ID).sum()),
        guide_rows(examples, tgt_out.size(1), int(lens.max())),
    )


def guide_rows(examples: list[Example], steps: int, positions: int) -> torch.Tensor | None:
    """The (B, steps, positions) attention each target token is pulled towards: its links'
    source tokens, equally; None when no example has links."""
    if all(ex.links is None for ex in examples):
        return None
    rows = torch.zeros(len(examples), steps, positions)
    for b, ex in enumerate(examples):
        for i, j in ex.links or ():
            rows[b, j, i] = 1.0
    return rows / rows.sum(-1, keepdim=True).clamp_min(1.0)


def bucket_batches(
    examples: list[Example], batch_size: int, generator: torch.Generator | None = None
) -> list[list[Example]]:
    """Batches of similar length, so little is spent on padding.

    With a ``generator`` the order is shuffled: examples are drawn into pools of 50 batches,
    sorted by length inside each pool, cut into batches, and the batches shuffled. Without one,
    the examples are sorted by length and cut in order (evaluation).
    """

    def length(i: int) -> tuple[int, int]:
        return len(examples[i].src_tokens), len(examples[i].tgt_tokens)

    if generator is None:
        order = sorted(range(len(examples)), key=length)
    else:
        perm = torch.randperm(len(examples), generator=generator).tolist()
        pool = batch_size * 50
        order = [
            i for k in range(0, len(perm), pool) for i in sorted(perm[k : k + pool], key=length)
        ]
    batches = [order[k : k + batch_size] for k in range(0, len(order), batch_size)]
    if generator is not None:
        batches = [batches[i] for i in torch.randperm(len(batches), generator=generator).tolist()]
    return [[examples[i] for i in b] for b in batches]
