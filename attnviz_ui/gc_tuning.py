"""The server's garbage collector, tuned: the heap that every page run shares is frozen out of
its full collections."""

from __future__ import annotations

import gc
import sys

_modules_frozen = 0  # how many modules were imported when the heap was last frozen


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
