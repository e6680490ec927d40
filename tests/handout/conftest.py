"""A handout of two toy sentences by two of the tiny trained models, written by the command
line, shared by the tests of its files and of its pages in a browser; and an untrained tiny
model, for what a handout shows whatever the model writes."""

from __future__ import annotations

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import DataConfig
from attnviz.data.text import TextConfig
from attnviz.store.checkpoint import save

from ..helpers import tiny_translator
from .handouts import SENTENCES

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


@pytest.fixture(scope="session")
def untrained_model(tmp_path_factory):
    """The checkpoint of an untrained tiny model over the toy vocabulary: no training, so the
    tests of what a page writes around the words stay quick."""
    path = tmp_path_factory.mktemp("untrained") / "tiny.safetensors"
    tr = tiny_translator("bahdanau")
    save(path, tr.model, tr.src_vocab, tr.tgt_vocab, TextConfig(), DataConfig(subwords=0), {})
    return path
