"""A statistical word aligner beside attention: eflomal (Östling & Tiedemann, 2016), with the
priors it learned from a model's training corpus, on any sentence pair.

    priors = build_priors(read_corpus("fra.txt"))        # slow: aligns the training split
    aligner = EflomalAligner(priors)
    a = aligner.link_text("I am cold.", "J'ai froid.")  # tokens as the dashboard shows them
    a.forward, a.reverse, a.symmetric                   # (source, target) token links

eflomal samples its alignments (Gibbs sampling, seeded from the system), so two runs on one
sentence may differ where the priors leave a link in doubt; each (sentence, translation) is
aligned once and then read from the cache, so a page shows one answer.
"""

from __future__ import annotations

import functools
import subprocess
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

from ..data.corpus import Corpus, DataConfig, split_examples, tokenize_pairs
from ..data.text import TextConfig
from .aer import AerResult, Gold, score
from .eflomal_priors import Link, Priors, PriorsConfig, count_priors, describe
from .symmetrize import grow_diag_final_and

DIRECTIONS = ("forward", "reverse", "symmetric")
MAX_TOKENS = 1023  # eflomal writes a longer sentence as an empty one
# Sampling iterations for new text, relative to eflomal's default (5000 / sqrt(sentences)),
# which is set for text aligned from nothing: with a corpus's priors to start from, the
# sampler settles far sooner, and one sentence is aligned in a fraction of the time. 0.05, 0.1
# and 0.2 align the 25 Tatoeba gold sentences alone at symmetric AER 11.5, 11.8 and 12.0
# (means of 5 runs, each within the others' ranges), and the dashboard's lost-word flags of
# 150 typed sentences differ from a 5-run consensus of 1.0 on 8-9, 6-8 and 6 of them (1.0
# itself: 8-9). A typed sentence's check (two pairs, samplers that sleep when they wait) costs
# 10 ms of CPU at 0.05 and 15 ms at 0.1 (benchmarks/classroom/results.md).
NEW_TEXT_LENGTH = 0.05
INSTALL = "pip install eflomal (it builds a C extension: needs gcc and make)"


@dataclass(frozen=True)
class Alignment:
    """eflomal's links between the tokens (or words) of one sentence pair, (source, target)."""

    forward: tuple[Link, ...]  # source -> target: each target token linked to <= 1 source token
    reverse: tuple[Link, ...]  # target -> source: each source token linked to <= 1 target token
    symmetric: tuple[Link, ...]  # grow-diag-final-and of the two

    @classmethod
    def of(cls, forward: Iterable[Link], reverse: Iterable[Link]) -> Alignment:
        forward, reverse = set(forward), set(reverse)
        symmetric = grow_diag_final_and(forward, reverse)
        return cls(*(tuple(sorted(links)) for links in (forward, reverse, symmetric)))

    def links(self, direction: str = "symmetric") -> tuple[Link, ...]:
        """The links of one of :data:`DIRECTIONS`."""
        if direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
        return getattr(self, direction)

    def regrouped(self, src_owner: Sequence[int], tgt_owner: Sequence[int]) -> Alignment:
        """Links between the words that own the tokens: a word pair is linked when any of
        their tokens are (``*_owner[k]``: the word of token k)."""

        def group(links: tuple[Link, ...]) -> tuple[Link, ...]:
            return tuple(sorted({(src_owner[i], tgt_owner[j]) for i, j in links}))

        return Alignment(group(self.forward), group(self.reverse), group(self.symmetric))


EMPTY = Alignment((), (), ())


@functools.cache
def eflomal_version() -> str:
    """The installed eflomal's version (read once: its package metadata is parsed anew on
    every call, about a millisecond); raises RuntimeError when it is not installed."""
    try:
        return metadata.version("eflomal")
    except metadata.PackageNotFoundError:
        raise RuntimeError(f"eflomal is not installed: {INSTALL}") from None


def run_eflomal(
    sources: Sequence[Sequence[str]],
    targets: Sequence[Sequence[str]],
    config: PriorsConfig,
    priors: Iterable[str] | None = None,
) -> tuple[list[set[Link]], list[set[Link]]]:
    """eflomal's forward and reverse links of each pair of token lists, aligned together
    (with the lines of a priors file, see :meth:`Priors.lines`). Every side must have 1 to
    :data:`MAX_TOKENS` tokens, none with whitespace in it."""
    eflomal_version()
    import eflomal

    for n, tokens in enumerate((*sources, *targets)):
        _check_tokens(tokens, "source" if n < len(sources) else "target")
    if len(sources) != len(targets):
        raise ValueError(f"{len(sources)} source sentences but {len(targets)} targets")
    if not sources:
        return [], []
    priors = list(priors) if priors is not None else None
    aligner = eflomal.Aligner(
        model=config.model,
        n_samplers=config.samplers,
        rel_iterations=config.length,
        null_prior=config.null_prior,
    )
    with tempfile.TemporaryDirectory(prefix="attnviz-eflomal-") as folder:
        fwd, rev = Path(folder, "forward"), Path(folder, "reverse")
        try:
            aligner.align(
                [" ".join(s) for s in sources],
                [" ".join(t) for t in targets],
                links_filename_fwd=str(fwd),
                links_filename_rev=str(rev),
                priors_input=priors or None,  # eflomal fails on an empty priors file
            )
        except subprocess.CalledProcessError as e:
            raise RuntimeError(f"eflomal failed (exit status {e.returncode})") from None
        return _read_links(fwd, len(sources)), _read_links(rev, len(sources))


def _check_tokens(tokens: Sequence[str], side: str) -> None:
    if not tokens:
        raise ValueError(f"an empty {side} sentence cannot be aligned")
    if len(tokens) > MAX_TOKENS:
        raise ValueError(f"eflomal aligns at most {MAX_TOKENS} tokens, got {len(tokens)}")
    for token in tokens:
        if not token or token != "".join(token.split()):
            raise ValueError(f"a {side} token is empty or holds whitespace: {token!r}")


def _read_links(path: Path, sentences: int) -> list[set[Link]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) != sentences:
        raise RuntimeError(f"eflomal wrote {len(lines)} alignments for {sentences} sentences")
    return [{(int(i), int(j)) for i, j in (x.split("-") for x in line.split())} for line in lines]


def build_priors(
    corpus: Corpus,
    text: TextConfig = TextConfig(),
    data: DataConfig = DataConfig(),
    config: PriorsConfig | None = None,
    command: str = "",
) -> Priors:
    """eflomal's priors from the training split of ``corpus``, as a model trained with
    ``text`` and ``data`` splits and tokenizes it, aligned in both directions. ``command``:
    what made them, for the record. ValueError when there is no training pair to align."""
    train = split_examples(tokenize_pairs(corpus.pairs, text), data)["train"]
    train = [
        e
        for e in train
        if e.src_tokens and e.tgt_tokens and max(len(e.src_tokens), len(e.tgt_tokens)) <= MAX_TOKENS
    ]
    if not train:
        raise ValueError(
            f"{corpus.path}: no training pairs to align ({len(corpus.pairs)} pairs read, "
            f"{corpus.skipped} malformed lines; expected `source<TAB>target` lines)"
        )
    sources, targets = [e.src_tokens for e in train], [e.tgt_tokens for e in train]
    config = config or PriorsConfig()
    forward, reverse = run_eflomal(sources, targets, config)
    meta = describe(
        Path(corpus.path).name,
        corpus.sha256,
        len(corpus.pairs),
        len(train),
        text,
        data,
        config,
        eflomal_version(),
        command,
    )
    return count_priors(sources, targets, forward, reverse, meta)


class EflomalAligner:
    """eflomal with ``priors``: any sentence pair aligned, forward, reverse and symmetrized,
    each (source, target) once (a cache of the last ``cache_size`` pairs; thread-safe).
    ``length``: sampling iterations, as :class:`PriorsConfig` counts them."""

    def __init__(self, priors: Priors, cache_size: int = 10_000, length: float = NEW_TEXT_LENGTH):
        self.priors = priors
        self.text = priors.text  # sentences are tokenized as the priors' corpus was
        self.config = replace(priors.config, length=length)  # the priors' model, null prior
        self._cache: OrderedDict[tuple, Alignment] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()

    def link(self, source: Sequence[str], target: Sequence[str]) -> Alignment:
        """Links between the tokens of ``source`` and ``target`` (token lists, as a Trace
        shows them without ``<eos>``); none when a side is empty."""
        return self.link_many([(source, target)])[0]

    def link_many(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Alignment]:
        """:meth:`link` for each pair; those not in the cache are aligned together, in one
        run of eflomal (faster than one run each)."""
        keys = [(tuple(s), tuple(t)) for s, t in pairs]
        with self._lock:
            found = {k: self._cache[k] for k in keys if k in self._cache}
        todo = list(dict.fromkeys(k for k in keys if k not in found and k[0] and k[1]))
        if todo:
            sources, targets = [k[0] for k in todo], [k[1] for k in todo]
            words = {w for s in sources for w in s}, {w for t in targets for w in t}
            forward, reverse = run_eflomal(sources, targets, self.config, self.priors.lines(*words))
            found.update(zip(todo, map(Alignment.of, forward, reverse), strict=True))
        with self._lock:
            for k in todo:  # another thread may have aligned it meanwhile: keep one answer
                found[k] = self._cache.setdefault(k, found[k])
            for k in keys:
                if k in self._cache:
                    self._cache.move_to_end(k)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return [found.get(k, EMPTY) for k in keys]

    def link_text(self, source: str, target: str) -> Alignment:
        """Links between the tokens of two sentences, tokenized as the priors' corpus was
        (the words the dashboard shows)."""
        return self.link(self.text.tokenize(source, "src"), self.text.tokenize(target, "tgt"))

    def link_words(self, pairs: Sequence[tuple[str, str]]) -> list[Alignment]:
        """Links between the words of each (source, target) pair, as gold alignments and
        ``attnviz align`` count them (:meth:`TextConfig.words`: whitespace words, Chinese
        cut by jieba unless already cut): each word is tokenized alone, and two words are
        linked when any of their tokens are."""
        text = self.text
        split = [
            (
                text.tokenize_words(text.words(s, "src"), "src"),
                text.tokenize_words(text.words(t, "tgt"), "tgt"),
            )
            for s, t in pairs
        ]
        alignments = self.link_many([(s[0], t[0]) for s, t in split])
        return [a.regrouped(s[1], t[1]) for a, (s, t) in zip(alignments, split, strict=True)]


def aer_against(
    alignment: Alignment, links: Iterable[Link], direction: str = "symmetric"
) -> AerResult:
    """AER of ``links`` (attention's, say) against eflomal's, taken as sure gold links:
    0 when they are the same, 100 when they share none."""
    reference = set(alignment.links(direction))
    return score([Gold(reference, reference)], [set(links)])
