"""The checkpoints a folder offers, and which two the dashboard opens on."""

import os

from attnviz.catalog import Checkpoint, checkpoints, default_index


def test_checkpoints_are_the_safetensors_files_by_name(tmp_path):
    for name in ("luong", "bahdanau"):
        (tmp_path / f"{name}.safetensors").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    found = checkpoints(tmp_path)
    assert [c.name for c in found] == ["bahdanau", "luong"]
    assert found[0].path == str(tmp_path / "bahdanau.safetensors")
    assert checkpoints(tmp_path / "missing") == []


def test_a_new_version_of_a_file_is_a_new_checkpoint(tmp_path):
    path = tmp_path / "m.safetensors"
    path.write_bytes(b"x")
    before = checkpoints(tmp_path)[0]
    os.utime(path, (before.mtime + 10, before.mtime + 10))
    after = checkpoints(tmp_path)[0]
    assert after != before and after.mtime == before.mtime + 10
    assert isinstance(after, Checkpoint) and hash(after) != hash(before)


def test_the_columns_open_on_the_wanted_model_or_fall_back():
    names = ["bahdanau", "dot", "luong"]
    assert default_index(names, "luong", 1) == 2
    assert default_index(names, "concat", 1) == 1
    assert default_index(["only"], "luong", 1) == 0  # one model: both columns show it


def test_the_page_offers_only_configured_corpus_files(tmp_path):
    from attnviz.catalog import corpora

    (tmp_path / "a.txt").write_text("x\ty\n")
    (tmp_path / "b.tsv").write_text("x\ty\n")
    (tmp_path / "secret.key").write_text("no")
    single = tmp_path / "elsewhere.txt"
    single.write_text("x\ty\n")
    assert corpora(str(single), str(tmp_path)) == [
        str(single), str(tmp_path / "a.txt"), str(tmp_path / "b.tsv")
    ]  # fmt: skip
    assert corpora(str(tmp_path / "missing.txt"), None) == []
    assert corpora(None, None) == []
