"""List every ``attnviz.…`` dotted name written in the package's docstrings and comments, the
dashboard's, the benchmarks', the docs and the README that does not resolve to a module or an
object (what Sphinx's nitpicky mode does for a documented project), so that a rename cannot
leave a reference pointing nowhere.

    python scripts/check_references.py

Exits 1 when one is found. ``tests/scripts/test_check_references.py`` runs it with the suite.
"""

from __future__ import annotations

import importlib
import re
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


def main() -> int:
    sys.path.insert(0, str(ROOT))
    broken = sorted((path, name) for path, name in references() if not resolves(name))
    for path, name in broken:
        print(f"{path}: {name}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
