"""The scripts of ``scripts/`` as modules: a folder of scripts, not a package."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from ..helpers import ROOT


def script(name: str) -> ModuleType:
    """``scripts/<name>.py``, imported as a module of that name."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
