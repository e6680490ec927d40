"""Every ``attnviz.…`` name written in the package's docstrings and comments, the dashboard's,
the benchmarks' and the docs resolves to a module or an object: a rename cannot leave a
reference pointing nowhere (what Sphinx's nitpicky mode does for a documented project)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
REFERENCE = re.compile(r"\battnviz(?:\.[A-Za-z_]\w*)+")
WRITTEN = ["attnviz/**/*.py", "attnviz_ui/*.py", "dashboard.py", "benchmarks/**/*.py", "docs/*.md"]


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


def test_every_attnviz_reference_in_code_and_docs_resolves():
    files = sorted({p for pattern in [*WRITTEN, "README.md"] for p in ROOT.glob(pattern)})
    assert len(files) > 50
    written = {
        (str(path.relative_to(ROOT)), name)
        for path in files
        for name in REFERENCE.findall(path.read_text(encoding="utf-8"))
    }
    assert len(written) > 100
    broken = sorted(f"{path}: {name}" for path, name in written if not resolves(name))
    assert broken == []
