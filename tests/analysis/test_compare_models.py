"""Two models over many sentences: per-sentence BLEU and AER, the table's order, BLEU by
length, the corpus totals and where the sentences come from."""

from __future__ import annotations

import pytest

from attnviz import load
from attnviz.analysis.aer import Gold
from attnviz.analysis.compare_models import (
    Item,
    SentenceScore,
    aer_of,
    attach_gold,
    bleu_by_length,
    held_out_items,
    parse_items,
    read_items,
    score_sentences,
    table,
    totals,
)
from attnviz.analysis.length_buckets import BUCKETS, bucket_index
from attnviz.data.corpus import DataConfig, split_of

from ..synthetic import corpus


def scored(text, bleu, links=()):
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
        "left": [scored("un", 100.0), scored("x", 0.0), scored("trois", 100.0)],
        "right": [scored("un", 90.0), scored("deux", 100.0), scored("y", 30.0)],
    }
    frame = table(items, results)
    assert list(frame["#"]) == [2, 3, 1]  # differences -100, +70, +10
    assert list(frame["BLEU difference"]) == [-100.0, 70.0, 10.0]
    assert list(frame["left"]) == ["x", "trois", "un"]
    assert "left AER" not in frame  # no gold, no AER column


def test_bleu_by_length_buckets_by_source_words():
    ref = "x y z v w"  # long enough for 4-gram matches
    items = [Item("a b c", (ref,)), Item(" ".join("w" * 12), (ref,))]
    results = {"m": [scored(ref, None), scored("q", None)]}
    frame = bleu_by_length(items, results)
    assert list(frame["words"]) == [BUCKETS[0].label, BUCKETS[2].label] == ["1–5", "11–15"]
    assert frame["BLEU"].iloc[0] == pytest.approx(100.0)
    assert frame["BLEU"].iloc[1] == pytest.approx(0.0)
    assert list(frame["sentences"]) == [1, 1]


def test_bleu_by_length_counts_in_the_buckets_of_the_by_length_evaluation():
    lengths = (5, 6, 20, 21, 60, 61, 200)
    items = [Item(" ".join(["w"] * n), ("w w",)) for n in lengths]
    frame = bleu_by_length(items, {"m": [scored("w w", None)] * len(items)})
    assert list(frame["words"]) == ["1–5", "6–10", "16–20", "21–25", "56–60", "61+"]
    assert list(frame["words"]) == [BUCKETS[bucket_index(n)].label for n in lengths[:-1]]
    assert list(frame["sentences"]) == [1, 1, 1, 1, 1, 2]  # 61 and 200 words: the open bucket


def test_corpus_aer_counts_links_over_all_sentences_at_once():
    # Sentence 1: 1 of 2 sure links found; sentence 2: 2 links, both sure. Pooled:
    # |A| = 3, |S| = 4, |A & S| = |A & P| = 3 -> AER = 1 - 6/7; a mean of sentence AERs differs.
    g1 = Gold({(0, 0), (1, 1)}, {(0, 0), (1, 1)})
    g2 = Gold({(0, 0), (1, 1)}, {(0, 0), (1, 1)})
    items = [Item("a b", ("x y",), g1), Item("c d", ("z w",), g2)]
    results = [scored("", None, {(0, 0)}), scored("", None, {(0, 0), (1, 1)})]
    assert aer_of(items, results).aer == pytest.approx(100 * (1 - 6 / 7))
    assert aer_of([Item("a")], [scored("", None)]) is None


def test_read_items_attaches_gold_only_when_some_is_given():
    items = read_items("the cat\tle chat\nhello\tbonjour", "0-0 1-1\n0-0")
    assert [i.gold.sure for i in items] == [{(0, 0), (1, 1)}, {(0, 0)}]
    assert all(i.gold is None for i in read_items("the cat\tle chat", "  \n"))
    with pytest.raises(ValueError, match="2 sentences but 1 gold"):
        read_items("a\tb\nc\td", "0-0")


def test_held_out_items_are_the_test_split_with_every_reference(tmp_path):
    sources = [f"sentence number {n} ." for n in range(40)]
    test = [s for s in sources if split_of(s, 0, 50) == "test"]
    assert 3 <= len(test) < 40  # the hash split keeps some, not all
    lines = [f"{s}\tphrase {n} .\tCC-BY" for n, s in enumerate(sources)]
    lines.append(f"{test[0]}\tune autre phrase .\tCC-BY")  # a second reference
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = DataConfig(valid_percent=0, test_percent=50)
    items = held_out_items(str(path), data, count=500)
    assert [i.source for i in items] == test
    assert items[0].references == (f"phrase {sources.index(test[0])} .", "une autre phrase .")
    few = held_out_items(str(path), data, count=2)
    assert [i.source for i in few] == [test[0], test[-1]]  # spread, not the shortest
    with pytest.raises(ValueError, match="split"):
        held_out_items(str(path), None, count=10)


def test_totals_count_bleu_over_referenced_sentences_and_aer_over_gold_ones():
    ref = "x y z v w"
    gold = Gold({(0, 0)}, {(0, 0)})
    items = [Item("a b", (ref,), gold), Item("c"), Item("d e", (ref,))]
    scores = [scored(ref, None, {(0, 0)}), scored("anything", None), scored(ref, None)]
    t = totals(items, scores)
    assert t.bleu == pytest.approx(100.0)  # the sentence without a reference is not counted
    assert t.aer.aer == pytest.approx(0.0) and t.aer.sentences == 1
    bare = totals([Item("c")], [scored("x", None)])
    assert bare.bleu is None and bare.aer is None


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


def test_uploads_must_be_utf8_and_a_run_is_bounded():
    from attnviz.analysis.compare_models import MAX_ITEMS, decode_upload, parse_items

    assert decode_upload("\ufeffJe\tI\n".encode(), "f") == "Je\tI\n"
    with pytest.raises(ValueError, match="not UTF-8"):
        decode_upload("I am cold.".encode("utf-16"), "the sentences file")
    with pytest.raises(ValueError, match=str(MAX_ITEMS)):
        parse_items("a\n" * (MAX_ITEMS + 1))
    assert len(parse_items("a\n" * MAX_ITEMS)) == MAX_ITEMS


def test_gold_links_outside_their_sentence_are_refused_with_the_sentence():
    with pytest.raises(ValueError, match="sentence 2: link 0-7 is outside"):
        read_items("a b\tx y\nc d\tz w\n", "0-0 1-1\n0-7\n")
