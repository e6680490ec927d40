"""Guided alignment: links carried from words to pieces and through joined pairs, the rows the
loss compares, the teachers (a links file, eflomal cached once), and what teaching does to a
tiny model's attention at an equal number of steps."""

from __future__ import annotations

import pytest
import torch

import attnviz
from attnviz.analysis import eflomal_aligner
from attnviz.analysis.aer import Gold
from attnviz.analysis.evaluate import corpus_aer
from attnviz.data import toy
from attnviz.data.corpus import (
    Example,
    guide_rows,
    join_examples,
    make_batch,
    owned_links,
    read_corpus,
    split_of,
)
from attnviz.data.text import TextConfig
from attnviz.data.vocab import SPECIALS, Vocab
from attnviz.model.model_config import ModelConfig
from attnviz.training import guide
from attnviz.training.config import TrainConfig, TrainingRun
from attnviz.training.guide import guide_loss, teacher_links
from attnviz.training.start import prepared
from attnviz.training.train import train

from ..helpers import TINY

BUDGET = TrainConfig(  # an equal, small number of steps for the natural and the taught model
    epochs=2, batch_size=32, lr=0.005, bleu_sentences=20, test_beam=0, join_fraction=0.0,
    probe_sentences=0, precision="fp32",
)  # fmt: skip


def _pharaoh(pairs) -> str:
    return "".join(" ".join(f"{i}-{j}" for i, j in links) + "\n" for *_, links in pairs)


@pytest.fixture(scope="module")
def toy_files(tmp_path_factory):
    """A toy corpus written as its words are (so gold links are over whitespace words), its
    gold links file, and its pairs."""
    pairs = toy.corpus(800, seed=1, language="adjectives")
    folder = tmp_path_factory.mktemp("guide")
    toy.write_plain(folder / "toy.txt", pairs)
    (folder / "toy.links").write_text(_pharaoh(pairs))
    return folder, pairs


def test_word_links_become_links_between_their_pieces():
    # "unhappy cat" -> "chat malheureux": pieces un|happy cat -> chat mal|heureux
    links = owned_links({(0, 1), (1, 0)}, src_owner=[0, 0, 1], tgt_owner=[0, 1, 1])
    assert sorted(links) == [(0, 1), (0, 2), (1, 1), (1, 2), (2, 0)]
    assert owned_links(set(), [0], [0]) == ()


def test_joined_pairs_keep_their_links_shifted_past_the_pairs_before():
    a = Example("a b", "x", ["a", "b"], ["x"], ((1, 0),))
    b = Example("c", "y z", ["c"], ["y", "z"], ((0, 1),))
    joined = [e for e in join_examples([a, b], 1.0, torch.Generator().manual_seed(0)) if e.links]
    assert len(joined) == 1
    first = joined[0].src.startswith("a")
    expected = ((1, 0), (2, 2)) if first else ((0, 1), (1, 2))
    assert joined[0].links == expected
    unsupervised = Example("d", "w", ["d"], ["w"])  # a swapped copy, say
    mixed = join_examples([a, unsupervised], 1.0, torch.Generator().manual_seed(0))
    assert [e.links for e in mixed] == [None]


def test_guide_rows_spread_each_target_over_its_links_and_leave_the_rest_free():
    vocab = Vocab([*SPECIALS, "a", "b", "c", "x", "y"])
    examples = [
        Example("a b c", "x y", ["a", "b", "c"], ["x", "y"], ((0, 0), (2, 0))),
        Example("a", "x", ["a"], ["x"]),  # not supervised
    ]
    rows = make_batch(examples, vocab, vocab).guide
    assert rows.shape == (2, 3, 4)  # targets + <eos>, sources + <eos>
    assert rows[0, 0].tolist() == [0.5, 0.0, 0.5, 0.0]
    assert rows[0, 1:].sum() == 0 and rows[1].sum() == 0  # no link, <eos>, no links at all
    assert guide_rows([examples[1]], 2, 2) is None
    weights = torch.tensor([[[0.5, 0.0, 0.5, 0.0]] * 3] * 2)  # attention that follows its links
    wrong = torch.tensor([[[0.0, 1.0, 0.0, 0.0]] * 3] * 2)
    assert guide_loss(weights, rows) < guide_loss(wrong, rows)


def test_a_links_file_is_read_over_words_and_refused_when_it_does_not_fit(toy_files, tmp_path):
    folder, pairs = toy_files
    corpus = read_corpus(folder / "toy.txt")
    teacher = teacher_links(corpus, TextConfig(), folder / "toy.links", folder / "m.safetensors")
    assert teacher.name == "toy.links"
    assert [set(x) for x in teacher.links[:50]] == [set(links) for *_, links in pairs[:50]]
    short = tmp_path / "short.links"
    short.write_text(_pharaoh(pairs[:10]))
    with pytest.raises(ValueError, match="10 lines of links for the 800 pairs"):
        teacher_links(corpus, TextConfig(), short, folder / "m.safetensors")
    outside = tmp_path / "outside.links"
    outside.write_text("0-40\n" * len(pairs))
    with pytest.raises(ValueError, match="outside its pair"):
        teacher_links(corpus, TextConfig(), outside, folder / "m.safetensors")


@pytest.mark.slow
def test_eflomal_aligns_a_corpus_once_and_later_runs_read_its_cache(
    toy_files, tmp_path, monkeypatch
):
    folder, pairs = toy_files
    out = tmp_path / "model.safetensors"
    run = TrainingRun(folder / "toy.txt", out, ModelConfig(attention="bahdanau"), guide="eflomal")
    _, first = prepared(run, None, lambda *_: None)
    assert first.name.startswith("eflomal ")
    assert len(list(tmp_path.glob("toy.*.links"))) == 1
    agree = sum(set(a) == set(g) for a, (*_, g) in zip(first.links, pairs, strict=True))
    assert agree / len(pairs) > 0.5  # eflomal learns the toy language's reordering

    def refuse(*_, **__):
        raise AssertionError("aligned again")

    monkeypatch.setattr(guide, "run_eflomal", refuse)
    p, again = prepared(run, None, lambda *_: None)
    assert again == first
    train_links = [e.links for e in p.splits["train"]]
    assert all(links is not None for links in train_links) and any(train_links)
    assert eflomal_aligner.run_eflomal is not refuse  # the aligner itself is untouched


@pytest.mark.slow
@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_taught_attention_aligns_better_than_natural_at_equal_steps(toy_files, tmp_path, attention):
    folder, pairs = toy_files
    held = [(s, t, links) for s, t, links in pairs if split_of(s) == "test"]
    gold = [Gold(set(links), set(links)) for *_, links in held]
    aer, cards = {}, {}
    for name, teacher in (("natural", None), ("taught", folder / "toy.links")):
        out = tmp_path / f"{name}.safetensors"
        model = ModelConfig(attention=attention, **TINY)
        run = TrainingRun(folder / "toy.txt", out, model, train=BUDGET, guide=teacher)
        cards[name] = train(run, log=lambda *_: None)
        scores = corpus_aer(attnviz.load(out, precision="fp32"), [(s, t) for s, t, _ in held], gold)
        aer[name] = scores["argmax", False].aer
    # Since the unigram output bias (issue 51) a natural Luong toy aligns too (AER ~9): taught
    # attention still halves natural's AER at equal steps, whatever natural's is.
    assert aer["taught"] <= aer["natural"] / 2, aer
    assert aer["taught"] < 25, aer
    assert "guide" not in cards["natural"]
    card = cards["taught"]["guide"]
    assert card["teacher"] == "toy.links" and card["weight"] == 1.0
    assert card["linked_pairs"] == len(pairs) and len(card["links_sha256"]) == 64
