"""The precision a model trains in: fp32, or bf16 autocast (bf16 products, fp32 weights and
optimizer; :func:`attnviz.model.autocast.autocast`). bfloat16 keeps fp32's exponent range with
an 8-bit mantissa; on CPUs with AVX-512 BF16 or AMX its matrix products run several times
faster than fp32."""

from __future__ import annotations

import torch

from .machine import native_bf16

TRAINING = ("auto", "fp32", "bf16")


def resolve_training(precision: str, device: torch.device | str = "cpu") -> str:
    """``"auto"`` -> ``"bf16"`` where :func:`~attnviz.tuning.machine.native_bf16`, else
    ``"fp32"``."""
    if precision not in TRAINING:
        raise ValueError(f"training precision must be one of {TRAINING}, not {precision!r}")
    if precision == "auto":
        return "bf16" if native_bf16(device) else "fp32"
    return precision
