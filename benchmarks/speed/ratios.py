"""Tables of a benchmarks/speed/run.sh log: each figure beside the peer's from the same round.

    benchmarks/speed/run.sh CORPUS PEER_SCRIPT > run.log 2>&1
    python benchmarks/speed/ratios.py run.log

For every round: training tokens/s and greedy ms per sentence of each configuration, with its
ratio to the peer's in that round (higher is better for both: the greedy ratio is the peer's
time over ours), and beam-5 ms; decoding rounds train one step, so they show no training
figure. Then the validation losses, one row per configuration.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

FIGURES = ("train_tok_per_s", "greedy_ms_per_sentence", "beam5_ms_per_sentence")


def parse(lines: list[str]) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, float]]:
    """Figures by round and configuration, and validation losses by configuration."""
    rounds: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    losses: dict[str, float] = {}
    group = label = None
    for line in lines:
        if m := re.match(r"== (validation loss .*)", line):
            group, label = None, m[1]
        elif m := re.match(r"== ((?:decoding )?round \d+): (.*)", line):
            group, label = m[1], "peer" if "peer" in m[2] else m[2].removeprefix("attnviz ")
            rounds[group][label] = {}
        elif (m := re.match(r"(\w+) ([\d.]+)$", line.strip())) and label:
            if m[1] == "valid_loss":
                losses[label] = float(m[2])
            elif (
                group
                and m[1] in FIGURES
                and not (
                    group.startswith("decoding") and m[1] == "train_tok_per_s"  # one step there
                )
            ):
                rounds[group][label][m[1]] = float(m[2])
    return rounds, losses


def main() -> None:
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        rounds, losses = parse(f.read().splitlines())
    for group, figures in rounds.items():
        peer = figures.get("peer", {})
        print(f"\n{group}\n")
        print("| configuration | train tokens/s | x peer | greedy ms | x peer | beam-5 ms |")
        print("|---|---|---|---|---|---|")
        for label, fig in figures.items():
            tok, greedy = fig.get("train_tok_per_s"), fig.get("greedy_ms_per_sentence")
            beam = fig.get("beam5_ms_per_sentence")
            tok_x = tok / peer["train_tok_per_s"] if tok and "train_tok_per_s" in peer else None
            greedy_x = peer["greedy_ms_per_sentence"] / greedy if greedy and peer else None
            cells = [
                f"{tok:,.0f}" if tok else "-",
                f"{tok_x:.1f}" if tok_x else "-",
                f"{greedy:.2f}" if greedy else "-",
                f"{greedy_x:.1f}" if greedy_x else "-",
                f"{beam:.2f}" if beam else "-",
            ]
            print(f"| {label} | " + " | ".join(cells) + " |")
    if losses:
        print("\n| validation loss | value |\n|---|---|")
        for label, loss in losses.items():
            print(f"| {label} | {loss:.4f} |")


if __name__ == "__main__":
    main()
