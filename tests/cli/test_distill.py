"""``attnviz distill`` (issue 80, item 4): a teacher's translations of its training split's
sources, written in the corpus's own columns, never a held-out sentence."""

from __future__ import annotations

from attnviz import load
from attnviz.cli.main import main
from attnviz.data.corpus import read_corpus, split_of


def test_the_training_sources_are_translated_into_the_corpus_columns(chinese_trained, capsys):
    teacher = chinese_trained("general")  # Chinese -> English: the source is column 2
    data, out = teacher.parent / "cmn.txt", teacher.parent / "distilled" / "cmn-distilled.txt"
    assert main(["distill", str(teacher), "--data", str(data), "--out", str(out)]) == 0
    tr = load(teacher, precision="fp32")
    held = (tr.data.valid_percent, tr.data.test_percent)
    corpus = read_corpus(data, source_column=2)
    training = {s for s, _ in corpus.pairs if split_of(s, *held) == "train"}
    assert 0 < len(training) < len({s for s, _ in corpus.pairs})  # some are held out
    lines = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert {chinese for _, chinese, _ in lines} == training  # every one, and no other
    assert len(lines) == len(training)
    english, chinese, credit = lines[0]
    assert english == tr.translate(chinese).text
    assert credit == "distilled: general-zh-en's translation of a training sentence of cmn.txt"
    err = capsys.readouterr().err
    assert f"{len(training)} of the {len(training)} distinct training sources" in err
