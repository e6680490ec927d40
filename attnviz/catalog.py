"""The checkpoints a folder offers, and which of them to show first."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class Checkpoint(NamedTuple):
    """One checkpoint file; a new version of the file is a new value (a new cache key)."""

    name: str  # the file name without ``.safetensors``: what the dashboard calls the model
    path: str
    mtime: float  # the file's modification time, in seconds since the epoch


def checkpoints(folder: str | Path) -> list[Checkpoint]:
    """The ``*.safetensors`` files of ``folder``, sorted by name (none when it is missing)."""
    return [
        Checkpoint(p.stem, str(p), p.stat().st_mtime)
        for p in sorted(Path(folder).glob("*.safetensors"))
    ]


def default_index(names: list[str], wanted: str, fallback: int) -> int:
    """Where ``wanted`` is in ``names``, else ``fallback`` (the last name when there are
    fewer): the left column opens on Bahdanau and the right on Luong when they are there."""
    return names.index(wanted) if wanted in names else min(fallback, len(names) - 1)


def corpora(corpus: str | None, folder: str | None) -> list[str]:
    """The corpus files the dashboard may read a held-out split from: ``corpus`` (the file in
    ATTNVIZ_CORPUS) and the ``*.txt`` and ``*.tsv`` files of ``folder`` (ATTNVIZ_CORPORA),
    those that exist. A visitor picks among these; no path typed in the page is opened."""
    found = [Path(corpus)] if corpus else []
    if folder:
        found += sorted(p for p in Path(folder).glob("*") if p.suffix in (".txt", ".tsv"))
    return list(dict.fromkeys(str(p) for p in found if p.is_file()))
