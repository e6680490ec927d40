"""What the corpus says at a step, without streamlit: hand traces over the hand corpus, whose
counts are known (tests/hand_corpus.py)."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.store.corpus_lookup import Lookup, MarkedPair
from attnviz.store.step_index import Neighbour
from attnviz.store.step_notes import attended, step_notes
from attnviz_ui.widgets.corpus_notes import example_html, neighbours_html, notes_html

from ..hand_corpus import DATA, TEXT, hand_index, write_hand_corpus
from ..handmade import hand_trace


@pytest.fixture(scope="module")
def lookup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hand")
    index = hand_index(folder / "hand.sqlite", write_hand_corpus(folder / "hand.txt"))
    return Lookup(index, TEXT, DATA)


# "I like apples ." -> "J' aime les pommes ." and "<eos>"; step 3 writes "pommes" looking at
# "apples" (0.7) and at "like" (0.25); step 4 looks at "." and a little at <eos>.
SRC = ["I", "like", "apples", ".", "<eos>"]
TGT = ["J'", "aime", "les", "pommes", ".", "<eos>"]
WEIGHTS = [
    [0.9, 0.05, 0.0, 0.0, 0.05],
    [0.05, 0.9, 0.0, 0.0, 0.05],
    [0.1, 0.4, 0.4, 0.0, 0.1],
    [0.0, 0.25, 0.7, 0.0, 0.05],
    [0.0, 0.0, 0.0, 0.55, 0.45],
    [0.0, 0.0, 0.0, 0.1, 0.9],
]


@pytest.fixture
def trace():
    return hand_trace(WEIGHTS, SRC, TGT, source="I like apples.")


def test_attended_takes_the_top_word_and_a_second_above_the_floor(trace):
    assert attended(trace, 3) == [2, 1]  # apples 0.7, like 0.25
    assert attended(trace, 0) == [0]  # "like" and <eos> have 0.05
    assert attended(trace, 5) == [3]  # <eos> is never looked up, whatever its weight


def test_notes_count_the_step_s_words_as_a_hand_count_does(lookup, trace):
    notes = step_notes(lookup, trace, 3)
    apples, like = notes.words
    assert (apples.word, apples.answer.pairs, apples.linked.pairs) == ("apples", 5, 3)
    assert (like.word, like.answer.pairs, like.linked.pairs) == ("like", 1, 0)
    assert notes.sentence_pairs == 1  # "I like apples." is a training pair
    alone = hand_trace([[0.9, 0.1]], ["I", "<eos>"], ["J'"], source="I")
    assert step_notes(lookup, alone, 0).sentence_pairs == 0  # "I" begins pairs, is none
    html = notes_html(notes, TEXT)
    assert "links it to “pommes” in 60% of the training pairs that hold it (3 of 5)" in html
    assert "Other translations in the corpus: des pommes 1 (20%) · fruits 1 (20%)" in html
    assert "<mark>pommes</mark>" in html and "<mark>apples</mark>" in html
    assert "The corpus never links it to “pommes” (training pairs that hold it: 1)" in html
    assert "Training pairs that hold it: 1, next to nothing to learn from" in html


def test_a_word_and_a_sentence_the_corpus_lacks_are_said_plainly(lookup):
    trace = hand_trace([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1]], ["Me", "too", "<eos>"],
                       ["Moi", "aussi"], source="Me too")  # fmt: skip
    html = notes_html(step_notes(lookup, trace, 1), TEXT)
    assert "The sentence “Me too” is in no training pair" in html
    assert "“too” (attention 0.80)" in html
    assert (
        "The corpus links it to “aussi” in 100% of the training pairs that hold it (1 of 1)" in html
    )
    unseen = hand_trace([[0.9, 0.1]], ["kiwis", "<eos>"], ["kiwis"], source="kiwis")
    assert "No training pair holds it" in notes_html(step_notes(lookup, unseen, 0), TEXT)


def test_text_from_the_corpus_is_escaped(lookup):
    trace = hand_trace([[1.0, 0.0]], ["<b>", "<eos>"], ["x"], source="<b>")
    html = notes_html(step_notes(lookup, trace, 0), TEXT)
    assert "“&lt;b&gt;”" in html and "“<b>”" not in html


def test_a_script_and_an_ampersand_in_a_word_come_out_as_text(lookup):
    script, escaped = "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"
    trace = hand_trace([[0.6, 0.4, 0.0]], [script, "&", "<eos>"], ["x"], source=f"{script} &")
    html = notes_html(step_notes(lookup, trace, 0), TEXT)
    assert script not in html and f"The sentence “{escaped} &amp;”" in html
    assert f"<b>“{escaped}” (attention 0.60)</b>" in html
    assert "<b>“&amp;” (attention 0.40)</b>" in html
    example = MarkedPair("", "", [script, "&"], ["&", script], (0,), (1,))
    marked = f"<mark>{escaped}</mark> &amp; → &amp; <mark>{escaped}</mark>"
    assert example_html(example, TEXT) == marked
    near = Neighbour(pair=0, step=1, distance=0.5, weights=np.array([0.5, 0.5, 0.0]))
    html = neighbours_html([near], [([script, "&"], ["&", script])], TEXT)
    assert script not in html and f"<mark>{escaped}</mark>" in html
    assert ">&amp;</span>" in html  # the shaded source
    assert f"&amp; <mark>{escaped}</mark> &lt;eos&gt;" in html and f"writes “{escaped}”" in html
