"""A handout as a folder: ``index.html``, one page per sentence (``sentence-01.html``, ...), the
lesson's steps where one was built (``lesson-1.html``, ...) and the one ``plotly.min.js`` they
share; every file written atomically, and the folder zipped whole on request. Any static host
serves it, and it opens from ``file://`` with no network."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..decoding.trace import Trace
from ..files import atomic_write
from ..i18n import INTERFACE_LANGUAGES, catalog
from .lesson import Lesson
from .page import PLOTLY, Links, index_page, lesson_page, plotly_js, sentence_page


@dataclass(frozen=True)
class Handout:
    """What was written: the folder, its sentence pages and lesson pages in order, and the zip
    if one was asked for."""

    folder: Path
    pages: list[Path]
    zip: Path | None
    lesson: list[Path] = field(default_factory=list)

    def sizes(self) -> dict[str, int]:
        """Bytes of the whole folder, of the shared script, of its largest sentence page and
        of its largest lesson page (0 without a lesson)."""
        files = [p for p in self.folder.iterdir() if p.is_file()]
        return {
            "folder": sum(p.stat().st_size for p in files),
            "plotly": (self.folder / PLOTLY).stat().st_size,
            "largest_page": max(p.stat().st_size for p in self.pages),
            "largest_lesson_page": max((p.stat().st_size for p in self.lesson), default=0),
        }


def translations(language: str):
    """The catalog of ``language``; None for English, the language the text is written in."""
    if language not in INTERFACE_LANGUAGES:
        raise ValueError(f"language {language!r}: one of {', '.join(INTERFACE_LANGUAGES)}")
    return catalog(language)


def page_name(i: int, count: int) -> str:
    """The file of the i-th sentence (from 0): numbered so that a listing sorts in order."""
    return f"sentence-{i + 1:0{max(2, len(str(count)))}d}.html"


def lesson_name(k: int) -> str:
    """The file of the lesson's step ``k`` (from 0)."""
    return f"lesson-{k + 1}.html"


def write_handout(
    out: str | Path,
    sentences: list[list[tuple[str, Trace]]],
    language: str = "en",
    zip_path: str | Path | None = None,
    lesson: Lesson | None = None,
) -> Handout:
    """Write the site of ``sentences`` (for each, the (model name, Trace) pairs of its page) to
    the folder ``out``, in the language bound now (:func:`attnviz.i18n.bind`), with the pages
    of ``lesson`` beside them; with ``zip_path``, the folder zipped there too."""
    out = Path(out)
    count = len(sentences)
    names = [page_name(i, count) for i in range(count)]
    atomic_write(out / PLOTLY, plotly_js().encode())
    pages, entries = [], []
    for i, models in enumerate(sentences):
        links = Links(
            "index.html", names[i - 1] if i > 0 else None, names[i + 1] if i + 1 < count else None
        )
        html = sentence_page(models, language=language, links=links)
        atomic_write(out / names[i], html.encode())
        pages.append(out / names[i])
        entries.append((names[i], models[0][1].source, [(n, t.text) for n, t in models]))
    steps, titles = _write_lesson(out, lesson, language) if lesson else ([], None)
    atomic_write(out / "index.html", index_page(entries, language, titles).encode())
    if zip_path is not None:
        zip_path = Path(zip_path)
        files = [PLOTLY, "index.html", *names, *(p.name for p in steps)]
        atomic_write(zip_path, _zipped(out, files))
    return Handout(out, pages, zip_path, steps)


def _write_lesson(
    out: Path, lesson: Lesson, language: str
) -> tuple[list[Path], list[tuple[str, str]]]:
    """The lesson's pages, each linked to the index and to the steps before and after it; the
    files written, and (file name, numbered title) of each for the index."""
    count = len(lesson.pages)
    written, titles = [], []
    for k in range(count):
        links = Links(
            "index.html",
            lesson_name(k - 1) if k > 0 else None,
            lesson_name(k + 1) if k + 1 < count else None,
        )
        atomic_write(out / lesson_name(k), lesson_page(lesson, k, language, links).encode())
        written.append(out / lesson_name(k))
        titles.append((lesson_name(k), f"{k + 1}. {lesson.pages[k].title}"))
    return written, titles


def _zipped(folder: Path, names: list[str]) -> bytes:
    """The files ``names`` of ``folder``, zipped inside a folder of the same name."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            z.write(folder / name, f"{folder.name}/{name}")
    return buffer.getvalue()
