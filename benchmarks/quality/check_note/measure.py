"""How right the "Check this translation" note is: on hand-judged outputs of the shipped models
(labelled.tsv), the share of correct translations it flags and the share of wrong ones.

    python benchmarks/quality/check_note/measure.py [--checkpoints checkpoints]

Each model translates its sources through ``python -m attnviz translate --json``, as a user
would; an output that differs from the one judged (another precision, another machine) is left
out and counted, as its judgement does not hold for it.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def judged(path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """model -> [(source, output, "correct" or "wrong")], in the file's order."""
    found = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if row and not row[0].startswith("#"):
                model, source, output, label = row
                found[model].append((source, output, label))
    return found


def checks(checkpoint: Path, sources: list[str]) -> list[dict]:
    """The JSON record of each source's translation."""
    # One sentence at a time: in int8, a sentence's words still depend on its batch (issue 65).
    command = ["translate", str(checkpoint), "--json", "--batch-size", "1"]
    run = subprocess.run(
        [sys.executable, "-m", "attnviz", *command],
        input="\n".join(sources) + "\n", capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [json.loads(line) for line in run.stdout.splitlines()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoints", default="checkpoints", type=Path)
    ap.add_argument("--labelled", default=HERE / "labelled.tsv", type=Path)
    ap.add_argument("--show", action="store_true", help="list the misses and false alarms")
    args = ap.parse_args()
    total = {"correct": [0, 0], "wrong": [0, 0]}  # label -> [flagged, judged]
    print("| model | correct flagged | wrong flagged | outputs changed |\n|---|---|---|---|")
    for model, rows in judged(args.labelled).items():
        records = checks(args.checkpoints / f"{model}.safetensors", [s for s, _, _ in rows])
        mine = {"correct": [0, 0], "wrong": [0, 0]}
        changed = 0
        for (source, output, label), record in zip(rows, records, strict=True):
            if record.get("translation") != output:
                changed += 1
                continue
            flagged = record["check"]["flagged"]
            for counts in (mine[label], total[label]):
                counts[0] += flagged
                counts[1] += 1
            if args.show and flagged == (label == "correct"):
                print(f"  {label}: {source} -> {output}: {record['check']['note']}")
        print(f"| {model} | {_share(mine['correct'])} | {_share(mine['wrong'])} | {changed} |")
    print(f"| all | {_share(total['correct'])} | {_share(total['wrong'])} | |")
    return 0


def _share(counts: list[int]) -> str:
    flagged, n = counts
    return f"{flagged}/{n} ({100 * flagged / max(n, 1):.1f}%)"


if __name__ == "__main__":
    sys.exit(main())
