"""Numeric precision of training and of decoding.

Training: fp32, or bf16 autocast (bf16 products, fp32 weights and optimizer). bfloat16 keeps
fp32's exponent range with an 8-bit mantissa; on CPUs with AVX-512 BF16 or AMX its matrix
products run several times faster than fp32.

Decoding one sentence is bound by reading weights: each step reads the decoder's GRU and
output layer (V x H, the largest), to make one token. "int8" (CPU only) stores the GRUs,
encoder and decoder, and the output layer in a quarter of fp32's bytes: over 90% of the
weights a step reads. The small attention and deep-output matrices, the embeddings, the GRU
gates and the attention softmax stay fp32. "bf16" halves the output layer's bytes, and
"int8-output" (CPU only) quarters them, the rest fp32. Which is fastest depends on the machine
(fbgemm's int8 kernels, native bf16, a GPU), so "auto" does not guess: :func:`probe_decoding`
times a model of the shipped size at each precision the device can decode in, once per process
and once per machine (the result is kept in a small file), and "auto" takes the fastest.

The precisions of :data:`EXACT_ATTENTION` store the output layer alone below fp32. The GRUs
and the attention layer, which make the attention weights, stay fp32, so for a given output
the weights are fp32's to the last bit; only the probabilities of the next token move (by up
to about a hundredth), and with them, where two tokens nearly tie, the token chosen. The
dashboard decodes in the fastest of these (:func:`resolve_decoding` with ``exact_attention``).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import platform
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

# oneDNN keeps up to 1,024 compiled products, one per shape, each with its own bf16 copy of
# the weights: over length-bucketed batches, whose shapes keep changing, a bf16 training run
# grew from 0.9 to 4.7 GB in 20 minutes; 64 hold it under 2 GB at the same speed. Read at
# oneDNN's first product, so set before torch runs one; a value set outside wins.
os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "64")

import torch
from torch import nn

from ..files import atomic_write

TRAINING = ("auto", "fp32", "bf16")
DECODING = ("auto", "fp32", "bf16", "int8", "int8-output")
EXACT_ATTENTION = ("fp32", "bf16", "int8-output")  # the output layer alone below fp32


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


def resolve_decoding(
    precision: str, device: torch.device | str = "cpu", exact_attention: bool = False
) -> str:
    """``"auto"`` -> the fastest precision on ``device``, as :func:`probe_decoding` measured it
    (or as the environment variable ``ATTNVIZ_DECODING`` pins it); any other value as given.
    With ``exact_attention``, "auto" takes the fastest of :data:`EXACT_ATTENTION` (and a pin
    only where it names one of them)."""
    if precision not in DECODING:
        raise ValueError(f"decoding precision must be one of {DECODING}, not {precision!r}")
    if precision != "auto":
        return precision
    pinned = os.environ.get("ATTNVIZ_DECODING", "")
    if pinned:
        if pinned not in DECODING[1:]:
            raise ValueError(f"ATTNVIZ_DECODING must be one of {DECODING[1:]}, not {pinned!r}")
        if not exact_attention or pinned in EXACT_ATTENTION:
            return pinned
    probe = probe_decoding(device)
    return probe.fastest_exact if exact_attention else probe.fastest


def decoding_choices(device: torch.device | str = "cpu") -> tuple[str, ...]:
    """The precisions ``device`` can decode in: int8 and int8-output on a CPU with fbgemm's
    kernels, bf16 on a CPU (natively or emulated) or a GPU with native bf16, and fp32
    everywhere."""
    device = torch.device(device)
    if device.type == "cpu":
        int8 = "fbgemm" in torch.backends.quantized.supported_engines
        return ("fp32", "bf16", "int8", "int8-output") if int8 else ("fp32", "bf16")
    return ("fp32", "bf16") if native_bf16(device) else ("fp32",)


PROBE_STEPS = 12  # decoding steps of one timed translation
PROBE_ROUNDS = 5  # timed translations per precision, in turn; the fastest of each counts
THREAD_CLOCK_COARSE = time.get_clock_info("thread_time").resolution > 1e-6  # Windows: 16 ms
PROBE_SECONDS = 1.0  # no round starts after this long (two always run): a first load stays short
# bf16 and int8 move the attention weights a little (by up to a few hundredths), so they are
# taken only where they save at least this share of fp32's time, not for a tie within noise.
PROBE_MARGIN = 0.1


@dataclass(frozen=True)
class Probe:
    """What :func:`probe_decoding` measured on one device."""

    ms: dict[str, float]  # precision -> milliseconds of a PROBE_STEPS-step greedy decoding
    fastest: str  # the precision "auto" decodes in there
    machine: str  # the device and torch version measured: the cache file's key

    @property
    def fastest_exact(self) -> str:
        """The fastest precision of :data:`EXACT_ATTENTION`, by :func:`fastest_of`'s rule."""
        return fastest_of({p: t for p, t in self.ms.items() if p in EXACT_ATTENTION})


# The CPU features that decide which kernels the products run on; two CPUs of one model name
# (a virtual machine's) may show different ones.
SPEED_FLAGS = frozenset({"avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8"})


def _machine(device: torch.device) -> str:
    """What the speed of decoding depends on besides the model: the processor and torch."""
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


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "attnviz" / "decoding-precision.json"


def _read_cache(machine: str, choices: tuple[str, ...]) -> Probe | None:
    """The machine's measurement from the cache file, where it timed every one of ``choices``
    (one written before a precision was added is measured again)."""
    try:
        entry = json.loads(_cache_file().read_text())[machine]
        probe = Probe({k: float(v) for k, v in entry["ms"].items()}, entry["fastest"], machine)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    complete = set(choices) <= set(probe.ms)
    return probe if complete and probe.fastest in DECODING[1:] else None


def _write_cache(probe: Probe) -> None:
    """Add ``probe`` to the machine's cache file, atomically; a file that cannot be written
    only means the next process measures again."""
    path = _cache_file()
    try:
        entries = json.loads(path.read_text()) if path.exists() else {}
        entries = entries if isinstance(entries, dict) else {}
    except (OSError, ValueError):
        entries = {}
    entries[probe.machine] = {"ms": probe.ms, "fastest": probe.fastest}
    with contextlib.suppress(OSError):
        atomic_write(path, json.dumps(entries, indent=1).encode("utf-8"))


_probes: dict[str, Probe] = {}
_probe_lock = threading.Lock()


def probe_decoding(device: torch.device | str = "cpu") -> Probe:
    """How fast each precision ``device`` can decode in (:func:`decoding_choices`) runs a
    model of the shipped size here, and the fastest: measured once per process and machine.

    The first call in a process reads the machine's cache file (``decoding-precision.json``
    under ``$XDG_CACHE_HOME/attnviz``, else ``~/.cache/attnviz``), keyed by processor and
    torch version; if it holds no entry for them, an untrained model (embed 192, hidden 384,
    8,000 pieces, tied embeddings, general attention: the shipped size) is stored at each
    precision and timed over ``PROBE_ROUNDS`` greedy translations of ``PROBE_STEPS`` steps,
    taken in turn, the fastest translation of each counting (about a third of a second in
    all). On a CPU the probe runs on one thread (the process's thread count is set back after)
    and counts that thread's CPU time, not wall time: on a busy machine two threads wait on
    each other whenever another process holds a core, and time lost to other processes would
    rank the precisions by luck. Delete the file to measure again."""
    device = torch.device(device)
    machine = _machine(device)
    with _probe_lock:
        if machine not in _probes:
            probe = _read_cache(machine, decoding_choices(device))
            if probe is None:
                probe = _measure(device, machine)
                _write_cache(probe)
            _probes[machine] = probe
        return _probes[machine]


def _measure(device: torch.device, machine: str) -> Probe:
    """Time the precisions of :func:`decoding_choices` (see :func:`probe_decoding`)."""
    from .networks import ModelConfig, Seq2Seq  # networks imports this module

    config = ModelConfig(
        8000, 8000, "general", embed=192, hidden=384, layers=1, dropout=0.0, scaled=True,
        tie_embeddings=True,
    )  # fmt: skip
    with torch.random.fork_rng(devices=[]):  # the caller's random numbers stay as they were
        torch.manual_seed(0)
        base = Seq2Seq(config).to(device).eval()
        models = {p: for_decoding(copy.deepcopy(base), p) for p in decoding_choices(device)}
    src = torch.arange(4, 4 + PROBE_STEPS, device=device)[None]  # (1, S)
    src_lens = torch.tensor([PROBE_STEPS])
    best = dict.fromkeys(models, float("inf"))
    threads = torch.get_num_threads()
    start = time.perf_counter()
    try:
        if device.type == "cpu":
            torch.set_num_threads(1)
        for r in range(1 + PROBE_ROUNDS):  # the first round warms up, counting only if fastest
            if r >= 2 and time.perf_counter() - start > PROBE_SECONDS:
                break
            for precision, model in models.items():
                best[precision] = min(best[precision], _time_greedy(model, src, src_lens))
    finally:
        torch.set_num_threads(threads)
    ms = {p: round(t * 1e3, 3) for p, t in best.items()}
    return Probe(ms, fastest_of(ms), machine)


def fastest_of(ms: dict[str, float]) -> str:
    """The precision of the least time in ``ms`` (precision -> time; fp32 among them), or fp32
    where none saves ``PROBE_MARGIN`` of fp32's time."""
    fastest = min(ms, key=ms.__getitem__)
    return fastest if ms[fastest] <= (1 - PROBE_MARGIN) * ms["fp32"] else "fp32"


@torch.inference_mode()
def _time_greedy(model: nn.Module, src: torch.Tensor, src_lens: torch.Tensor) -> float:
    """Seconds of one greedy translation of ``src``, PROBE_STEPS steps, by ``model``'s own
    encoder and steps: on a GPU, wall time; on a CPU, this thread's CPU time (where the clock
    counts microseconds; else wall time)."""
    cuda = src.device.type == "cuda"
    sync = torch.cuda.synchronize if cuda else lambda: None
    clock = time.perf_counter if cuda or THREAD_CLOCK_COARSE else time.thread_time
    sync()
    t0 = clock()
    memory, state = model.encode(src, src_lens)
    y = src[:, 0]
    for _ in range(PROBE_STEPS):
        step = model.step(y, state, memory)
        y, state = step.logits.argmax(-1), step.state
    sync()
    return clock() - t0


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


def _int8(model: nn.Module, output_only: bool = False) -> nn.Module:
    """The GRUs and the output layer of ``model`` (the output layer alone with
    ``output_only``) as PyTorch's dynamically quantized modules, in place: int8 weights (one
    scale per output row for the output layer), the inputs of each product quantized to 8 bits
    on the fly, products in int8 (fbgemm), the GRU's time loop in C++. For a batch of rows
    (beam search, corpora) the product still reads the weights once.

    ``torch.ao.quantization`` is deprecated in favour of torchao, which has no recurrent layers;
    it is the only int8 GRU in PyTorch, and requirements.txt pins the torch it ships with.
    """
    from torch.ao.quantization import (
        default_dynamic_qconfig,
        per_channel_dynamic_qconfig,
        quantize_dynamic,
    )

    spec = {"decoder.generator": per_channel_dynamic_qconfig}
    if not output_only:
        spec |= {"encoder.rnn": default_dynamic_qconfig, "decoder.rnn": default_dynamic_qconfig}
    with warnings.catch_warnings():  # the deprecation notices, above
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", "torch.quantize_per_tensor", UserWarning)
        return quantize_dynamic(model, spec, dtype=torch.qint8, inplace=True)


def for_decoding(model: nn.Module, precision: str) -> nn.Module:
    """``model`` (fp32, in eval mode, on its device) stored for decoding at ``precision``, in
    place: "bf16" stores the output layer in bf16; "int8" (CPU only) the GRUs and the output
    layer in int8; "int8-output" (CPU only) the output layer in int8."""
    if precision not in DECODING or precision == "auto":
        raise ValueError(f"decoding precision must be one of {DECODING[1:]}, not {precision!r}")
    _drop_dropout(model)
    generator = model.decoder.generator
    if precision != "fp32" and hasattr(generator, "untied"):  # tied embeddings: decoding
        model.decoder.generator = generator = generator.untied()  # stores its own copy
    if precision == "bf16":
        if isinstance(generator, nn.Sequential):
            generator[-1] = Bf16Linear(generator[-1])
        else:
            model.decoder.generator = Bf16Linear(generator)
    elif precision in ("int8", "int8-output"):
        if next(model.parameters()).device.type != "cpu":
            raise ValueError("int8 decoding runs on the CPU only; use bf16 or fp32 on a GPU")
        _int8(model, output_only=precision == "int8-output")
    return model


def _drop_dropout(module: nn.Module) -> None:
    """Replace every Dropout inside ``module`` by an Identity, in place: in eval mode they are
    the same function, and an Identity is cheaper to call."""
    for name, child in module.named_children():
        if isinstance(child, nn.Dropout):
            setattr(module, name, nn.Identity())
        else:
            _drop_dropout(child)
