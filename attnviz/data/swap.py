"""Names and numbers swapped for new ones: training pairs that ask a model to copy.

Tatoeba's names are nearly all "Tom" and "Mary", and it has few numbers, so a model learns to
translate them rather than to copy them, and invents a name it has not seen. A pair that
carries a capitalised word or a number verbatim on both sides can be added again with each of
them replaced, the same way on both sides, by a new name or a random number: copying is then
what the data asks for (with one vocabulary for both languages and tied embeddings, it is one
identity to learn; see ``--joint-subwords``). The new names are of two kinds, half each: random
syllables, and words of the corpus itself, capitalised, so that every piece of the vocabulary
is seen being copied, not only the pieces syllable names are made of.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from .corpus import Example

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
TOKEN = re.compile(r"\w+")
WORD = re.compile(r"\b[^\W\d_]{3,}\b")  # a word of three letters or more, for new names


def name(rng: random.Random) -> str:
    """A capitalised name of two to four random syllables."""
    return "".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))).capitalize()


def number(digits: int, rng: random.Random) -> str:
    """A random number: half the time of ``digits`` digits, else of one to four."""
    if rng.random() < 0.5:
        digits = rng.randint(1, 4)
    low = 10 ** (digits - 1) if digits > 1 else 0
    return str(rng.randint(low, 10**digits - 1))


def carried(source: str, target: str) -> list[str]:
    """The names (capitalised words of letters) and numbers found verbatim on both sides, sorted
    so that the same seed swaps the same way."""
    shared = set(TOKEN.findall(source)) & set(TOKEN.findall(target))
    return sorted(
        w for w in shared if w.isdigit() or (w[:1].isupper() and len(w) > 1 and w.isalpha())
    )


def swap_pair(
    source: str, target: str, rng: random.Random, words: Sequence[str] = ()
) -> tuple[str, str] | None:
    """The pair with every name (a capitalised word of letters) and number found verbatim on
    both sides replaced, the same replacement on both; None when it has none. A new name is
    random syllables or, half the time where ``words`` are given, one of them capitalised."""
    swap = {}
    for word in carried(source, target):
        if word.isdigit():
            swap[word] = number(len(word), rng)
        else:
            swap[word] = (
                rng.choice(words).capitalize() if words and rng.random() < 0.5 else name(rng)
            )
    if not swap:
        return None
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, swap)) + r")\b")

    def replace(side: str) -> str:
        return pattern.sub(lambda m: swap[m.group(1)], side)

    return replace(source), replace(target)


def swap_examples(
    examples: list[Example],
    fraction: float,
    rng: random.Random,
    tokenize: Callable[[list[tuple[str, str]]], list[Example]],
) -> list[Example]:
    """New examples: ``fraction`` times as many as carry a name or a number on both sides, each
    such example drawn at random (every one ``int(fraction)`` times, the rest by chance) and
    swapped anew (:func:`swap_pair`, names drawn from the examples' own words);
    ``tokenize`` makes examples of text pairs as the training data's were made."""
    if not fraction:
        return []
    carriers = [e for e in examples if carried(e.src, e.tgt)]
    chosen = carriers * int(fraction)
    chosen += rng.sample(carriers, round(len(carriers) * (fraction % 1)))
    words = sorted({w for e in examples for w in WORD.findall(e.src + " " + e.tgt)})
    swapped = (swap_pair(e.src, e.tgt, rng, words) for e in chosen)
    return tokenize([pair for pair in swapped if pair is not None])  # each carries one
