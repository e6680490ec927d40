"""Alignment priors on disk: one gzip'd text file beside the checkpoints, never pickle.

    attnviz-eflomal-priors/1                      the format
    {"corpus": {"sha256": …}, "command": …, …}    what made them (JSON, one line)
    LEX<TAB>cat<TAB>chat<TAB>412                  eflomal's priors, one per line
    …

Below the two header lines the file is eflomal's own priors format (see
:mod:`attnviz.analysis.eflomal_priors`), so ``eflomal-align --priors`` can read it once the
header is cut off. Written atomically (a temporary file renamed into place) and byte for byte
the same for the same priors. gzip's checksum catches a corrupt file, the counts in the header
a truncated one.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Generator, Iterator
from pathlib import Path

from ..analysis.eflomal_priors import KINDS, Priors, check_meta, from_lines
from ..files import atomic_write

FORMAT = "attnviz-eflomal-priors/1"
MAX_BYTES = 1 << 30  # the most text a priors file may unpack to: a bigger one is refused


class PriorsError(ValueError):
    """A priors file that cannot be used; the message names the file and the problem."""


def save_priors(priors: Priors, path: str | Path) -> int:
    """Write ``priors`` to ``path`` atomically; returns the file's size in bytes."""
    body = "".join(line + "\n" for line in priors.lines())
    meta = {**priors.meta, "counts": priors.counts()}
    text = f"{FORMAT}\n{json.dumps(meta, ensure_ascii=False, sort_keys=True)}\n{body}"
    data = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    atomic_write(path, data)
    return len(data)


def read_meta(path: str | Path) -> dict:
    """What made the priors in ``path`` (the header alone, without reading the priors)."""
    lines = _lines(Path(path))
    try:
        return _header(Path(path), lines)[0]
    finally:
        lines.close()


def load_priors(path: str | Path) -> Priors:
    """The priors saved in ``path``; :class:`PriorsError` saying why a file cannot be used
    (missing, not attnviz priors, corrupt, truncated)."""
    path = Path(path)
    lines = _lines(path)
    try:
        meta, counts = _header(path, lines)
        try:
            priors = from_lines(meta, (line.rstrip("\n") for line in lines), first_line=3)
        except ValueError as e:
            raise PriorsError(f"{path}: corrupt priors: {e}") from None
    finally:
        lines.close()
    if priors.counts() != counts:
        raise PriorsError(
            f"{path}: the file is truncated or corrupt: its header counts {counts}, "
            f"it holds {priors.counts()}"
        )
    return priors


def _lines(path: Path) -> Generator[str, None, None]:
    """The text lines of a priors file; PriorsError for what is not one, or not whole."""
    if not path.is_file():
        raise PriorsError(f"{path}: no such priors file")
    with open(path, "rb") as f:
        head = f.read(64)
    if head[:2] != b"\x1f\x8b":
        if head.split(b"\t", 1)[0].decode("ascii", "replace") in KINDS:
            raise PriorsError(
                f"{path}: an eflomal priors file without attnviz's header (which corpus "
                "made it?); make one with `python -m attnviz priors`"
            )
        raise PriorsError(f"{path}: not an attnviz priors file (expected gzip'd {FORMAT})")
    return _read(path)


def _read(path: Path) -> Generator[str, None, None]:
    read = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8", newline="\n") as f:
            for line in f:
                read += len(line)
                if read > MAX_BYTES:
                    raise PriorsError(f"{path}: unpacks to more than {MAX_BYTES} bytes")
                yield line
    except (EOFError, OSError, UnicodeDecodeError, zlib.error, io.UnsupportedOperation) as e:
        raise PriorsError(f"{path}: the file is truncated or corrupt ({e})") from None


def _header(path: Path, lines: Iterator[str]) -> tuple[dict, dict[str, int]]:
    """The description and the counts of each kind that the first two lines give."""
    tag = next(lines, "").rstrip("\n")
    if tag != FORMAT:
        found = tag[:40] if tag.startswith("attnviz-") else "no attnviz format tag"
        raise PriorsError(f"{path}: not attnviz priors (expected {FORMAT}, found {found})")
    try:
        meta = check_meta(json.loads(next(lines, "")))
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise PriorsError(f"{path}: corrupt description of the priors ({e})") from None
    counts = meta.pop("counts", None)
    if not (isinstance(counts, dict) and set(counts) == set(KINDS)):
        raise PriorsError(f"{path}: the description does not count the priors of each kind")
    return meta, counts
