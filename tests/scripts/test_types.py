"""The types of attnviz/, held by mypy as pyproject.toml's [tool.mypy] sets it (Python 3.10, the
oldest the package supports; third-party libraries without types named there one by one)."""

from __future__ import annotations

import shutil
import subprocess

from ..helpers import ROOT, unavailable


def test_mypy_finds_no_error_in_attnviz():
    mypy = shutil.which("mypy")
    if mypy is None:
        unavailable("mypy (requirements-dev.txt) is not installed")
    run = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
    assert "Success: no issues found" in run.stdout
