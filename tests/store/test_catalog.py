"""The checkpoints a folder offers, and which two the dashboard opens on."""

import os
from pathlib import Path

import pytest

from attnviz.store.catalog import (
    OPENING,
    Checkpoint,
    Direction,
    Models,
    Teaching,
    by_direction,
    checkpoints,
    default_index,
    opening,
    parent_digest,
    teaching_pair,
)
from attnviz.store.checkpoint import CheckpointError


def test_checkpoints_are_the_safetensors_files_by_name(tmp_path):
    for name in ("luong", "bahdanau"):
        (tmp_path / f"{name}.safetensors").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    found, failed = checkpoints(tmp_path)
    assert not failed
    assert [c.name for c in found] == ["bahdanau", "luong"]
    assert found[0].path == str(tmp_path / "bahdanau.safetensors")
    assert checkpoints(tmp_path / "missing") == ([], {})


def test_a_new_version_of_a_file_is_a_new_checkpoint(tmp_path):
    path = tmp_path / "m.safetensors"
    path.write_bytes(b"x")
    before = checkpoints(tmp_path)[0][0]
    os.utime(path, (before.mtime + 10, before.mtime + 10))
    after = checkpoints(tmp_path)[0][0]
    assert after != before and after.mtime == before.mtime + 10
    assert isinstance(after, Checkpoint) and hash(after) != hash(before)


def test_the_columns_open_on_the_subword_pair_then_the_word_pair_or_fall_back():
    shipped = ["bahdanau-pieces", "bahdanau-words", "luong-pieces", "luong-words"]
    assert [default_index(shipped, wanted, k) for k, wanted in enumerate(OPENING)] == [0, 2]
    words = ["bahdanau-words", "dot", "luong-words"]
    assert [default_index(words, wanted, k) for k, wanted in enumerate(OPENING)] == [0, 2]
    assert default_index(["bahdanau", "dot", "luong"], OPENING[1], 1) == 2  # the older names
    assert default_index(["bahdanau", "dot", "concat"], OPENING[1], 1) == 1
    assert default_index(["only"], OPENING[1], 1) == 0  # one model: both columns show it


def test_checkpoints_group_by_direction_english_french_first_and_open_on_their_pair():
    found = [Checkpoint(n, n, 0.0, 1) for n in ("bahdanau-zh-en", "luong", "luong-zh-en")]
    zh_en, en_fr = Direction("zh", "en"), Direction("en", "fr")
    groups = by_direction(found, lambda c: zh_en if c.name.endswith("zh-en") else en_fr)
    assert list(groups) == [en_fr, zh_en] and [str(d) for d in groups] == [
        "English → French",
        "Chinese → English",
    ]
    assert [c.name for c in groups[zh_en]] == ["bahdanau-zh-en", "luong-zh-en"]
    assert opening(en_fr) == OPENING
    assert opening(zh_en) == (("bahdanau-zh-en",), ("luong-zh-en",))


def test_the_page_offers_only_configured_corpus_files(tmp_path):
    from attnviz.store.catalog import corpora

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


def test_a_dangling_link_is_reported_and_the_other_files_stay(tmp_path):
    (tmp_path / "good.safetensors").write_bytes(b"x")
    (tmp_path / "gone.safetensors").symlink_to(tmp_path / "nowhere")
    found, failed = checkpoints(tmp_path)
    assert [c.name for c in found] == ["good"]
    assert list(failed) == ["gone"] and "gone.safetensors" in failed["gone"]


class CountingLoader:
    """Loads a file as its bytes, refusing those that start with "bad"; counts the loads."""

    def __init__(self):
        self.calls = 0

    def __call__(self, path: str):
        self.calls += 1
        data = Path(path).read_bytes()
        if data.startswith(b"bad"):
            raise CheckpointError(f"{path}: bad")
        return data


def _version(path) -> Checkpoint:
    return next(c for c in checkpoints(path.parent)[0] if c.path == str(path))


def test_models_keep_one_model_per_file_across_versions(tmp_path):
    path, loader = tmp_path / "m.safetensors", CountingLoader()
    models = Models(loader)
    for k in range(4):  # touched four times: four versions of one file
        path.write_bytes(b"v" * (k + 1))
        assert models.get(_version(path)) == b"v" * (k + 1)
        assert models.get(_version(path)) == b"v" * (k + 1)
    assert loader.calls == 4 and len(models) == 1


def test_a_failure_is_cached_until_the_file_changes(tmp_path):
    path, loader = tmp_path / "m.safetensors", CountingLoader()
    models = Models(loader)
    path.write_bytes(b"bad")
    for _ in range(3):
        with pytest.raises(CheckpointError, match="bad"):
            models.get(_version(path))
    assert loader.calls == 1
    path.write_bytes(b"good now")
    assert models.get(_version(path)) == b"good now" and loader.calls == 2


def _at(name: str) -> Checkpoint:
    return Checkpoint(name, f"/m/{name}.safetensors", 0.0, 1)


NATURAL_CARD = {"lineage": [{"sha256": "older"}]}  # itself continued, but not taught
TAUGHT_CARD = {"guide": {"teacher": "eflomal"}, "lineage": [{"sha256": "digest-of-nat"}]}


def _cards(names: dict[str, dict]):
    return lambda c: names[c.name]


def test_a_natural_model_and_its_taught_partner_find_each_other_by_their_cards():
    nat, other, taught = _at("nat"), _at("other"), _at("a-name-that-says-nothing")
    found = [taught, nat, other]
    card_of = _cards({"nat": NATURAL_CARD, "other": {}, taught.name: TAUGHT_CARD})
    digests = {"nat": "digest-of-nat", "other": "x", taught.name: "y"}

    def digest(c: Checkpoint) -> str:
        return digests[c.name]

    assert teaching_pair(nat, found, card_of, digest) == Teaching(nat, taught)
    assert teaching_pair(taught, found, card_of, digest) == Teaching(nat, taught)
    assert teaching_pair(other, found, card_of, digest) is None
    assert teaching_pair(taught, [taught, other], card_of, digest) is None  # parent missing
    assert parent_digest(NATURAL_CARD) is None and parent_digest(TAUGHT_CARD) == "digest-of-nat"
