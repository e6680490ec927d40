"""Handouts as the tests write and read them: the two sentences of the shared handout
(conftest.py's ``handout``), a one-sentence handout written by the command line, and the data a
page draws from."""

from __future__ import annotations

import json
import re

from attnviz.cli.main import main

SENTENCES = ["The red cat sees a dog.", "A small dog likes the big house."]


def write_lesson(folder, sentence: str, model, *flags: str):
    """`attnviz handout` of the one ``sentence`` by ``model``; returns the site's folder."""
    (folder / "lesson.txt").write_text(sentence + "\n", encoding="utf-8")
    argv = ["handout", str(folder / "lesson.txt"), "--out", str(folder / "site"),
            "--precision", "fp32", "--models", str(model), *flags]  # fmt: skip
    assert main(argv) == 0
    return folder / "site"


def page_data(path) -> dict:
    """The data a page draws from: its <script id="attnviz-data">."""
    html = path.read_text("utf-8")
    found = re.search(r'<script type="application/json" id="attnviz-data">(.*?)</script>', html,
                      re.S)  # fmt: skip
    return json.loads(found.group(1))
