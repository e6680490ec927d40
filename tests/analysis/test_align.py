"""Link extraction from word-level attention, on matrices worked out by hand."""

import numpy as np
import pytest

from attnviz.analysis.align import extract_links, trace_links, word_weights

from ..helpers import tiny_translator

# 3 target words x (2 source words + <eos>)
W = np.array(
    [
        [0.6, 0.3, 0.1],  # target 0 -> source 0
        [0.7, 0.2, 0.1],  # target 1 -> source 0 as well (column 0's best is target 1)
        [0.1, 0.2, 0.7],  # target 2 -> <eos>: linked to nothing
    ]
)


def test_argmax_links_each_target_word_and_never_eos():
    assert extract_links(W, "argmax") == [(0, 0), (0, 1)]


def test_threshold_keeps_every_pair_above_it():
    assert sorted(extract_links(W, "threshold", 0.25)) == [(0, 0), (0, 1), (1, 0)]
    assert extract_links(W, "threshold", 0.9) == []


def test_intersect_keeps_links_that_are_best_in_row_and_column():
    # source 0 is best for targets 0 and 1 but prefers target 1; source 1 prefers target 0,
    # whose best is source 0
    assert extract_links(W, "intersect") == [(0, 1)]


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        extract_links(W, "vote")


def test_shift_reads_each_word_from_the_step_that_takes_it_as_input():
    tr = tiny_translator("general")
    src, tgt = ["the", "cat"], ["LE", "CHAT", "NOIR"]
    trace = tr.align_tokens(src, tgt)  # 4 rows: three words, then <eos>
    plain = word_weights(trace, [0, 1], [0, 1, 2], 2, 3)
    shifted = word_weights(trace, [0, 1], [0, 1, 2], 2, 3, shift=True)
    np.testing.assert_allclose(plain, trace.weights[:3])
    np.testing.assert_allclose(shifted, trace.weights[1:4])


def test_trace_links_leave_out_both_eos():
    tr = tiny_translator("general")
    trace = tr.align_tokens(["the", "cat"], ["LE", "CHAT"])  # 3 x 3 with both <eos>
    links = extract_links(trace.weights[:2], "argmax")
    assert trace_links(trace) == links
    assert all(i < 2 and j < 2 for i, j in links)
