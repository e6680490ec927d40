"""The one-process hall: a regression guard for a class of 200 on one dashboard server.

    python benchmarks/classroom/hall.py [--sessions 200] [--out benchmarks/out/hall] [--floor]

200 protocol clients open the page spread over 20 s, each typing its own sentence, the same in
each of three rounds (class_load.py ``--moves 0 --no-views --retype``: issue 55's class, the
load issue 72 measured), on one ``streamlit run dashboard.py`` with its one decoding process.
It prints class_load's report, then each target beside what was measured, and exits 1 where one
is missed:

- every turn answered: sessions x rounds Enters, each reaching both heatmaps, and every open;
- p95 Enter -> both heatmaps within 1 s;
- the server's peak resident memory (its decoding process included) within 1.5 GB.

``--floor`` then runs the same load on ``minimal_app.py`` (two heatmaps and a bar chart, no
model: what any Streamlit page of this kind costs) and prints its p95 and the dashboard's as a
multiple of it: on a shared machine the p95 of one run moves several times over from one
minute to the next, and the ratio of two runs side by side is the figure that holds.

The client runs on the same cores as the server: run it on an otherwise idle machine, and name
the CPU beside its figures (README.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from class_report import Gesture, Outcome, summary, times

HERE = Path(__file__).parent
ROUNDS = 3
P95_SECONDS = 1.0
PEAK_MB = 1500.0


def outcomes_of(record: dict) -> list[Outcome]:
    """class_load.py's outcomes, read back from its JSON."""
    found = []
    for o in record["outcomes"]:
        fields = {k: v for k, v in o.items() if k != "gestures"}
        found.append(Outcome(**fields, gestures=[Gesture(**g) for g in o["gestures"]]))
    return found


def verdict(record: dict, sessions: int) -> list[tuple[str, str, bool]]:
    """(target, measured, met) for each target of the hall."""
    outcomes = outcomes_of(record)
    enters = times(outcomes, "enter")
    answered = sum(t is not None for t in enters)
    opened = sum(o.opened is not None for o in outcomes)
    p95 = summary(enters)[1]
    peak = record["memory"]["peak"]
    return [
        (f"{sessions * ROUNDS} of {sessions * ROUNDS} turns answered",
         f"{answered}, {sessions - opened} sessions never opened",
         answered == sessions * ROUNDS and opened == sessions),
        (f"p95 Enter within {P95_SECONDS:.0f} s", f"{p95:.2f} s", p95 <= P95_SECONDS),
        (f"peak memory within {PEAK_MB:,.0f} MB", f"{peak:,.0f} MB", peak <= PEAK_MB),
    ]  # fmt: skip


def hall(page: str, sessions: int, out: str) -> dict:
    """class_load.py's record of the hall's load on a fresh server of ``page``."""
    load = [
        sys.executable, str(HERE / "class_load.py"), "--page", page,
        "--sessions", str(sessions), "--browsers", "0", "--rounds", str(ROUNDS),
        "--moves", "0", "--no-views", "--retype", "--over", "20", "--after", "5",
        "--out", out,
    ]  # fmt: skip
    subprocess.run(load, check=True)
    return json.loads((Path(out) / f"{page}-spread-{sessions}.json").read_text())


def p95_enter(record: dict) -> float:
    return summary(times(outcomes_of(record), "enter"))[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--out", default=str(HERE.parents[1] / "benchmarks" / "out" / "hall"))
    ap.add_argument(
        "--floor", action="store_true", help="then the same load on minimal_app.py, and the ratio"
    )
    args = ap.parse_args()
    record = hall("dashboard", args.sessions, args.out)
    print("\n| target | measured | met |\n|---|---|---|")
    found = verdict(record, args.sessions)
    for target, measured, met in found:
        print(f"| {target} | {measured} | {'yes' if met else '**no**'} |")
    if args.floor:
        ours, floor = p95_enter(record), p95_enter(hall("minimal", args.sessions, args.out))
        print(
            f"\nThe floor (minimal_app.py, the same load): p95 Enter {floor:.2f} s; the "
            f"dashboard's {ours:.2f} s is {ours / floor:.2f}x it."
        )
    return 0 if all(met for *_, met in found) else 1


if __name__ == "__main__":
    sys.exit(main())
