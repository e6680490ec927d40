"""The precision a model decodes in (:mod:`attnviz.model.low_precision` stores it): as given,
or for "auto" the fastest on this machine. Which is fastest depends on the machine (fbgemm's
int8 kernels, native bf16, a GPU), so "auto" does not guess: :func:`probe_decoding` times a
model of the shipped size at each precision the device can decode in, once per process and
once per machine, and "auto" takes the fastest of
:data:`~attnviz.model.low_precision.EXACT_ATTENTION`, which keep the attention weights fp32's,
on every surface (:func:`resolve_decoding`).
"""

from __future__ import annotations

import copy
import functools
import os

import torch

from ..model.build import build_model
from ..model.interface import DecodingModel
from ..model.low_precision import EXACT_ATTENTION, PRECISIONS, for_decoding
from ..model.model_config import ModelConfig
from ..model.precision import Precision, precision_names
from .machine import machine_key, native_bf16
from .probe import ProbeCache, ProbeResult, fastest_of, time_in_turn

DECODING = (Precision.AUTO, *PRECISIONS)
PROBE_STEPS = 12  # decoding steps of one timed translation
MEASURED = ProbeCache("decoding-precision")


def resolve_decoding(precision: Precision, device: torch.device | str = "cpu") -> Precision:
    """``"auto"`` -> the fastest precision on ``device`` that keeps the attention the trained
    model's own (:data:`EXACT_ATTENTION`), as :func:`probe_decoding` measured it, or as the
    environment variable ``ATTNVIZ_DECODING`` pins it among those; any other value as given.

    One policy for every surface (the command line, ``attnviz.load``, a handout and the page),
    so that a sentence gets the same words on each. "int8", faster still, moves the attention
    too: it is used only where it is named."""
    precision = Precision.among(precision, DECODING, "decoding precision")
    if precision != Precision.AUTO:
        return precision
    pinned = os.environ.get("ATTNVIZ_DECODING", "")
    if pinned:
        if pinned not in EXACT_ATTENTION:
            raise ValueError(
                f"ATTNVIZ_DECODING must be one of {precision_names(EXACT_ATTENTION)} (the "
                f"precisions that keep the attention the trained model's own), not {pinned!r}"
            )
        return Precision(pinned)
    return probe_decoding(device).fastest_among(EXACT_ATTENTION)


def decoding_choices(device: torch.device | str = "cpu") -> tuple[Precision, ...]:
    """The precisions ``device`` can decode in: int8 and int8-output on a CPU with fbgemm's
    kernels, bf16 on a CPU (natively or emulated) or a GPU with native bf16, and fp32
    everywhere."""
    device = torch.device(device)
    if device.type == "cpu":
        int8 = "fbgemm" in torch.backends.quantized.supported_engines
        return PRECISIONS if int8 else (Precision.FP32, Precision.BF16)
    return (Precision.FP32, Precision.BF16) if native_bf16(device) else (Precision.FP32,)


def probe_decoding(device: torch.device | str = "cpu") -> ProbeResult:
    """How fast each precision ``device`` can decode in (:func:`decoding_choices`) runs a
    model of the shipped size here, and the fastest: measured once per process and machine.

    The first call in a process reads the machine's entry in ``decoding-precision.json`` (see
    :class:`~attnviz.tuning.probe.ProbeCache`), keyed by processor and torch version; where
    it has none, an untrained model (embed 192, hidden 384, 8,000 pieces, tied embeddings,
    general attention: the shipped size) is stored at each precision and timed over greedy
    translations of ``PROBE_STEPS`` steps by :func:`~attnviz.tuning.probe.time_in_turn`
    (about a third of a second in all)."""
    device = torch.device(device)
    machine = machine_key(device)
    return MEASURED.get(machine, decoding_choices(device), lambda: _measure(device, machine))


def _measure(device: torch.device, machine: str) -> ProbeResult:
    """Time the precisions of :func:`decoding_choices` (see :func:`probe_decoding`)."""
    config = ModelConfig(
        8000, 8000, "general", embed=192, hidden=384, layers=1, dropout=0.0, scaled=True,
        tie_embeddings=True,
    )  # fmt: skip
    with torch.random.fork_rng(devices=[]):  # the caller's random numbers stay as they were
        torch.manual_seed(0)
        base = build_model(config).to(device).eval()
        models = {p: for_decoding(copy.deepcopy(base), p) for p in decoding_choices(device)}
    src = torch.arange(4, 4 + PROBE_STEPS, device=device)[None]  # (1, S)
    src_lens = torch.tensor([PROBE_STEPS])
    runs = {p: functools.partial(_greedy, model, src, src_lens) for p, model in models.items()}
    ms = time_in_turn(runs, device)
    return ProbeResult(ms, fastest_of(ms), machine)


@torch.inference_mode()
def _greedy(model: DecodingModel, src: torch.Tensor, src_lens: torch.Tensor) -> None:
    """One greedy translation of ``src``, PROBE_STEPS steps, by ``model``'s own encoder and
    steps."""
    memory, state = model.encode(src, src_lens)
    y = src[:, 0]
    for _ in range(PROBE_STEPS):
        step = model.step(y, state, memory)
        y, state = step.logits.argmax(-1), step.next_state()
