"""A handout of two toy sentences by two of the tiny trained models, written by the command
line, shared by the tests of its files and of its pages in a browser."""

from __future__ import annotations

import pytest

from attnviz.cli.main import main

SENTENCES = ["The red cat sees a dog.", "A small dog likes the big house."]
MODELS = ("bahdanau", "dot")


@pytest.fixture(scope="session")
def handout(trained, tmp_path_factory):
    """(folder, {model name: checkpoint}) of the handout in English, fp32 as the tests compare."""
    folder = tmp_path_factory.mktemp("handout")
    (folder / "lesson.txt").write_text("\n".join([SENTENCES[0], "", SENTENCES[1]]) + "\n")
    checkpoints = {m: trained(m)[0] for m in MODELS}
    argv = ["handout", str(folder / "lesson.txt"), "--out", str(folder / "site"),
            "--zip", str(folder / "site.zip"), "--precision", "fp32",
            "--models", *map(str, checkpoints.values())]  # fmt: skip
    assert main(argv) == 0
    return folder / "site", {path.name.removesuffix(".safetensors"): path
                             for path in checkpoints.values()}  # fmt: skip
