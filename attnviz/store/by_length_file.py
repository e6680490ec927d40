"""Scores by source length on disk: the JSON that ``attnviz evaluate --by-length --json`` writes
beside the checkpoints (``checkpoints/why-attention.json``), for the dashboard to show without
translating anything.

The file records each checkpoint's sha256, so that :func:`is_current` tells a result made from
other files than the ones there now. Written atomically, so a reader never sees half a file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..analysis.by_length import LengthResult
from ..files import atomic_write
from .checkpoint import file_sha256


def save_result(result: LengthResult, path: str | Path) -> None:
    """Write ``result`` to ``path`` as JSON, atomically."""
    text = json.dumps(result.to_json(), indent=1, ensure_ascii=False) + "\n"
    atomic_write(path, text.encode("utf-8"))


def load_result(path: str | Path) -> LengthResult:
    """The result saved in ``path``; ValueError naming the file when it is not one, OSError
    when it cannot be read."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return LengthResult.from_json(data)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError) as e:
        raise ValueError(f"{path}: {e}") from None


def read_result(path: str | Path) -> LengthResult | None:
    """The result saved in ``path``, or None when there is none to read there (no file, or a
    file that is not a result of this format): what to make again, not an error to show."""
    try:
        return load_result(path)
    except (OSError, ValueError):
        return None


def is_current(result: LengthResult, paths: Sequence[str | Path]) -> bool:
    """Whether ``result`` scores exactly the checkpoint files ``paths`` as they are now: the
    same names (file stems), each with the sha256 it was scored with. A missing file, a file
    changed since, or a model more or fewer makes it stale."""
    recorded = {m.name: m.sha256 for m in result.models}
    names = [Path(p).stem for p in paths]
    if sorted(names) != sorted(recorded):
        return False
    return all(Path(p).is_file() and file_sha256(p) == recorded[Path(p).stem] for p in paths)
