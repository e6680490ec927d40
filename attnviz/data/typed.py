"""Training sources as people type them, and short pairs seen more often.

A class types "hello", "i'm thirsty" and "close the door please": lower case, no final
punctuation, a few words. Tatoeba writes "Hello!" and "I'm thirsty.", and its short pairs are
a few among long ones ("Hello!" twice in 167,130 lines), so a model trained on it reads a typed
input as something it has not seen: on the 100 short inputs of
``benchmarks/quality/typed/short-en-fr.tsv``, writing each source the corpus's way (a capital,
"I", a full stop) made 3-7 more of them right. Each epoch, :func:`short_copies` adds the short
pairs again, and :func:`typed_examples` writes a share of the sources the way people type
them; the targets stay as the corpus writes them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .corpus import Example

SHORT_WORDS = 5  # a short source: at most this many words, as a class's greetings and requests
FINAL = re.compile(r"\s*[.!?。！？…]+$")


def as_typed(source: str, rng: random.Random) -> str:
    """``source`` as it might be typed: in lower case, without its final punctuation, or both
    (a third of the time each); the same text when neither changes it."""
    kind = rng.randrange(3)
    if kind != 1:
        source = source.lower()
    if kind != 0:
        source = FINAL.sub("", source) or source
    return source


def short_copies(examples: list[Example], copies: float, rng: random.Random) -> list[Example]:
    """New examples: ``copies`` times as many as have a source of at most :data:`SHORT_WORDS`
    words, each drawn at random (every one ``int(copies)`` times, the rest by chance)."""
    if not copies:
        return []
    short = [e for e in examples if len(e.src.split()) <= SHORT_WORDS]
    return short * int(copies) + rng.sample(short, round(len(short) * (copies % 1)))


def typed_examples(
    examples: list[Example],
    fraction: float,
    rng: random.Random,
    tokenize: Callable[[list[tuple[str, str]]], list[Example]],
) -> list[Example]:
    """The examples with ``fraction`` of them, drawn at random, made anew from their source
    :func:`as_typed` (by ``tokenize``, as the training data's were made; without the links a
    guided run pulls towards, which name the old tokens)."""
    if not fraction:
        return examples
    chosen = set(rng.sample(range(len(examples)), round(len(examples) * fraction)))
    pairs = [(as_typed(examples[i].src, rng), examples[i].tgt) for i in sorted(chosen)]
    kept = [e for i, e in enumerate(examples) if i not in chosen]
    return kept + tokenize(pairs)  # less a pair whose lower-case pieces pass --max-len
