"""List every function longer than a limit, counted from ``def`` to its last line.

    python scripts/long_functions.py [--limit 60] [PATH ...]

With no path: the package, the dashboard's views and ``dashboard.py``. Exits 1 when one is found.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ("attnviz", "attnviz_ui", "dashboard.py")


def long_functions(path: Path, limit: int) -> list[tuple[int, str, int]]:
    """(line, qualified name, length) of each function in ``path`` over ``limit`` lines."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}."
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                length = child.end_lineno - child.lineno + 1
                if length > limit:
                    found.append((child.lineno, name[:-1], length))
            visit(child, name)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), "")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=[ROOT / p for p in PATHS], type=Path)
    ap.add_argument("--limit", type=int, default=60)
    a = ap.parse_args()
    files = [f for p in a.paths for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]
    found = 0
    for f in files:
        for line, name, length in long_functions(f, a.limit):
            print(f"{f.resolve().relative_to(ROOT)}:{line}: {name} {length} lines")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
