import numpy as np
import pytest
import torch

from attnviz.data.corpus import encode_source, pad
from attnviz.data.vocab import BOS, PAD
from attnviz.decoding import decode
from attnviz.decoding.translator import MAX_SOURCE_TOKENS
from attnviz.errors import InputError

from ..helpers import tiny_translator

SENTENCES = ["the cat sees a dog .", "a red house", "the big dog likes the small red cat ."]


def test_beam_of_one_equals_greedy(attention):
    tr = tiny_translator(attention, layers=2)
    ids = [encode_source(tr.pieces(tr.tokenize_source(s)), tr.src_vocab) for s in SENTENCES]
    src, lens = pad(ids), torch.tensor([len(i) for i in ids])
    limits = decode.default_limits(lens)
    greedy = decode.greedy(tr.model, src, lens, limits)
    beam = decode.beam_search(tr.model, src, lens, beam=1, limits=limits)
    for g, b in zip(greedy, beam, strict=True):
        assert b.ids == g.ids
        np.testing.assert_allclose(b.weights, g.weights, atol=1e-6)
        np.testing.assert_allclose(b.probs, g.probs, atol=1e-6)


def test_forced_decoding_of_the_greedy_output_gives_the_same_weights(attention):
    tr = tiny_translator(attention, seed=3)
    for sentence in SENTENCES:
        greedy = tr.translate(sentence, max_len=12, replace_unk=False)
        words = [t for t in greedy.tgt_tokens if t != "<eos>"]
        forced = tr.align_tokens(tr.tokenize_source(sentence), words)
        n = len(greedy.tgt_tokens)
        np.testing.assert_allclose(forced.weights[:n], greedy.weights, atol=1e-6)
        np.testing.assert_allclose(
            forced.probs[: len(words)], greedy.probs[: len(words)], atol=1e-6
        )


def test_trace_records_every_step(attention):
    tr = tiny_translator(attention)
    t = tr.translate("the cat sees a zebra 🦓 .", topk=3)
    T, S = len(t.tgt_tokens), len(t.src_tokens)
    assert t.src_tokens[-1] == "<eos>" and "zebra" in t.src_tokens  # surface form kept
    assert t.src_known[t.src_tokens.index("zebra")] is False
    assert t.weights.shape == t.scores.shape == (T, S)
    assert np.allclose(t.weights.sum(1), 1, atol=1e-5)
    assert t.probs.shape == (T,) and np.all((t.probs > 0) & (t.probs <= 1))
    assert all(len(c) == 3 and c[0].prob >= c[1].prob >= c[2].prob for c in t.candidates)
    assert all(tok not in (PAD, BOS) for tok in t.tgt_tokens)
    assert np.all(np.argmax(t.scores, 1) == np.argmax(t.weights, 1))


def test_beam_search_records_a_tree_whose_winner_path_spells_the_output(attention):
    tr = tiny_translator(attention, layers=2)
    t = tr.translate("the cat sees a dog .", beam=4, replace_unk=False)
    assert t.mode == "beam" and len(t.beam) == len(t.tgt_tokens) == len(t.beam_path)
    assert [step.tokens[k] for step, k in zip(t.beam, t.beam_path, strict=True)] == t.tgt_tokens
    for prev, (step, k) in enumerate(zip(t.beam[1:], t.beam_path[1:], strict=True)):
        assert step.parents[k] == t.beam_path[prev]
        assert len(step.tokens) == 4
    assert t.beam[0].parents == [0, 0, 0, 0]  # every first-step hypothesis extends the one start


def test_beam_search_is_batched_and_matches_one_sentence_at_a_time(attention):
    tr = tiny_translator(attention, layers=2)
    batch = tr.translate_batch(SENTENCES, beam=3)
    for sentence, trace in zip(SENTENCES, batch, strict=True):
        alone = tr.translate(sentence, beam=3)
        assert alone.tgt_tokens == trace.tgt_tokens
        np.testing.assert_allclose(alone.weights, trace.weights, atol=1e-5)


def test_wider_beams_never_find_a_worse_normalized_score():
    tr = tiny_translator("bahdanau", seed=1)
    for sentence in SENTENCES:
        scores = []
        for beam in (1, 4, 8):
            t = tr.translate(sentence, beam=beam, alpha=0.0)
            scores.append(t.log_prob)
        assert scores[1] >= scores[0] - 1e-4 and scores[2] >= scores[0] - 1e-4


def test_unknown_words_in_the_output_are_replaced_by_the_attended_source_word():
    tr = tiny_translator("dot", seed=0)
    # Make <unk> the only token the generator can produce.
    gen = tr.model.decoder.generator
    gen.bias.data.fill_(-1e4)
    gen.bias.data[1] = 1e4
    t = tr.translate("the zebra sees a cat", max_len=3)
    assert all(r is not None for r in t.replaced)
    for tok, j, row in zip(t.tgt_tokens, t.replaced, t.weights, strict=True):
        assert tok == t.src_tokens[j] and j == int(np.argmax(row[:-1]))
    kept = tr.translate("the zebra sees a cat", max_len=3, replace_unk=False)
    assert kept.tgt_tokens == ["<unk>"] * 3 and kept.replaced == [None] * 3


@pytest.mark.parametrize("text", ["", "   ", "\u200b"])
def test_empty_input_is_refused_with_a_clear_message(text):
    with pytest.raises(InputError, match="empty"):
        tiny_translator("dot").translate(text)


def test_huge_input_is_refused_with_the_limit_in_the_message():
    with pytest.raises(InputError, match=str(MAX_SOURCE_TOKENS)):
        tiny_translator("dot").translate("cat " * 1000)


@pytest.mark.parametrize(
    "text", ["<script>alert(1)</script>", "😀 🦓 !", "Где вокзал?", "猫が好きです"]
)
def test_strange_input_gets_a_best_effort_translation(text):
    t = tiny_translator("bahdanau").translate(text)
    assert isinstance(t.text, str) and t.weights.shape[1] == len(t.src_tokens)


def test_a_huge_reference_is_refused_like_a_huge_sentence():
    tr = tiny_translator("general")
    with pytest.raises(InputError, match=f"reference has 20000 tokens.*{MAX_SOURCE_TOKENS}"):
        tr.align("the cat .", "cat " * 20_000)
    with pytest.raises(InputError, match="reference"):
        tr.align_tokens(["the", "cat"], ["CAT"] * (MAX_SOURCE_TOKENS + 1))


def test_a_traces_numbers_cannot_be_changed_by_whoever_holds_it():
    """A server shares one Trace between every session that typed the sentence."""
    from ..helpers import tiny_translator

    trace = tiny_translator("general").translate("the cat sees a dog .")
    for name in ("weights", "scores", "probs", "query", "context"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(trace, name)[0] = 0
    assert not trace.pieces or not trace.pieces.weights.flags.writeable
