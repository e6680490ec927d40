"""The benchmark scripts as modules: benchmarks/ is a folder of scripts, not a package."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from ..helpers import ROOT


def benchmark(name: str) -> ModuleType:
    """``benchmarks/<folder>/<name>.py``, imported under ``name`` (registered, as its dataclasses
    and its sibling imports need), once."""
    if name not in sys.modules:
        (path,) = (ROOT / "benchmarks").glob(f"*/{name}.py")  # one script of that name
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
