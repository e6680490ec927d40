"""The everyday-dialogue corpus (XDailyDialog's English and Chinese DailyDialog), made into a
corpus in ``cmn.txt``'s three columns: ``English<TAB>Chinese<TAB>attribution``.

The folder holds DailyDialog's own splits, one utterance a line in two aligned files each
(``train.en``, ``train.zh``, ``train.ids`` with ``<dialogue>\\t<turn>``; ``dev.*``, ``test.*``),
so whole dialogues already sit on one side. What :func:`dialogue_pairs` mends:

- the English keeps DailyDialog's tokenization (``I ’ ll throw it out .``, ``3 . 5``): it is
  normalized as every corpus is (curly quotes made straight), split contractions and numbers
  joined (``I'll``, ``3.5``, ``15,000``, ``7:30``), then Moses-detokenized, so that it reads
  as a class types and as Tatoeba's raw English does;
- dialogues repeat across DailyDialog's splits, and stock lines repeat inside one ("Thank
  you ."): a pair of the training split whose English or Chinese also appears, as written, in
  a held-out split is dropped, and so is a pair seen before in the split written.

The corpus is CC BY-NC-SA 4.0 (DailyDialog's licence; XDailyDialog's): each line's third
column says so, and a model trained on it carries the same terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sacremoses import MosesDetokenizer

from .text import normalize

SPLITS = ("train", "dev", "test")
LICENSE = "CC BY-NC-SA 4.0"
# A contraction DailyDialog wrote apart, its suffix sometimes capitalised: "I ’ Ve" -> "I've".
_CONTRACTION = re.compile(r"(\w) ' (s|t|ll|ve|re|d|m)\b", re.IGNORECASE)
_DECIMAL = re.compile(r"(\d) \. (\d)")  # "3 . 5" -> "3.5"
_THOUSANDS = re.compile(r"(\d) , (\d{3})\b")  # "15 , 000" -> "15,000", not "12 , 1987"
_TIME = re.compile(r"(\d) : (\d\d)\b")  # "7 : 30" -> "7:30"


@dataclass(frozen=True)
class DialoguePair:
    english: str
    chinese: str
    dialogue: int  # DailyDialog's dialogue number within its split

    def line(self) -> str:
        """The pair as a corpus line, in ``cmn.txt``'s three columns."""
        return f"{self.english}\t{self.chinese}\t{LICENSE}: XDailyDialog dialogue {self.dialogue}"


@dataclass(frozen=True)
class Counts:
    read: int  # pairs in the split's files
    held_out: int  # dropped: their English or Chinese is in another split
    repeated: int  # dropped: empty, or a pair written already


@lru_cache(maxsize=1)
def _detokenizer() -> MosesDetokenizer:
    return MosesDetokenizer(lang="en")


def detokenize_english(line: str) -> str:
    """One of DailyDialog's tokenized English utterances as a person writes it."""
    text = _CONTRACTION.sub(lambda m: f"{m[1]}'{m[2].lower()}", normalize(line))
    for pattern, joined in ((_DECIMAL, r"\1.\2"), (_THOUSANDS, r"\1,\2"), (_TIME, r"\1:\2")):
        text = pattern.sub(joined, text)
    return _detokenizer().detokenize(text.split())


def read_split(folder: str | Path, split: str) -> list[tuple[str, str, int]]:
    """``split``'s utterances as written: (English, Chinese, dialogue number) in file order;
    files of different lengths are refused, since their lines would pair wrongly."""
    if split not in SPLITS:
        raise ValueError(f"a split is one of {', '.join(SPLITS)}, not {split!r}")
    folder = Path(folder)
    columns = []
    for suffix in ("en", "zh", "ids"):
        path = folder / f"{split}.{suffix}"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file (the folder of XDailyDialog's splits)")
        columns.append(path.read_text(encoding="utf-8").splitlines())
    english, chinese, ids = columns
    if not len(english) == len(chinese) == len(ids):
        raise ValueError(
            f"{folder}: {split}.en, {split}.zh and {split}.ids have {len(english)}, "
            f"{len(chinese)} and {len(ids)} lines; they must be aligned line by line"
        )
    rows = enumerate(zip(english, chinese, ids, strict=True), start=1)
    return [(e, z, _dialogue(i, n)) for n, (e, z, i) in rows]


def _dialogue(ids: str, line: int) -> int:
    try:
        return int(ids.split("\t")[0])
    except ValueError:
        message = f"line {line} of the .ids file: {ids!r} is not <dialogue>\\t<turn>"
        raise ValueError(message) from None


def dialogue_pairs(folder: str | Path, split: str = "train") -> tuple[list[DialoguePair], Counts]:
    """``split``'s pairs made ready to train or test on (see the module's docstring), with
    what was dropped: the other splits' sentences, as written, and repeats."""
    rows = read_split(folder, split)
    held_english, held_chinese = set(), set()
    for other in SPLITS:
        if other != split:
            for english, chinese, _ in read_split(folder, other):
                held_english.add(english.strip())
                held_chinese.add(chinese.strip())
    pairs, seen, held, repeated = [], set(), 0, 0
    for pair in _made(rows, held_english, held_chinese):
        if pair is None:
            held += 1
        elif not (pair.english and pair.chinese) or (pair.english, pair.chinese) in seen:
            repeated += 1
        else:
            seen.add((pair.english, pair.chinese))
            pairs.append(pair)
    return pairs, Counts(len(rows), held, repeated)


def _made(rows, held_english: set[str], held_chinese: set[str]) -> Iterator[DialoguePair | None]:
    """Each row as a pair, or None where another split has its English or Chinese."""
    for english, chinese, dialogue in rows:
        if english.strip() in held_english or chinese.strip() in held_chinese:
            yield None
        else:
            yield DialoguePair(detokenize_english(english), chinese.strip(), dialogue)
