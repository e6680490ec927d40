"""Subword models: pieces inside the checkpoint, words on the screen, no <unk> for the user."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnviz import load
from attnviz.analysis.align import align_words
from attnviz.data.subwords import Subwords
from attnviz.decoding.words import words_attention

from .synthetic import corpus


@pytest.fixture(scope="module")
def subwords():
    pairs = [(en.split(), fr.split()) for en, fr, _ in corpus(500, seed=3)]
    return Subwords.train(pairs, vocab_size=300)


def test_words_split_into_pieces_and_join_back(subwords):
    words = ["the", "strangest", "horses", "😀", "naïve", "x\u2581y"]
    pieces, owner = subwords.src.split(words)
    assert len(pieces) > len(words) and owner == sorted(owner)
    assert all(pieces[owner.index(i)].startswith("\u2581") for i in range(len(words)))
    joined, joined_owner = subwords.src.join(pieces)
    assert joined == [*words[:5], "x_y"] and joined_owner == owner
    assert "<unk>" not in pieces  # unseen characters fall back to bytes
    assert any(subwords.src.is_byte(p) for p in pieces)


@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=6),
    st.lists(st.integers(1, 4), min_size=1, max_size=6),
    st.integers(0, 2**32 - 1),
)
def test_attention_over_pieces_reads_as_words_with_rows_summing_to_one(src_sizes, tgt_sizes, seed):
    src_owner = [i for i, n in enumerate(src_sizes) for _ in range(n)]
    tgt_owner = [i for i, n in enumerate(tgt_sizes) for _ in range(n)]
    rng = np.random.default_rng(seed)
    weights = rng.dirichlet(np.ones(len(src_owner)), size=len(tgt_owner))
    words = words_attention(weights, src_owner, tgt_owner, len(src_sizes), len(tgt_sizes))
    assert words.shape == (len(tgt_sizes), len(src_sizes))
    np.testing.assert_allclose(words.sum(1), 1.0)
    # A one-piece target word keeps its step's row, summed over each source word's pieces.
    first = tgt_owner.index(0)
    if tgt_sizes[0] == 1:
        expected = [
            weights[first, [j == w for j in src_owner]].sum() for w in range(len(src_sizes))
        ]
        np.testing.assert_allclose(words[0], expected)


def test_the_pieces_model_round_trips_through_the_checkpoint(trained):
    path, card = trained("bahdanau")
    tr = load(path)
    assert tr.subwords is not None and card["vocab"]["source"] == len(tr.src_vocab)
    assert tr.src_vocab.itos == tr.subwords.src.vocab.itos
    again = load(path)
    assert again.subwords.src.proto == tr.subwords.src.proto
    assert again.subwords.tgt.proto == tr.subwords.tgt.proto


def test_words_never_seen_in_training_come_back_without_unk(trained):
    tr = load(trained("general")[0])
    trace = tr.translate("Zyxxle quorbs the flimbering 🦜 Wubbelstein café!")
    assert trace.pieces is not None
    for tokens in (trace.tgt_tokens, trace.pieces.tgt_tokens, trace.text.split()):
        assert "<unk>" not in tokens
    assert trace.src_tokens[:-1] == [
        "Zyxxle",
        "quorbs",
        "the",
        "flimbering",
        "🦜",
        "Wubbelstein",
        "café",
        "!",
    ]
    assert trace.src_known[4] is False and trace.src_known[2] is True  # bytes only for 🦜
    np.testing.assert_allclose(trace.weights.sum(1), 1.0, rtol=1e-5)
    assert trace.weights.shape == (len(trace.tgt_tokens), len(trace.src_tokens))


def test_alignment_links_stay_on_whitespace_words(trained):
    tr = load(trained("bahdanau")[0])
    source, target = "the strange horse sees a café .", "le cheval étrange voit un café ."
    links = align_words(tr, source, target)
    assert links and all(i < 7 and j < 7 for i, j in links)
    assert {j for _, j in links} == set(range(7))  # argmax links every target word


def test_a_bare_word_mark_starts_the_next_word_and_special_tokens_stand_alone(subwords):
    la, maison = subwords.tgt.encode(["la"]), subwords.tgt.encode(["maison"])
    words, owner = subwords.tgt.join(["\u2581", *la, "<unk>", *maison])
    assert words[0] == "la" and words[2] == "maison" and len(words) == 3
    assert owner == [0] * (1 + len(la)) + [1] + [2] * len(maison)


def test_alignment_reads_the_decoder_steps_of_each_piece(trained):
    from attnviz.analysis.align import word_trace

    tr = load(trained("general")[0])
    wt = word_trace(tr, "the strangest horses sees a café .", "le cheval voit un café .")
    assert wt.trace.pieces is None and "\u2581the" in wt.trace.src_tokens  # the pieces' trace
    assert len(wt.src_owner) == len(wt.trace.src_tokens) - 1  # an owner word for each piece
    assert len(wt.tgt_owner) == len(wt.trace.tgt_tokens) - 1
    assert max(wt.src_owner) == 6 and max(wt.tgt_owner) == 5
    shifted = wt.links(shift=True)  # rows move by one decoder step (a piece), not a word
    assert shifted and all(i < 7 and j < 6 for i, j in shifted)
