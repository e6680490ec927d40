"""Source words lost: the content words of a source that a translation leaves out, told by
eflomal's links between the source and the output (Bahdanau et al.'s bottleneck, seen word by
word). A link keeps a source word only between two words the priors' corpus ever linked
(:func:`attested`): eflomal links a new sentence's words by position too, so an output that
invents its words would otherwise lose none."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Protocol

from ..data.text import normalize
from ..decoding.translator import Translator
from ..errors import Refused
from .eflomal_aligner import EflomalAligner
from .eflomal_priors import Priors, mismatch

DIRECTION = "symmetric"  # which of eflomal's links count a source word as translated

# Function words of English: articles, pronouns and their contractions, the auxiliaries be,
# have and do, the tense auxiliaries will, would and shall (French and Chinese carry the tense
# in the verb: "it will rain" is "il pleuvra", and "will" has no word of its own to link),
# common prepositions and conjunctions. Negations and the other modals are content: a
# translation that drops "not" or "must" has lost meaning.
_ENGLISH_FUNCTION_WORDS = """
    will would shall won't wouldn't 'll 'd
    a an the and or but nor so if as than then
    of to in on at by for with from into onto about over under up down out off
    i me my mine myself you your yours yourself he him his himself she her hers herself
    it its itself we us our ours they them their theirs this that these those there here
    who whom what which is am are was were be been being do does did have has had
    i'm i've i'll i'd you're you've you'll you'd he's he'll he'd she's she'll she'd
    it's it'll we're we've we'll we'd they're they've they'll they'd
    that's there's here's what's let's
"""
ENGLISH_STOPWORDS = frozenset(_ENGLISH_FUNCTION_WORDS.split())
STOPWORDS = {"en": ENGLISH_STOPWORDS}  # other source languages: every word but punctuation
_EDGES = re.compile(r"^[^\w']+|[^\w']+$")  # punctuation around a word ("cold." -> "cold")


def is_content(word: str, lang: str) -> bool:
    """Whether ``word`` carries meaning to translate: not punctuation, and for English not a
    function word (:data:`ENGLISH_STOPWORDS`)."""
    if not any(c.isalnum() for c in word):
        return False
    return _EDGES.sub("", normalize(word).lower()) not in STOPWORDS.get(lang, ())


def content_mask(words: Sequence[str], lang: str) -> list[bool]:
    """For each of a source's ``words``, whether it is a content word (:func:`is_content`)."""
    return [is_content(w, lang) for w in words]


def lost_words(words: Sequence[str], links: Sequence[tuple[int, int]], lang: str) -> list[bool]:
    """For each of a source's ``words``, whether it is a content word that none of the
    (source word, output word) ``links`` between it and an output touches: a word lost."""
    linked = {i for i, _ in links}
    return [c and i not in linked for i, c in enumerate(content_mask(words, lang))]


def attested(
    aligner: EflomalAligner,
    source: Sequence[str],
    output: Sequence[str],
    links: Sequence[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Of eflomal's ``links`` between the words of ``source`` and ``output``, those between
    two words whose tokens the priors' corpus ever linked (their LEX counts). eflomal links a
    new sentence's words by position too, so an output that invents its own words still gets
    links; a source word whose every link is to a word it was never translated as kept
    nothing of itself.

    A source word eflomal left unlinked beside a linked neighbour is linked to its neighbour's
    output word where the corpus links the two: one output word for several source words
    ("train station" is "gare", and eflomal links "gare" to "station" alone)."""
    lex, text = aligner.priors.lex, aligner.text

    def tokens(words: Sequence[str], side: str) -> list[list[str]]:
        found, owner = text.tokenize_words(list(words), side)
        grouped: list[list[str]] = [[] for _ in words]
        for token, i in zip(found, owner, strict=True):
            grouped[i].append(token.lower())
        return grouped

    src, out = tokens(source, "src"), tokens(output, "tgt")

    def known(i: int, j: int) -> bool:
        return any(lex.get(s, {}).get(t) for s in src[i] for t in out[j])

    kept = [(i, j) for i, j in links if known(i, j)]
    linked = {i for i, _ in kept}
    units = [
        (i, j)
        for i in range(len(source))
        if i not in linked
        for k, j in kept
        if abs(k - i) == 1 and known(i, j)
    ]
    return kept + units


def lost_in_outputs(
    aligner: EflomalAligner, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], lang: str
) -> list[list[bool]]:
    """For each (source words, output words) pair, which source words are lost
    (:func:`lost_words`) by eflomal's :data:`DIRECTION` links that are :func:`attested`, all
    aligned in one run. An empty output loses every content word."""
    alignments = aligner.link_words([(" ".join(s), " ".join(o)) for s, o in pairs])
    return [
        lost_words(s, attested(aligner, s, o, a.links(DIRECTION)), lang)
        for (s, o), a in zip(pairs, alignments, strict=True)
    ]


class TrainingPairs(Protocol):
    """What the model's training pairs say of a sentence's words
    (:class:`attnviz.store.corpus_lookup.Lookup` says it)."""

    def seen(self, word: str) -> bool:
        """Whether ``word`` occurs in a training pair."""

    def written(self, word: str) -> bool:
        """Whether the output word ``word`` occurs in a training target."""

    def translated_within(self, words: Sequence[str], output: Sequence[str]) -> bool:
        """Whether the training pairs translate ``words`` with words of ``output``."""


def without_units(
    source: Sequence[str], output: Sequence[str], lost: Sequence[bool], corpus: TrainingPairs
) -> list[bool]:
    """``lost`` without the words that the training pairs translate together with a neighbour
    by words of ``output`` ("train" of "train station", which is "gare")."""
    kept = list(lost)
    for i, gone in enumerate(lost):
        pairs = [source[max(i - 1, 0) : i + 1], source[i : i + 2]]
        if gone and any(len(p) == 2 and corpus.translated_within(p, output) for p in pairs):
            kept[i] = False
    return kept


def lost_or_unknown(
    aligner: EflomalAligner,
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    lang: str,
    corpora: Sequence[TrainingPairs | None] | None = None,
) -> list[list[bool] | None]:
    """The lost-word check of translations, each (source words, output words) pair's flags:
    :func:`lost_in_outputs` of ``pairs`` in one run where eflomal aligns them all; where it
    cannot align one (it refuses some inputs: a side too long, say), of each pair alone, and
    None for a pair it cannot align at all. With ``corpora``, each pair's model's training
    pairs (or None), not the words they translate together with a neighbour
    (:func:`without_units`)."""
    try:
        found: list[list[bool] | None] = list(lost_in_outputs(aligner, pairs, lang))
    except ValueError:
        found = []
        for pair in pairs:
            try:
                found.append(lost_in_outputs(aligner, [pair], lang)[0])
            except ValueError:
                found.append(None)
    return [
        without_units(source, output, flags, corpus)
        if corpus is not None and flags is not None
        else flags
        for (source, output), flags, corpus in zip(
            pairs, found, corpora or [None] * len(pairs), strict=True
        )
    ]


def lost_aligner(
    priors: Priors | None, models: Mapping[str, Translator]
) -> EflomalAligner | Refused:
    """eflomal with ``priors`` for the lost measure, or why not: no priors, or priors of
    another corpus, split or tokenizer than the models'."""
    if priors is None:
        return Refused("no eflomal priors given: source words lost not measured")
    for name, tr in models.items():
        if why := mismatch(priors, tr.card, tr.data, tr.text):
            return Refused(f"source words lost not measured: {name}: {why}")
    return EflomalAligner(priors)


def describe_lost(lang: str) -> str:
    """What :func:`lost_words` counts for a source language, for the record."""
    which = (
        "not punctuation and not an English function word"
        if lang in STOPWORDS
        else f"not punctuation (no stopword list for {lang!r})"
    )
    return (
        f"source words {which}, linked to no output word by eflomal's {DIRECTION} links "
        "between words the priors' corpus links"
    )
