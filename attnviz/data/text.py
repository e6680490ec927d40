"""Text in and out of the models: normalization, Moses tokenization and detokenization.

Tokens are split as MT tools split them (sacremoses), so that words can align one to one:
punctuation is its own token and French elisions are split (``J'ai`` -> ``J'`` ``ai``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from sacremoses import MosesDetokenizer, MosesTokenizer

from ..options import option

# No-break spaces (U+00A0, U+202F, U+2007) sit before French ! ? : ; in the Tatoeba export;
# curly apostrophes and quotes would otherwise make two spellings of one word.
_CHAR_MAP = str.maketrans(
    {
        "\u00a0": " ",
        "\u202f": " ",
        "\u2007": " ",
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u201c": '"',
        "\u201d": '"',
    }
)
_SPACES = re.compile(r"\s+")
# Control characters other than whitespace carry no meaning for translation.
_CONTROL = re.compile(r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200d\ufeff]")


def normalize(text: str) -> str:
    """NFC-normalize, map no-break spaces and curly quotes to plain ones, collapse whitespace."""
    text = unicodedata.normalize("NFC", text).translate(_CHAR_MAP)
    return _SPACES.sub(" ", _CONTROL.sub("", text)).strip()


@lru_cache(maxsize=8)
def _tokenizer(lang: str) -> MosesTokenizer:
    return MosesTokenizer(lang=lang)


@lru_cache(maxsize=8)
def _detokenizer(lang: str) -> MosesDetokenizer:
    return MosesDetokenizer(lang=lang)


@dataclass(frozen=True)
class TextConfig:
    """How sentences become tokens; stored in every checkpoint."""

    src_lang: str = "en"  # Moses language code of the source side
    tgt_lang: str = "fr"  # Moses language code of the target side
    lowercase: bool = option(False, "lowercase both sides before tokenizing")

    def __post_init__(self):
        for name in ("src_lang", "tgt_lang"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.isalpha() or len(value) > 8:
                raise ValueError(f"{name} must be a language code such as 'en', not {value!r}")
        if not isinstance(self.lowercase, bool):
            raise ValueError(f"lowercase must be true or false, not {self.lowercase!r}")

    def tokenize(self, text: str, side: str = "src") -> list[str]:
        """Split one sentence into tokens; ``side`` is ``"src"`` or ``"tgt"``."""
        text = normalize(text)
        if self.lowercase:
            text = text.lower()
        if not text:
            return []
        return _tokenizer(self._lang(side)).tokenize(text, escape=False)

    def tokenize_words(self, words: list[str], side: str = "src") -> tuple[list[str], list[int]]:
        """Tokenize each word alone; returns the tokens and, for each, the index of its word."""
        tokens, owner = [], []
        for i, word in enumerate(words):
            pieces = self.tokenize(word, side)
            tokens += pieces
            owner += [i] * len(pieces)
        return tokens, owner

    def detokenize(self, tokens: list[str], side: str = "tgt") -> str:
        """Join tokens into display text, undoing the tokenizer's splits."""
        return _detokenizer(self._lang(side)).detokenize(list(tokens))

    def _lang(self, side: str) -> str:
        if side not in ("src", "tgt"):
            raise ValueError(f"side must be 'src' or 'tgt', not {side!r}")
        return self.src_lang if side == "src" else self.tgt_lang
