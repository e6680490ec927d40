"""Numeric precision of training and of decoding.

Training: fp32, or bf16 autocast (bf16 products, fp32 weights and optimizer). bfloat16 keeps
fp32's exponent range with an 8-bit mantissa; on CPUs with AVX-512 BF16 or AMX its matrix
products run several times faster than fp32.

Decoding one sentence is bound by reading the output layer, V x H weights, at every step; the
rest of a step is many small operations, which run fastest in fp32 on a CPU. So decoding keeps
the model in fp32 and stores only the output layer smaller: "bf16" halves its bytes, "int8"
quarters them (weight-only quantization, one scale per output word, bf16 products).
"""

from __future__ import annotations

import contextlib
import functools

import torch
from torch import nn

TRAINING = ("auto", "fp32", "bf16")
DECODING = ("auto", "fp32", "bf16", "int8")


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


def resolve_training(precision: str, device: torch.device | str = "cpu") -> str:
    """``"auto"`` -> ``"bf16"`` where :func:`native_bf16`, else ``"fp32"``."""
    if precision not in TRAINING:
        raise ValueError(f"training precision must be one of {TRAINING}, not {precision!r}")
    if precision == "auto":
        return "bf16" if native_bf16(device) else "fp32"
    return precision


def resolve_decoding(precision: str, device: torch.device | str = "cpu") -> str:
    """``"auto"`` -> ``"int8"`` on a CPU with native bf16, ``"bf16"`` on such a GPU, else
    ``"fp32"``."""
    if precision not in DECODING:
        raise ValueError(f"decoding precision must be one of {DECODING}, not {precision!r}")
    if precision != "auto":
        return precision
    device = torch.device(device)
    if not native_bf16(device):
        return "fp32"
    return "int8" if device.type == "cpu" else "bf16"


def autocast(precision: str, device: torch.device | str = "cpu"):
    """Mixed-precision context for training: bf16 products, fp32 weights. A no-op for fp32."""
    if precision != "bf16":
        return contextlib.nullcontext()
    return torch.autocast(torch.device(device).type, dtype=torch.bfloat16)


class Bf16Linear(nn.Module):
    """A frozen copy of a Linear with bf16 weights; fp32 in, fp32 out."""

    def __init__(self, linear: nn.Linear):
        super().__init__()
        self.register_buffer("weight", linear.weight.detach().to(torch.bfloat16))
        self.register_buffer("bias", linear.bias.detach().float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.linear(x.to(torch.bfloat16), self.weight).float() + self.bias


class Int8Linear(nn.Module):
    """A frozen copy of a Linear with int8 weights and one fp scale per output row
    (symmetric, round to nearest); fp32 in, fp32 out."""

    def __init__(self, linear: nn.Linear):
        super().__init__()
        w = linear.weight.detach().float()
        scale = w.abs().amax(1).clamp(min=1e-12) / 127
        self.register_buffer("weight", torch.round(w / scale[:, None]).to(torch.int8))
        self.register_buffer("scale", scale.to(torch.bfloat16))
        self.register_buffer("bias", linear.bias.detach().float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.reshape(-1, x.size(-1)).to(torch.bfloat16)
        out = torch._weight_int8pack_mm(flat, self.weight, self.scale)
        return (out.float() + self.bias).reshape(*x.shape[:-1], -1)


def for_decoding(model: nn.Module, precision: str) -> nn.Module:
    """``model`` (fp32, in eval mode) with its output layer stored at ``precision``, in place."""
    layer = {"fp32": None, "bf16": Bf16Linear, "int8": Int8Linear}[precision]
    if layer is not None:
        model.decoder.generator = layer(model.decoder.generator)
    return model


def decoding_precision(model: nn.Module) -> str:
    """The precision :func:`for_decoding` gave ``model``."""
    generator = model.decoder.generator
    return {Bf16Linear: "bf16", Int8Linear: "int8"}.get(type(generator), "fp32")
