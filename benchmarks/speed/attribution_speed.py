"""Time attribution of every step of one 12-word sentence, for each shipped model and method.

    python benchmarks/speed/attribution_speed.py [--threads 2] [--repeats 5] [CHECKPOINT ...]

Greedy translation first (not timed), then each method on all of its steps; prints the median
of ``--repeats`` runs after one warm-up, the totals over the models, and the load average (the
machine is shared: compare figures taken at a similar load only).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

import attnviz
from attnviz.analysis.attribution import METHODS, attribute

SENTENCE = "I think that we should go to the station before it rains ."  # 12 words and "."
TARGETS = {"saliency": 1.0, "erasure": 1.0, "integrated_gradients": 5.0}  # s, both models


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "checkpoints",
        nargs="*",
        default=["checkpoints/bahdanau-pieces.safetensors", "checkpoints/luong-pieces.safetensors"],
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.threads} threads")
    totals = dict.fromkeys(METHODS, 0.0)
    for path in args.checkpoints:
        tr = attnviz.load(path, precision="fp32")
        trace = tr.translate(SENTENCE)
        print(f"{path}: {len(trace.tgt_tokens)} steps x {len(trace.src_tokens) - 1} source words")
        for method in METHODS:
            attribute(tr, trace, method)  # warm-up
            times = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                attribute(tr, trace, method)
                times.append(time.perf_counter() - start)
            median = statistics.median(times)
            totals[method] += median
            print(f"  {method:<22} median {median * 1000:7.0f} ms  (min {min(times) * 1000:.0f})")
    print("both models:")
    for method, total in totals.items():
        print(f"  {method:<22} {total:6.2f} s  (target <= {TARGETS[method]:.0f} s)")
    fast = totals["saliency"] + totals["erasure"]
    print(f"  saliency + erasure     {fast:6.2f} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
