"""What should be copied, and is: numbers and names carried through verbatim, next to BLEU.

    python benchmarks/quality/copy_rate.py --data ../shared/data/fra-eng/fra.txt \\
        checkpoints/*.safetensors
    python benchmarks/quality/copy_rate.py --pairs my-pairs.txt checkpoints/*.safetensors

On each checkpoint's held-out test split of --data (every reference of a sentence used), or on
the `English<TAB>French[<TAB>...]` lines of --pairs, finds the source tokens a translation should
write unchanged (`attnviz.analysis.evaluate.should_copy`: tokens with a digit, and capitalised words
after the first, each only where a reference has it verbatim) and reports the share that greedy
decoding (int8 as the command line decodes, or --precision fp32 as the dashboard does) writes
verbatim, by kind, with corpus BLEU. With
--show N it prints the first N sentences where something was not copied.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from attnviz import load
from attnviz.analysis.evaluate import bleu, copy_rate
from attnviz.data.corpus import group_references, held_out, read_corpus
from attnviz.decoding.trace import Trace


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", help="the training corpus: score its held-out test split")
    source.add_argument("--pairs", help="English<TAB>reference lines to score")
    ap.add_argument("--show", type=int, default=0, help="sentences with a miss to print")
    ap.add_argument(
        "--precision",
        default="auto",
        choices=("auto", "fp32", "int8", "bf16"),
        help="decoding weights: auto (the fastest here, as the command line decodes) or fp32 (as "
        "the dashboard decodes)",
    )
    ap.add_argument(
        "--model-only",
        action="store_true",
        help="what the model wrote, without copies from the source (no <unk> replacement, no "
        "number copy: Translator's replace_unk=False)",
    )
    a = ap.parse_args()
    corpus = read_corpus(a.data or a.pairs)
    print("| checkpoint | BLEU | numbers copied | names copied |")
    print("|---|---|---|---|")
    misses = []
    for path in a.checkpoints:
        tr = load(path, precision=a.precision)
        if a.data:
            sources, refs = held_out(corpus, tr.data.valid_percent, tr.data.test_percent)
        else:
            sources, refs = group_references(corpus.pairs)
        outputs = [
            t.text if isinstance(t, Trace) else ""
            for t in tr.translate_each(sources, replace_unk=not a.model_only)
        ]
        score, signature = bleu(outputs, refs, tr.text.lowercase)
        r = copy_rate(sources, outputs, refs)
        print(
            f"| `{Path(path).stem}` | {score:.2f} | {r.share('numbers'):.1f}% of "
            f"{r.wanted['numbers']} | {r.share('names'):.1f}% of {r.wanted['names']} |"
        )
        misses += [f"{Path(path).stem}: {sources[k]} -> {outputs[k]}" for k in r.missed[: a.show]]
    copies = "the model alone" if a.model_only else "with copies from the source"
    print(f"\n{len(sources)} sentences; greedy, {tr.precision}, {copies}; {signature}")
    print("\n".join(misses))


if __name__ == "__main__":
    main()
