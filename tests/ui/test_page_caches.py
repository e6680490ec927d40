"""What a page run computes from a decoding, kept per decoding for the runs that show it again: a
model's column at a step (attnviz_ui/views/step_view.py) and what speaks against each output
(attnviz_ui/serving/aligner.py), both keyed by the very Trace objects the translate cache shares
(attnviz_ui/serving/identical.py)."""

from __future__ import annotations

import copy
import os

import pytest

from attnviz.analysis import doubts as doubts_module
from attnviz.errors import Refused
from attnviz.store.catalog import Checkpoint
from attnviz_ui.serving import aligner
from attnviz_ui.serving.identical import Identical
from attnviz_ui.serving.models import Side
from attnviz_ui.views import step_view

from ..handmade import hand_trace
from .cache_helpers import Calls, chosen_language


def _trace():
    return hand_trace(
        [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]],
        ["le", "chat", "<eos>"],
        ["the", "cat", "<eos>"],
    )


def test_identical_keys_are_equal_only_for_the_very_same_objects():
    trace = _trace()
    twin = copy.deepcopy(trace)  # equal arrays, another object
    assert Identical(trace) == Identical(trace)
    assert hash(Identical(trace)) == hash(Identical(trace))
    assert Identical(trace) != Identical(twin)
    assert Identical(trace, twin) != Identical(twin, trace)
    assert Identical(trace) != Identical(trace, trace)
    assert Identical(trace) != (trace,)


@pytest.fixture
def side(tmp_path):
    path = tmp_path / "luong-pieces.safetensors"
    path.write_bytes(b"a model file")
    return Side(Checkpoint.at(path), None, _trace())  # a column reads no description


@pytest.fixture
def language(monkeypatch):
    """The session's language, as the cache keys read it, and the catalog bound with it."""
    yield from chosen_language(monkeypatch, step_view)


def test_a_column_is_made_once_per_trace_step_switches_and_language(side, language, monkeypatch):
    made = Calls(monkeypatch, step_view, "attention_picture")
    first = step_view.column(side, 1, True)
    assert step_view.column(side, 1, True) is first and made.n == 1
    assert first.step == 1 and "“cat”" in first.detail
    assert step_view.column(side, 2, True).step == 2 and made.n == 2  # another step
    assert step_view.column(side, 1, False) is not first and made.n == 3  # the whole output
    assert step_view.column(side, 1, True, gold=[(0, 0)]) is not first and made.n == 4
    # The same words decoded again into another Trace object: built anew
    twin = side._replace(trace=copy.deepcopy(side.trace))
    assert step_view.column(twin, 1, True) is not first and made.n == 5
    language.set("zh")
    chinese = step_view.column(side, 1, True)
    assert made.n == 6 and "第 2 步" in chinese.detail and "Step 2" in first.detail


@pytest.fixture
def no_corpus(tmp_path, monkeypatch):
    """aligner.doubts_of with no eflomal run and no corpus index: the lost words of each
    output are none, its corpus is refused, its longest training source 10 words; the priors
    file is ``tmp_path``'s, whose version keys the cache."""
    priors = tmp_path / aligner.PRIORS_FILE
    priors.write_bytes(b"priors")
    monkeypatch.setattr(aligner, "priors_path", lambda: priors)
    monkeypatch.setattr(aligner, "lost_of", lambda checkpoints, traces: [None] * len(traces))
    monkeypatch.setattr(aligner, "lookup_of", lambda checkpoint: Refused("no index"))
    monkeypatch.setattr(aligner, "translator_of", lambda checkpoint: None)
    monkeypatch.setattr(aligner, "longest_source", lambda translator: 10)
    return priors


def test_the_doubts_of_two_outputs_are_made_once_per_traces_and_priors(
    side, no_corpus, monkeypatch
):
    made = Calls(monkeypatch, aligner, "doubts", doubts_module.doubts)
    left, right = side.trace, copy.deepcopy(side.trace)
    models = [side.checkpoint, side.checkpoint]
    first = aligner.doubts_of(models, [left, right])
    assert len(first) == 2 and made.n == 2
    assert aligner.doubts_of(models, [left, right]) == first and made.n == 2
    aligner.doubts_of(models, [right, left])  # the same outputs on the other sides
    assert made.n == 4
    mtime = os.stat(no_corpus).st_mtime_ns + 1_000_000_000  # new priors: new lost words
    os.utime(no_corpus, ns=(mtime, mtime))
    aligner.doubts_of(models, [left, right])
    assert made.n == 6
