"""A corpus small enough to count by hand, English-French, with its links between Moses tokens
given by hand (eflomal's own are sampled), and its corpus index: for the tests of
:mod:`attnviz.store.corpus_lookup` and of what the dashboard says from it."""

from __future__ import annotations

from pathlib import Path

from attnviz.data.corpus import DataConfig, read_corpus
from attnviz.data.text import TextConfig
from attnviz.store.corpus_index import CorpusIndex, write_index

# (English, French, links between their tokens); every English sentence is in the training
# split but "You peel apples.", in the test split.
PAIRS = [
    ("I ate apples.", "J'ai mangé des pommes.", "0-0 1-1 1-2 2-4 3-5"),
    ("I like apples.", "J'aime les pommes.", "0-0 1-1 2-3 3-4"),
    ("Apples are red.", "Les pommes sont rouges.", "0-1 1-2 2-3 3-4"),
    ("She eats apples.", "Elle mange des pommes.", "0-0 1-1 2-2 2-3 3-4"),
    ("He eats apples.", "Il mange des fruits.", "0-0 1-1 2-3 3-4"),
    ("They sell apples.", "Ils vendent des fruits.", "0-0 1-1 3-4"),
    ("Call me too.", "Appelle-moi aussi.", "0-0 1-0 2-1 3-2"),
    ("Me neither.", "Moi non plus.", "0-0 1-1 1-2 2-3"),
    ("You peel apples.", "Tu pèles des pommes.", "0-0 1-1 2-3 3-4"),
]
TEXT = TextConfig("en", "fr")
DATA = DataConfig(subwords=0)


def write_hand_corpus(path: str | Path) -> Path:
    """The pairs as a corpus file, ``English<TAB>French`` per line."""
    path = Path(path)
    path.write_text("".join(f"{en}\t{fr}\n" for en, fr, _ in PAIRS), encoding="utf-8")
    return path


def hand_links(column: int = 1) -> list[tuple]:
    """Each pair's links, (source, target) with column ``column`` read as the source."""
    links = [tuple(tuple(map(int, x.split("-"))) for x in text.split()) for *_, text in PAIRS]
    return links if column == 1 else [tuple((j, i) for i, j in x) for x in links]


def hand_index(path: str | Path, corpus_file: str | Path, data: DataConfig = DATA) -> CorpusIndex:
    """The index of the hand corpus at ``path``, built with column ``data.source_column`` as
    the source."""
    corpus = read_corpus(corpus_file, data.source_column)
    text = TEXT if data.source_column == 1 else TextConfig("fr", "en")
    write_index(path, corpus, text, data, hand_links(data.source_column), {"name": "by hand"})
    return CorpusIndex(path)
