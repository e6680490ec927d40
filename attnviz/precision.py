"""Numeric precision: fp32, or bfloat16 where the hardware computes it natively.

bfloat16 keeps fp32's exponent range with an 8-bit mantissa. On CPUs with AVX-512 BF16 or AMX
its matrix products run several times faster than fp32 and the weights take half the memory
traffic, which is what a decoding step of one sentence is bound by. Training uses it through
autocast (weights and optimizer stay fp32); inference converts the whole model.
"""

from __future__ import annotations

import contextlib
import functools

import torch

PRECISIONS = ("auto", "fp32", "bf16")


@functools.cache
def _cpu_flags() -> frozenset[str]:
    try:
        with open("/proc/cpuinfo") as f:
            line = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        return frozenset()
    return frozenset(line.partition(":")[2].split())


def native_bf16(device: torch.device | str = "cpu") -> bool:
    """Whether ``device`` runs bfloat16 matrix products natively (not emulated)."""
    device = torch.device(device)
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    return bool({"avx512_bf16", "amx_bf16"} & _cpu_flags())


def resolve(precision: str, device: torch.device | str = "cpu") -> str:
    """``"auto"`` -> ``"bf16"`` where :func:`native_bf16`, else ``"fp32"``; others unchanged."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
    if precision == "auto":
        return "bf16" if native_bf16(device) else "fp32"
    return precision


def dtype(precision: str) -> torch.dtype:
    """The parameter dtype of a resolved precision."""
    return torch.bfloat16 if precision == "bf16" else torch.float32


def autocast(precision: str, device: torch.device | str = "cpu"):
    """Mixed-precision context for training: bf16 products, fp32 weights. A no-op for fp32."""
    if precision != "bf16":
        return contextlib.nullcontext()
    return torch.autocast(torch.device(device).type, dtype=torch.bfloat16)
