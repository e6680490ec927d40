"""Training sources as people type them (issue 80, item 4): lower case and no final
punctuation, the targets as the corpus writes them, and short pairs added again, drawn anew
each epoch from the seed."""

from __future__ import annotations

import random

import pytest

from attnviz.cli.main import main
from attnviz.data.corpus import Example, tokenize_pairs
from attnviz.data.text import TextConfig
from attnviz.data.typed import SHORT_WORDS, as_typed, short_copies, typed_examples

from ..helpers import TINY_FLAGS, resumes_exactly
from ..synthetic import corpus, write_corpus


def _example(src: str, tgt: str = "Bonjour !") -> Example:
    return Example(src, tgt, src.split(), tgt.split())


def test_a_source_is_typed_in_lower_case_without_its_final_mark_or_both():
    rng = random.Random(0)
    seen = {as_typed("Hello, Tom!", rng) for _ in range(200)}
    assert seen == {"hello, tom!", "Hello, Tom", "hello, tom"}
    assert {as_typed("我爱你。", rng) for _ in range(50)} == {"我爱你", "我爱你。"}
    assert {as_typed("?!", rng) for _ in range(50)} == {"?!"}  # never typed away to nothing


def test_short_copies_are_the_short_pairs_again_as_many_times_as_asked():
    examples = [_example("Hi."), _example("Thank you very much."), _example("a " * 9 + "b.")]
    rng = random.Random(1)
    assert short_copies(examples, 0, rng) == []
    twice = short_copies(examples, 2, rng)
    assert twice == [examples[0], examples[1]] * 2  # the nine-word source is not short
    half = short_copies(examples, 2.5, rng)
    assert len(half) == 5 and set(map(id, half)) <= {id(examples[0]), id(examples[1])}
    assert all(len(e.src.split()) <= SHORT_WORDS for e in half)


def test_a_share_of_the_sources_is_tokenized_anew_as_typed_and_the_targets_stay():
    text = TextConfig()
    pairs = [(f"I see the {w} cat.", f"Je vois le chat {w}.") for w in ["red", "big", "old", "new"]]
    examples = tokenize_pairs(pairs * 5, text)
    out = typed_examples(examples, 0.5, random.Random(2), lambda p: tokenize_pairs(p, text))
    assert len(out) == len(examples)
    typed = [e for e in out if e.src not in {s for s, _ in pairs}]
    assert len(typed) == 10
    variants = {v: t for s, t in pairs for v in (s.lower(), s[:-1], s.lower()[:-1])}
    for e in typed:
        assert e.tgt == variants[e.src]  # its own target, as the corpus writes it
        assert e.src_tokens == text.tokenize(e.src, "src")  # tokenized from the typed source
    assert sorted(e.tgt for e in out) == sorted(e.tgt for e in examples)
    assert typed_examples(examples, 0, random.Random(2), lambda p: []) is examples


@pytest.mark.slow
def test_a_run_with_typed_sources_and_short_copies_records_them_and_resumes_exactly(tmp_path):
    data = tmp_path / "small.txt"
    write_corpus(data, corpus(400, seed=1))
    flags = [*TINY_FLAGS, "--attention", "general", "--subwords", "300", "--join-fraction", "0",
             "--typed-fraction", "0.3", "--short-copies", "1", "--test-beam", "1"]  # fmt: skip
    straight = resumes_exactly(data, tmp_path, flags)
    from attnviz import load

    config = load(straight).card["train_config"]
    assert config["typed_fraction"] == 0.3 and config["short_copies"] == 1


def test_out_of_range_shares_are_refused(tmp_path, capsys):
    data = tmp_path / "small.txt"
    write_corpus(data, corpus(100, seed=1))
    out = str(tmp_path / "m.safetensors")
    argv = ["train", "--data", str(data), "--out", out, "--attention", "dot", *TINY_FLAGS]
    assert main([*argv, "--typed-fraction", "1.5"]) == 2
    assert "typed_fraction must be in [0, 1]" in capsys.readouterr().err
    assert main([*argv, "--short-copies", "5"]) == 2
    assert "short_copies must be in [0, 4]" in capsys.readouterr().err
