"""The word view of a decoding over pieces: a word's candidates are those of the step that
wrote its first letters (issue 52, item 12: `<b>x</b>` showed a bare "▁" as the top candidate
of a written ":", and no ✓)."""

from __future__ import annotations

from ..helpers import subword_translator


def test_a_word_after_a_bare_word_start_piece_takes_the_candidates_of_its_letters():
    tr = subword_translator()
    trace = tr.align("the cat sees a dog .", "le chat voit un chien :")
    pieces = trace.pieces
    assert pieces.tgt_tokens[-3:] == ["▁", "<0x3A>", "<eos>"]  # ":" is a mark, then a byte
    colon = trace.tgt_tokens.index(":")
    letters = len(pieces.tgt_tokens) - 2  # the step that wrote <0x3A>
    assert [c.prob for c in trace.candidates[colon]] == [c.prob for c in pieces.candidates[letters]]
    shown = [c.token for c in trace.candidates[colon]]
    raw = [c.token for c in pieces.candidates[letters]]
    for token, piece in zip(shown, raw, strict=True):  # printable ASCII bytes as characters
        byte = int(piece[3:-1], 16) if piece.startswith("<0x") else None
        printable = byte is not None and byte < 0x80 and chr(byte).isprintable()
        assert token == (chr(byte) if printable else piece.lstrip("▁") or piece)
    assert "▁" not in [c.token for c in trace.candidates[colon]][:1]


def test_byte_pieces_read_as_their_character_where_they_are_one():
    from attnviz.decoding.words import _as_text

    subwords = subword_translator().subwords
    shown = [_as_text(p, subwords) for p in ("<0x3A>", "<0x1F>", "<0xE1>", "▁", "▁le")]
    assert shown == [":", "<0x1F>", "<0xE1>", "▁", "le"]
