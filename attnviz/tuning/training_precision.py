"""The precision a model trains in: fp32, or bf16 autocast (bf16 products, fp32 weights and
optimizer; :func:`attnviz.model.autocast.autocast`). bfloat16 keeps fp32's exponent range with
an 8-bit mantissa.

Whether bf16 trains faster is the machine's to say, not its flags': on AMD EPYCs with native
bf16 it trains the shipped size about 1.7x faster than fp32, on an Intel Xeon with AVX-512 BF16
but no AMX about 1.3x slower (issue 54). So "auto" does not guess where bf16 is native: it times
a few updates of the model being trained in each precision (:func:`probe_training`), once per
machine and model shape, and takes the faster. Where bf16 is emulated it is always the slower,
and "auto" is fp32 without a probe.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch

from ..model.precision import Precision
from .machine import machine_key, native_bf16
from .probe import ProbeCache, ProbeResult, fastest_of, time_in_turn

TRAINING = (Precision.AUTO, Precision.FP32, Precision.BF16)
CHOICES = (Precision.FP32, Precision.BF16)  # what "auto" chooses between
MEASURED = ProbeCache("training-precision")


def resolve_training(
    precision: Precision,
    device: torch.device | str = "cpu",
    update: Callable[[Precision], object] | None = None,
    shape: str = "",
) -> Precision:
    """``"auto"`` -> fp32 where bf16 is not native on ``device``; where it is, the faster of
    fp32 and bf16 as :func:`probe_training` times ``update`` (one training update in the
    precision it is given) for a model of ``shape``. Any other value as given."""
    precision = Precision.among(precision, TRAINING, "training precision")
    if precision != Precision.AUTO:
        return precision
    if not native_bf16(device):
        return Precision.FP32
    if update is None:
        raise ValueError("auto training precision needs the update to time where bf16 is native")
    return probe_training(device, update, shape).fastest


def probe_training(
    device: torch.device | str, update: Callable[[Precision], object], shape: str
) -> ProbeResult:
    """How long ``update("fp32")`` and ``update("bf16")`` take on ``device``, and the faster
    (bf16 only where it saves a tenth of fp32's time: see
    :func:`~attnviz.tuning.probe.fastest_of`): measured once per process and once per machine
    and ``shape`` (the file ``training-precision.json``; see
    :class:`~attnviz.tuning.probe.ProbeCache`), in turn by
    :func:`~attnviz.tuning.probe.time_in_turn` (one thread's CPU time on a CPU), a few seconds
    at the shipped size."""
    device = torch.device(device)
    machine = f"{machine_key(device)}; {shape}" if shape else machine_key(device)

    def measure() -> ProbeResult:
        ms = time_in_turn({p: functools.partial(update, p) for p in CHOICES}, device)
        return ProbeResult(ms, fastest_of(ms), machine)

    return MEASURED.get(machine, CHOICES, measure)
