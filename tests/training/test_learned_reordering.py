"""Tiny models learn a corpus with a known reordering, and their attention shows it."""

import numpy as np
import pytest

import attnviz
from attnviz.analysis.align import attention_word_links

from ..helpers import held_out, needs_int8
from ..synthetic import ADJECTIVES


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_a_tiny_model_learns_to_translate_with_the_reordering(trained, synthetic_pairs, attention):
    path, card = trained(attention)
    assert min(card["history"]["valid_loss"]) < 0.05
    tr = attnviz.load(path)
    held = list(held_out(synthetic_pairs))
    assert len(held) > 40
    hyps = tr.translate_batch([source for source, *_ in held])
    exact = sum(h.text == ref for h, (_, ref, *_) in zip(hyps, held, strict=True))
    assert exact / len(held) >= 0.9


@pytest.mark.parametrize("precision", ["bf16", pytest.param("int8", marks=needs_int8)])
@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_smaller_weights_translate_like_fp32(trained, synthetic_pairs, attention, precision):
    path = trained(attention)[0]
    fp32, small = (attnviz.load(path, precision=p) for p in ("fp32", precision))
    sources = [source for source, *_ in held_out(synthetic_pairs)]
    same, moved = 0, []  # moved: how far each attention weight moved, where the output agrees
    for a, b in zip(fp32.translate_batch(sources), small.translate_batch(sources), strict=True):
        same += a.tgt_tokens == b.tgt_tokens
        if a.tgt_tokens == b.tgt_tokens:
            moved.append(np.abs(a.weights - b.weights).ravel())
            np.testing.assert_allclose(a.probs, b.probs, atol=0.02)
    moved = np.concatenate(moved)
    if precision == "bf16":  # the output layer only: attention is exactly fp32's
        assert moved.max() < 1e-5
    else:  # the GRUs too: a heatmap moves by a few hundredths at most, mostly far less
        assert moved.max() < 0.1 and moved.mean() < 0.005
    assert same / len(sources) >= 0.95


@pytest.mark.parametrize("attention", ["bahdanau", "general"])
def test_argmax_alignment_recovers_adjective_after_noun(trained, synthetic_pairs, attention):
    tr = attnviz.load(trained(attention)[0])
    checked = right = 0
    for *_, en, fr, gold in held_out(synthetic_pairs):
        words = en.split()
        links = set(
            attention_word_links(tr, f"{en[0].upper()}{en[1:]}", f"{fr[0].upper()}{fr[1:]}")
        )
        for i, j in gold:
            if words[i] in ADJECTIVES:  # the adjective and the noun after it swap places
                checked += 2
                right += ((i, j) in links) + ((i + 1, j - 1) in links)
    assert checked > 40
    assert right / checked >= 0.9
