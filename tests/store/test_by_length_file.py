"""Scores by source length on disk: the JSON written whole, read back, and told stale when
the checkpoints it scored change."""

from __future__ import annotations

import shutil

import pytest

from attnviz.store.by_length_file import is_current, load_result, read_result, save_result
from attnviz.store.checkpoint import file_sha256

from ..length_results import hand_length_result


@pytest.fixture
def checkpoints(tmp_path):
    """Two stand-in checkpoint files and a result that scored them as they are."""
    paths = [tmp_path / "encdec.safetensors", tmp_path / "luong.safetensors"]
    for k, path in enumerate(paths):
        path.write_bytes(bytes([k]) * 100)
    sha = {p.stem: file_sha256(p) for p in paths}
    return paths, hand_length_result({"encdec": "none", "luong": "general"}, sha256=sha)


def test_a_saved_result_reads_back_the_same_and_leaves_no_temporary_file(checkpoints, tmp_path):
    _, result = checkpoints
    path = tmp_path / "why-attention.json"
    save_result(result, path)
    assert load_result(path) == result
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_result_is_current_until_a_checkpoint_changes(checkpoints, tmp_path):
    paths, result = checkpoints
    assert is_current(result, paths) and is_current(result, paths[::-1])
    assert not is_current(result, paths[:1])  # a model fewer
    other = tmp_path / "bahdanau.safetensors"
    shutil.copy(paths[1], other)
    assert not is_current(result, [*paths, other])  # a model more
    assert not is_current(result, [paths[0], other])  # another model
    with paths[1].open("ab") as f:
        f.write(b"\0")
    assert not is_current(result, paths)
    paths[0].unlink()
    assert not is_current(result, paths)


@pytest.mark.parametrize(
    "content, message",
    [("{", "Expecting"), ('{"format": "attnviz-checkpoint/1"}', "not a by-length result")],
)
def test_a_file_that_is_not_a_result_is_refused_with_its_name(tmp_path, content, message):
    path = tmp_path / "why-attention.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as e:
        load_result(path)
    assert str(path) in str(e.value)
    assert read_result(path) is None and read_result(tmp_path / "missing.json") is None
