"""The layers of attnviz/ and the roles of attnviz_ui/, as .importlinter states them, held by
import-linter on every import of the two packages."""

from __future__ import annotations

import shutil
import subprocess

from ..helpers import ROOT, unavailable


def test_every_import_keeps_the_layers_and_the_core_imports_nothing_of_the_page():
    lint = shutil.which("lint-imports")
    if lint is None:
        unavailable("import-linter (requirements-dev.txt) is not installed")
    run = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    assert "3 kept, 0 broken" in run.stdout
