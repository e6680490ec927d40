"""Turn one run's raw figures into the comparison's ``key value`` lines, as ratios.

    python benchmarks/peers/joeynmt/report.py RAW [--work WORK]

RAW holds the lines run.sh collected, ``ROUND TOOLKIT ATTENTION VARIANT KEY VALUE``, each
figure as attnviz_side.py or joeynmt_side.py printed it. Each ratio is taken within a round
(neighbouring processes, so that the machine's drift hits both) and the median over rounds is
printed. With ``--work``, the hypotheses the budget runs wrote are scored with sacreBLEU against
every reference, both toolkits' pieces read back into text by attnviz's own code.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from attnviz.analysis.evaluate import bleu
from attnviz.data.subwords import WORD_START, Pieces
from attnviz.data.text import TextConfig

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as h  # the folder's shared module, beside this file

TOOLKITS = ("attnviz", "joeynmt", "attnviz_lean")  # attnviz_lean: budget runs only
# key: (numerator, denominator), each (toolkit, variant, figure): attnviz's advantage, > 1
# when attnviz is better. "auto" is attnviz's default precision (bf16 training where the CPU
# has it natively, int8 decoding on x86); "fp32" turns both off.
RATIOS = {
    "train_ratio": (("attnviz", "auto", "train_tok_per_s"), ("joeynmt", "own", "train_tok_per_s")),
    "train_ratio_fp32": (
        ("attnviz", "fp32", "train_tok_per_s"),
        ("joeynmt", "own", "train_tok_per_s"),
    ),
    "train_ratio_same_batches_fp32": (
        ("attnviz", "fp32", "train_tok_per_s"),
        ("joeynmt", "own", "train_tok_per_s_same_batches"),
    ),
    "greedy_ratio": (
        ("joeynmt", "own", "greedy_ms_per_sentence"),
        ("attnviz", "auto", "greedy_ms_per_sentence"),
    ),
    "greedy_ratio_fp32": (
        ("joeynmt", "own", "greedy_ms_per_sentence"),
        ("attnviz", "fp32", "greedy_ms_per_sentence"),
    ),
    f"beam{h.BEAM}_ratio": (
        ("joeynmt", "own", f"beam{h.BEAM}_ms_per_sentence"),
        ("attnviz", "auto", f"beam{h.BEAM}_ms_per_sentence"),
    ),
    f"beam{h.BEAM}_ratio_fp32": (
        ("joeynmt", "own", f"beam{h.BEAM}_ms_per_sentence"),
        ("attnviz", "fp32", f"beam{h.BEAM}_ms_per_sentence"),
    ),
}


def read_raw(path: Path) -> dict:
    """{(toolkit, attention, variant, key): {round: value}} from run.sh's raw lines."""
    figures: dict = defaultdict(dict)
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) != 6:
            continue
        rnd, toolkit, attention, variant, key, value = parts
        figures[toolkit, attention, variant, key][rnd] = float(value)
    return figures


def ratios(figures: dict) -> dict[str, float]:
    """Each ratio of :data:`RATIOS` per attention, the median over the rounds that have both."""
    out = {}
    for name, ((t1, v1, k1), (t2, v2, k2)) in RATIOS.items():
        for attention in h.ATTENTIONS:
            num = figures.get((t1, attention, v1, k1), {})
            den = figures.get((t2, attention, v2, k2), {})
            both = [num[r] / den[r] for r in num if den.get(r)]
            if both:
                out[f"{name}_{attention}"] = statistics.median(both)
    return out


def raw_medians(figures: dict) -> dict[str, float]:
    """Every figure itself, median over rounds, keyed ``toolkit_attention_variant_key``."""
    return {
        "_".join(key): statistics.median(by_round.values())
        for key, by_round in sorted(figures.items())
    }


def peak_memory(figures: dict) -> dict[str, float]:
    """Peak resident memory of each toolkit's training processes: the budget runs' when there
    were any, else the largest of the speed runs'."""
    out = {}
    for attention in h.ATTENTIONS:
        for toolkit in TOOLKITS:
            runs = {
                variant: max(by_round.values())
                for (t, a, variant, key), by_round in figures.items()
                if (t, a, key) == (toolkit, attention, "peak_rss_mb")
            }
            if runs:
                out[f"peak_rss_mb_{attention}_{toolkit}"] = runs.get("budget", max(runs.values()))
    return out


def pieces_text(pieces: list[str], target: Pieces, text: TextConfig) -> str:
    """A decoding over pieces as attnviz writes it: pieces read back as words, then detokenized
    (as :class:`attnviz.Translator` does, without its copying of numbers from the source)."""
    words = target.join(pieces)[0] if pieces != [""] else []
    return text.detokenize([w for w in words if w != WORD_START])


def budget_bleu(work: Path) -> dict[str, float]:
    """sacreBLEU of every hypotheses file in ``work``'s hyps folder, keyed
    ``bleu_ATTENTION_TOOLKIT_Mmin``, and ``bleu_per_budget_ATTENTION_TOOLKIT`` at the last
    mark."""
    refs = h.read_json(work / h.BLEU_JSON)["references"]
    target, text = Pieces((work / f"{h.SPM}.fr.model").read_bytes()), TextConfig()
    out, last = {}, {}
    for path in sorted((work / h.HYPS).glob("*min.txt")):
        toolkit, attention, mark = path.stem.split("-")
        hyps = [pieces_text(p, target, text) for p in h.read_pieces(path)]
        score, _ = bleu(hyps, refs)
        minutes = float(mark.removesuffix("min"))
        out[f"bleu_{attention}_{toolkit}_{mark}"] = round(score, 2)
        if minutes >= last.get((attention, toolkit), (0.0, 0.0))[0]:
            last[attention, toolkit] = (minutes, round(score, 2))
    for (attention, toolkit), (_, score) in sorted(last.items()):
        out[f"bleu_per_budget_{attention}_{toolkit}"] = score
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("raw", type=Path, help="run.sh's raw figures")
    ap.add_argument("--work", type=Path, help="score the budget runs' hypotheses in this folder")
    a = ap.parse_args()
    figures = read_raw(a.raw)
    lines = {**ratios(figures), **peak_memory(figures)}
    if a.work and (a.work / h.HYPS).is_dir():
        lines.update(budget_bleu(a.work))
    lines.update(raw_medians(figures))
    for key, value in lines.items():
        h.emit(key, round(value, 2) if "ratio" in key else value)


if __name__ == "__main__":
    main()
