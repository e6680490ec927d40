"""Property tests: whatever text or file a user gives, attnviz answers or refuses with its own
error (InputError, ValueError), never crashes. About 1,300 generated cases in all."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz import TextConfig
from attnviz.analysis.aer import parse_gold, parse_pharaoh
from attnviz.analysis.align import attention_word_links
from attnviz.analysis.compare_models import parse_items
from attnviz.errors import InputError

from ..helpers import subword_translator

# Any text but lone surrogates (which no str from a browser, a file or a terminal holds).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=120)
WORDS = st.lists(
    st.sampled_from(["the", "cat", "é", "😀", "<b>", "x\u2581y", "&", "Ω"]), max_size=8
)


@settings(max_examples=300)
@given(TEXT)
def test_tokenizing_any_text_gives_tokens_without_spaces(text):
    for side in ("src", "tgt"):
        tokens = TextConfig().tokenize(text, side)
        assert all(tok and not any(c.isspace() for c in tok) for tok in tokens)


@settings(max_examples=200)
@given(TEXT)
def test_translating_any_text_answers_or_refuses(text):
    try:
        trace = subword_translator().translate(text, max_len=8)
    except InputError as e:
        assert str(e)
        return
    assert "<unk>" not in trace.tgt_tokens
    np.testing.assert_allclose(trace.weights.sum(1), 1.0, rtol=1e-5)
    assert trace.weights.shape == (len(trace.tgt_tokens), len(trace.src_tokens))


@settings(max_examples=150)
@given(WORDS, WORDS)
def test_aligning_any_words_links_within_them_or_refuses(source, target):
    try:
        links = attention_word_links(subword_translator(), " ".join(source), " ".join(target))
    except InputError:
        assert not source  # the one thing align refuses here: nothing to align
        return
    assert all(0 <= i < len(source) and 0 <= j < len(target) for i, j in links)


@settings(max_examples=250)
@given(TEXT)
def test_any_gold_text_parses_or_is_refused_with_a_value_error(text):
    try:
        gold = parse_gold(text, "gold", sentences=50)
    except ValueError as e:
        assert "gold" in str(e)
        return
    assert len(gold) <= max(50, len(text.splitlines()))
    assert all(g.sure <= g.possible for g in gold)


@settings(max_examples=200)
@given(TEXT)
def test_any_pharaoh_line_parses_or_is_refused_with_a_value_error(line):
    try:
        sure, possible = parse_pharaoh(line)
    except ValueError:
        return
    assert all(min(link) >= 0 for link in sure | possible)


@settings(max_examples=200)
@given(TEXT)
def test_any_pasted_text_gives_items_with_a_source_each(text):
    for item in parse_items(text):
        assert item.source and item.source == item.source.strip()
