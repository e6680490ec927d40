"""Subword regularization (issue 80, item 4): each epoch splits the training words into pieces
drawn anew (BPE-dropout), so that a model reads a word in the pieces a rarer spelling gives
it ("Hello" as "▁He llo"), the same draw for the same seed, and links follow the words."""

from __future__ import annotations

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import Example, resampled
from attnviz.data.subwords import Subwords

from ..helpers import TINY_FLAGS, resumes_exactly
from ..synthetic import corpus, write_corpus

PAIRS = [(en.split(), fr.split()) for en, fr, _ in corpus(300, seed=3)]


@pytest.fixture(scope="module")
def subwords():
    return Subwords.train(PAIRS, vocab_size=300)


def _examples(subwords, n=40):
    out = []
    for en, fr in PAIRS[:n]:
        (src, src_owner), (tgt, tgt_owner) = subwords.src.split(en), subwords.tgt.split(fr)
        links = tuple((i, j) for i in range(len(src)) for j in range(len(tgt))
                      if src_owner[i] == tgt_owner[j])  # fmt: skip
        out.append(Example(" ".join(en), " ".join(fr), src, tgt, links))
    return out


def test_drawn_pieces_spell_the_same_words_and_differ_from_the_one_split(subwords):
    examples = _examples(subwords)
    drawn = resampled(examples, subwords, 0.3, seed=1)
    for ex, new in zip(examples, drawn, strict=True):
        assert subwords.src.join(new.src_tokens)[0] == subwords.src.join(ex.src_tokens)[0]
        assert subwords.tgt.join(new.tgt_tokens)[0] == subwords.tgt.join(ex.tgt_tokens)[0]
    both = list(zip(examples, drawn, strict=True))
    changed = sum(new.src_tokens != ex.src_tokens for ex, new in both)
    assert changed > len(examples) // 4  # dropout at 0.3 splits many sentences otherwise
    assert all(len(new.src_tokens) >= len(ex.src_tokens) for ex, new in both)  # never fewer


def test_the_same_seed_draws_the_same_pieces_and_another_seed_others(subwords):
    examples = _examples(subwords)
    once, again = (resampled(examples, subwords, 0.3, seed=7) for _ in range(2))
    other = resampled(examples, subwords, 0.3, seed=8)
    assert [e.src_tokens for e in once] == [e.src_tokens for e in again]
    assert [e.src_tokens for e in once] != [e.src_tokens for e in other]


def test_links_follow_the_words_into_the_new_pieces(subwords):
    examples = _examples(subwords)
    for new in resampled(examples, subwords, 0.5, seed=2):
        (_, src_owner), (_, tgt_owner) = (
            subwords.src.join(new.src_tokens), subwords.tgt.join(new.tgt_tokens)
        )  # fmt: skip
        expected = {(i, j) for i in range(len(src_owner)) for j in range(len(tgt_owner))
                    if src_owner[i] == tgt_owner[j]}  # fmt: skip
        assert set(new.links) == expected


@pytest.mark.slow
def test_a_run_with_subword_dropout_resumes_to_the_weights_of_an_uninterrupted_run(tmp_path):
    data = tmp_path / "small.txt"
    write_corpus(data, corpus(400, seed=1))
    flags = [*TINY_FLAGS, "--attention", "general", "--subwords", "300", "--join-fraction", "0",
             "--subword-dropout", "0.2", "--test-beam", "1"]  # fmt: skip
    resumes_exactly(data, tmp_path, flags)


def test_subword_dropout_without_pieces_is_refused(tmp_path, capsys):
    data = tmp_path / "small.txt"
    write_corpus(data, corpus(100, seed=1))
    argv = [
        "train",
        "--data",
        str(data),
        "--out",
        str(tmp_path / "m.safetensors"),
        "--attention",
        "general",
        *TINY_FLAGS,
        "--subwords",
        "0",
        "--subword-dropout",
        "0.1",
    ]
    assert main(argv) == 2
    assert "needs --subwords above 0" in capsys.readouterr().err
    assert main([*argv[:-1], "1.5"]) == 2
    assert "subword_dropout must be in [0, 1)" in capsys.readouterr().err
