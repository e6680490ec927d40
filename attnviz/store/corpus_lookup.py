"""What a model's training corpus says about a word: how often it occurs in the model's own
training split, the words eflomal links it to there, and example pairs.

    lookup = Lookup.of(CorpusIndex("checkpoints/cmn-dialogue.corpus.sqlite"), translator)
    answer = lookup.word("爱吃")                    # tokenized as the model reads its source
    answer.pairs, answer.links, answer.examples    # 2, (love 1/2, loves 1/2)..., two pairs

A word or phrase matches where its tokens occur one after the other in a pair's source, case
and accents as written (the models read cased text: "Hello" and "hello" are two words to
them). The training split is the model's own: :func:`attnviz.data.corpus.split_of` of the
source with the model's percentages, pairs with a side over its ``max_len`` tokens dropped.
Training counts a subword model's pieces against ``max_len``, and drops a few more (10 of
fra.txt's 160,452 training pairs for the shipped en->fr pieces models, none of cmn.txt's):
those few are kept here, where words are counted.

Each pair holding the word counts once, for the target tokens linked to any of its
occurrences there (its *key*); a target word is "linked to" the word in the pairs whose key
holds it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..data.corpus import DataConfig
from ..data.text import TextConfig
from .corpus_index import (
    KEPT_EXAMPLES,
    CorpusIndex,
    CorpusIndexError,
    blob_links,
    linked_key,
    phrase,
    source_column,
)

if TYPE_CHECKING:
    from ..decoding.translator import Translator

EXAMPLES = 3  # example pairs an answer carries unless told


@dataclass(frozen=True)
class Linked:
    """One translation the corpus gives a word: the target tokens eflomal links it to."""

    target: str  # the linked target tokens, joined as text
    count: int  # training pairs where the word is linked to these
    share: float  # count / the pairs where the word occurs


@dataclass(frozen=True)
class MarkedPair:
    """One training pair, its tokens, and which of them the answer is about."""

    source: str  # its tokens joined back into text
    target: str
    src_tokens: tuple[str, ...]
    tgt_tokens: tuple[str, ...]
    src_marked: tuple[int, ...]  # positions of the word asked about
    tgt_marked: tuple[int, ...]  # positions of the target tokens linked to it


@dataclass(frozen=True)
class Answer:
    """The training split on one source word or phrase (and, asked, one target word)."""

    word: str
    target: str | None  # the target word asked about, or None
    pairs: int  # pairs holding the word (with a target: where the two are linked)
    links: tuple[Linked, ...]  # most frequent first (with a target: that one alone)
    unlinked: int  # pairs holding the word where eflomal links it to nothing
    examples: tuple[MarkedPair, ...]

    def to_json(self) -> dict:
        out = {
            "word": self.word,
            "pairs": self.pairs,
            "links": [
                {"target": x.target, "count": x.count, "share": round(x.share, 4)}
                for x in self.links
            ],
            "examples": [{"source": e.source, "target": e.target} for e in self.examples],
        }
        if self.target is not None:
            out["target"] = self.target
        return out


class Lookup:
    """An index read for one model: its source column, its training split, its tokens."""

    def __init__(self, index: CorpusIndex, text: TextConfig, data: DataConfig):
        self.index, self.text, self.data = index, text, data
        self._seen = functools.lru_cache(maxsize=4096)(self._in_a_pair)
        self._written = functools.lru_cache(maxsize=4096)(self._in_a_target)
        self.source, self.target = source_column(data)
        # The counts made when the index was built hold for the same max_len only.
        self._frequent = index.meta["split"].get("max_len") == data.max_len

    @classmethod
    def of(cls, index: CorpusIndex, translator: Translator) -> Lookup:
        """The lookup of ``translator``'s model; :class:`CorpusIndexError` when the index is
        of another corpus, split or tokenization."""
        if translator.data is None:  # a checkpoint's always says
            raise ValueError("the model does not record how its corpus was split")
        refusal = index.refusal(translator.card, translator.text, translator.data)
        if refusal is not None:
            raise CorpusIndexError(refusal)
        return cls(index, translator.text, translator.data)

    def word(self, word: str, target: str | None = None, limit: int = EXAMPLES) -> Answer:
        """:meth:`tokens` of a word or phrase typed as text, tokenized as the model reads it."""
        src = self.text.tokenize(word, "src")
        tgt = self.text.tokenize(target, "tgt") if target is not None else None
        if not src or (tgt is not None and not tgt):
            raise ValueError("give a word to look up, not an empty string")
        return self.tokens(src, tgt, limit, word, target)

    def tokens(
        self,
        src: Sequence[str],
        tgt: Sequence[str] | None = None,
        limit: int = EXAMPLES,
        word: str | None = None,
        target: str | None = None,
    ) -> Answer:
        """The training split on the source tokens ``src`` (one after the other) and, with
        ``tgt``, the pairs where every one of those target tokens is linked to them;
        ``limit`` examples. ``word``, ``target``: how to name them (default: the tokens
        joined)."""
        src, tgt = list(src), (list(tgt) if tgt is not None else None)
        word = word if word is not None else self.text.detokenize(src, "src")
        keys = self._keys(src)  # key -> (count, first pair ids)
        pairs = sum(n for n, _ in keys.values())
        unlinked = keys.get((), (0, []))[0]
        links: tuple[Linked, ...]
        if tgt is not None:
            target = target if target is not None else self.text.detokenize(tgt, "tgt")
            keys = {k: v for k, v in keys.items() if _contains(k, tgt)}
            linked = sum(n for n, _ in keys.values())
            links = (Linked(target, linked, linked / pairs),) if linked else ()
            pairs = linked
        else:
            links = tuple(
                Linked(self.text.detokenize(list(k), "tgt"), n, n / pairs)
                for k, (n, _) in keys.items()
                if k
            )
        order = sorted(keys, key=lambda k: (not k, -keys[k][0], k))  # no link last
        ids = _rotation([keys[k][1] for k in order], limit)
        examples = tuple(self._example(row, src) for row in self.index.by_id(ids))
        return Answer(word, target, pairs, links, unlinked, examples)

    def seen(self, word: str) -> bool:
        """Whether ``word`` (a word as typed, tokenized as the model reads it) occurs in a
        training pair: False for a word the model never saw. It stops at the first pair, where
        counting them all and their links (:meth:`word`) took a page run's longest part
        (benchmarks/classroom/results.md, 2026-12-07). Kept per lookup."""
        return self._seen(word)

    def _in_a_pair(self, word: str) -> bool:
        src = self.text.tokenize(word, "src")
        if not src:
            return False
        if len(src) == 1 and self._frequent and self.index.is_frequent(self.source, src[0]):
            return True
        return any(
            _spans(tokens, src) and self.data.keeps(tokens, tgt)
            for tokens, tgt in map(
                self._tokens, self.index.rows(phrase(self.source, src), self.source)
            )
        )

    def written(self, word: str) -> bool:
        """Whether ``word``, an output word, is in a training target, in any case: False for
        a word the model made of pieces that no translation it learned from has ("Bonnez").
        Kept per lookup."""
        return self._written(word)

    def _in_a_target(self, word: str) -> bool:
        written = self.text.tokenize(word, "tgt")
        tgt = [t.lower() for t in written]
        if not tgt:
            return False
        frequent = len(tgt) == 1 and self._frequent  # one row read, not hundreds of pairs
        if frequent and any(self.index.is_frequent(self.target, t) for t in {written[0], tgt[0]}):
            return True
        for row in self.index.rows(phrase(self.target, tgt), self.source):
            tokens, target = self._tokens(row)
            if _spans([t.lower() for t in target], tgt) and self.data.keeps(tokens, target):
                return True
        return False

    def translated_within(self, words: Sequence[str], output: Sequence[str]) -> bool:
        """Whether the training pairs translate the source ``words`` (one after the other)
        with words of ``output`` (an output's words): whether, in at least two pairs, all the
        target tokens eflomal linked to them are in the output. "train station" is "gare",
        whose link eflomal gives "station" alone."""
        src = self.text.tokenize(" ".join(words), "src")
        tgt = {t.lower() for t in self.text.tokenize(" ".join(output), "tgt")}
        keys = self._keys(src) if src else {}
        return (
            sum(n for key, (n, _) in keys.items() if key and {t.lower() for t in key} <= tgt) >= 2
        )

    def pairs(self, ids: Sequence[int]) -> list[tuple[list[str], list[str]]]:
        """(source tokens, target tokens) of the pairs numbered ``ids``, in that order."""
        return [self._sides(row)[:2] for row in self.index.by_id(list(ids))]

    def sentence_pairs(self, src: Sequence[str]) -> int:
        """How many training pairs have the tokens ``src`` as their whole source."""
        src = list(src)
        count = 0
        for row in self.index.rows(phrase(self.source, src), self.source):
            tokens, tgt, _ = self._sides(row)
            count += tokens == src and self.data.keeps(tokens, tgt)
        return count

    def _keys(self, src: list[str]) -> dict[tuple, tuple[int, list[int]]]:
        """Every key of ``src`` in the training split (the target tokens it is linked to in
        a pair, ``()`` for none): in how many pairs, and the first :data:`KEPT_EXAMPLES`
        of them; most frequent first. Read from the ``frequent`` table when the index
        counted them, else from the pairs the full-text index finds."""
        if len(src) == 1 and self._frequent:
            found = self.index.frequent(self.source, src[0])
            if found:
                return {key: (n, ids) for key, n, ids in found}
        counts: Counter = Counter()
        firsts: dict[tuple, list[int]] = {}
        for row in self.index.rows(phrase(self.source, src), self.source):
            tokens, tgt, links = self._sides(row)
            spans = _spans(tokens, src)
            if not spans or not self.data.keeps(tokens, tgt):
                continue
            key = linked_key(tgt, links, {i for span in spans for i in span})
            counts[key] += 1
            if len(kept := firsts.setdefault(key, [])) < KEPT_EXAMPLES:
                kept.append(row[0])
        return {key: (n, firsts[key]) for key, n in counts.most_common()}

    def _tokens(self, row: tuple) -> tuple[list[str], list[str]]:
        """A row's source tokens and target tokens."""
        first, second = row[1].split(" "), row[2].split(" ")
        return (second, first) if self.source == "second" else (first, second)

    def _sides(self, row: tuple) -> tuple[list[str], list[str], list]:
        """A row's source tokens, target tokens and (source, target) links."""
        return *self._tokens(row), blob_links(row[3], self.source == "second")

    def _example(self, row: tuple, word: list[str]) -> MarkedPair:
        src, tgt, links = self._sides(row)
        marked = {i for span in _spans(src, word) for i in span}
        linked = {j for i, j in links if i in marked}
        return MarkedPair(
            self.text.detokenize(src, "src"),
            self.text.detokenize(tgt, "tgt"),
            tuple(src),
            tuple(tgt),
            tuple(sorted(marked)),
            tuple(sorted(linked)),
        )


def _spans(tokens: list[str], word: list[str]) -> list[range]:
    """Where ``word`` (tokens) occurs in ``tokens``, one after the other, as written."""
    n = len(word)
    return [range(i, i + n) for i in range(len(tokens) - n + 1) if tokens[i : i + n] == word]


def _contains(key: tuple, tgt: list[str]) -> bool:
    """Whether the linked tokens ``key`` hold the tokens ``tgt``, one after the other."""
    return bool(_spans(list(key), tgt))


def _rotation(lists: list[list[int]], limit: int) -> list[int]:
    """``limit`` pair ids: the first of each list in turn, then the second of each, ...: the
    first pair of each translation, most frequent first, before a second of any."""
    ids: list[int] = []
    for depth in range(max(map(len, lists), default=0)):
        for kept in lists:
            if len(ids) == limit:
                return ids
            if depth < len(kept):
                ids.append(kept[depth])
    return ids
