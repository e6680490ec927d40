"""The machine a speed is measured on: the processor's features, and the key its
measurements are kept under."""

from __future__ import annotations

import functools
import platform

import torch

# The CPU features that decide which kernels the products run on; two CPUs of one model name
# (a virtual machine's) may show different ones.
SPEED_FLAGS = frozenset({"avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8"})


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


@functools.cache
def machine_key(device: torch.device) -> str:
    """What the speed of a model depends on besides the model: the processor and torch. Read
    once per process: the dashboard asks on every run, and reading /proc/cpuinfo each time
    took 8% of a loaded server's CPU (benchmarks/classroom/results.md)."""
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
    else:
        name = platform.processor() or platform.machine()
        try:
            with open("/proc/cpuinfo") as f:
                models = (ln.partition(":")[2].strip() for ln in f if ln.startswith("model name"))
                name = next(models, name)
        except OSError:
            pass
        name += f" [{' '.join(sorted(_cpu_flags() & SPEED_FLAGS))}]"
    return f"{device.type}: {name}; torch {torch.__version__}"
