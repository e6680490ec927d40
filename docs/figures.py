"""Every picture and table of the docs, redrawn from the shipped checkpoints in one command.

    python docs/figures.py [--data ../shared/data/fra-eng/fra.txt] [--only SCRIPT ...]

Runs each script of :data:`SCRIPTS` in turn, each in a process of its own (the screenshots
start their own dashboard servers in headless Chromium: ``/usr/bin/chromium`` and playwright).
A script not in the tree is skipped with a note. ``--data`` goes to ``make_figures.py``, which
then checks that no example sentence is in the training corpus. Exits with the first failure's
status.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent

SCRIPTS = {  # script: what it draws (all under docs/)
    "make_figures.py": "the README's example tables (printed) and heatmap-*.png",
    "make_screenshot.py": "dashboard.png, the README's first picture",
    "make_step_screenshots.py": "step-*.png, what-if-*.png, compare-forced.png",
    "make_taught_screenshot.py": "taught-view.png, the Natural vs taught view",
    "make_training_screenshots.py": "training-early.png, training-late.png, training-live.png",
    "make_screens.py": "screens/{en,zh}/*.png and screens/index.md: every view, in both languages",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="the training corpus, for make_figures.py's check")
    ap.add_argument("--only", nargs="+", choices=tuple(SCRIPTS), help="these scripts alone")
    a = ap.parse_args()
    for script in a.only or SCRIPTS:
        if not (DOCS / script).is_file():
            print(f"{script}: not in this tree, skipped", file=sys.stderr)
            continue
        extra = ["--data", a.data] if script == "make_figures.py" and a.data else []
        print(f"{script}: {SCRIPTS[script]}", file=sys.stderr)
        done = subprocess.run([sys.executable, str(DOCS / script), *extra], cwd=DOCS.parent)
        if done.returncode:
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
