"""A small English->French corpus with a known word reordering and gold alignments.

French puts the adjective after the noun: "the red cat sees a dog ." ->
"le chat rouge voit un chien .". Every sentence comes with its gold links (source, target).
"""

from __future__ import annotations

import random

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


def sentence(rng: random.Random) -> tuple[str, str, list[tuple[int, int]]]:
    """One sentence pair and its gold alignment."""
    (e1, f1, l1), (e2, f2, l2) = noun_phrase(rng), noun_phrase(rng)
    verb = rng.choice(list(VERBS))
    en = [*e1, verb, *e2, "."]
    fr = [*f1, VERBS[verb], *f2, "."]
    links = [*list(l1), (len(e1), len(f1))]
    links += [(i + len(e1) + 1, j + len(f1) + 1) for i, j in l2]
    links.append((len(en) - 1, len(fr) - 1))
    return " ".join(en), " ".join(fr), links


def corpus(n: int, seed: int = 0) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """``n`` distinct sentence pairs with gold links."""
    rng, seen, out = random.Random(seed), set(), []
    while len(out) < n:
        en, fr, links = sentence(rng)
        if en not in seen:
            seen.add(en)
            out.append((en, fr, links))
    return out


def write_corpus(path, pairs) -> None:
    """Write pairs in the Tatoeba format, capitalized and with attached punctuation."""
    with open(path, "w", encoding="utf-8") as f:
        for en, fr, _ in pairs:
            f.write(f"{en[0].upper()}{en[1:-2]}.\t{fr[0].upper()}{fr[1:-2]}.\tCC-BY 2.0 (France)\n")
