"""The server's process, set up once at its start: its threads, OpenMP's wait policy and
oneDNN's product cache; and its garbage collector, tuned: the heap that every page run shares is
frozen out of its full collections."""

from __future__ import annotations

import gc
import os
import sys

import torch

from attnviz.tuning.onednn import bound_product_cache

_set_up = False  # whether this process has been set up
_modules_frozen = 0  # how many modules were imported when the heap was last frozen


def set_up_process() -> None:
    """The settings of a server's process and of each of its decoding processes, applied at the
    first call (the server's first page run; a decoding process's start) and never again:

    - oneDNN keeps at most a bounded number of compiled products (before torch runs one);
    - torch runs on one intra-op thread, as live training runs do (attnviz.training.live): a
      sentence is many tiny operations that gain nothing from more, and threads that spin
      waiting for each other stall every operation whenever the browser drawing the page, or
      another session, holds a core;
    - OpenMP threads sleep when they wait: eflomal runs its samplers on OpenMP threads, which
      by default spin for a while after each parallel region, for a typed sentence about 10 ms
      of a core, as much as the sampling itself (benchmarks/classroom/results.md). Set in the
      environment that eflomal's processes inherit; a value set outside wins."""
    global _set_up
    if _set_up:
        return
    _set_up = True
    bound_product_cache()
    torch.set_num_threads(1)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def freeze_heap() -> None:
    """After a run that imported modules (a new server's first page, captum for attribution):
    everything alive now (the libraries, the models) leaves the garbage collector's
    sight. A full collection over a heap of torch, plotly and four models took 200 ms, during
    which the server sent nothing; Streamlit ran one after each run (``runner.postScriptGC``,
    now off in .streamlit/config.toml), and Python's own collector still runs them as the
    runs' garbage grows. What each run makes is still collected."""
    global _modules_frozen
    if len(sys.modules) != _modules_frozen:
        _modules_frozen = len(sys.modules)
        gc.collect()
        gc.freeze()
