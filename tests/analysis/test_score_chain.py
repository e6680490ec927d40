"""The chain of scores with one step's numbers (To the Transformer): each link is the number its
model computed at that step, on the word the Transformer's picture weighs most."""

import numpy as np

from attnviz.analysis.score_chain import score_chain
from attnviz.decoding.step_math import step_math

from ..helpers import tiny_transformer, tiny_translator

SENTENCE = "the big red house likes the small cat ."


def test_each_link_is_its_models_own_number_at_the_step():
    luong, bahdanau, transformer = (
        tiny_translator("general"),
        tiny_translator("bahdanau"),
        tiny_transformer(),
    )
    traces = [tr.translate(SENTENCE) for tr in (luong, bahdanau, transformer)]
    t = 2
    word, links = score_chain(
        [("luong", luong, traces[0]), ("bahdanau", bahdanau, traces[1])],
        ("transformer", transformer, traces[2]),
        t,
    )
    assert word == int(np.argmax(traces[2].weights[t, :-1]))
    forms = [link.form for link in links]
    assert forms == ["general", "dot", "additive", "scaled", "head", "head", "head", "head"]
    m = step_math(luong, traces[0], t)
    assert links[0].score == float(m.scores[word]) and links[0].weight == float(m.weights[word])
    dots = m.values @ m.query
    np.testing.assert_allclose(links[1].score, dots[word], rtol=1e-6)
    heads = [link.weight for link in links if link.form == "head"]
    np.testing.assert_allclose(links[3].weight, np.mean(heads), atol=1e-6)  # the picture
    np.testing.assert_allclose(links[3].weight, traces[2].weights[t, word], atol=1e-6)
