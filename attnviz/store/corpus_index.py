"""A corpus index: one SQLite file holding a corpus's pairs, their tokens, eflomal's links
between them and a full-text index of the tokens, for "what the corpus says" about a word.

    meta      key -> JSON value: the format, the corpus (file, sha256), each column's language,
              the split's percentages and max_len, the aligner, the command that built it
    pairs     id (the pair's number in the corpus), first_tokens, second_tokens (the tokens of
              columns 1 and 2 as a model reads them, joined by spaces), links (eflomal's
              symmetrized links as bytes: first position, second position, ...), split_first,
              split_second (the split of the pair when column 1, or 2, is the source: 0 train,
              1 valid, 2 test, by :func:`attnviz.data.corpus.split_of`)
    words     FTS5 over first_tokens and second_tokens: each token one FTS token, case folded,
              accents kept; contentless (the text is stored once, in ``pairs``)
    frequent  for each token of at least :data:`FREQUENT` training pairs, per source column:
              every set of target tokens it is linked to (``key``, "" for none), in how many
              pairs, and the first few of them: a common word is answered without reading its
              thousands of pairs

The index holds every pair and the split it falls in either way round, so one file serves a
corpus's models in both directions (cmn.txt's zh->en and en->zh models). A checkpoint's card
names its index (``corpus_index``: file and sha256); an index of another corpus, split or
tokenization than a model's is refused (:meth:`CorpusIndex.refusal`). The sentences are kept
as tokens only (joined back for display): the raw text too would not fit the 30 MB a shipped
index may take. The file is written whole or not at all (built in memory, then
:func:`attnviz.files.atomic_write`) and read with ``mode=ro``: no reader can change it.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ..data.corpus import SPLITS, Corpus, DataConfig, Link, split_of
from ..data.text import TextConfig
from ..files import atomic_write
from ..i18n import N_, Text

FORMAT = "attnviz-corpus-index/1"
COLUMNS = ("first", "second")  # the corpus's columns 1 and 2
CARD_KEY = "corpus_index"  # the card's entry that names a model's index: file and sha256
FREQUENT = 300  # training pairs from which a token's links are counted when the index is built
KEPT_EXAMPLES = 3  # pairs kept per token and linked words in ``frequent``
MAX_POSITION = 255  # links are kept as bytes; the shipped corpora's longest side has 63 tokens
# Every token is one FTS token: letters, numbers, marks, punctuation and symbols are all token
# characters (the tokens are joined by spaces), case is folded, accents are kept (été != ete).
FTS_TOKENIZER = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pairs (
    id INTEGER PRIMARY KEY,
    first_tokens TEXT NOT NULL, second_tokens TEXT NOT NULL,
    links BLOB NOT NULL,
    split_first INTEGER NOT NULL, split_second INTEGER NOT NULL
);
CREATE VIRTUAL TABLE words USING fts5(
    first_tokens, second_tokens, content='', columnsize=0, tokenize="{FTS_TOKENIZER}"
);
CREATE TABLE frequent (
    source TEXT NOT NULL, token TEXT NOT NULL, key TEXT NOT NULL,
    count INTEGER NOT NULL, examples TEXT NOT NULL,
    PRIMARY KEY (source, token, key)
) WITHOUT ROWID;
"""
HOW_TO_BUILD = N_(
    "build it with `python -m attnviz index CORPUS --checkpoint {checkpoint} --out {path}`"
)


class CorpusIndexError(ValueError):
    """An index that cannot be used; the message (an :class:`attnviz.i18n.Text`, English as
    ``str()``) names the file and says why, and what to do."""


def write_index(
    path: str | Path,
    corpus: Corpus,
    text: TextConfig,
    data: DataConfig,
    links: Sequence[Sequence[Link]],
    aligner: dict,
    command: str = "",
) -> int:
    """Write the index of ``corpus`` (read with ``data.source_column``, tokenized by ``text``)
    with ``links`` (one tuple of (source, target) token links per pair) to ``path``,
    atomically; returns the file's size in bytes. ``aligner``: what made the links."""
    if len(links) != len(corpus.pairs):
        raise ValueError(f"{len(links)} sets of links for {len(corpus.pairs)} pairs")
    rows = _rows(corpus, text, data, links)
    meta = _meta(corpus, text, data, aligner, command)
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [(k, json.dumps(v, ensure_ascii=False)) for k, v in meta.items()],
        )
        db.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?, ?)", rows)
        db.execute(
            "INSERT INTO words (rowid, first_tokens, second_tokens) "
            "SELECT id, first_tokens, second_tokens FROM pairs"
        )
        db.execute("INSERT INTO words (words) VALUES ('optimize')")
        for source in COLUMNS:
            db.executemany(
                "INSERT INTO frequent VALUES (?, ?, ?, ?, ?)",
                _frequent(rows, source, data),
            )
        db.commit()
        db.execute("VACUUM")
        data_bytes = _file_bytes(db)
    finally:
        db.close()
    atomic_write(path, data_bytes)
    return len(data_bytes)


def _rows(corpus: Corpus, text: TextConfig, data: DataConfig, links) -> list[tuple]:
    """The ``pairs`` rows: each pair by column (the corpus was read as (source, target)), its
    tokens, its links as bytes and its split either way round."""
    swap = data.source_column == 2
    rows = []
    for n, ((src, tgt), pair_links) in enumerate(zip(corpus.pairs, links, strict=True)):
        tokens = (text.tokenize(src, "src"), text.tokenize(tgt, "tgt"))
        first, second = (tgt, src) if swap else (src, tgt)
        if swap:
            tokens, pair_links = tokens[::-1], [(j, i) for i, j in pair_links]
        rows.append(
            (
                n,
                " ".join(tokens[0]),
                " ".join(tokens[1]),
                links_blob(pair_links),
                SPLITS.index(split_of(first, data.valid_percent, data.test_percent)),
                SPLITS.index(split_of(second, data.valid_percent, data.test_percent)),
            )
        )
    return rows


def _meta(corpus: Corpus, text: TextConfig, data: DataConfig, aligner: dict, command: str):
    """The ``meta`` table: what the index was made from and how."""
    swap = data.source_column == 2
    languages = (text.tgt_lang, text.src_lang) if swap else (text.src_lang, text.tgt_lang)
    return {
        "format": FORMAT,
        "corpus": {
            "file": Path(corpus.path).name,
            "sha256": corpus.sha256,
            "pairs": len(corpus.pairs),
            "skipped_lines": corpus.skipped,
        },
        "languages": dict(zip(COLUMNS, languages, strict=True)),
        "lowercase": text.lowercase,
        "split": {
            "valid_percent": data.valid_percent,
            "test_percent": data.test_percent,
            "max_len": data.max_len,
        },
        "frequent": FREQUENT,
        "aligner": aligner,
        "command": command,
    }


def links_blob(links: Sequence[Link]) -> bytes:
    """Links as bytes, two per link; a link past :data:`MAX_POSITION` is dropped."""
    return bytes(x for i, j in sorted(links) if max(i, j) <= MAX_POSITION for x in (i, j))


def blob_links(blob: bytes, swap: bool = False) -> list[Link]:
    """:func:`links_blob` read back; ``swap``: as (second, first)."""
    pairs = list(zip(blob[0::2], blob[1::2], strict=True))
    return [(j, i) for i, j in pairs] if swap else pairs


def linked_key(tgt: Sequence[str], links: Sequence[Link], positions: set[int]) -> tuple:
    """The target tokens linked to any source position in ``positions``, in order: what a
    word "is translated as" in one pair (``()``: linked to nothing)."""
    return tuple(tgt[j] for j in sorted({j for i, j in links if i in positions}))


def _frequent(rows: list[tuple], source: str, data: DataConfig):
    """The ``frequent`` rows of ``source``: each token of at least :data:`FREQUENT` training
    pairs (those ``data`` keeps), with every key it has and its first pairs."""
    s = COLUMNS.index(source)
    counts: dict[str, Counter] = defaultdict(Counter)
    firsts: dict[tuple, list[int]] = defaultdict(list)
    for row in rows:
        if row[4 + s]:  # not in this direction's training split
            continue
        src, tgt = row[1 + s].split(" "), row[2 - s].split(" ")
        if not data.keeps(src, tgt):
            continue
        links = blob_links(row[3], swap=bool(s))
        for token in set(src):
            key = linked_key(tgt, links, {i for i, t in enumerate(src) if t == token})
            counts[token][key] += 1
            if len(kept := firsts[token, key]) < KEPT_EXAMPLES:
                kept.append(row[0])
    for token, keys in counts.items():
        if keys.total() >= FREQUENT:
            for key, n in keys.items():
                examples = " ".join(map(str, firsts[token, key]))
                yield source, token, " ".join(key), n, examples


def _file_bytes(db: sqlite3.Connection) -> bytes:
    """The database ``db`` as the bytes of its file: ``serialize`` (Python 3.11 on), else a
    backup into a temporary file, read back."""
    if sys.version_info >= (3, 11):
        return db.serialize()
    with tempfile.TemporaryDirectory(prefix="attnviz-index-") as folder:
        path = Path(folder) / "index.sqlite"
        copy = sqlite3.connect(path)
        try:
            db.backup(copy)
        finally:
            copy.close()
        return path.read_bytes()


class CorpusIndex:
    """An index file opened read-only; its queries are serialized (one connection, shared by
    the dashboard's sessions)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise CorpusIndexError(Text(N_("{path}: no such corpus index"), path=self.path))
        uri = self.path.resolve().as_uri() + "?mode=ro"
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self.meta = {k: json.loads(v) for k, v in self._db.execute("SELECT * FROM meta")}
        except (sqlite3.Error, json.JSONDecodeError) as e:
            raise CorpusIndexError(
                Text(N_("{path}: not a readable corpus index ({error})"), path=self.path, error=e)
            ) from e
        if self.meta.get("format") != FORMAT:
            raise CorpusIndexError(
                Text(
                    N_("{path}: not an attnviz corpus index (expected {expected}, found {found})"),
                    path=self.path,
                    expected=FORMAT,
                    found=self.meta.get("format"),
                )
            )

    def close(self) -> None:
        self._db.close()

    @property
    def corpus_sha256(self) -> str:
        return self.meta["corpus"]["sha256"]

    def refusal(self, card: dict, text: TextConfig, data: DataConfig) -> Text | None:
        """Why this index cannot answer for a model (its ``card``, ``text`` and ``data``): its
        corpus's sha256, a column's language, the case or the split differ; None when it can."""
        recorded = (card.get("corpus") or {}).get("sha256")
        if recorded != self.corpus_sha256:
            return Text(
                N_(
                    "{path} indexes another corpus ({file}, sha256 {index}…) than the model "
                    "was trained on (sha256 {model}…): build its own index"
                ),
                path=self.path.name,
                file=self.meta["corpus"]["file"],
                index=self.corpus_sha256[:12],
                model=str(recorded)[:12],
            )
        source, target = source_column(data)
        languages = self.meta["languages"]
        if (languages[source], languages[target], self.meta["lowercase"]) != (
            text.src_lang,
            text.tgt_lang,
            text.lowercase,
        ):
            return Text(
                N_("{path} tokenizes as {index}, the model as {model}"),
                path=self.path.name,
                index={**languages, "lowercase": self.meta["lowercase"]},
                model=asdict(text),
            )
        split = self.meta["split"]
        if (split["valid_percent"], split["test_percent"]) != (
            data.valid_percent,
            data.test_percent,
        ):
            return Text(
                N_(
                    "{path} holds out {index_valid}% + {index_test}% of the corpus, the model "
                    "{valid}% + {test}%: its training split would be another"
                ),
                path=self.path.name,
                index_valid=split["valid_percent"],
                index_test=split["test_percent"],
                valid=data.valid_percent,
                test=data.test_percent,
            )
        return None

    def rows(self, query: str, source: str) -> list[tuple]:
        """``(id, first_tokens, second_tokens, links)`` of the pairs that the FTS5 ``query``
        matches and that are in the training split with ``source`` the source column, by id."""
        sql = (
            "SELECT id, first_tokens, second_tokens, links FROM pairs "
            f"WHERE id IN (SELECT rowid FROM words WHERE words MATCH ?) AND split_{source} = 0 "
            "ORDER BY id"
        )
        with self._lock:
            return self._db.execute(sql, (query,)).fetchall()

    def split_pairs(self, source: str, split: str) -> list[tuple[int, list[str], list[str]]]:
        """``(id, source tokens, target tokens)`` of every pair in ``split`` ("train", "valid"
        or "test") when ``source`` is the source column, by id."""
        target = COLUMNS[1 - COLUMNS.index(source)]
        sql = (
            f"SELECT id, {source}_tokens, {target}_tokens FROM pairs "
            f"WHERE split_{source} = ? ORDER BY id"
        )
        with self._lock:
            rows = self._db.execute(sql, (SPLITS.index(split),)).fetchall()
        return [(n, src.split(" "), tgt.split(" ")) for n, src, tgt in rows]

    def by_id(self, ids: Sequence[int]) -> list[tuple]:
        """The rows of :meth:`rows` of the pairs numbered ``ids``, in that order."""
        marks = ", ".join("?" * len(ids))
        sql = f"SELECT id, first_tokens, second_tokens, links FROM pairs WHERE id IN ({marks})"
        with self._lock:
            found = {row[0]: row for row in self._db.execute(sql, tuple(ids))}
        return [found[i] for i in ids if i in found]

    def is_frequent(self, source: str, token: str) -> bool:
        """Whether ``token`` is in the ``frequent`` table: in :data:`FREQUENT` training pairs
        or more (one row read, where :meth:`frequent` reads and sorts every key's)."""
        sql = "SELECT 1 FROM frequent WHERE source = ? AND token = ? LIMIT 1"
        with self._lock:
            return self._db.execute(sql, (source, token)).fetchone() is not None

    def frequent(self, source: str, token: str) -> list[tuple[tuple, int, list[int]]]:
        """``(key, count, first pair ids)`` of every key of ``token`` in the ``frequent``
        table, most frequent first; empty when the token has fewer than :data:`FREQUENT`
        training pairs."""
        sql = "SELECT key, count, examples FROM frequent WHERE source = ? AND token = ?"
        with self._lock:
            found = self._db.execute(sql, (source, token)).fetchall()
        return sorted(
            (
                (tuple(key.split(" ")) if key else (), n, [int(i) for i in examples.split()])
                for key, n, examples in found
            ),
            key=lambda x: (-x[1], x[0]),
        )


def source_column(data: DataConfig) -> tuple[str, str]:
    """The index's names of a model's source and target columns."""
    return (COLUMNS[1], COLUMNS[0]) if data.source_column == 2 else COLUMNS


def phrase(column: str, tokens: Sequence[str]) -> str:
    """An FTS5 query for ``tokens`` in a row, one after the other, in ``column``."""
    quoted = " ".join(tokens).replace('"', '""')
    return f'{column}_tokens : "{quoted}"'
