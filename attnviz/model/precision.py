"""Numeric precision of training and of decoding.

Training: fp32, or bf16 autocast (bf16 products, fp32 weights and optimizer). bfloat16 keeps
fp32's exponent range with an 8-bit mantissa; on CPUs with AVX-512 BF16 or AMX its matrix
products run several times faster than fp32.

Decoding one sentence is bound by reading weights: each step reads the decoder's GRU and
output layer (V x H, the largest), to make one token. "int8" (the default on an x86 CPU)
stores the GRUs, encoder and decoder, and the output layer in a quarter of fp32's bytes:
over 90% of the weights a step reads. The small attention and deep-output matrices, the
embeddings, the GRU gates and the attention softmax stay fp32. "bf16" halves the output layer's
bytes (for GPUs: on a CPU, a bf16 product with one row is slower than fp32).
"""

from __future__ import annotations

import contextlib
import functools
import os
import warnings

# oneDNN keeps up to 1,024 compiled products, one per shape, each with its own bf16 copy of
# the weights: over length-bucketed batches, whose shapes keep changing, a bf16 training run
# grew from 0.9 to 4.7 GB in 20 minutes; 64 hold it under 2 GB at the same speed. Read at
# oneDNN's first product, so set before torch runs one; a value set outside wins.
os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "64")

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
    """``"auto"`` -> ``"int8"`` on an x86 CPU (fbgemm's int8 kernels), ``"bf16"`` on a GPU
    with native bf16, else ``"fp32"``."""
    if precision not in DECODING:
        raise ValueError(f"decoding precision must be one of {DECODING}, not {precision!r}")
    if precision != "auto":
        return precision
    device = torch.device(device)
    if device.type == "cpu":
        return "int8" if "fbgemm" in torch.backends.quantized.supported_engines else "fp32"
    return "bf16" if native_bf16(device) else "fp32"


def autocast(precision: str, device: torch.device | str = "cpu"):
    """Mixed-precision context for training: bf16 products, fp32 weights. A no-op for fp32."""
    if precision != "bf16":
        return contextlib.nullcontext()
    return torch.autocast(torch.device(device).type, dtype=torch.bfloat16)


def without_autocast(device: str) -> contextlib.AbstractContextManager:
    """A context that turns autocast off on ``device`` where it is on: for the few products
    that must stay fp32 in a bf16 model (attention keys and scores)."""
    if torch.is_autocast_enabled(device):
        return torch.autocast(device, enabled=False)
    return contextlib.nullcontext()


class Bf16Linear(nn.Module):
    """A frozen copy of a Linear with bf16 weights; fp32 in, fp32 out."""

    def __init__(self, linear: nn.Linear):
        super().__init__()
        self.register_buffer("weight", linear.weight.detach().to(torch.bfloat16))
        self.register_buffer("bias", linear.bias.detach().float())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.linear(x.to(torch.bfloat16), self.weight).float() + self.bias


def _int8(model: nn.Module) -> nn.Module:
    """The GRUs and the output layer of ``model`` as PyTorch's dynamically quantized modules,
    in place: int8 weights (one scale per output row for the output layer), the inputs of each
    product quantized to 8 bits on the fly, products in int8 (fbgemm), the GRU's time loop in
    C++. For a batch of rows (beam search, corpora) the product still reads the weights once.

    ``torch.ao.quantization`` is deprecated in favour of torchao, which has no recurrent layers;
    it is the only int8 GRU in PyTorch, and requirements.txt pins the torch it ships with.
    """
    from torch.ao.quantization import (
        default_dynamic_qconfig,
        per_channel_dynamic_qconfig,
        quantize_dynamic,
    )

    spec = {
        "encoder.rnn": default_dynamic_qconfig,
        "decoder.rnn": default_dynamic_qconfig,
        "decoder.generator": per_channel_dynamic_qconfig,
    }
    with warnings.catch_warnings():  # the deprecation notices, above
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", "torch.quantize_per_tensor", UserWarning)
        return quantize_dynamic(model, spec, dtype=torch.qint8, inplace=True)


def for_decoding(model: nn.Module, precision: str) -> nn.Module:
    """``model`` (fp32, in eval mode, on its device) stored for decoding at ``precision``, in
    place: "bf16" stores the output layer in bf16; "int8" (CPU only) the GRUs and the output
    layer in int8."""
    if precision not in DECODING or precision == "auto":
        raise ValueError(f"decoding precision must be fp32, bf16 or int8, not {precision!r}")
    _drop_dropout(model)
    generator = model.decoder.generator
    if precision != "fp32" and hasattr(generator, "untied"):  # tied embeddings: decoding
        model.decoder.generator = generator = generator.untied()  # stores its own copy
    if precision == "bf16":
        if isinstance(generator, nn.Sequential):
            generator[-1] = Bf16Linear(generator[-1])
        else:
            model.decoder.generator = Bf16Linear(generator)
    elif precision == "int8":
        if next(model.parameters()).device.type != "cpu":
            raise ValueError("int8 decoding runs on the CPU only; use bf16 or fp32 on a GPU")
        _int8(model)
    return model


def _drop_dropout(module: nn.Module) -> None:
    """Replace every Dropout inside ``module`` by an Identity, in place: in eval mode they are
    the same function, and an Identity is cheaper to call."""
    for name, child in module.named_children():
        if isinstance(child, nn.Dropout):
            setattr(module, name, nn.Identity())
        else:
            _drop_dropout(child)
