"""One thread's CPU time of the work issue 54 measured, a figure other processes on the machine
move far less than wall time: a training update (best of 5) in each precision, and a 15-step
greedy sentence through the decoder step, eager and under torch.compile (Inductor, CPU).
Untrained weights at the d2l peer's size (2 layers, 256, a 17,741-word output, batch 128) and
the shipped size (1 layer, 192/384, 8,000 pieces, batch 64). With --profile, the operators
that take the time (torch.profiler, record_shapes).

    python benchmarks/speed/cpu_time.py update --precision fp32 bf16
    python benchmarks/speed/cpu_time.py compiled
    python benchmarks/speed/cpu_time.py update --precision fp32 --profile
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import torch
from torch.profiler import ProfilerActivity, profile

from attnviz.data.corpus import Batch
from attnviz.model.model_config import ModelConfig
from attnviz.model.seq2seq import Seq2Seq
from attnviz.training.config import TrainConfig
from attnviz.training.update import optimizer, train_step

SIZES = {  # name -> (vocabularies, embed, hidden, layers, batch)
    "peer": ((9955, 17741), 256, 256, 2, 128),
    "shipped": ((8000, 8000), 192, 384, 1, 64),
}
SOURCE, TARGET, STEPS = 14, 15, 15


def model_of(size: str, attention: str, dropout: float) -> tuple[Seq2Seq, int]:
    (src, tgt), embed, hidden, layers, batch = SIZES[size]
    torch.manual_seed(0)
    config = ModelConfig(
        src, tgt, attention, embed=embed, hidden=hidden, layers=layers, dropout=dropout,
        scaled=attention != "bahdanau",
    )  # fmt: skip
    return Seq2Seq(config), batch


def cpu_ms(run: Callable[[], object], repeats: int = 5) -> float:
    """The least CPU time of ``repeats`` calls of ``run`` after two warm-ups, in ms."""
    run(), run()
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time()
        run()
        best = min(best, time.thread_time() - start)
    return best * 1e3


def update_of(model: Seq2Seq, batch: int, precision: str) -> Callable[[], float]:
    src = torch.randint(4, model.config.src_vocab, (batch, SOURCE))
    tgt = torch.randint(4, model.config.tgt_vocab, (batch, TARGET))
    data = Batch(src, torch.full((batch,), SOURCE), tgt, tgt, batch * TARGET, None)
    opt, config = optimizer(model, 1e-3), TrainConfig(precision=precision)
    return lambda: train_step(model, opt, data, config)


def greedy_of(model: Seq2Seq, step: Callable) -> Callable[[], None]:
    src, lens = torch.arange(4, 4 + SOURCE - 2)[None], torch.tensor([SOURCE - 2])

    @torch.inference_mode()
    def greedy() -> None:
        memory, state = model.encode(src, lens)
        y = src[:, 0]
        for _ in range(STEPS):
            out = step(y, state, memory)
            y, state = out.logits.argmax(-1), out.state

    return greedy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("update", "compiled"))
    ap.add_argument("--precision", nargs="+", default=["fp32"])
    ap.add_argument("--profile", action="store_true", help="the top operators of each update")
    a = ap.parse_args()
    torch.set_num_threads(1)
    for size in SIZES:
        for attention in ("bahdanau", "general"):
            if a.what == "compiled":
                model, _ = model_of(size, attention, dropout=0.0)
                model.eval()
                eager = cpu_ms(greedy_of(model, model.step))
                start = time.perf_counter()
                compiled = cpu_ms(greedy_of(model, torch.compile(model.step, dynamic=False)))
                print(f"{size} {attention}: greedy {STEPS} steps, eager {eager:.2f} ms, "
                      f"compiled {compiled:.2f} ms ({time.perf_counter() - start:.0f} s with "
                      "the compile)")  # fmt: skip
                continue
            for precision in a.precision:
                model, batch = model_of(size, attention, dropout=0.2)
                run = update_of(model, batch, precision)
                ms = cpu_ms(run)
                print(f"{size} {attention} {precision}: {ms:.0f} ms per update, "
                      f"{batch * TARGET / ms * 1e3:.0f} target tokens/s per thread")  # fmt: skip
                if a.profile:
                    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
                        run()
                    table = prof.key_averages(group_by_input_shape=True)
                    print(table.table(sort_by="self_cpu_time_total", row_limit=8))


if __name__ == "__main__":
    main()
