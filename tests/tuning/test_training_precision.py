"""The training precision "auto" takes (issue 54): where bf16 is native, the faster of fp32 and
bf16 as timed on updates of the model being trained, never the flags' guess."""

from __future__ import annotations

import json

import pytest
import torch

from attnviz.data.corpus import Batch, DataConfig
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.training import precision_choice
from attnviz.training.config import TrainConfig, TrainingRun
from attnviz.training.precision_choice import choose_precision
from attnviz.training.train import train
from attnviz.tuning import training_precision
from attnviz.tuning.training_precision import resolve_training

from ..helpers import TINY
from ..synthetic import corpus, write_corpus


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A process that has measured nothing, on a machine whose cache is ``tmp_path``, where
    bf16 is native."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(training_precision.MEASURED, "_probes", {})
    bf16_is_native(monkeypatch, True)
    return tmp_path / "attnviz" / "training-precision.json"


def bf16_is_native(monkeypatch, native: bool) -> None:
    """Whether bf16 is native, as both modules that ask see it, whatever this CPU is."""
    for module in (training_precision, precision_choice):
        monkeypatch.setattr(module, "native_bf16", lambda device="cpu": native)


def faked(monkeypatch, ms: dict[str, float]) -> list[dict]:
    """Make the probe's timer report ``ms``; returns the list of what it was asked to time."""
    calls = []

    def time_in_turn(runs, device):
        calls.append(runs)
        return dict(ms)

    monkeypatch.setattr(training_precision, "time_in_turn", time_in_turn)
    return calls


@pytest.mark.parametrize(
    ("ms", "chosen"),
    [
        ({"fp32": 100.0, "bf16": 60.0}, "bf16"),  # an AMD EPYC with native bf16
        ({"fp32": 100.0, "bf16": 130.0}, "fp32"),  # an Intel Xeon with AVX-512 BF16, no AMX
        ({"fp32": 100.0, "bf16": 95.0}, "fp32"),  # a tie within noise keeps fp32's numbers
    ],
)
def test_auto_follows_the_faster_precision_as_timed(machine, monkeypatch, ms, chosen):
    calls = faked(monkeypatch, ms)
    assert resolve_training("auto", "cpu", update=lambda p: None, shape="s") == chosen
    assert resolve_training("auto", "cpu", update=lambda p: None, shape="s") == chosen
    assert len(calls) == 1 and set(calls[0]) == {"fp32", "bf16"}  # measured once
    entry = json.loads(machine.read_text())
    assert [v["fastest"] for k, v in entry.items() if k.endswith("; s")] == [chosen]


def test_a_cpu_without_native_bf16_trains_in_fp32_without_a_probe(machine, monkeypatch):
    bf16_is_native(monkeypatch, False)
    calls = faked(monkeypatch, {"fp32": 100.0, "bf16": 10.0})
    assert resolve_training("auto", "cpu") == "fp32" and not calls
    assert resolve_training("bf16", "cpu") == "bf16"  # asked for, as asked
    with pytest.raises(ValueError, match="training precision"):
        resolve_training("int8")


def test_the_probe_times_real_updates_and_leaves_the_model_and_random_numbers_alone(machine):
    torch.manual_seed(0)
    model = Seq2Seq(ModelConfig(40, 40, "general", embed=8, hidden=16, dropout=0.1))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    src = torch.randint(4, 40, (6, 7))
    tgt = torch.randint(4, 40, (6, 5))
    batch = Batch(src, torch.full((6,), 7), tgt, tgt, 30, None)
    state = torch.random.get_rng_state()
    chosen, record = choose_precision(TrainConfig(), model, batch, torch.device("cpu"), False)
    assert torch.equal(torch.random.get_rng_state(), state)
    assert all(torch.equal(v, before[k]) for k, v in model.state_dict().items())
    assert record["asked"] == "auto" and record["chosen"] == chosen in ("fp32", "bf16")
    assert set(record["ms"]) == {"fp32", "bf16"} and all(t > 0 for t in record["ms"].values())
    assert "general E8 H16" in record["machine"]


def test_the_card_records_the_choice_and_the_run_trains_in_it(machine, monkeypatch, tmp_path):
    faked(monkeypatch, {"fp32": 100.0, "bf16": 50.0})
    path = tmp_path / "toy.txt"
    write_corpus(path, corpus(300, seed=4))
    run = TrainingRun(
        path,
        tmp_path / "m.safetensors",
        ModelConfig(attention="bahdanau", **TINY),
        data=DataConfig(subwords=0, min_freq=1),
        train=TrainConfig(epochs=1, bleu_sentences=5, test_beam=1, probe_sentences=0),
    )
    card = train(run, log=lambda *_: None)
    assert card["training_precision"] == {
        "asked": "auto", "chosen": "bf16", "ms": {"fp32": 100.0, "bf16": 50.0},
        "machine": card["training_precision"]["machine"],
    }  # fmt: skip
    assert card["train_config"]["precision"] == "bf16"
