"""``attnviz distill``: sequence-level knowledge distillation (Kim & Rush, 2016). A teacher
translates the training split's sources of a corpus, and its translations are written as a
corpus of their own, in the same columns, to train a student on beside (or instead of) the
human references: one fluent target per source, which a small model learns more easily than
several references that disagree.

Only the training split is translated, as the teacher's own split assigns it: a held-out
source with the teacher's translation in a student's data would leak the teacher's test set
into the student's training (the two share the hash-keyed split when trained with the same
percentages, so the student's test sources are never among them either)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..data.corpus import held_out, read_corpus
from ..decoding.trace import Trace
from ..files import atomic_write

CHUNK = 512  # sentences translated between two updates of the progress bar


def distill_command(args) -> int:
    from tqdm import tqdm

    from ..store.checkpoint import load

    teacher = load(args.teacher, precision=args.precision)
    data = teacher.data
    if data is None:
        raise ValueError(f"{args.teacher}: its card has no data settings, so no split to keep to")
    corpus = read_corpus(args.data, data.source_column)
    sources, _refs = held_out(corpus, data.valid_percent, data.test_percent, split="train")
    name, kept = Path(args.teacher).stem, []
    credit = f"distilled: {name}'s translation of a training sentence of {Path(args.data).name}"
    with tqdm(total=len(sources), unit="sentence", file=sys.stderr) as bar:
        for k in range(0, len(sources), CHUNK):
            chunk = sources[k : k + CHUNK]
            for source, result in zip(
                chunk, teacher.translate_each(chunk, batch_size=args.batch_size), strict=True
            ):
                if isinstance(result, Trace) and result.text:
                    pair = [source, result.text][:: 1 if data.source_column == 1 else -1]
                    kept.append("\t".join([*pair, credit]) + "\n")
            bar.update(len(chunk))
    atomic_write(args.out, "".join(kept).encode("utf-8"))
    print(
        f"saved {args.out}: {len(kept)} of the {len(sources)} distinct training sources "
        f"translated by {name} ({len(sources) - len(kept)} refused or empty)",
        file=sys.stderr,
    )
    return 0
