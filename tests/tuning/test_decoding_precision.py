"""The decoding precision "auto" takes: measured once per process and machine, never guessed."""

from __future__ import annotations

import json

import pytest
import torch

from attnviz.model.low_precision import EXACT_ATTENTION
from attnviz.tuning import decoding_precision as precision
from attnviz.tuning.decoding_precision import (
    DECODING,
    decoding_choices,
    probe_decoding,
    resolve_decoding,
)
from attnviz.tuning.machine import machine_key
from attnviz.tuning.probe import ProbeResult, fastest_of


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A process that has measured nothing yet, on a machine whose cache is ``tmp_path``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("ATTNVIZ_DECODING", raising=False)
    monkeypatch.setattr(precision.MEASURED, "_probes", {})
    return tmp_path / "attnviz" / "decoding-precision.json"


def fake_measure(ms: dict[str, float], calls: list[str]):
    def measure(device, machine):
        calls.append(machine)
        return ProbeResult(ms, fastest_of(ms), machine)

    return measure


def test_auto_takes_the_fastest_precision_that_keeps_the_attention_on_every_surface(
    machine, monkeypatch
):
    ms = {"fp32": 10.0, "bf16": 9.5, "int8": 3.0, "int8-output": 5.0}
    monkeypatch.setattr(precision, "_measure", fake_measure(ms, calls := []))
    assert resolve_decoding("auto") == "int8-output"  # int8, faster, moves the attention
    assert resolve_decoding("int8") == "int8"  # ... and is used where it is named
    probe = ProbeResult({"fp32": 10.0, "bf16": 9.5, "int8": 3.0}, "int8", "m")
    assert probe.fastest_among(EXACT_ATTENTION) == "fp32"
    monkeypatch.setenv("ATTNVIZ_DECODING", "bf16")
    assert resolve_decoding("auto") == "bf16" and len(calls) == 1
    monkeypatch.setenv("ATTNVIZ_DECODING", "int8")  # a pin that would move the attention
    with pytest.raises(ValueError, match="keep the attention"):
        resolve_decoding("auto")
    assert set(EXACT_ATTENTION) < set(DECODING) and "int8" not in EXACT_ATTENTION


def test_a_measurement_made_before_a_precision_was_added_is_made_again(machine, monkeypatch):
    four = ("fp32", "bf16", "int8", "int8-output")
    monkeypatch.setattr(precision, "decoding_choices", lambda device: four)
    ms = {"fp32": 9.0, "bf16": 8.0, "int8": 4.0, "int8-output": 3.0}
    monkeypatch.setattr(precision, "_measure", fake_measure(ms, calls := []))
    machine.parent.mkdir(parents=True)
    key = machine_key(torch.device("cpu"))
    old = {"ms": {"fp32": 9.0, "bf16": 8.0, "int8": 4.0}, "fastest": "int8"}  # no int8-output
    machine.write_text(json.dumps({key: old}))
    assert probe_decoding().fastest == "int8-output" and len(calls) == 1
    monkeypatch.setattr(precision.MEASURED, "_probes", {})  # a new process reads the complete one
    assert probe_decoding().fastest == "int8-output" and len(calls) == 1


def test_the_probe_times_every_precision_the_cpu_decodes_in(machine):
    probe = probe_decoding("cpu")
    assert set(probe.ms) == set(decoding_choices("cpu")) and "fp32" in probe.ms
    assert all(0 < t < 60_000 for t in probe.ms.values())
    assert probe.fastest == fastest_of(probe.ms)
    assert resolve_decoding("auto", "cpu") == probe.fastest_among(EXACT_ATTENTION)
    assert json.loads(machine.read_text())[probe.machine]["fastest"] == probe.fastest


def test_the_probe_leaves_the_callers_random_numbers_and_threads_alone(machine):
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        torch.manual_seed(3)
        expected = torch.rand(4)
        torch.manual_seed(3)
        probe_decoding("cpu")
        assert torch.equal(torch.rand(4), expected) and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)


def test_auto_is_measured_once_per_process(machine, monkeypatch):
    calls: list[str] = []
    ms = {"fp32": 9.0, "int8": 3.0, "int8-output": 4.0}
    monkeypatch.setattr(precision, "_measure", fake_measure(ms, calls))
    assert [resolve_decoding("auto") for _ in range(3)] == ["int8-output"] * 3
    assert len(calls) == 1


def test_a_new_process_reads_the_machines_measurement(machine, monkeypatch):
    calls: list[str] = []
    ms = {"fp32": 9.0, "bf16": 3.0, "int8": 4.0, "int8-output": 5.0}  # every choice timed
    monkeypatch.setattr(precision, "_measure", fake_measure(ms, calls))
    assert resolve_decoding("auto") == "bf16"
    monkeypatch.setattr(precision.MEASURED, "_probes", {})  # a new process on the same machine
    assert resolve_decoding("auto") == "bf16" and len(calls) == 1


def test_another_machines_measurement_or_a_corrupt_file_is_measured_again(machine, monkeypatch):
    calls: list[str] = []
    ms = {"fp32": 9.0, "int8": 3.0, "int8-output": 4.0}
    monkeypatch.setattr(precision, "_measure", fake_measure(ms, calls))
    machine.parent.mkdir(parents=True)
    machine.write_text(json.dumps({"another CPU": {"ms": {"fp32": 1.0}, "fastest": "bf16"}}))
    assert resolve_decoding("auto") == "int8-output" and len(calls) == 1
    assert set(json.loads(machine.read_text())) == {"another CPU", calls[0]}  # both kept
    monkeypatch.setattr(precision.MEASURED, "_probes", {})
    machine.write_text("{not json")
    assert resolve_decoding("auto") == "int8-output" and len(calls) == 2


@pytest.mark.parametrize("given", DECODING[1:])
def test_a_precision_given_is_taken_as_it_is_without_measuring(machine, monkeypatch, given):
    monkeypatch.setattr(precision, "_measure", fake_measure({"fp32": 1.0}, calls := []))
    assert resolve_decoding(given) == given and not calls and not machine.exists()


def test_the_environment_pins_auto(machine, monkeypatch):
    monkeypatch.setattr(precision, "_measure", fake_measure({"fp32": 1.0}, calls := []))
    monkeypatch.setenv("ATTNVIZ_DECODING", "bf16")
    assert resolve_decoding("auto") == "bf16" and not calls
    monkeypatch.setenv("ATTNVIZ_DECODING", "fast")
    with pytest.raises(ValueError, match="fp32"):
        resolve_decoding("auto")
