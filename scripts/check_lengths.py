"""List every function over 50 lines (from ``def`` to its last line) and every module over 400
lines in the package, the dashboard's views and ``dashboard.py``, except those that
``scripts/length_allowances.txt`` names with a reason; and every allowance that is no longer
needed, so that the list only shrinks.

    python scripts/check_lengths.py

Exits 1 when one is found. ``tests/scripts/test_check_lengths.py`` runs it with the suite.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ("attnviz", "attnviz_ui", "dashboard.py")
FUNCTION_LINES = 50
MODULE_LINES = 400
ALLOWANCES = ROOT / "scripts" / "length_allowances.txt"


def long_functions(path: Path, limit: int = FUNCTION_LINES) -> list[tuple[str, int]]:
    """(qualified name, length) of each function in ``path`` over ``limit`` lines."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}."
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                length = child.end_lineno - child.lineno + 1
                if length > limit:
                    found.append((name[:-1], length))
            visit(child, name)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), "")
    return found


def over_limits() -> dict[str, int]:
    """Each module (``path``) and function (``path:name``) over its limit, with its lines."""
    files = sorted(
        f for p in PATHS for f in ((ROOT / p).rglob("*.py") if (ROOT / p).is_dir() else [ROOT / p])
    )
    found = {}
    for f in files:
        path = str(f.relative_to(ROOT))
        lines = len(f.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LINES:
            found[path] = lines
        found.update({f"{path}:{name}": n for name, n in long_functions(f)})
    return found


def allowances(text: str | None = None) -> dict[str, str]:
    """The allowance file's entries: ``path[:function]`` and the reason given after ``|``
    (lines starting with ``#`` are comments). An entry without a reason is refused."""
    text = ALLOWANCES.read_text(encoding="utf-8") if text is None else text
    entries = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, reason = (part.strip() for part in line.partition("|"))
        if not reason:
            raise ValueError(f"{ALLOWANCES.name}: {name} gives no reason")
        entries[name] = reason
    return entries


def problems(found: dict[str, int], allowed: dict[str, str]) -> list[str]:
    """What is over its limit without an allowance, and each allowance no longer needed."""
    over = [
        f"{name}: {n} lines, not in {ALLOWANCES.name}"
        for name, n in found.items()
        if name not in allowed
    ]
    stale = [
        f"{name}: within its limit now; take it out of {ALLOWANCES.name}"
        for name in allowed
        if name not in found
    ]
    return sorted(over) + sorted(stale)


def main() -> int:
    found = problems(over_limits(), allowances())
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
