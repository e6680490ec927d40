"""A save killed with SIGKILL at a random moment never costs the previous checkpoint."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time

import pytest

import attnviz
from attnviz.data.corpus import DataConfig

from ..helpers import tiny_translator

pytestmark = pytest.mark.slow  # starts and kills other processes

KILLS = 20


def _save(path, tr, card: dict) -> None:
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, DataConfig(subwords=0), card)


def _save_forever(path: str, first: int, ready) -> None:
    """Save versions first, first + 1, … of one model to ``path`` until killed."""
    tr = tiny_translator("general")
    ready.set()
    version = first
    while True:
        card = {"version": version, "padding": "x" * 200_000}  # a slower write: more to kill
        _save(path, tr, card)
        version += 1


def test_a_save_killed_twenty_times_leaves_the_last_complete_file_and_no_temporary(tmp_path):
    path = tmp_path / "m.safetensors"
    tr = tiny_translator("general")
    _save(path, tr, {"version": 0})
    fork = multiprocessing.get_context("fork")
    rng, version, stray = random.Random(0), 0, 0
    for _ in range(KILLS):
        ready = fork.Event()
        child = fork.Process(target=_save_forever, args=(str(path), version + 1, ready))
        child.start()
        assert ready.wait(30)
        time.sleep(rng.uniform(0.0, 0.2))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        assert child.exitcode == -signal.SIGKILL
        loaded = attnviz.load(path)  # intact: every byte checked against the stored digest
        assert loaded.card["version"] >= version  # the last complete save, never an older one
        version = loaded.card["version"]
        stray += len(list(tmp_path.glob(".*.tmp")))
    assert stray > 0, "no kill landed inside a write: the test proves nothing"
    _save(path, tr, {"version": -1})
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # the next save cleared them
