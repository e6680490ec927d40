"""Chinese words: segmentation by jieba, and words joined back into text without spaces.

Chinese is written without spaces, so its words come from a segmenter: jieba, the one the field
most often uses for Simplified Chinese (its default dictionary and, for words it lacks, an HMM),
kept on the package index. ``我爱吃苹果。`` reads ``我 · 爱 · 吃 · 苹果 · 。``.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")  # CJK ideographs
_LATIN = re.compile(r"[A-Za-z]")


@lru_cache(maxsize=1)
def _jieba():
    import jieba  # loads its dictionary on first use (about a second; cached in the temp dir)

    jieba.setLogLevel(logging.WARNING)
    return jieba.Tokenizer()


def segment(text: str) -> list[str]:
    """The words of a Chinese sentence, as jieba cuts them (whitespace dropped)."""
    return [w for w in _jieba().lcut(text) if not w.isspace()]


# A space between two Chinese characters: text whose words are already cut ("我 爱 吃 苹果 。").
_CUT = re.compile(HAN.pattern + r"\s+" + HAN.pattern)


def words(text: str) -> list[str]:
    """The words of Chinese text as alignments count them: its whitespace words where they are
    already cut (a space between two Chinese characters), else jieba's (``我爱吃苹果。`` and
    ``我 爱 吃 苹果 。`` give the same five words)."""
    return text.split() if _CUT.search(text) else segment(text)


def join(words: list[str]) -> str:
    """Chinese words as text: no spaces, except between two words of Latin letters or digits
    (``Tom Jackson`` stays two words, ``汤姆有3个`` stays whole)."""
    out = ""
    for word in words:
        if _latin_or_digit(out[-1:]) and _latin_or_digit(word[:1]):
            out += " "
        out += word
    return out


def _latin_or_digit(char: str) -> bool:
    return char.isascii() and char.isalnum()


def has_han(text: str) -> bool:
    """True when ``text`` holds a Chinese character."""
    return bool(HAN.search(text))


def has_latin(text: str) -> bool:
    """True when ``text`` holds a Latin letter."""
    return bool(_LATIN.search(text))
