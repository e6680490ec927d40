"""The nearest training steps: a tiny model's step states over sentences in its words, indexed with
usearch in one safetensors file, read back and searched."""

from __future__ import annotations

import numpy as np
import pytest
from safetensors import safe_open

from attnviz.analysis.step_states import same_word_share, step_states
from attnviz.store.step_index import StepIndex, StepIndexError, step_index_path, write_step_index

from ..helpers import tiny_translator

# Sentences in the tiny model's own words (tests/helpers.py's WORDS), its target the same
# words in capitals: every one of them different, so that no two steps are the same.
NOUNS, VERBS, ADJECTIVES = ["cat", "dog", "house"], ["sees", "likes"], ["red", "big", "small"]
SOURCES = [
    ["the", adjective, noun, verb, "a", other, "."]
    for noun in NOUNS for verb in VERBS for adjective in ADJECTIVES for other in NOUNS
]  # fmt: skip
PAIRS = [(n, src, [w.upper() for w in src]) for n, src in enumerate(SOURCES)]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(steps, index file) of the pairs' steps, for a tiny untrained model."""
    steps = step_states(tiny_translator("bahdanau"), PAIRS, batch_size=7)
    meta = {"weights_digest": "w" * 8, "corpus_index": {"sha256": "c" * 8}}
    path = tmp_path_factory.mktemp("steps") / "tiny.steps"
    write_step_index(path, steps, meta, dims=8)
    return steps, path


def test_steps_are_every_word_written_and_the_end(built):
    steps, _ = built
    assert steps.words[:8] == [*PAIRS[0][2], "<eos>"]
    assert list(steps.step[:8]) == list(range(8)) and set(steps.pair[:8]) == {0}
    assert len(steps.words) == len(steps.queries) == len(steps.weights) == 8 * len(PAIRS)
    assert all(abs(w.sum() - 1) < 1e-4 for w in steps.weights)  # rows of attention


def test_batched_steps_are_the_steps_decoded_one_by_one(built):
    steps, _ = built
    _, src, tgt = PAIRS[9]  # in the second batch
    one = tiny_translator("bahdanau").align_tokens(src, tgt)
    rows = slice(9 * 8, 10 * 8)
    np.testing.assert_allclose(steps.queries[rows], one.query, atol=1e-5)
    np.testing.assert_allclose(np.stack(steps.weights[rows]), one.weights, atol=1e-5)


def test_a_step_s_own_query_finds_it_first(built):
    steps, path = built
    index = StepIndex(path)
    assert len(index) == len(steps.words)
    probes = range(0, len(steps.words), 7)
    found = near = 0
    for k in probes:
        nearest = index.nearest(steps.queries[k], k=10)
        near += nearest[0].distance == pytest.approx(0, abs=0.02)  # itself, or a step as near
        own = [n for n in nearest if (n.pair, n.step) == (steps.pair[k], steps.step[k])]
        if own:
            found += 1
            assert own[0].distance == pytest.approx(0, abs=0.02)
            np.testing.assert_allclose(own[0].weights, steps.weights[k], atol=1e-3)  # float16
    # HNSW is approximate, and an untrained model's steps at one position nearly coincide in
    # int8 over 8 components: the graph usearch builds (another with each thread count) may
    # lose a step among its ties (CI saw 1 probe in 62 miss itself, the ten found farther)
    assert found >= 0.9 * len(probes) and near >= 0.9 * len(probes)


def test_the_file_is_safetensors_with_the_index_inside(built):
    _, path = built
    with safe_open(str(path), framework="np") as f:
        assert f.metadata()["format"] == "attnviz-step-index/1"
        assert {"ann", "mean", "components", "pair", "step", "offsets", "weights"} <= set(f.keys())
        assert f.get_tensor("components").shape[0] == 8
    assert step_index_path("models/luong.safetensors").name == "luong.steps"


def test_other_weights_or_another_corpus_index_are_refused(built):
    index = StepIndex(built[1])
    assert index.refusal("w" * 8, "c" * 8) is None
    assert "other weights" in str(index.refusal("x" * 8, "c" * 8))
    assert "another corpus index" in str(index.refusal("w" * 8, "d" * 8))


def test_a_missing_or_foreign_file_is_refused(tmp_path):
    with pytest.raises(StepIndexError, match="no such step index"):
        StepIndex(tmp_path / "none.steps")
    (tmp_path / "x.steps").write_bytes(b"\x00" * 64)
    with pytest.raises(StepIndexError, match="not a readable step index"):
        StepIndex(tmp_path / "x.steps")


def test_same_word_share_counts_the_neighbours_that_wrote_the_word():
    indexed = ["le", "le", "chat", "chat", "la", "."]
    neighbours = np.array([[0, 1, 2], [2, 4, 5]])  # of a held-out "le", and a held-out "chat"
    share = same_word_share(indexed, neighbours, ["le", "chat"], common=3)
    assert share["held_out_steps"] == 2
    assert share["same_word"] == pytest.approx(3 / 6)  # le, le | chat
    assert share["first_same_word"] == pytest.approx(1.0)
