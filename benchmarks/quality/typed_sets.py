"""Checkpoints on the sentences people type: one Markdown row per checkpoint and set.

    python benchmarks/quality/typed_sets.py checkpoints/*.safetensors [--show N] [--threads 1]

Each checkpoint is decoded greedily in fp32, as the dashboard decodes, on the sets of
benchmarks/quality/typed/ in its direction (`short-SRC-TGT.tsv`, `middle-SRC-TGT.tsv`:
`source<TAB>reference[<TAB>reference...]`, written by hand for issue 80 and never trained or
tuned on). A row gives:
- for a short set, how many outputs are said right: lowercased and without final
  punctuation, one of the references (sinks.py's rule);
- for every set, sacreBLEU against all its references (`tok:zh` for Chinese output, as
  `evaluate` scores) and chrF.
--show N prints the first N outputs of each set that no reference matches exactly.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from sacrebleu.metrics import CHRF
from sinks import said

from attnviz import load
from attnviz.analysis.evaluate import bleu
from attnviz.decoding.trace import Trace

SETS = Path(__file__).parent / "typed"


def read_set(path: Path) -> tuple[list[str], list[list[str]]]:
    """The sources of ``path`` and, per source, its references."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r[0] for r in rows], [r[1:] for r in rows]


def score(tr, path: Path, show: int) -> str:
    """One Markdown row's cells for checkpoint ``tr`` on the set ``path``."""
    sources, refs = read_set(path)
    outputs = [t.text if isinstance(t, Trace) else "" for t in tr.translate_each(sources)]
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    target = tr.text.tgt_lang
    value, _ = bleu(outputs, refs, tr.text.lowercase, target)
    chrf = CHRF().corpus_score(outputs, streams).score
    right = sum(said(o) in {said(a) for a in r} for o, r in zip(outputs, refs, strict=True))
    shown = [f"{s} → {o}" for s, o, r in zip(sources, outputs, refs, strict=True) if o not in r][
        :show
    ]
    for line in shown:
        print(f"    {line}")
    kept = f"{right}/{len(sources)}" if path.name.startswith("short") else "–"
    return f"{kept} | {value:.1f} | {chrf:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--show", type=int, default=0, help="outputs that no reference matches")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    print("| checkpoint | set | said right | BLEU | chrF |")
    print("|---|---|---|---|---|")
    for path in a.checkpoints:
        tr = load(path, precision="fp32")
        direction = f"{tr.text.src_lang}-{tr.text.tgt_lang}"
        for kind in ("short", "middle"):
            found = SETS / f"{kind}-{direction}.tsv"
            if found.is_file():
                cells = score(tr, found, a.show)
                print(f"| {Path(path).stem} | {found.stem} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
