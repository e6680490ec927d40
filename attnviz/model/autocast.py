"""bf16 autocast on and off: bf16 products over fp32 weights for training, and the few
products that must stay fp32 inside such a model (attention keys and scores)."""

from __future__ import annotations

import contextlib

import torch

from .precision import Precision


def autocast(precision: Precision, device: torch.device | str = "cpu"):
    """Mixed-precision context for training: bf16 products, fp32 weights. A no-op for fp32."""
    if precision != Precision.BF16:
        return contextlib.nullcontext()
    return torch.autocast(torch.device(device).type, dtype=torch.bfloat16)


def without_autocast(device: str) -> contextlib.AbstractContextManager:
    """A context that turns autocast off on ``device`` where it is on: for the few products
    that must stay fp32 in a bf16 model (attention keys and scores)."""
    if torch.is_autocast_enabled(device):
        return torch.autocast(device, enabled=False)
    return contextlib.nullcontext()
