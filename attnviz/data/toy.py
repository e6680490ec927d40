"""Toy languages with a known word alignment: tiny corpora a model learns in seconds.

Each language makes (source, target, gold links) triples from a random generator; links are
(source word, target word) positions, 0-based, over whitespace words. Sentences are
lowercase with punctuation already split off, so whitespace words are the model's tokens.

- ``adjectives``: English -> French noun phrases; the adjective goes after the noun
  ("the red cat sees a dog ." -> "le chat rouge voit un chien .").
- ``reversed``: each word translated, the sentence read backwards.
- ``copy``: the sentence written out again, word for word.
- ``names``: a name and a number that the translation must carry through unchanged, after an
  ``adjectives`` noun phrase ("the red cat sees Kodari at 1907 ." -> "le chat rouge voit
  Kodari à 1907 ."); names are made of random syllables, so held-out sentences bring names
  never seen in training.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from ..i18n import N_
from .swap import name

Pair = tuple[str, str, list[tuple[int, int]]]  # source, target, gold links

NOUNS = {  # English: (French, gender)
    "cat": ("chat", "m"),
    "dog": ("chien", "m"),
    "book": ("livre", "m"),
    "car": ("voiture", "f"),
    "house": ("maison", "f"),
    "table": ("table", "f"),
    "bird": ("oiseau", "m"),
    "flower": ("fleur", "f"),
    "horse": ("cheval", "m"),
    "door": ("porte", "f"),
    "tree": ("arbre", "m"),
    "apple": ("pomme", "f"),
}
ADJECTIVES = {
    "red": "rouge",
    "fast": "rapide",
    "young": "jeune",
    "sad": "triste",
    "calm": "calme",
    "strange": "étrange",
    "yellow": "jaune",
    "empty": "vide",
}
VERBS = {"sees": "voit", "likes": "aime", "finds": "trouve", "wants": "veut", "takes": "prend"}
DETS = {"the": {"m": "le", "f": "la"}, "a": {"m": "un", "f": "une"}}
LEXICON = {**{e: f for e, (f, _) in NOUNS.items()}, **ADJECTIVES, **VERBS}  # word for word
SHORTEST, LONGEST = 3, 8  # words in a ``reversed`` or ``copy`` sentence


def noun_phrase(rng: random.Random) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """An English and French noun phrase with links local to the phrase."""
    det, noun = rng.choice(list(DETS)), rng.choice(list(NOUNS))
    fr_noun, gender = NOUNS[noun]
    if rng.random() < 0.6:
        adj = rng.choice(list(ADJECTIVES))
        return (
            [det, adj, noun],
            [DETS[det][gender], fr_noun, ADJECTIVES[adj]],
            [(0, 0), (1, 2), (2, 1)],
        )
    return [det, noun], [DETS[det][gender], fr_noun], [(0, 0), (1, 1)]


def adjectives(rng: random.Random) -> Pair:
    """Two noun phrases around a verb; French puts each adjective after its noun."""
    (e1, f1, l1), (e2, f2, l2) = noun_phrase(rng), noun_phrase(rng)
    verb = rng.choice(list(VERBS))
    en = [*e1, verb, *e2, "."]
    fr = [*f1, VERBS[verb], *f2, "."]
    links = [*list(l1), (len(e1), len(f1))]
    links += [(i + len(e1) + 1, j + len(f1) + 1) for i, j in l2]
    links.append((len(en) - 1, len(fr) - 1))
    return " ".join(en), " ".join(fr), links


def _words(rng: random.Random) -> list[str]:
    """A few distinct words of the lexicon: no word twice, so each has one place to go."""
    return rng.sample(list(LEXICON), rng.randint(SHORTEST, LONGEST))


def reversed_order(rng: random.Random) -> Pair:
    """Each word translated, the order reversed: word i goes to position n-1-i."""
    words = _words(rng)
    n = len(words)
    target = [LEXICON[w] for w in reversed(words)]
    return " ".join(words), " ".join(target), [(i, n - 1 - i) for i in range(n)]


def copy(rng: random.Random) -> Pair:
    """The sentence itself: word i goes to position i."""
    words = _words(rng)
    return " ".join(words), " ".join(words), [(i, i) for i in range(len(words))]


def names(rng: random.Random) -> Pair:
    """A noun phrase, a verb, a name and a number: the name and the number are copied."""
    en_np, fr_np, np_links = noun_phrase(rng)
    verb, who, number = rng.choice(list(VERBS)), name(rng), str(rng.randint(0, 9999))
    en = [*en_np, verb, who, "at", number, "."]
    fr = [*fr_np, VERBS[verb], who, "à", number, "."]
    n = len(en_np)
    return " ".join(en), " ".join(fr), [*np_links, *[(n + k, n + k) for k in range(5)]]


GRAMMARS: dict[str, Callable[[random.Random], Pair]] = {
    "adjectives": adjectives,
    "reversed": reversed_order,
    "copy": copy,
    "names": names,
}
DESCRIPTIONS = {
    "adjectives": N_("adjectives after nouns (English -> French)"),
    "reversed": N_("reversed word order (each word translated)"),
    "copy": N_("copy the sentence"),
    "names": N_("names and numbers carried through (English -> French)"),
}


def corpus(n: int, seed: int = 0, language: str = "adjectives") -> list[Pair]:
    """``n`` distinct sentence pairs of ``language`` with their gold links."""
    if language not in GRAMMARS:
        raise ValueError(f"language must be one of {sorted(GRAMMARS)}, not {language!r}")
    make, rng = GRAMMARS[language], random.Random(seed)
    seen: set[str] = set()
    out: list[Pair] = []
    while len(out) < n:
        source, target, links = make(rng)
        if source not in seen:
            seen.add(source)
            out.append((source, target, links))
    return out


def written(sentence: str) -> str:
    """A toy sentence as :func:`write_corpus` writes it: capitalized, its final stop attached
    to the last word."""
    return f"{sentence[0].upper()}{sentence[1:-2]}."


def written_links(pair: Pair) -> frozenset[tuple[int, int]]:
    """The gold links of ``pair`` between the whitespace words of its :func:`written` sentences,
    as word alignments count them: the attached full stop's link is its word's."""
    en, fr, links = pair
    last_en, last_fr = len(en.split()) - 2, len(fr.split()) - 2
    return frozenset((min(i, last_en), min(j, last_fr)) for i, j in links)


def write_corpus(path: str | Path, pairs: list[Pair]) -> None:
    """Write ``adjectives`` pairs in the Tatoeba format, each sentence :func:`written`."""
    with open(path, "w", encoding="utf-8") as f:
        for en, fr, _ in pairs:
            f.write(f"{written(en)}\t{written(fr)}\tCC-BY 2.0 (France)\n")


def write_plain(path: str | Path, pairs: list[Pair]) -> None:
    """Write pairs as ``source<TAB>target`` lines, as they are."""
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(f"{source}\t{target}\n" for source, target, _ in pairs)
