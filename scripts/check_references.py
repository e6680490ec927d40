"""List every reference that points nowhere, so that a rename or a move cannot leave one behind:

- every ``attnviz.…`` dotted name written in the package's docstrings and comments, the
  dashboard's, the benchmarks', the docs and the README that does not resolve to a module or an
  object (what Sphinx's nitpicky mode does for a documented project);
- every path under ``benchmarks/`` or ``scripts/``, or of a ``docs/*.py`` script, written in a
  tracked text file, that names no file or folder;
- every file under ``benchmarks/`` that the README of its folder (the nearest one up) does not
  name, and every ``docs/*.py`` script that no document names.

    python scripts/check_references.py

Exits 1 when one is found. ``tests/scripts/test_check_references.py`` runs it with the suite.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = re.compile(r"\battnviz(?:\.[A-Za-z_]\w*)+")
WRITTEN = (
    "attnviz/**/*.py",
    "attnviz_ui/*.py",
    "dashboard.py",
    "benchmarks/**/*.py",
    "docs/*.md",
    "README.md",
)


def resolves(name: str) -> bool:
    """Whether ``name`` is a module, or a path of attributes under the longest module it
    starts with."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attribute in parts[k:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def references() -> set[tuple[str, str]]:
    """(file, dotted name) of every reference written in :data:`WRITTEN`."""
    files = sorted({path for pattern in WRITTEN for path in ROOT.glob(pattern)})
    return {
        (str(path.relative_to(ROOT)), name)
        for path in files
        for name in REFERENCE.findall(path.read_text(encoding="utf-8"))
    }


PATH = re.compile(r"(?<![\w/.-])((?:benchmarks|scripts)/[\w./-]*\w|docs/[\w-]+\.py)")
TEXT = re.compile(r"\.(py|sh|md|txt|toml|conf|cfg|yml|yaml)$|^\.ci/|Dockerfile")
GENERATED = ("benchmarks/out",)  # written by the benchmarks, ignored by git


def tracked() -> list[str]:
    """The repository's tracked files, as paths relative to its root (a fresh clone's)."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [f for f in out.stdout.splitlines() if (ROOT / f).is_file()]


def missing_paths(files: list[str]) -> list[tuple[str, str]]:
    """(file, path) of each benchmarks/, scripts/ or docs/*.py path written in a text file of
    ``files`` that is neither a file or folder nor the start of one's name (``gold/zh-en`` for
    ``gold/zh-en.txt``)."""
    missing = []
    for f in files:
        if not TEXT.search(f) or f.startswith("checkpoints/"):
            continue
        for path in set(PATH.findall((ROOT / f).read_text(encoding="utf-8", errors="replace"))):
            path = path.rstrip(".")
            if path.startswith(GENERATED) or (ROOT / path).exists():
                continue
            if not any((ROOT / path).parent.glob(Path(path).name + "*")):
                missing.append((f, path))
    return sorted(missing)


def unnamed_files(files: list[str]) -> list[tuple[str, str]]:
    """(README, file) of each file under benchmarks/ that the nearest README.md above it does not
    name (by its name, or its path from the README's folder), and (docs, script) of each
    docs/*.py that no docs/*.md or README names, nor docs/figures.py where they name it."""
    unnamed = []
    for f in (f for f in files if f.startswith("benchmarks/")):
        folder = Path(f).parent
        while not (ROOT / folder / "README.md").is_file():
            folder = folder.parent
        readme = ROOT / folder / "README.md"
        if readme == ROOT / f:
            continue
        inside = Path(f).relative_to(folder)
        names = {inside.name, str(inside), f"{inside.parts[0]}/"}
        text = readme.read_text(encoding="utf-8")
        if not any(name in text for name in names):
            unnamed.append((str(readme.relative_to(ROOT)), str(inside)))
    docs = " ".join(
        (ROOT / f).read_text(encoding="utf-8")
        for f in files
        if f.endswith(".md") and (f.startswith("docs/") or "/" not in f)
    )
    if "docs/figures.py" in docs:  # the one entry point names the scripts it runs
        docs += (ROOT / "docs" / "figures.py").read_text(encoding="utf-8")
    scripts = (f for f in files if f.startswith("docs/") and f.endswith(".py"))
    unnamed += [("docs", f) for f in scripts if Path(f).name not in docs]
    return sorted(unnamed)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    broken = sorted((path, name) for path, name in references() if not resolves(name))
    files = tracked()
    found = [f"{path}: {name}" for path, name in broken]
    found += [f"{path}: {name} (no such file)" for path, name in missing_paths(files)]
    found += [f"{readme}: does not name {name}" for readme, name in unnamed_files(files)]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
