"""The "Check this translation" note's evidence (issue 63): each signal on a hand-made Trace,
and the lost words that the corpus translates together with a neighbour set free."""

from __future__ import annotations

import numpy as np

from attnviz.analysis import lost_words
from attnviz.analysis.doubts import UNSURE, confidence, doubts
from attnviz.analysis.lost_words import is_content, without_units

from ..handmade import hand_trace

SRC = ["the", "train", "station", "is", "far", ".", "<eos>"]
OUT = ["la", "gare", "est", "loin", ".", "<eos>"]


class HandCorpus:
    """Training pairs as a dictionary says them: each word's count, and the two-word phrases
    translated by one output word."""

    def __init__(
        self, counts: dict[str, int], units: dict[tuple[str, str], str], written=None
    ):  # fmt: skip
        self.counts, self.units = counts, units
        self.targets = written  # the target words, in lower case; None: every word is one

    def seen(self, word: str) -> bool:
        return self.counts.get(word, 0) > 0

    def written(self, word: str) -> bool:
        return self.targets is None or word.lower() in self.targets

    def translated_within(self, words, output) -> bool:
        return self.units.get(tuple(words)) in output


def _trace(probs, src=SRC, out=OUT):
    return hand_trace(
        np.full((len(out), len(src)), 1 / len(src)), src, out, probs=np.asarray(probs)
    )


def test_confidence_is_the_geometric_mean_of_the_written_tokens():
    trace = _trace([0.9, 0.8, 0.5, 0.9, 1.0, 1.0])
    assert confidence(trace) == np.prod([0.9, 0.8, 0.5, 0.9, 1.0, 1.0]) ** (1 / 6)
    sure, unsure = doubts(_trace([0.9] * 6)), doubts(_trace([UNSURE - 0.05] * 6))
    assert not sure.flagged and unsure.unsure and unsure.flagged


def test_a_source_word_in_no_training_pair_is_named_but_not_a_number():
    src = ["Ramirez", "arrived", "in", "2003", ".", "<eos>"]
    corpus = HandCorpus({"arrived": 40, "in": 900}, {})
    found = doubts(_trace([0.9] * 6, src), corpus=corpus)
    assert found.unseen == ("Ramirez",) and found.flagged and found.counted
    assert doubts(_trace([0.9] * 6, src)).unseen == ()  # not counted: no corpus


def test_an_output_word_in_no_training_target_is_made_up_unless_the_source_has_it():
    src = ["Goodbye", ",", "Ramirez", "!", "<eos>"]
    out = ["Bonnez", ",", "Ramirez", "!", "<eos>"]
    corpus = HandCorpus({w: 5 for w in src}, {}, written={"au", "revoir", ",", "!"})
    found = doubts(_trace([0.9] * 5, src, out), corpus=corpus)
    assert found.made_up == ("Bonnez",) and found.flagged  # the copied name is no invention
    assert found.to_json()["made_up"] == ["Bonnez"]
    said = doubts(_trace([0.9] * 5, src, ["Au", "revoir", ",", "Ramirez", "<eos>"]), corpus=corpus)
    assert said.made_up == () and not said.flagged  # "Au": in a target, in another case
    assert doubts(_trace([0.9] * 5, src, out)).to_json()["made_up"] is None  # not looked for


def test_longer_than_any_training_source_is_said_with_its_length():
    assert doubts(_trace([0.9] * 6), max_len=6).too_long is None
    assert doubts(_trace([0.9] * 6), max_len=5).too_long == 6


def test_a_word_written_twice_in_a_row_is_named_once():
    out = ["la", "gare", "gare", "est", "loin", "<eos>"]
    assert doubts(_trace([0.9] * 6, out=out)).doubled == ("gare",)


def test_a_lost_word_translated_with_its_neighbour_by_one_output_word_is_not_lost():
    lost = [False, True, False, False, True, False]  # "train" and "far" unlinked
    corpus = HandCorpus({w: 10 for w in SRC}, {("train", "station"): "gare"})
    assert without_units(SRC[:-1], OUT[:-1], lost, corpus) == [False] * 4 + [True, False]
    elsewhere = ["la", "station", "est", "loin", ".", "<eos>"]  # "gare" not written
    assert without_units(SRC[:-1], elsewhere[:-1], lost, corpus) == lost


def test_the_lost_word_check_leaves_out_words_translated_with_a_neighbour(monkeypatch):
    lost = [False, True, False, False, True, False]  # "train" and "far" unlinked

    def aligned(aligner, pairs, lang):
        if len(pairs) > 1:
            raise ValueError("a pair eflomal refuses")  # then each pair alone
        return [lost] if pairs[0][0] == SRC[:-1] else _raise(ValueError("refused"))

    monkeypatch.setattr(lost_words, "lost_in_outputs", aligned)
    corpus = HandCorpus({w: 10 for w in SRC}, {("train", "station"): "gare"})
    pairs = [(SRC[:-1], OUT[:-1]), (["x"] * 6, OUT[:-1])]
    checked = lost_words.lost_or_unknown(None, pairs, "en", [corpus, corpus])
    assert checked == [[False] * 4 + [True, False], None]  # None: eflomal could not align it
    assert lost_words.lost_or_unknown(None, pairs, "en") == [lost, None]
    found = doubts(_trace([0.9] * 6), checked[0], corpus)
    assert found.lost == ("far",) and found.aligned


def test_tense_auxiliaries_are_function_words_but_other_modals_are_content():
    assert not is_content("will", "en") and not is_content("would", "en")
    assert is_content("must", "en") and is_content("can't", "en")


def test_the_evidence_goes_out_as_json_with_what_was_not_looked_for_as_null():
    record = doubts(_trace([0.9] * 6)).to_json()
    assert record["flagged"] is False and record["unseen"] is None and record["lost"] is None
    assert record["confidence"] == 0.9


def test_a_forced_decoding_is_not_doubted_it_writes_the_reference_given():
    forced = hand_trace(np.full((6, 7), 1 / 7), SRC, OUT, probs=np.full(6, 0.1), mode="forced")
    assert not doubts(forced, [True] * 6).flagged


def _raise(error: Exception):
    raise error
