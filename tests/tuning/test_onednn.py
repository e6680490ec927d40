"""oneDNN's cache of compiled products: bounded where a process starts, never on import."""

import os

import pytest

from attnviz.cli.main import main
from attnviz.tuning.onednn import CAPACITY

from ..helpers import fresh_python

CACHE = "ONEDNN_PRIMITIVE_CACHE_CAPACITY"


def test_importing_every_attnviz_module_changes_no_environment_variable():
    code = """
import importlib, os, pkgutil
before = dict(os.environ)
import attnviz
modules = pkgutil.walk_packages(attnviz.__path__, "attnviz.")
names = [m.name for m in modules if m.name != "attnviz.__main__"]  # runs the command line
for name in names:
    importlib.import_module(name)
print(len(names) > 60, sorted(set(os.environ.items()) ^ set(before.items())))
"""
    assert fresh_python(code, drop=CACHE) == "True []"


@pytest.mark.parametrize("outside, seen", [(None, str(CAPACITY)), ("300", "300")])
def test_the_command_line_bounds_onednns_cache_of_products_unless_told_otherwise(
    outside, seen, monkeypatch, tmp_path, capsys
):
    """Over length-bucketed bf16 batches, oneDNN's default cache of 1,024 compiled products
    (each with a bf16 copy of its weights) grew a training run to 4.7 GB."""
    monkeypatch.delenv(CACHE, raising=False)
    if outside:
        monkeypatch.setenv(CACHE, outside)
    assert main(["info", str(tmp_path / "missing.safetensors")]) == 2
    assert os.environ[CACHE] == seen
