import json
import os
import pickle

import numpy as np
import pytest
import torch
from safetensors.torch import save_file

import attnviz
from attnviz.data.corpus import DataConfig
from attnviz.store import checkpoint
from attnviz.tuning.decoding_precision import decoding_choices

from ..helpers import fresh_python, needs_int8, tiny_transformer, tiny_translator

SENTENCES = ["the cat sees a dog .", "a big red house , the small cat"]


def _save(tr, path, data=DataConfig(subwords=0), **kw):
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, data, {"note": "x"}, **kw)


def test_a_word_level_file_from_before_subwords_loads_as_a_whole_word_model(tmp_path):
    tr = tiny_translator("bahdanau")
    path = tmp_path / "old.safetensors"
    _save(tr, path)
    tensors, meta = checkpoint.read_tensors(path)
    del meta["data_config"]["subwords"], meta["data_config"]["subword_model"]
    checkpoint.write_tensors(path, tensors, meta)
    loaded = attnviz.load(path)
    assert loaded.subwords is None and loaded.data.subwords == 0
    assert loaded.translate("the cat").pieces is None


def test_a_file_from_before_directions_reads_english_from_the_first_column(tmp_path):
    tr = tiny_translator("bahdanau")
    path = tmp_path / "old.safetensors"
    _save(tr, path)
    tensors, meta = checkpoint.read_tensors(path)
    del meta["data_config"]["source_column"]
    checkpoint.write_tensors(path, tensors, meta)
    loaded = attnviz.load(path, precision="fp32")
    assert loaded.data.source_column == 1
    assert (loaded.text.src_lang, loaded.text.tgt_lang) == ("en", "fr")
    for sentence in SENTENCES:
        assert loaded.translate(sentence).text == tr.translate(sentence).text


def test_subword_settings_without_their_models_are_refused(tmp_path):
    path = tmp_path / "m.safetensors"
    _save(tiny_translator("bahdanau"), path, data=DataConfig(subwords=300))
    with pytest.raises(attnviz.CheckpointError, match="subword"):
        attnviz.load(path)


def test_checkpoint_round_trip_keeps_translations(attention, tmp_path):
    tr = tiny_translator(attention, layers=2)
    path = tmp_path / "m.safetensors"
    _save(tr, path)
    loaded = attnviz.load(path, precision="fp32")
    assert loaded.model.config == tr.model.config and loaded.card["note"] == "x"
    for beam in (1, 3):
        for a, b in zip(
            tr.translate_batch(SENTENCES, beam=beam),
            loaded.translate_batch(SENTENCES, beam=beam),
            strict=True,
        ):
            assert a.tgt_tokens == b.tgt_tokens
            np.testing.assert_array_equal(a.weights, b.weights)


def test_half_precision_storage_halves_the_file_and_loads_at_the_asked_precision(tmp_path):
    tr = tiny_translator("general")
    _save(tr, tmp_path / "full.safetensors")
    _save(tr, tmp_path / "half.safetensors", half=True)
    full, half = (os.path.getsize(tmp_path / f) for f in ("full.safetensors", "half.safetensors"))
    assert half < 0.6 * full
    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16}  # int8's: qint8
    for precision in decoding_choices("cpu"):  # int8 where this CPU has its kernels
        dtype = dtypes.get(precision, torch.qint8)
        loaded = attnviz.load(tmp_path / "half.safetensors", precision=precision)
        assert loaded.precision == precision
        weight = loaded.model.generator.weight
        assert (weight() if callable(weight) else weight).dtype == dtype  # ao's is a method
        assert {p.dtype for p in loaded.model.parameters()} == {torch.float32}  # the rest


@needs_int8
def test_int8_decoding_quantizes_both_grus_and_the_output_layer(tmp_path):
    from torch.ao.nn.quantized import dynamic

    tr = tiny_translator("bahdanau", layers=2)
    _save(tr, tmp_path / "m.safetensors")
    model = attnviz.load(tmp_path / "m.safetensors", precision="int8").model
    assert isinstance(model.encoder.rnn, dynamic.GRU)
    assert isinstance(model.decoder.rnn, dynamic.GRU)
    assert model.generator.weight().dtype == torch.qint8


@needs_int8
@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_int8_output_quantizes_the_output_layer_alone_so_attention_stays_fp32s(tmp_path, attention):
    from torch.ao.nn.quantized import dynamic

    _save(tiny_translator(attention, seed=1), tmp_path / "m.safetensors")
    fp32, fast = (
        attnviz.load(tmp_path / "m.safetensors", precision=p) for p in ("fp32", "int8-output")
    )
    assert fast.precision == "int8-output"
    assert type(fast.model.encoder.rnn) is type(fast.model.decoder.rnn) is torch.nn.GRU
    output = fast.model.generator
    output = output[-1] if isinstance(output, torch.nn.Sequential) else output  # deep output
    assert isinstance(output, dynamic.Linear) and output.weight().dtype == torch.qint8
    sentence = "the red cat sees a big house ."
    exact, moved = (tr.align(sentence, sentence.upper()) for tr in (fp32, fast))
    np.testing.assert_array_equal(moved.weights, exact.weights)  # to the last bit
    np.testing.assert_allclose(moved.probs, exact.probs, atol=0.05)
    assert not np.array_equal(moved.probs, exact.probs)  # the output layer is int8


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "m.safetensors"
    _save(tiny_translator("bahdanau"), path)
    return path


def test_a_missing_file_is_named_in_the_error(tmp_path):
    with pytest.raises(attnviz.CheckpointError, match=r"nope\.safetensors: no such"):
        attnviz.load(tmp_path / "nope.safetensors")


def test_a_truncated_file_is_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(data[: len(data) // 2])
    with pytest.raises(attnviz.CheckpointError, match=f"{saved.name}.*(truncated|corrupt)"):
        attnviz.load(saved)


@pytest.mark.parametrize("read", [attnviz.load, checkpoint.load_without_weights])
def test_a_corrupted_weight_byte_is_caught_by_the_checksum(saved, read):
    data = bytearray(saved.read_bytes())
    data[-10] ^= 0xFF
    saved.write_bytes(bytes(data))
    with pytest.raises(attnviz.CheckpointError, match="checksum"):
        read(saved)


@needs_int8
@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_a_description_says_what_the_model_is_and_holds_no_weights(tmp_path, attention):
    path = tmp_path / "m.safetensors"
    _save(tiny_translator(attention), path)
    loaded, described = (
        attnviz.load(path, precision="int8"),
        checkpoint.load_without_weights(path, "int8"),
    )
    assert described.model.config == loaded.model.config
    assert described.card == loaded.card and described.text == loaded.text
    assert described.src_vocab.itos == loaded.src_vocab.itos
    assert described.tokenize_source(SENTENCES[0]) == loaded.tokenize_source(SENTENCES[0])
    assert described.precision == loaded.precision == "int8"
    assert {p.device.type for p in described.model.parameters()} == {"meta"}
    assert {p.device.type for p in loaded.model.parameters()} == {"cpu"}


def test_a_garbled_header_is_refused(saved):
    data = bytearray(saved.read_bytes())
    data[12:20] = b"\x00garbl\x00\x01"
    saved.write_bytes(bytes(data))
    with pytest.raises(attnviz.CheckpointError, match=saved.name):
        attnviz.load(saved)


class _Payload:
    """Unpickling this would create a file: proof that code ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.mark.parametrize("writer", ["pickle", "torch"])
def test_pickle_files_are_refused_and_their_payload_never_runs(tmp_path, writer):
    marker = tmp_path / "PWNED"
    path = tmp_path / "evil.safetensors"
    if writer == "pickle":
        path.write_bytes(pickle.dumps(_Payload(marker)))
    else:
        torch.save({"x": _Payload(marker)}, path)
    with pytest.raises(attnviz.CheckpointError, match="pickle"):
        attnviz.load(path)
    assert not marker.exists()


def test_a_foreign_safetensors_file_is_refused(tmp_path):
    path = tmp_path / "other.safetensors"
    save_file({"w": torch.zeros(2)}, path)
    with pytest.raises(attnviz.CheckpointError, match="not an attnviz checkpoint"):
        attnviz.load(path)


def _write_by_hand(path, tr, tensors, **config_changes):
    """An attnviz file written field by field, so that tests can break one field."""
    meta = {
        "model_config": {**tr.model.config.__dict__, **config_changes},
        "text_config": {},
        "data_config": {},
        "src_vocab": tr.src_vocab.itos,
        "tgt_vocab": tr.tgt_vocab.itos,
        "card": {},
    }
    checkpoint.write_tensors(path, tensors, meta)


@pytest.mark.parametrize("read", [attnviz.load, checkpoint.load_without_weights])
def test_weights_that_do_not_fit_the_configuration_are_refused(tmp_path, read):
    tr = tiny_translator("dot")
    tensors = {k: v for k, v in tr.model.state_dict().items() if "generator" not in k}
    path = tmp_path / "m.safetensors"
    _write_by_hand(path, tr, tensors)
    with pytest.raises(attnviz.CheckpointError, match="do not fit"):
        read(path)


@pytest.mark.parametrize("read", ["attnviz.load", "attnviz.store.checkpoint.load_without_weights"])
@pytest.mark.parametrize("model", ["gru", "transformer"])
def test_loading_checks_the_shapes_without_importing_torchs_compiler(tmp_path, read, model):
    # torch imports it (0.8–1.5 s, 70 MB) the first time normal_ fills a meta tensor, or arange
    # makes one: a third of the time `attnviz translate` took for one sentence, and more than
    # the dashboard's server took to describe every shipped model.
    path = tmp_path / "m.safetensors"
    _save(tiny_transformer() if model == "transformer" else tiny_translator("bahdanau"), path)
    load = f"import sys, attnviz, attnviz.store.checkpoint; {read}({str(path)!r})"
    code = f"{load}; print('torch._dynamo' in sys.modules)"
    assert fresh_python(code) == "False"


def test_a_saved_file_gets_the_permissions_a_plain_write_would(saved):
    mask = os.umask(0o022)
    os.umask(mask)
    assert saved.stat().st_mode & 0o777 == 0o666 & ~mask  # not the temporary's 0600


def test_a_crash_while_saving_leaves_the_previous_file_intact(saved, monkeypatch):
    before = saved.read_bytes()

    def crash(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="disk full"):
        _save(tiny_translator("general"), saved)
    assert saved.read_bytes() == before
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]  # no temporary file left


@pytest.mark.parametrize(
    "field,value", [("hidden", 32.0), ("attention", "cosine"), ("layers", None)]
)
def test_an_invalid_configuration_is_refused_with_a_checkpoint_error(tmp_path, field, value):
    tr = tiny_translator("dot")
    path = tmp_path / "m.safetensors"
    _write_by_hand(path, tr, tr.model.state_dict(), **{field: value})
    with pytest.raises(
        attnviz.CheckpointError, match=f"m.safetensors: missing or invalid configuration.*{field}"
    ):
        attnviz.load(path)


def test_a_killed_save_leaves_no_temporary_after_the_next_and_a_planted_link_is_not_followed(
    saved, tmp_path
):
    stale = saved.parent / f".{saved.name}.k1ll3d.tmp"  # what a SIGKILLed save leaves
    stale.write_bytes(b"half a file")
    (tmp_path / "other").mkdir()
    target = tmp_path / "other" / "elsewhere"
    target.write_bytes(b"keep me")
    (saved.parent / f".{saved.name}.{os.getpid()}.tmp").symlink_to(target)  # the old name
    _save(tiny_translator("general"), saved)
    assert sorted(p.name for p in saved.parent.iterdir()) == [saved.name, "other"]
    assert target.read_bytes() == b"keep me"
    assert attnviz.load(saved).model.config.attention == "general"


@pytest.mark.parametrize(
    "section,field,value",
    [
        ("model_config", "hidden", 2**40),
        ("model_config", "tgt_vocab", 10**7),
        ("text_config", "src_lang", ["en"]),
        ("card", "deep", "nest"),
    ],
)
def test_an_absurd_header_is_refused_before_anything_is_built(saved, section, field, value):
    tensors, meta = checkpoint.read_tensors(saved)
    if field == "deep":
        header = {"format": checkpoint.FORMAT, "digest": checkpoint.tensors_digest(tensors)}
        header.update({k: json.dumps(v) for k, v in meta.items()})
        header["card"] = "[" * 200_000 + "]" * 200_000
        save_file(tensors, str(saved), metadata=header)
    else:
        meta[section] = {**meta[section], field: value}
        checkpoint.write_tensors(saved, tensors, meta)
    # Building such a model would take minutes and gigabytes, then fail with a raw RuntimeError.
    with pytest.raises(attnviz.CheckpointError, match=str(saved)):
        attnviz.load(saved)


def test_a_checkpoint_whose_header_length_reads_as_a_zip_loads(tmp_path):
    """A safetensors file starts with its header's length: one of 19,280 bytes reads "PK", as
    a zip (torch.save) does, and is still a safetensors file."""
    path = tmp_path / "m.safetensors"
    tr = tiny_translator("bahdanau")
    _save(tr, path)
    for pad in range(19_280 - int.from_bytes(path.read_bytes()[:8], "little") + 8, 0, -1):
        checkpoint.write_card(path, {"pad": "x" * pad})
        if path.read_bytes()[:2] == b"PK":
            break
    assert path.read_bytes()[:2] == b"PK"
    assert attnviz.load(path, precision="fp32").card == {"pad": "x" * pad}
