"""What a probe measures and how: the precisions a device can run in, timed in turn, the
fastest taken only by a margin, and each machine's measurement kept in a small file so that
a machine measures once."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import torch

from ..files import atomic_write
from ..model.precision import Precision

PROBE_ROUNDS = 5  # timed calls per precision, in turn; the fastest of each counts
PROBE_SECONDS = 1.0  # no round starts after this long (two always run): a first load stays short
THREAD_CLOCK_COARSE = time.get_clock_info("thread_time").resolution > 1e-6  # Windows: 16 ms
# Below fp32 the attention weights move a little (by up to a few hundredths), so another
# precision is taken only where it saves at least this share of fp32's time, not for a tie
# within noise.
PROBE_MARGIN = 0.1


@dataclass(frozen=True)
class ProbeResult:
    """What a probe measured on one device."""

    ms: dict[Precision, float]  # precision -> milliseconds of the probe's timed work
    fastest: Precision  # the precision "auto" takes there
    machine: str  # the device and torch version measured: the cache file's key

    def fastest_among(self, precisions: tuple[Precision, ...]) -> Precision:
        """The fastest of ``precisions`` (fp32 among them), by :func:`fastest_of`'s rule."""
        return fastest_of({p: t for p, t in self.ms.items() if p in precisions})


def fastest_of(ms: dict[Precision, float]) -> Precision:
    """The precision of the least time in ``ms`` (precision -> time; fp32 among them), or fp32
    where none saves ``PROBE_MARGIN`` of fp32's time."""
    fastest = min(ms, key=ms.__getitem__)
    return fastest if ms[fastest] <= (1 - PROBE_MARGIN) * ms[Precision.FP32] else Precision.FP32


def time_in_turn(
    runs: Mapping[Precision, Callable[[], object]], device: torch.device
) -> dict[Precision, float]:
    """Milliseconds of each of ``runs`` (precision -> the work to time) on ``device``: the
    runs are called in turn, round after round, up to ``PROBE_ROUNDS`` rounds after one that
    warms up (and counts only where fastest), and the fastest call of each counts.

    On a GPU this is wall time. On a CPU the work runs on one thread (the process's thread
    count is set back after) and counts that thread's CPU time, where the clock counts
    microseconds: on a busy machine two threads wait on each other whenever another process
    holds a core, and time lost to other processes would rank the precisions by luck."""
    cuda = device.type == "cuda"
    sync = torch.cuda.synchronize if cuda else lambda: None
    clock = time.perf_counter if cuda or THREAD_CLOCK_COARSE else time.thread_time
    best = dict.fromkeys(runs, float("inf"))
    threads = torch.get_num_threads()
    start = time.perf_counter()
    try:
        if device.type == "cpu":
            torch.set_num_threads(1)
        for r in range(1 + PROBE_ROUNDS):
            if r >= 2 and time.perf_counter() - start > PROBE_SECONDS:
                break
            for precision, run in runs.items():
                sync()
                t0 = clock()
                run()
                sync()
                best[precision] = min(best[precision], clock() - t0)
    finally:
        torch.set_num_threads(threads)
    return {p: round(t * 1e3, 3) for p, t in best.items()}


class ProbeCache:
    """One probe's measurements, one per machine: in this process, and in ``NAME.json`` under
    ``$XDG_CACHE_HOME/attnviz`` (else ``~/.cache/attnviz``). Delete the file to measure again."""

    def __init__(self, name: str):
        self.name = name  # the file's name, without .json
        self._probes: dict[str, ProbeResult] = {}  # machine -> its probe, in this process
        self._lock = threading.Lock()

    def file(self) -> Path:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        return Path(base) / "attnviz" / f"{self.name}.json"

    def get(
        self, machine: str, choices: tuple[Precision, ...], measure: Callable[[], ProbeResult]
    ) -> ProbeResult:
        """``machine``'s probe: this process's, else the file's where it timed every one of
        ``choices``, else what ``measure()`` returns, added to the file."""
        with self._lock:
            if machine not in self._probes:
                probe = self._read(machine, choices)
                if probe is None:
                    probe = measure()
                    self._write(probe)
                self._probes[machine] = probe
            return self._probes[machine]

    def _read(self, machine: str, choices: tuple[Precision, ...]) -> ProbeResult | None:
        """The machine's measurement from the file, where it timed every one of ``choices``
        (one written before a precision was added is measured again)."""
        try:
            entry = json.loads(self.file().read_text())[machine]
            ms = {Precision(k): float(v) for k, v in entry["ms"].items()}
            probe = ProbeResult(ms, Precision(entry["fastest"]), machine)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        complete = set(choices) <= set(probe.ms)
        return probe if complete and probe.fastest in choices else None

    def _write(self, probe: ProbeResult) -> None:
        """Add ``probe`` to the file, atomically; a file that cannot be written only means the
        next process measures again."""
        path = self.file()
        try:
            entries = json.loads(path.read_text()) if path.exists() else {}
            entries = entries if isinstance(entries, dict) else {}
        except (OSError, ValueError):
            entries = {}
        entries[probe.machine] = {"ms": probe.ms, "fastest": probe.fastest}
        with contextlib.suppress(OSError):
            atomic_write(path, json.dumps(entries, indent=1).encode("utf-8"))
