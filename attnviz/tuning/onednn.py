"""oneDNN's cache of compiled products, bounded for the whole process where it starts (the
command line's ``main``, the dashboard's), never on import."""

from __future__ import annotations

import os

CAPACITY = 64  # compiled products oneDNN keeps, unless the environment says otherwise


def bound_product_cache() -> None:
    """Keep at most ``CAPACITY`` of oneDNN's compiled products; a value set outside wins.

    oneDNN keeps up to 1,024 compiled products, one per shape, each with its own bf16 copy of
    the weights: over length-bucketed batches, whose shapes keep changing, a bf16 training run
    grew from 0.9 to 4.7 GB in 20 minutes; 64 hold it under 2 GB at the same speed. oneDNN
    reads the variable at its first product, so call this before torch runs one."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(CAPACITY))
