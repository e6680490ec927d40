"""The lesson's step 5 reads eflomal as a second opinion: word by word, where attention's most
weighed source word is one eflomal links, where it is another, and where eflomal links none."""

from __future__ import annotations

from attnviz.plots.lesson_notes import Opinions, opinions, opinions_text

from ..handmade import hand_trace

SRC = ["我", "爱", "吃", "苹果", "<eos>"]
OUT = ["I", "love", "to", "eat", "apples", "<eos>"]
WEIGHTS = [  # the argmax of each row: 我, 爱, 爱, 吃, 吃 (wrong: eflomal says 苹果), <eos>
    [0.9, 0.05, 0.02, 0.02, 0.01],
    [0.05, 0.9, 0.02, 0.02, 0.01],
    [0.1, 0.6, 0.2, 0.05, 0.05],
    [0.02, 0.03, 0.9, 0.04, 0.01],
    [0.02, 0.03, 0.6, 0.3, 0.05],
    [0.01, 0.01, 0.01, 0.07, 0.9],
]
LINKS = [(0, 0), (1, 1), (2, 3), (3, 4)]  # eflomal: "to" linked to nothing


def test_each_output_word_is_counted_where_the_two_agree_differ_or_eflomal_is_silent():
    found = opinions(hand_trace(WEIGHTS, SRC, OUT), LINKS)
    assert found == Opinions(["I", "love", "eat"], [("apples", "吃", "苹果")], ["to"])


def test_the_text_counts_them_and_names_each_difference():
    text = opinions_text(opinions(hand_trace(WEIGHTS, SRC, OUT), LINKS))
    assert text.startswith("Attention and eflomal agree on 3 of 5 output words; they differ on 1")
    assert "“apples”: attention 吃, eflomal 苹果" in text
    assert "{" not in text


def test_the_notes_weights_for_i_love_you_stand_beside_the_model_s():
    from attnviz.plots.lesson_notes import notes_weights_text

    src, out = ["I", "love", "you", ".", "<eos>"], ["我", "爱", "你", "。", "<eos>"]
    weights = [[0.9, 0.05, 0.03, 0.01, 0.01], [0.02, 0.95, 0.02, 0.005, 0.005],
               [0.01, 0.02, 0.95, 0.01, 0.01], [0.0, 0.0, 0.05, 0.9, 0.05],
               [0.0, 0.0, 0.0, 0.1, 0.9]]  # fmt: skip
    trace = hand_trace(weights, src, out)
    said = notes_weights_text("I love you.", trace, "luong-en-zh")
    assert said == (
        "The notes draw “爱” with the weights I 0.1, love 0.8, you 0.1; luong-en-zh gives "
        "I 0.02, love 0.95, you 0.02."
    )
    assert notes_weights_text("I love apples.", trace, "luong-en-zh") is None
