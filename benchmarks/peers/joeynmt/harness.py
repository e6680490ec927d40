"""What both sides of the JoeyNMT harness share: the recipe, the prepared files' names, reading
them, the CPU-time budget and the ``key value`` lines.

Standard library only: it runs in the project's Python (``prepare.py``, ``attnviz_side.py``,
``score.py``) and in JoeyNMT's own virtual environment (``joeynmt_side.py``) alike.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

# The shipped recipe (docs/checkpoints.md), the part both toolkits can follow.
RECIPE = {
    "embed": 192,  # embedding size, both sides
    "hidden": 384,  # decoder state H; the bidirectional encoder gives H/2 per direction
    "layers": 1,  # GRU layers in encoder and decoder
    "dropout": 0.3,
    "label_smoothing": 0.1,
    "lr": 1e-3,  # Adam
    "clip": 1.0,  # gradient-norm clip
    "batch_size": 64,  # sentence pairs per step
    "threads": 1,  # CPU threads of one training process
    "subwords": 8000,  # sentencepiece BPE pieces per language
}
# The shipped Transformers' size (docs/models.md), for --attention multihead: pre-norm, both
# sides; the output layer tied to the target embedding (JoeyNMT: tied_softmax), which any
# two vocabularies allow. The rest of RECIPE (batch, dropout, smoothing, clip) holds.
TRANSFORMER = {"layers": 3, "hidden": 256, "heads": 4, "ff": 1024, "lr": 7e-4}
# attnviz's attention name -> JoeyNMT's for the same score ("multihead": its Transformer).
ATTENTIONS = {"bahdanau": "bahdanau", "general": "luong", "multihead": "transformer"}
LANGS = ("en", "fr")  # source, target: the file suffixes JoeyNMT's plain datasets read
BEAM = 5  # the beam width timed beside greedy search

# Files that prepare.py writes into the work folder.
MANIFEST = "manifest.json"  # what was prepared, from which corpus, with which settings
TRAIN, VALID, TEST = "train", "valid", "test"  # pieces, one pair per line: NAME.en, NAME.fr
BLEU = "bleu-valid"  # the validation sources scored for BLEU (pieces), first reference each
BLEU_JSON = "bleu-valid.json"  # the same sources as text, with every reference
LATENCY_JSON = "latency.json"  # test sources (pieces) and the steps to decode each
BATCHES_JSON = "speed-batches.json"  # attnviz's length-bucketed batches, as train-line indices
VOCAB = "vocab"  # vocab.en, vocab.fr: the sentencepiece pieces in id order
SPM = "spm"  # spm.en.model, spm.fr.model
HYPS = "hyps"  # folder of hypotheses (pieces) written at each budget mark


def config_path(work: Path, attention: str) -> Path:
    """The JoeyNMT configuration for attnviz's ``attention``."""
    return Path(work) / f"joeynmt-{ATTENTIONS[attention]}.yaml"


def hyps_path(work: Path, toolkit: str, attention: str, minutes: float) -> Path:
    return Path(work) / HYPS / f"{toolkit}-{attention}-{minutes:g}min.txt"


def attention_json(work: Path, attention: str) -> Path:
    """The pieces of the sentence whose attention both toolkits draw."""
    return Path(work) / "weights" / f"sentence-{attention}.json"


def weights_path(work: Path, toolkit: str, attention: str) -> Path:
    return Path(work) / "weights" / f"{toolkit}-{attention}.pt"


def save_weights(model, work: Path, toolkit: str, attention: str) -> None:
    """A budget run's final weights (tensors only: read back with ``weights_only=True``)."""
    import torch  # both toolkits' environments have it; prepare.py and report.py need not

    path = weights_path(work, toolkit, attention)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)


def read_pieces(path: Path) -> list[list[str]]:
    """One list of pieces per line. Lines end in ``\\n`` only: str.splitlines would also split
    on characters such as U+2028 that a piece may hold."""
    text = Path(path).read_text(encoding="utf-8")
    return [line.split(" ") for line in text.split("\n")[:-1]]


def write_pieces(path: Path, rows: Sequence[Sequence[str]]) -> None:
    Path(path).write_text("".join(" ".join(r) + "\n" for r in rows), encoding="utf-8")


def read_json(path: Path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_json(path: Path, value) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")


def arguments(doc: str) -> argparse.ArgumentParser:
    """The options both sides take; each adds its own."""
    ap = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("job", choices=("speed", "budget", "attention"))
    ap.add_argument("--work", type=Path, required=True, help="the folder prepare.py wrote")
    ap.add_argument("--attention", choices=tuple(ATTENTIONS), required=True)
    ap.add_argument("--threads", type=int, default=RECIPE["threads"])
    ap.add_argument("--steps", type=int, default=40, help="speed: timed training steps")
    ap.add_argument("--warmup", type=int, default=3, help="speed: untimed steps first")
    ap.add_argument("--minutes", type=float, default=20.0, help="budget: CPU minutes")
    ap.add_argument("--marks", type=int, default=4, help="budget: evaluations, evenly spread")
    ap.add_argument("--out", type=Path, help="attention: the folder the picture goes to")
    return ap


def emit(key: str, value: float | int | str) -> None:
    """One figure on stdout as ``key value``; logs and progress go to stderr."""
    if isinstance(value, float):
        value = f"{value:.4g}" if abs(value) < 1000 else f"{value:.0f}"
    print(f"{key} {value}", flush=True)


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Budget:
    """CPU time (user + system, all threads) spent training, evaluation left out.

    Process CPU time rather than wall time: on a shared machine, a process that gets half a
    core takes twice as long but spends the same CPU time; what a run learns per CPU-second is
    the figure that decides what a 2-core machine can ship.
    """

    def __init__(self, seconds: float, marks: int):
        self.seconds = seconds
        self.marks = [seconds * (k + 1) / marks for k in range(marks)]  # evaluate at these
        self._left_out = 0.0
        self._start = time.process_time()

    def spent(self) -> float:
        return time.process_time() - self._start - self._left_out

    def due(self) -> float | None:
        """The first mark reached and not yet evaluated (removed), or None."""
        if self.marks and self.spent() >= self.marks[0]:
            return self.marks.pop(0)
        return None

    def over(self) -> bool:
        return self.spent() >= self.seconds

    @contextmanager
    def left_out(self) -> Iterator[None]:
        """Time spent inside does not count (evaluation, writing hypotheses)."""
        t0 = time.process_time()
        try:
            yield
        finally:
            self._left_out += time.process_time() - t0


def median_ms(run: Callable[[int], object], n: int, warmup: int = 3) -> float:
    """Median wall time of ``run(i)`` over ``i`` in range(n), in ms, after ``warmup`` calls."""
    for i in range(min(warmup, n)):
        run(i)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000
