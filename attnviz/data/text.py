"""Text in and out of the models: normalization, tokenization and detokenization per language.

Tokens are split as MT tools split them, so that words can align one to one: Moses (sacremoses)
for languages written with spaces, where punctuation is its own token and French elisions are
split (``J'ai`` -> ``J'`` ``ai``); jieba for Chinese (:mod:`attnviz.data.chinese`), whose words
are joined back without spaces.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from sacremoses import MosesDetokenizer, MosesTokenizer

from ..i18n import N_
from ..i18n import gettext as _
from ..options import option
from . import chinese

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
# Each language's name for labels, in English (the catalogs give it in the reader's language).
LANGUAGE_NAMES = {"en": N_("English"), "fr": N_("French"), "zh": N_("Chinese")}
_SPACES = re.compile(r"\s+")
# Control characters other than whitespace carry no meaning for translation.
_CONTROL = re.compile(r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200d\ufeff]")


def normalize(text: str) -> str:
    """NFC-normalize, map no-break spaces and curly quotes to plain ones, collapse whitespace."""
    text = unicodedata.normalize("NFC", text).translate(_CHAR_MAP)
    return _SPACES.sub(" ", _CONTROL.sub("", text)).strip()


def language_name(code: str) -> str:
    """A language's name for labels, in the reader's language (``zh`` -> ``Chinese`` or
    ``中文``, ``fr`` -> ``French`` or ``法语``); an unknown code as it is."""
    return _(LANGUAGE_NAMES[code]) if code in LANGUAGE_NAMES else code


@lru_cache(maxsize=8)
def _tokenizer(lang: str) -> MosesTokenizer:
    return MosesTokenizer(lang=lang)


@lru_cache(maxsize=8)
def _detokenizer(lang: str) -> MosesDetokenizer:
    return MosesDetokenizer(lang=lang)


@dataclass(frozen=True)
class TextConfig:
    """How sentences become tokens; stored in every checkpoint."""

    src_lang: str = option(
        "en", "language of the source side: a Moses code (en, fr, de ...) or zh (words by jieba)"
    )
    tgt_lang: str = option("fr", "language of the target side, as --src-lang")
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
        lang = self._lang(side)
        if lang == "zh":
            return chinese.segment(text)
        return _tokenizer(lang).tokenize(text, escape=False)

    def words(self, text: str, side: str = "src") -> list[str]:
        """The words of a sentence as gold alignments and Pharaoh links count them: its
        whitespace words, or for Chinese its words (:func:`chinese.words`: jieba's, unless the
        text is already cut)."""
        return chinese.words(text) if self._lang(side) == "zh" else text.split()

    def tokenize_words(self, words: list[str], side: str = "src") -> tuple[list[str], list[int]]:
        """Tokenize each word alone; returns the tokens and, for each, the index of its word."""
        tokens: list[str] = []
        owner: list[int] = []
        for i, word in enumerate(words):
            pieces = _word_tokens(self, word, side)
            tokens += pieces
            owner += [i] * len(pieces)
        return tokens, owner

    def detokenize(self, tokens: list[str], side: str = "tgt") -> str:
        """Join tokens into display text, undoing the tokenizer's splits."""
        lang = self._lang(side)
        if lang == "zh":
            return chinese.join(list(tokens))
        return _detokenizer(lang).detokenize(list(tokens))

    def language_note(self, text: str, side: str = "src") -> str | None:
        """A note when ``text`` is plainly not in ``side``'s language (no Chinese character for
        a Chinese side, Chinese characters for another), else None: the model would read it as
        pieces it hardly saw, and what it writes would mean little."""
        lang = self._lang(side)
        if lang == "zh" and chinese.has_latin(text) and not chinese.has_han(text):
            return _("This model reads Chinese (中文), and this has no Chinese characters.")
        if lang != "zh" and chinese.has_han(text):
            return _("This model reads {language}, and this holds Chinese characters.").format(
                language=language_name(lang)
            )
        return None

    def _lang(self, side: str) -> str:
        if side not in ("src", "tgt"):
            raise ValueError(f"side must be 'src' or 'tgt', not {side!r}")
        return self.src_lang if side == "src" else self.tgt_lang


@lru_cache(maxsize=65_536)
def _word_tokens(config: TextConfig, word: str, side: str) -> tuple[str, ...]:
    """``config.tokenize(word, side)``, kept: the page's check of a typed sentence tokenizes
    each word of the sentence and of both outputs alone, twice (4 ms of Moses' regular
    expressions a sentence), and the words of a class repeat."""
    return tuple(config.tokenize(word, side))
