"""Two models over many sentences: per-sentence BLEU and AER, the table's order, BLEU by
length, the corpus totals and where the sentences come from."""

from __future__ import annotations

import pytest

from attnviz import load
from attnviz.aer import Gold
from attnviz.compare_models import (
    Item,
    SentenceScore,
    aer_of,
    attach_gold,
    bleu_by_length,
    parse_items,
    score_sentences,
    table,
)

from .synthetic import corpus


def _result(text, bleu, links=()):
    return SentenceScore(text, None, bleu, None, 1.0, 1.0, 0.0, frozenset(links))


def test_parse_items_reads_sources_with_any_number_of_references():
    items = parse_items("Hello.\tBonjour.\tSalut.\n\n  \nI am cold.\nBye.\tAu revoir.\t\n")
    assert [i.source for i in items] == ["Hello.", "I am cold.", "Bye."]
    assert [i.references for i in items] == [("Bonjour.", "Salut."), (), ("Au revoir.",)]


def test_gold_must_match_the_sentences_and_have_a_reference():
    gold = [Gold({(0, 0)}, {(0, 0)})]
    with pytest.raises(ValueError, match="2 sentences but 1 gold"):
        attach_gold(parse_items("a\tb\nc\td"), gold)
    with pytest.raises(ValueError, match="no reference"):
        attach_gold(parse_items("a"), gold)
    assert attach_gold(parse_items("a\tb"), gold)[0].gold == gold[0]


def test_the_table_puts_the_largest_bleu_difference_first():
    items = [Item("one", ("un",)), Item("two", ("deux",)), Item("three", ("trois",))]
    results = {
        "left": [_result("un", 100.0), _result("x", 0.0), _result("trois", 100.0)],
        "right": [_result("un", 90.0), _result("deux", 100.0), _result("y", 30.0)],
    }
    frame = table(items, results)
    assert list(frame["#"]) == [2, 3, 1]  # differences -100, +70, +10
    assert list(frame["BLEU difference"]) == [-100.0, 70.0, 10.0]
    assert list(frame["left"]) == ["x", "trois", "un"]
    assert "left AER" not in frame  # no gold, no AER column


def test_bleu_by_length_buckets_by_source_words():
    ref = "x y z v w"  # long enough for 4-gram matches
    items = [Item("a b c", (ref,)), Item(" ".join("w" * 12), (ref,))]
    results = {"m": [_result(ref, None), _result("q", None)]}
    frame = bleu_by_length(items, results)
    assert list(frame["words"]) == ["1-5", "11-15"]
    assert frame["BLEU"].iloc[0] == pytest.approx(100.0)
    assert frame["BLEU"].iloc[1] == pytest.approx(0.0)
    assert list(frame["sentences"]) == [1, 1]


def test_corpus_aer_counts_links_over_all_sentences_at_once():
    # Sentence 1: 1 of 2 sure links found; sentence 2: 2 links, both sure. Pooled:
    # |A| = 3, |S| = 4, |A & S| = |A & P| = 3 -> AER = 1 - 6/7; a mean of sentence AERs differs.
    g1 = Gold({(0, 0), (1, 1)}, {(0, 0), (1, 1)})
    g2 = Gold({(0, 0), (1, 1)}, {(0, 0), (1, 1)})
    items = [Item("a b", ("x y",), g1), Item("c d", ("z w",), g2)]
    results = [_result("", None, {(0, 0)}), _result("", None, {(0, 0), (1, 1)})]
    assert aer_of(items, results).aer == pytest.approx(100 * (1 - 6 / 7))
    assert aer_of([Item("a")], [_result("", None)]) is None


def test_score_sentences_scores_a_trained_model_and_refuses_nothing_silently(trained):
    tr = load(trained("bahdanau")[0])
    pairs = corpus(6, seed=7)
    items = [Item(en, (fr,), Gold(set(links), set(links))) for en, fr, links in pairs]
    items.append(Item("   ", ("rien",)))  # a blank source is refused with a message
    seen = []
    results = score_sentences(
        tr, items, batch_size=4, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(4, 7), (7, 7)]
    assert results[-1].error and results[-1].bleu == 0.0
    for item, r in zip(items[:-1], results[:-1], strict=True):
        assert r.error is None and 0 <= r.bleu <= 100 and 0 <= r.aer <= 100
        assert r.links and all(i < item.words for i, _ in r.links)
    # The tiny model has learned this toy language: most links are right.
    assert aer_of(items[:-1], results[:-1]).aer < 50
