"""The reference check of ``scripts/check_references.py``, run with the suite."""

from __future__ import annotations

import importlib.util

from ..helpers import ROOT

SCRIPT = ROOT / "scripts" / "check_references.py"
spec = importlib.util.spec_from_file_location("check_references", SCRIPT)
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)


def test_every_attnviz_reference_in_code_and_docs_resolves():
    written = check.references()
    assert len({path for path, _ in written}) > 50 and len(written) > 100  # the files were read
    assert sorted(f"{path}: {name}" for path, name in written if not check.resolves(name)) == []


def test_a_stale_reference_is_found():
    assert check.resolves("attnviz.analysis.align.forced_words")
    assert check.resolves("attnviz.decoding")
    assert not check.resolves("attnviz.align.forced_words")  # the module moved into analysis/
    assert not check.resolves("attnviz.analysis.align.no_such_function")
