"""The slowest decodings the page asks for, and a decoding process's start: what the bound of a
hung decoding process is set from (attnviz_ui/serving/decoder_process.py, ``Bound``).

    python benchmarks/classroom/slowest_decoding.py [--checkpoints checkpoints]

For each shipped checkpoint: its load, and the decoding of the longest input it takes (a
lesson's sentence repeated as often as the model's token limit and the page's ``MAX_CHARS``
allow) in the widest beam the sidebar offers, in the page's precision, on one thread, as a
decoding process decodes. Then a new decoding process's first answer (interpreter, imports,
one model's load and a short sentence), as the server starts one. Prints the slowest of each,
with a few times them as the bounds.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

from attnviz.errors import InputError
from attnviz.store.catalog import Checkpoint
from attnviz_ui.pages.sentence_inputs import MAX_CHARS
from attnviz_ui.serving.decoder_process import Bound, DecoderProcess, Request, decode
from attnviz_ui.serving.models import page_precision
from attnviz_ui.serving.translators import models

WIDEST_BEAM = 10  # the sidebar's "Beam width" slider goes to 10
LONG = {  # a source sentence a page's text box may hold, repeated to MAX_CHARS
    "en": "The students read the notes on attention before the lesson began. ",
    "zh": "学生们在上课前读了关于注意力的笔记。",
    "fr": "Les élèves ont lu les notes sur l'attention avant le cours. ",
}
TIMES = 4  # the bound: this many times the slowest measured


def longest(checkpoint: Checkpoint, lang: str, precision: str) -> Request:
    """The request of the most repeats of ``lang``'s sentence that the model does not refuse."""
    for repeats in range(MAX_CHARS // len(LONG[lang]), 0, -1):
        sentence = (LONG[lang] * repeats).strip()
        if _within_limit(checkpoint, sentence, precision):
            return Request(checkpoint, sentence, WIDEST_BEAM, "", "en", precision)
    raise ValueError(f"{checkpoint.name} refuses even one sentence")


def _within_limit(checkpoint: Checkpoint, sentence: str, precision: str) -> bool:
    try:
        models(precision).get(checkpoint).tokenize_source(sentence)
    except InputError:
        return False
    return True


def slowest_decoding(folder: Path, precision: str) -> tuple[float, str]:
    worst = (0.0, "")
    for path in sorted(folder.glob("*.safetensors")):
        checkpoint = Checkpoint.at(path)
        start = time.perf_counter()
        tr = decode(Request(checkpoint, "a", 1, "", "en", precision))  # loads the model
        loaded = time.perf_counter() - start
        lang = models(precision).get(checkpoint).text.src_lang
        asked = longest(checkpoint, lang, precision)
        start = time.perf_counter()
        tr = decode(asked)
        took = time.perf_counter() - start
        words = len(getattr(tr, "tgt_tokens", ()))
        print(f"{path.name:34} load {loaded:5.2f} s  longest input, beam {WIDEST_BEAM}: "
              f"{took:6.2f} s ({words} output tokens)")  # fmt: skip
        worst = max(worst, (loaded + took, path.name))
    return worst


def first_answer(folder: Path, precision: str) -> float:
    checkpoint = Checkpoint.at(next(iter(sorted(folder.glob("*.safetensors")))))
    process = DecoderProcess(bound=Bound(3600, 3600))
    start = time.perf_counter()
    try:
        process.decode(Request(checkpoint, "I am cold.", 1, "", "en", precision))
        return time.perf_counter() - start
    finally:
        process.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoints", type=Path, default=Path("checkpoints"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    precision = page_precision()
    worst, name = slowest_decoding(args.checkpoints, precision)
    start = first_answer(args.checkpoints, precision)
    print(f"slowest load and decoding: {worst:.2f} s ({name}, {precision})")
    print(f"a new decoding process's first answer: {start:.2f} s")
    print(f"bounds at {TIMES}x: answer {TIMES * worst:.0f} s, start {TIMES * start:.0f} s")


if __name__ == "__main__":
    main()
