"""The checkpoints a folder offers, which of them to show first, and the models loaded from them."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..data.text import language_name
from .checkpoint import CheckpointError


class Checkpoint(NamedTuple):
    """One checkpoint file; a new version of the file is a new value (a new cache key)."""

    name: str  # the file name without ``.safetensors``: what the dashboard calls the model
    path: str
    mtime: float  # the file's modification time, in seconds since the epoch
    size: int  # bytes: with mtime, what tells one version of the file from the next

    @classmethod
    def at(cls, path: str | Path, name: str | None = None) -> Checkpoint:
        """The checkpoint at ``path`` as it is now (OSError when it cannot be looked at)."""
        st = os.stat(path)
        return cls(name or Path(path).stem, str(path), st.st_mtime, st.st_size)


def checkpoints(folder: str | Path) -> tuple[list[Checkpoint], dict[str, str]]:
    """The ``*.safetensors`` files of ``folder`` sorted by name (none when it is missing), and
    those that cannot even be looked at (a dangling link, say) by name -> why."""
    found, failed = [], {}
    for p in sorted(Path(folder).glob("*.safetensors")):
        try:
            found.append(Checkpoint.at(p))
        except OSError as e:
            failed[p.stem] = f"cannot read {p}: {e.strerror or e}"
    return found, failed


class Models:
    """The model of each checkpoint file, loaded once and shared by every caller.

    One entry per file: a new version (mtime or size) replaces the old model instead of joining
    it. A file that fails to load is remembered with its message until it changes, so a bad file
    costs one attempt, not one per page view. Loads are serialized: two sessions asking for the
    same new file load it once.
    """

    def __init__(self, loader: Callable):
        self._loader = loader  # path -> model; raises CheckpointError
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[Checkpoint, object]] = {}  # path -> (version, model|error)

    def get(self, checkpoint: Checkpoint):
        """The model of ``checkpoint``; raises its :class:`CheckpointError` when it did not load."""
        with self._lock:
            version, value = self._entries.get(checkpoint.path, (None, None))
            if version != checkpoint:
                try:
                    value = self._loader(checkpoint.path)
                except CheckpointError as e:
                    value = e
                self._entries[checkpoint.path] = (checkpoint, value)
        if isinstance(value, CheckpointError):
            raise value
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def loaded(self) -> list:
        """The models loaded so far (not the failures)."""
        with self._lock:
            values = [value for _version, value in self._entries.values()]
        return [v for v in values if not isinstance(v, CheckpointError)]


class Direction(NamedTuple):
    """What a model reads and what it writes: two language codes, as its TextConfig has them."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"{language_name(self.source)} → {language_name(self.target)}"


ENGLISH_FRENCH = Direction("en", "fr")  # the first pair shipped, listed first

# What each column opens on, in order of preference: the subword pair, then the word-level pair
# (and the names the word-level files had before both pairs shipped).
OPENING = (
    ("bahdanau-pieces", "bahdanau-words", "bahdanau"),
    ("luong-pieces", "luong-words", "luong"),
)


def by_direction(
    found: list[Checkpoint], direction_of: Callable[[Checkpoint], Direction]
) -> dict[Direction, list[Checkpoint]]:
    """``found`` grouped by the direction each translates in, English → French first, the
    others in the order their first model comes."""
    groups: dict[Direction, list[Checkpoint]] = {}
    for checkpoint in found:
        groups.setdefault(direction_of(checkpoint), []).append(checkpoint)
    first = [d for d in groups if d == ENGLISH_FRENCH]
    return {d: groups[d] for d in [*first, *(d for d in groups if d != ENGLISH_FRENCH)]}


def opening(direction: Direction) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the two columns open on in ``direction``: :data:`OPENING` for English → French,
    else ``bahdanau-SRC-TGT`` and ``luong-SRC-TGT`` (``bahdanau-zh-en``)."""
    if direction == ENGLISH_FRENCH:
        return OPENING
    tag = f"{direction.source}-{direction.target}"
    return (f"bahdanau-{tag}",), (f"luong-{tag}",)


def default_index(names: list[str], wanted: tuple[str, ...], fallback: int) -> int:
    """Where the first of ``wanted`` that ``names`` has is, else ``fallback`` (the last name
    when there are fewer): by :data:`OPENING`, the left column opens on Bahdanau and the right
    on Luong, subword models first."""
    found = [names.index(name) for name in wanted if name in names]
    return found[0] if found else min(fallback, len(names) - 1)


def corpora(corpus: str | None, folder: str | None) -> list[str]:
    """The corpus files the dashboard may read a held-out split from: ``corpus`` (the file in
    ATTNVIZ_CORPUS) and the ``*.txt`` and ``*.tsv`` files of ``folder`` (ATTNVIZ_CORPORA),
    those that exist. A visitor picks among these; no path typed in the page is opened."""
    found = [Path(corpus)] if corpus else []
    if folder:
        found += sorted(p for p in Path(folder).glob("*") if p.suffix in (".txt", ".tsv"))
    return list(dict.fromkeys(str(p) for p in found if p.is_file()))


class Teaching(NamedTuple):
    """A natural model and a taught one fine-tuned from it with guided alignment
    (``train --init-from NATURAL --guide ...``)."""

    natural: Checkpoint
    taught: Checkpoint


def parent_digest(card: dict) -> str | None:
    """The sha256 of the file a taught model was fine-tuned from (its lineage's last entry), or
    None for a model its card does not call taught (no ``guide``)."""
    if "guide" not in card or not card.get("lineage"):
        return None
    return card["lineage"][-1].get("sha256")


def teaching_pair(
    chosen: Checkpoint,
    found: list[Checkpoint],
    card_of: Callable[[Checkpoint], dict],
    digest_of: Callable[[Checkpoint], str],
) -> Teaching | None:
    """``chosen`` with its partner among ``found``, told by the cards, never by file names: a
    taught model's natural parent is the file whose digest its lineage names; a natural
    model's taught partner is the first file (by name) whose lineage names its digest. None
    when there is no partner. ``card_of`` and ``digest_of`` (the file's sha256) are asked only
    as far as needed."""
    others = [c for c in found if c.path != chosen.path]
    parent = parent_digest(card_of(chosen))
    if parent is not None:
        natural = next((c for c in others if digest_of(c) == parent), None)
        return None if natural is None else Teaching(natural, chosen)
    own = digest_of(chosen)
    taught = next((c for c in others if parent_digest(card_of(c)) == own), None)
    return None if taught is None else Teaching(chosen, taught)
