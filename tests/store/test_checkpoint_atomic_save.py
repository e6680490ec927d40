"""A save killed with SIGKILL at a random moment never costs the previous checkpoint."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import stat
import threading
import time

import pytest

import attnviz
from attnviz.data.corpus import DataConfig

from ..helpers import PATIENCE, tiny_translator

pytestmark = pytest.mark.slow  # starts and kills other processes

KILLS = 20


def _save(path, tr, card: dict) -> None:
    attnviz.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, DataConfig(subwords=0), card)


def _save_forever(path: str, first: int, ready, inside=None) -> None:
    """Save versions first, first + 1, … of one model to ``path`` until killed; with
    ``inside``, the first save stops once its temporary file is written and synced, before the
    rename, sets ``inside`` and waits there to be killed."""
    tr = tiny_translator("general")
    if inside is not None:
        fsync = os.fsync

        def fsync_then_wait(fd: int) -> None:
            fsync(fd)
            if stat.S_ISREG(os.fstat(fd).st_mode):  # the temporary file, not its folder
                inside.set()
                threading.Event().wait()

        os.fsync = fsync_then_wait  # this forked child's own os module
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
    rng, version = random.Random(0), 0
    for k in range(KILLS):
        # Every other kill lands inside a write for certain, told by the writer itself (a
        # moment picked at random may miss every write on a busy machine); the others at any
        # moment: in a write, between two, or in a rename.
        ready, inside = fork.Event(), fork.Event() if k % 2 == 0 else None
        child = fork.Process(target=_save_forever, args=(str(path), version + 1, ready, inside))
        child.start()
        assert ready.wait(PATIENCE)
        if inside is not None:
            assert inside.wait(PATIENCE)  # its write synced: a busy disk may take long
        else:  # a moment at random, the thing tested (not a wait for the child)
            time.sleep(rng.uniform(0.0, 0.2))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        assert child.exitcode == -signal.SIGKILL
        loaded = attnviz.load(path)  # intact: every byte checked against the stored digest
        assert loaded.card["version"] >= version  # the last complete save, never an older one
        version = loaded.card["version"]
        if inside is not None:
            assert list(tmp_path.glob(".*.tmp"))  # the killed write left its temporary
    _save(path, tr, {"version": -1})
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # the next save cleared them
