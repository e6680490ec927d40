"""Guided alignment: the links a run pulls its attention towards, one set per corpus pair.

A guided run adds to the translation loss, with weight ``--guide-weight``, the cross-entropy
between each target token's attention row and its links, spread equally over the source tokens
(pieces, in a subword model) of the words it is linked to (Chen et al., 2016, "Guided alignment
training for topic-aware neural machine translation"; Liu et al., 2016). A target token with
no link is not supervised. The links come from a teacher:

- ``eflomal``: eflomal's links (symmetrized, grow-diag-final-and) between the tokens of every
  pair of the corpus, tokenized as the model reads it, aligned in one run and cached beside the
  output (``<out dir>/<corpus>.<key>.links``, keyed on the corpus's digest, the tokenization and
  eflomal's version and settings), so that a second run does not realign;
- a file of Pharaoh links (``i-j``, 0-based, source first; ``i?j`` possible links count too),
  one line per pair of the corpus as read, over the whitespace-separated words of each side:
  a token is linked where its word is. Gold links, fast_align's, any aligner's.

The links are over tokens here; :func:`attnviz.data.corpus.to_pieces` carries them to pieces
and :func:`attnviz.data.corpus.guide_rows` makes them the rows the loss compares.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from ..analysis.aer import read_gold
from ..analysis.eflomal_aligner import MAX_TOKENS, eflomal_version, run_eflomal
from ..analysis.eflomal_priors import PriorsConfig
from ..analysis.symmetrize import grow_diag_final_and
from ..data.corpus import Corpus, Link, owned_links
from ..data.text import TextConfig
from ..files import atomic_write

EFLOMAL = "eflomal"
FLOOR = 1e-9  # the attention weight below which a linked position costs no more


@dataclass(frozen=True)
class Teacher:
    """The links of a corpus's pairs, where they came from and their digest (for the card)."""

    name: str  # "eflomal <version>", or the links file's name
    links: list[tuple[Link, ...]]  # per pair of the corpus, over its tokens
    sha256: str

    def card(self, weight: float) -> dict:
        linked = sum(bool(links) for links in self.links)
        return {
            "teacher": self.name,
            "weight": weight,
            "links_sha256": self.sha256,
            "linked_pairs": linked,
        }


def teacher_links(
    corpus: Corpus, text: TextConfig, guide: str | Path, out: str | Path, log=print
) -> Teacher:
    """The links of every pair of ``corpus`` between its tokens (``text.tokenize``): eflomal's
    with ``guide`` "eflomal" (cached beside ``out``), else those of the Pharaoh file
    ``guide``."""
    examples = [(text.tokenize(s, "src"), text.tokenize(t, "tgt")) for s, t in corpus.pairs]
    if guide == EFLOMAL:
        return _eflomal_links(corpus, examples, text, Path(out).parent, log)
    return _file_links(Path(guide), corpus, text)


def _eflomal_links(corpus, examples, text, folder: Path, log) -> Teacher:
    config = PriorsConfig()
    about = {
        "corpus": corpus.sha256,
        "text": asdict(text),
        "eflomal": eflomal_version(),
        "config": asdict(config),
    }
    key = hashlib.sha256(json.dumps(about, sort_keys=True).encode()).hexdigest()[:16]
    cache = folder / f"{Path(corpus.path).stem}.{key}.links"
    name = f"{EFLOMAL} {about['eflomal']}"
    if cache.is_file():
        lines = cache.read_text(encoding="utf-8").splitlines()
        if len(lines) == len(examples):
            log(f"guide: eflomal's links read from {cache}")
            return _teacher(name, [_parse(line) for line in lines])
    todo = [n for n, (s, t) in enumerate(examples) if s and t and max(len(s), len(t)) <= MAX_TOKENS]
    log(f"guide: aligning {len(todo)} pairs with eflomal (once; cached in {cache})")
    forward, reverse = run_eflomal(
        [examples[n][0] for n in todo], [examples[n][1] for n in todo], config
    )
    links: list[tuple[Link, ...]] = [()] * len(examples)
    for n, f, r in zip(todo, forward, reverse, strict=True):
        links[n] = tuple(sorted(grow_diag_final_and(f, r)))
    teacher = _teacher(name, links)
    atomic_write(cache, _lines(links).encode("utf-8"))
    return teacher


def _file_links(path: Path, corpus: Corpus, text: TextConfig) -> Teacher:
    gold = read_gold(path)
    if len(gold) != len(corpus.pairs):
        raise ValueError(
            f"{path}: {len(gold)} lines of links for the {len(corpus.pairs)} pairs of "
            f"{corpus.path}: give one line per pair, in the corpus's order"
        )
    links = []
    for (source, target), g in zip(corpus.pairs, gold, strict=True):
        src_words, tgt_words = source.split(), target.split()
        if any(i >= len(src_words) or j >= len(tgt_words) for i, j in g.possible):
            raise ValueError(f"{path}: a link lies outside its pair: {source!r} / {target!r}")
        src_owner = text.tokenize_words(src_words, "src")[1]
        tgt_owner = text.tokenize_words(tgt_words, "tgt")[1]
        links.append(owned_links(g.possible, src_owner, tgt_owner))
    return _teacher(path.name, links)


def _teacher(name: str, links: list[tuple[Link, ...]]) -> Teacher:
    """The teacher, its digest that of the links as the cache file holds them."""
    return Teacher(name, links, hashlib.sha256(_lines(links).encode("utf-8")).hexdigest())


def _lines(links: Sequence[Sequence[Link]]) -> str:
    """Pharaoh lines, one per pair."""
    return "".join(" ".join(f"{i}-{j}" for i, j in x) + "\n" for x in links)


def _parse(line: str) -> tuple[Link, ...]:
    return tuple((int(i), int(j)) for i, j in (x.split("-") for x in line.split()))


def guide_loss(weights: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """Summed cross-entropy between attention ``weights`` (B, T, S) and the ``rows`` each
    target token is pulled towards (B, T, S; zero rows are not supervised)."""
    return -(rows * weights.float().clamp_min(FLOOR).log()).sum()
