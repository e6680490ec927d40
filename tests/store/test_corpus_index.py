"""The corpus index and its lookups, on a corpus small enough to count by hand, with links
given by hand (eflomal's own are sampled: tests/cli/test_corpus_command.py runs it)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from attnviz.data.corpus import DataConfig, read_corpus, split_of
from attnviz.data.text import TextConfig
from attnviz.store import corpus_index
from attnviz.store.corpus_index import CorpusIndex, CorpusIndexError
from attnviz.store.corpus_lookup import Lookup

from ..hand_corpus import PAIRS, TEXT, hand_index, write_hand_corpus


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    return write_hand_corpus(tmp_path_factory.mktemp("hand") / "hand.txt")


@pytest.fixture(scope="module")
def index(corpus_file, tmp_path_factory):
    return hand_index(tmp_path_factory.mktemp("index") / "hand.sqlite", corpus_file)


@pytest.fixture(scope="module")
def lookup(index):
    return Lookup(index, TEXT, DataConfig(subwords=0))


def test_the_hand_corpus_splits_as_the_tests_say():
    assert [split_of(en) for en, *_ in PAIRS] == ["train"] * 8 + ["test"]


def test_counts_and_links_match_a_hand_count(lookup):
    answer = lookup.word("apples")
    # six training pairs hold "apples" ("You peel apples." is held out, "Apples" is cased)
    assert answer.pairs == 5 + 1 - 1
    assert [(x.target, x.count) for x in answer.links] == [
        ("pommes", 2),
        ("des pommes", 1),
        ("fruits", 1),
    ]
    assert answer.unlinked == 1  # "They sell apples.": linked to nothing
    assert [round(x.share, 3) for x in answer.links] == [0.4, 0.2, 0.2]


def test_a_word_in_a_training_pair_is_seen_and_one_in_none_is_not(lookup):
    assert lookup.seen("apples") and lookup.seen("eats apples")  # a word, or its tokens in a row
    assert not lookup.seen("pears") and not lookup.seen("apples eats") and not lookup.seen("")
    assert not lookup.seen("peel")  # held out: "You peel apples." is a test pair


def test_an_output_word_is_written_when_a_training_target_has_it_in_any_case(lookup):
    assert lookup.written("pommes") and lookup.written("Pommes") and lookup.written("les")
    assert lookup.written("Elle") and lookup.written("elle")  # "Elle mange des pommes."
    assert not lookup.written("pommez") and not lookup.written("")
    assert not lookup.written("pèles")  # held out: "Tu pèles des pommes." is a test pair


def test_words_translated_within_an_output_need_two_training_pairs_that_say_so(lookup):
    # "eats apples" is "mange des pommes" in one training pair and "mange des fruits" in one
    assert not lookup.translated_within(["eats", "apples"], ["Elle", "mange", "des", "pommes"])
    assert lookup.translated_within(["eats", "apples"], ["mange", "des", "pommes", "ou", "fruits"])
    assert not lookup.translated_within(["eats", "apples"], ["Elle", "voit", "des", "pommes"])


def test_examples_show_each_translation_first_and_mark_the_linked_words(lookup):
    examples = lookup.word("apples").examples
    assert [(e.source, e.target) for e in examples] == [
        ("I ate apples.", "J'ai mangé des pommes."),
        ("She eats apples.", "Elle mange des pommes."),
        ("He eats apples.", "Il mange des fruits."),
    ]
    first = examples[0]
    assert [first.src_tokens[i] for i in first.src_marked] == ["apples"]
    assert [first.tgt_tokens[j] for j in first.tgt_marked] == ["pommes"]


def test_held_out_pairs_are_not_counted(lookup):
    assert lookup.word("peel").pairs == 0


def test_case_counts_as_the_model_reads_it(lookup):
    assert lookup.word("Apples").pairs == 1
    assert [x.target for x in lookup.word("Apples").links] == ["pommes"]


def test_a_phrase_is_its_tokens_one_after_the_other(lookup):
    assert lookup.word("me too").pairs == 1
    assert lookup.word("Me too").pairs == 0  # "Me" begins "Me neither." only
    assert lookup.word("too me").pairs == 0
    assert [x.target for x in lookup.word("me too").links] == ["Appelle-moi aussi"]


def test_a_target_counts_the_pairs_where_it_is_linked(lookup):
    answer = lookup.word("apples", target="pommes")
    assert answer.pairs == 3  # "pommes" and "des pommes"; not "fruits", not the unlinked pair
    assert answer.links[0].count == 3 and answer.links[0].share == pytest.approx(3 / 5)
    assert lookup.word("apples", target="des pommes").pairs == 1
    assert lookup.word("apples", target="rouges").pairs == 0


def test_limit_caps_the_examples(lookup):
    assert len(lookup.word("apples", limit=1).examples) == 1
    assert lookup.word("apples", limit=0).examples == ()


def test_json_has_the_issue_s_fields(lookup):
    out = lookup.word("apples", limit=1).to_json()
    assert set(out) == {"word", "pairs", "links", "examples"}
    assert out["links"][0] == {"target": "pommes", "count": 2, "share": 0.4}
    assert out["examples"] == [{"source": "I ate apples.", "target": "J'ai mangé des pommes."}]


def test_max_len_drops_long_pairs_as_training_does(index):
    short = Lookup(index, TEXT, DataConfig(subwords=0, max_len=5))
    assert short.word("apples").pairs == 4  # "J' ai mangé des pommes ." is 6 tokens
    assert Lookup(index, TEXT, DataConfig(subwords=0)).seen("ate") and not short.seen("ate")


def test_counts_made_at_build_time_answer_as_the_pairs_do(corpus_file, tmp_path, monkeypatch):
    monkeypatch.setattr(corpus_index, "FREQUENT", 2)  # "apples", "I", "." ... are counted
    counted = Lookup(hand_index(tmp_path / "counted.sqlite", corpus_file), TEXT, DataConfig())
    assert counted.index.frequent("first", "apples")
    scanned = Lookup(counted.index, TEXT, DataConfig())
    scanned._frequent = False
    for word, target in [("apples", None), ("I", None), (".", None), ("apples", "pommes")]:
        assert counted.word(word, target) == scanned.word(word, target)
    for word in ("apples", "I", "eats", "pears"):
        assert counted.seen(word) == scanned.seen(word) == (scanned.word(word).pairs > 0)


def test_one_index_serves_the_other_direction(index, corpus_file, tmp_path):
    french = Lookup(index, TextConfig("fr", "en"), DataConfig(subwords=0, source_column=2))
    held = {fr for _, fr, _ in PAIRS if split_of(fr) != "train"}
    expected = sum("pommes" in fr and fr not in held for _, fr, _ in PAIRS)
    answer = french.word("pommes")
    assert answer.pairs == expected
    assert {x.target for x in answer.links} == {"apples", "Apples"}
    # built the other way round, the same file answers the same
    other = hand_index(tmp_path / "fr.sqlite", corpus_file, DataConfig(subwords=0, source_column=2))
    again = Lookup(other, TextConfig("fr", "en"), DataConfig(subwords=0, source_column=2))
    assert again.word("pommes") == answer


def test_an_index_of_another_corpus_is_refused(index, corpus_file):
    card = {"corpus": {"sha256": "0" * 64}}
    refusal = index.refusal(card, TEXT, DataConfig())
    assert refusal is not None and "another corpus" in str(refusal)
    mine = {"corpus": {"sha256": read_corpus(corpus_file).sha256}}
    assert index.refusal(mine, TEXT, DataConfig()) is None


def test_an_index_of_another_split_or_tokenization_is_refused(index, corpus_file):
    card = {"corpus": {"sha256": read_corpus(corpus_file).sha256}}
    assert "holds out" in str(index.refusal(card, TEXT, DataConfig(test_percent=5.0)))
    assert "tokenizes" in str(index.refusal(card, replace(TEXT, lowercase=True), DataConfig()))
    assert "tokenizes" in str(index.refusal(card, TextConfig("en", "de"), DataConfig()))


def test_the_index_is_read_only(index):
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        index._db.execute("DELETE FROM pairs")


def test_a_missing_or_foreign_file_is_refused_with_its_name(tmp_path):
    with pytest.raises(CorpusIndexError, match="no such corpus index"):
        CorpusIndex(tmp_path / "none.sqlite")
    (tmp_path / "text.sqlite").write_text("not a database")
    with pytest.raises(CorpusIndexError, match=r"text\.sqlite: not a readable corpus index"):
        CorpusIndex(tmp_path / "text.sqlite")
