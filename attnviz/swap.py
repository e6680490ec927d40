"""Names and numbers swapped for new ones: training pairs that ask a model to copy.

Tatoeba's names are nearly all "Tom" and "Mary", and it has few numbers, so a model learns to
translate them rather than to copy them, and invents a name it has not seen. A pair that
carries a capitalised word or a number verbatim on both sides can be added again with each of
them replaced, the same way on both sides, by a name of random syllables or a random number of
as many digits: copying is then what the data asks for (with one vocabulary for both languages
and tied embeddings, it is one identity to learn; see ``--joint-subwords``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .data import Example

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
TOKEN = re.compile(r"\w+")


def name(rng: random.Random) -> str:
    """A capitalised name of two to four random syllables."""
    return "".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))).capitalize()


def swap_pair(source: str, target: str, rng: random.Random) -> tuple[str, str] | None:
    """The pair with every name (a capitalised word of letters) and number found verbatim on
    both sides replaced, the same replacement on both; None when it has none."""
    shared = set(TOKEN.findall(source)) & set(TOKEN.findall(target))
    swap = {}
    for word in sorted(shared):  # sorted: the same seed swaps the same way
        if word.isdigit():
            low = 10 ** (len(word) - 1) if len(word) > 1 else 0
            swap[word] = str(rng.randint(low, 10 ** len(word) - 1))
        elif word[:1].isupper() and len(word) > 1 and word.isalpha():
            swap[word] = name(rng)
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
    """New examples: ``fraction`` of those that carry a name or a number on both sides, drawn
    at random, with them swapped (:func:`swap_pair`); ``tokenize`` makes examples of text pairs
    as the training data's were made."""
    if not fraction:
        return []
    pairs = [p for e in examples if (p := swap_pair(e.src, e.tgt, rng))]
    return tokenize(rng.sample(pairs, round(len(pairs) * min(fraction, 1.0))))
