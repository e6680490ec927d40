"""Subword models: pieces inside the checkpoint, words on the screen, no <unk> for the user."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnviz import load
from attnviz.analysis import align
from attnviz.analysis.align import attention_word_links
from attnviz.analysis.attribution import attribute
from attnviz.data.subwords import Pieces, Subwords
from attnviz.decoding import steer
from attnviz.decoding.trace import Owners
from attnviz.decoding.words import words_attention
from attnviz.plots.model_notes import trace_warning
from attnviz_ui.builders import what_if

from ..handmade import hand_trace
from ..synthetic import corpus


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
    links = attention_word_links(tr, source, target)
    assert links and all(i < 7 and j < 7 for i, j in links)
    assert {j for _, j in links} == set(range(7))  # argmax links every target word


def test_a_bare_word_mark_starts_the_next_word_and_special_tokens_stand_alone(subwords):
    la, maison = subwords.tgt.encode(["la"]), subwords.tgt.encode(["maison"])
    words, owner = subwords.tgt.join(["\u2581", *la, "<unk>", *maison])
    assert words[0] == "la" and words[2] == "maison" and len(words) == 3
    assert owner == [0] * (1 + len(la)) + [1] + [2] * len(maison)


def test_alignment_reads_the_decoder_steps_of_each_piece(trained):
    from attnviz.analysis.align import forced_words

    tr = load(trained("general")[0])
    wt = forced_words(tr, "the strangest horses sees a café .", "le cheval voit un café .")
    assert wt.trace.pieces is None and "\u2581the" in wt.trace.src_tokens  # the pieces' trace
    assert len(wt.src_owner) == len(wt.trace.src_tokens) - 1  # an owner word for each piece
    assert len(wt.tgt_owner) == len(wt.trace.tgt_tokens) - 1
    assert max(wt.src_owner) == 6 and max(wt.tgt_owner) == 5
    shifted = wt.links(shift=True)  # rows move by one decoder step (a piece), not a word
    assert shifted and all(i < 7 and j < 6 for i, j in shifted)


def _spelled(pieces: list[str], owner: tuple[int, ...], word: int) -> str:
    return "".join(p for p, o in zip(pieces, owner, strict=True) if o == word).lstrip("\u2581")


def test_a_word_trace_carries_the_word_that_owns_each_piece(trained):
    tr = load(trained("general")[0])
    source = "the strangest horses sees a dog ."
    for trace in (tr.translate(source), tr.align(source, "le cheval voit un chien .")):
        pieces, owners = trace.pieces, trace.owners
        assert owners.src == (*tr.subwords.src.split(source.split())[1], len(source.split()))
        assert len(owners.tgt) == len(pieces.tgt_tokens) and trace.ended == pieces.ended
        assert owners.tgt[-1] == len(trace.tgt_tokens) - 1  # an <eos> step is the <eos> row
        for i, word in enumerate(trace.src_tokens[:-1]):
            assert _spelled(pieces.src_tokens, owners.src, i) == word
        for i, word in enumerate(trace.tgt_tokens[:-1]):
            assert _spelled(pieces.tgt_tokens, owners.tgt, i) == word
        S, T = len(trace.src_tokens), len(trace.tgt_tokens)
        np.testing.assert_allclose(
            words_attention(pieces.weights, owners.src, owners.tgt, S, T), trace.weights
        )


def test_attribution_steering_and_alignment_read_the_owners_the_trace_carries(trained, monkeypatch):
    tr = load(trained("general")[0], precision="fp32")
    source, target = "the strangest horses sees a café .", "le cheval voit un café ."
    trace = tr.translate(source)
    forced = tr.align_tokens(source.split(), target.split(), source=source)
    owned = {}  # each piece's word, worked out from the words as alignment once did
    for side, text in (("src", source), ("tgt", target)):
        tokens, word = tr.text.tokenize_words(text.split(), side)
        owned[side] = [word[i] for i in tr.subwords.side(side).split(tokens)[1]]
    monkeypatch.setattr(tr, "align_tokens", lambda *_, **__: forced)

    def worked_out_again(*_):
        raise AssertionError("the owners were worked out again")

    monkeypatch.setattr(Pieces, "split", worked_out_again)
    monkeypatch.setattr(Pieces, "join", worked_out_again)
    assert attribute(tr, trace, "erasure").values.shape == (len(trace.tgt_tokens), 7)
    assert steer.piece_step(trace, 1) == trace.owners.tgt.index(1)
    assert steer.source_owner(trace) == list(trace.owners.src)
    what_if.attention_edit(trace, 1, what_if.Edit.WITHOUT, source=2)
    wt = align.forced_words(tr, source, target)
    assert wt.trace is forced.pieces
    assert (wt.src_owner, wt.tgt_owner) == (owned["src"], owned["tgt"])


def test_a_trace_over_words_comes_with_the_owners_of_its_pieces():
    pieces = hand_trace(np.eye(3), ["\u2581c", "at", "<eos>"], ["\u2581ch", "at", "<eos>"])
    words = dict(weights=np.eye(2), src_tokens=["cat", "<eos>"], tgt_tokens=["chat", "<eos>"])
    ok = hand_trace(**words, pieces=pieces, owners=Owners((0, 0, 1), (0, 0, 1)))
    assert ok.owners.src == (0, 0, 1)
    with pytest.raises(ValueError, match="owners"):
        hand_trace(**words, pieces=pieces)
    with pytest.raises(ValueError, match="owners for"):
        hand_trace(**words, pieces=pieces, owners=Owners((0, 1), (0, 0, 1)))


def test_a_number_the_model_garbled_is_copied_from_the_source_it_attends_to():
    from attnviz.decoding.trace import Owners
    from attnviz.decoding.words import copy_numbers

    from ..handmade import hand_trace

    src = ["in", "2003", "with", "14", "<eos>"]
    # word view: "en 203 avec 14 <eos>"; "203" attends to "2003", "14" to "14"
    weights = [
        [0.9, 0.1, 0, 0, 0],
        [0.1, 0.8, 0.1, 0, 0],
        [0, 0, 0.9, 0.1, 0],
        [0, 0, 0, 1.0, 0],
        [0, 0, 0, 0, 1.0],
    ]
    out = ["en", "203", "avec", "14", "<eos>"]
    src_pieces = ["▁in", "▁2", "0", "0", "3", "▁with", "▁14", "<eos>"]
    tgt_pieces = ["▁en", "▁2", "0", "3", "▁avec", "▁14", "<eos>"]
    pieces = hand_trace(np.eye(7, 8), src_pieces, tgt_pieces)
    owners = Owners((0, 1, 1, 1, 1, 2, 3, 4), (0, 1, 1, 1, 2, 3, 4))
    trace = hand_trace(weights, src, out, pieces=pieces, owners=owners)
    copied = copy_numbers(trace, " ".join)
    assert copied.tgt_tokens == ["en", "2003", "avec", "14", "<eos>"]
    assert copied.text == "en 2003 avec 14" and copied.replaced == [None, 1, None, None, None]
    assert copied.written(1) == "203" and "in place of “203”" in trace_warning(copied)
    assert copy_numbers(copied, " ".join) is copied  # nothing left to copy
    # a number the source does not have, or a word, is the model's own
    elsewhere = hand_trace(
        weights, ["in", "May", "with", "14", "<eos>"], out, pieces=pieces, owners=owners
    )
    assert copy_numbers(elsewhere, " ".join) is elsewhere
    given = hand_trace(weights, src, out, pieces=pieces, owners=owners, prefix=2)
    assert copy_numbers(given, " ".join) is given  # a prefix the user gave is kept


def test_words_wanted_most_are_the_most_frequent_with_their_case_variants_counted_together():
    from attnviz.data.subwords import wanted_words

    sentences = [["Really", "?"], ["really", "red"], ["really", "big"], ["big", "dog", "2"]]
    # "really" and "Really" share three uses; within them the more frequent form goes first.
    assert wanted_words(sentences) == ["really", "Really", "big", "dog", "red"]


def test_a_grown_model_reads_the_most_wanted_split_words_whole_and_keeps_the_rest(subwords):
    from attnviz.data.subwords import wanted_words, with_words

    old = subwords.src
    vocabulary = sorted({w for en, _, _ in corpus(500, seed=3) for w in en.split()})
    split = [w for w in vocabulary if w.isalpha() and len(old.encode([w])) > 1]
    assert len(split) >= 4
    # The toy corpus is lower case: "Zebra" spells its "Z" in bytes, and is passed over.
    wanted = [split[1], "Zebra", split[0], *split[2:]]
    new = Pieces(with_words(old.proto, wanted, limit=8))
    added = new.vocab.itos[len(old.vocab) :]
    assert new.vocab.itos[: len(old.vocab)] == old.vocab.itos  # old ids are kept
    assert 0 < len(added) <= 8 and not any("Z" in p for p in added)
    whole = [w for w in wanted if new.encode([w]) == ["\u2581" + w]]
    assert whole[:2] == [split[1], split[0]]  # the most wanted first
    assert whole == [w for w in wanted if w != "Zebra"][: len(whole)]
    prefixes = tuple(added)
    kept = [w for w in vocabulary if w not in whole and not ("\u2581" + w).startswith(prefixes)]
    assert kept and all(new.encode([w]) == old.encode([w]) for w in kept)
    assert new.join(new.encode(whole))[0] == whole  # they still read back as the same words
    pairs = [(en.split(), fr.split()) for en, fr, _ in corpus(100, seed=3)]
    unigram = Subwords.train(pairs, vocab_size=300, model_type="unigram")
    with pytest.raises(ValueError, match="BPE"):
        with_words(unigram.src.proto, wanted_words([["a", "b"]]), 2)
