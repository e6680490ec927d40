"""The reference check of ``scripts/check_references.py``, run with the suite."""

from __future__ import annotations

from ..helpers import ROOT
from .loaded import script

check = script("check_references")


def test_every_attnviz_reference_in_code_and_docs_resolves():
    written = check.references()
    assert len({path for path, _ in written}) > 50 and len(written) > 100  # the files were read
    assert sorted(f"{path}: {name}" for path, name in written if not check.resolves(name)) == []


def test_a_stale_reference_is_found():
    assert check.resolves("attnviz.analysis.align.forced_words")
    assert check.resolves("attnviz.decoding")
    assert not check.resolves("attnviz.align.forced_words")  # the module moved into analysis/
    assert not check.resolves("attnviz.analysis.align.no_such_function")


def test_every_written_benchmark_or_script_path_names_a_file():
    assert check.missing_paths(check.tracked()) == []


def test_every_benchmark_file_is_named_in_its_folders_readme_and_every_docs_script_in_the_docs():
    files = check.tracked()
    assert sum(f.startswith("benchmarks/") for f in files) > 40  # the tree was read
    assert check.unnamed_files(files) == []


def test_each_benchmarks_readme_is_short():
    """A folder's README names its files, their commands and last figures; the record of every
    run goes in a results.md beside it. (peers/joeynmt/'s README, its harness's manual, is
    longer.)"""
    readmes = [*sorted((ROOT / "benchmarks").glob("*/README.md")), ROOT / "benchmarks/README.md"]
    lengths = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in readmes
    }
    assert len(lengths) >= 5
    assert {path: n for path, n in lengths.items() if n > 150} == {}


def test_a_moved_file_and_an_unnamed_one_are_found(tmp_path, monkeypatch):
    folder = tmp_path / "benchmarks" / "speed"  # a tree of its own, its paths written in parts
    folder.mkdir(parents=True)
    (folder.parent / "README.md").write_text("[speed/](speed/README.md)\n")
    (folder / "README.md").write_text("`speed.py`: ...\n")
    for name in ("speed.py", "stray.py"):
        (folder / name).write_text("")
    moved, now = "/".join(("benchmarks", "speed.py")), "/".join(("benchmarks", "speed", "speed.py"))
    (tmp_path / "notes.md").write_text(f"run {moved}, then {now}\n")
    monkeypatch.setattr(check, "ROOT", tmp_path)
    files = [str(p.relative_to(tmp_path)) for p in sorted(tmp_path.rglob("*")) if p.is_file()]
    assert check.missing_paths(files) == [("notes.md", moved)]
    assert check.unnamed_files(files) == [
        (str(folder.relative_to(tmp_path) / "README.md"), "stray.py")
    ]
