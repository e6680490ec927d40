"""Where a shipped model's greedy translation and a step change spend their time, text in to
Trace out, through the public API.

    python benchmarks/speed/translate_profile.py [CHECKPOINT ...] [--precision fp32 auto] \\
        [--threads 1]

For each checkpoint (default: checkpoints/luong-pieces and bahdanau-pieces) and precision,
the median over ``--repeats`` calls, warm, in microseconds, of:

- ``translate``: ``Translator.translate(sentence)``, the whole greedy translation, and within
  it ``in the model`` (the network's encode and steps, timed by a wrapper around the model
  that the Translator calls as it would the model) and ``not the model`` (the rest) with
  their shares;
- its parts, each timed on its own: ``tokenize`` (text and sentencepiece checks),
  ``source tensors`` (pieces to ids to a padded tensor), ``encode``, ``greedy loop`` (the
  search from a source tensor to Decoded records: encode, the steps, log-softmax and top-k
  over the vocabulary, the records), ``Trace over pieces + words`` (``Translator._trace``: the
  <unk> copy, candidates, the word view and the number copy), and of it ``word view``
  (``words_trace``) alone;
- ``step change``: :func:`attnviz.decoding.step_math.step_math` at the middle step, what the
  dashboard's numbers view computes when the step slider moves.

On one thread (the default, as the dashboard decodes) every figure is the calling thread's
CPU time, not wall time: on a busy machine the time other processes take a core away is not
counted, so the shares stay comparable; ``--threads 2`` times wall clock. The sentences are the
textbook peer's and a longer one with a number; ``--json`` prints the figures as JSON. The
precision ``auto`` resolves to is printed with the probe's timings
(:func:`attnviz.tuning.decoding_precision.probe_decoding`), where the attnviz imported has one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import torch

import attnviz
from attnviz.decoding import decode
from attnviz.decoding.step_math import step_math
from attnviz.decoding.words import words_trace
from attnviz.model.model_config import MULTIHEAD

try:
    from attnviz.tuning import decoding_precision as precisions
except ImportError:  # an attnviz from before the probe left model/
    from attnviz.model import precision as precisions

HERE = Path(__file__).resolve().parent
CHECKPOINTS = [
    HERE.parent.parent / "checkpoints" / f"{m}-pieces.safetensors" for m in ("luong", "bahdanau")
]
SENTENCES = (
    "I am not sure that he will come tomorrow.",  # the peer's sentence (speed.py)
    "My brother bought 3 old books in the small shop near the station yesterday.",
)


clock = time.perf_counter  # time.thread_time on one thread (see the module docstring)


class ModelClock:
    """The model, with the time spent in its ``encode`` and ``step`` added up in
    ``seconds``; everything else is the model's own."""

    def __init__(self, model: torch.nn.Module):
        self.model, self.seconds = model, 0.0

    def __getattr__(self, name: str):
        return getattr(self.model, name)

    def _timed(self, f, *args):
        t0 = clock()
        try:
            return f(*args)
        finally:
            self.seconds += clock() - t0

    def encode(self, *args):
        return self._timed(self.model.encode, *args)

    def step(self, *args):
        return self._timed(self.model.step, *args)


def median_us(f: Callable[[], object], repeats: int) -> float:
    for _ in range(max(2, repeats // 10)):
        f()
    times = []
    for _ in range(repeats):
        t0 = clock()
        f()
        times.append(clock() - t0)
    return statistics.median(times) * 1e6


def model_share(tr: attnviz.Translator, sentence: str, repeats: int) -> tuple[float, float]:
    """The median total and in-model time (microseconds) of ``tr.translate(sentence)``."""
    model, timer = tr.model, ModelClock(tr.model)
    tr.model = timer
    try:
        for _ in range(max(2, repeats // 10)):
            tr.translate(sentence)
        totals, inside = [], []
        for _ in range(repeats):
            timer.seconds = 0.0
            t0 = clock()
            tr.translate(sentence)
            totals.append(clock() - t0)
            inside.append(timer.seconds)
    finally:
        tr.model = model
    return statistics.median(totals) * 1e6, statistics.median(inside) * 1e6


def profile(tr: attnviz.Translator, sentence: str, repeats: int) -> dict[str, float]:
    """The figures of the module docstring for ``sentence``, in microseconds (shares in %)."""
    total, inside = model_share(tr, sentence, repeats)
    tokens = tr.tokenize_source(sentence)
    src, src_lens = tr.source_batch([tr.pieces(tokens)])
    limits = decode.default_limits(src_lens)
    (d,) = decode.greedy(tr.model, src, src_lens, limits)
    pieces = tr._trace(sentence, tokens, d, "greedy", True).pieces
    trace = tr.translate(sentence)
    own = trace.pieces or trace
    middle = len(own.tgt_tokens) // 2
    figures = {
        "translate": total,
        "  in the model": inside,
        "  not the model": total - inside,
        "tokenize": median_us(lambda: tr.tokenize_source(sentence), repeats),
        "source tensors": median_us(lambda: tr.source_batch([tr.pieces(tokens)]), repeats),
        "encode": median_us(lambda: tr.model.encode(src, src_lens), repeats),
        "greedy loop": median_us(lambda: decode.greedy(tr.model, src, src_lens, limits), repeats),
        "Trace over pieces + words": median_us(
            lambda: tr._trace(sentence, tokens, d, "greedy", True), repeats
        ),
        "  word view": median_us(lambda: words_trace(pieces, tr.subwords, tokens), repeats)
        if tr.subwords
        else 0.0,
        "step change": median_us(lambda: step_math(tr, own, middle), repeats)
        if tr.model.config.attention != MULTIHEAD  # a Transformer's numbers are not drawn
        else 0.0,
    }
    figures["model share %"] = 100 * inside / total
    figures["output steps"] = len(own.tgt_tokens)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("checkpoints", nargs="*", default=CHECKPOINTS)
    ap.add_argument("--precision", nargs="+", choices=precisions.DECODING, default=["fp32", "auto"])
    ap.add_argument("--threads", type=int, default=1, help="CPU threads (the dashboard's: 1)")
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    global clock
    clock = time.thread_time if a.threads == 1 else time.perf_counter
    probe = getattr(precisions, "probe_decoding", None)  # absent from attnviz before the probe
    if probe and "auto" in a.precision:
        steps = precisions.PROBE_STEPS
        print(f"auto: {probe().fastest}; ms per {steps}-step decoding: {probe().ms}")
    rows = {}
    for path in a.checkpoints:
        for precision in a.precision:
            tr = attnviz.load(path, precision=precision)
            for k, sentence in enumerate(SENTENCES):
                name = f"{Path(path).stem} {tr.precision} s{k + 1}"
                rows[name] = profile(tr, sentence, a.repeats)
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    names = list(rows)
    kind = "thread CPU time" if clock is time.thread_time else "wall clock"
    print(f"threads={torch.get_num_threads()}, median of {a.repeats}, {kind}, microseconds")
    print(f"{'':<28}" + "".join(f"{n:>28}" for n in names))
    for key in next(iter(rows.values())):
        print(f"{key:<28}" + "".join(f"{rows[n][key]:>28.1f}" for n in names))


if __name__ == "__main__":
    main()
