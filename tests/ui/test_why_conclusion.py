"""Why attention's conclusion says what this sentence shows, not what attention should do."""

from __future__ import annotations

from attnviz_ui.builders.why import why_conclusion


def test_attention_is_credited_where_every_attention_model_lost_fewer_words():
    text = why_conclusion("encdec", 256, {"encdec": 5, "bahdanau": 1, "luong": 0}, [])
    assert "encdec 5, bahdanau 1, luong 0" in text
    assert "read each word again" in text and "did not keep" not in text


def test_a_sentence_where_attention_lost_as_many_says_so():
    text = why_conclusion("encdec", 256, {"encdec": 1, "bahdanau": 1, "luong": 0}, [])
    assert "did not keep more words: bahdanau lost as many as encdec" in text
    assert "read each word again" not in text


def test_a_loop_is_named_and_not_counted_as_attention_keeping_words():
    text = why_conclusion("encdec", 256, {"encdec": 6, "bahdanau": 1, "luong": 4}, ["luong"])
    assert "The output of luong repeats itself in a loop" in text
    assert "read each word again" in text  # bahdanau, the one that does not loop, kept them
    only = why_conclusion("encdec", 256, {"encdec": 6, "luong": 4}, ["luong"])
    assert "read each word again" not in only and "loop" in only
