"""The training history: which probe sentence's attention moved most."""

import numpy as np
import torch

from attnviz.analysis.history import TENSOR_PREFIX, History, Probe, Snapshot, most_changed


def test_most_changed_measures_how_far_the_rows_moved():
    probes = [Probe("a b", "x y"), Probe("c d", "z w")]  # 2 output words x 3 columns each
    still = np.full((2, 3), 1 / 3)
    peaked = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    history = History()
    history.probes = probes
    for matrices in ([still, still], [peaked * 0.5 + still * 0.5, peaked]):
        history.snapshots.append(Snapshot(len(history.snapshots), 1.0, None, None))
        history.attention.append(np.concatenate([m.reshape(-1) for m in matrices]))
    assert most_changed([history]) == 1
    history.attention[-1] = np.concatenate([peaked.reshape(-1), still.reshape(-1)])
    assert most_changed([history]) == 0


def test_a_probe_that_cannot_be_forced_is_refused_and_left_out_of_the_aer():
    from attnviz.analysis.aer import Gold
    from attnviz.analysis.history import attention_of, probe_aer, unflatten

    from ..helpers import tiny_translator

    tr = tiny_translator("bahdanau")
    links = frozenset({(0, 0), (1, 1)})
    forced = Probe("the cat", "THE CAT", Gold(links, links))
    too_long = Probe("the dog", "THE " * 300, Gold(links, links))  # over the model's limit
    alone = attention_of(tr, [forced])
    both = attention_of(tr, [forced, too_long])
    assert (alone.refused, both.refused) == (0, 1)
    assert both.aer == alone.aer == probe_aer(unflatten(alone.flat, [forced])[0], forced.gold)
    assert not unflatten(both.flat, [forced, too_long])[1].any()  # its place kept, empty


def test_a_snapshot_is_written_back_as_the_card_held_it():
    recorded = {"epoch": 0.25, "valid_loss": 2.5, "valid_bleu": 3.1, "aer": 40.0, "refused": 1}
    older = {"epoch": 1.0, "valid_loss": 1.5, "valid_bleu": None, "aer": None}  # no refusals
    empty = {f"{TENSOR_PREFIX}{k}": torch.zeros(0, dtype=torch.float16) for k in range(2)}
    history = History({"snapshots": [recorded, older]}, empty)
    assert [s.refused for s in history.snapshots] == [1, None]
    assert history.to_json()["snapshots"] == [recorded, older]
    assert history.at(0.5) == 0 and history.snapshots[1].epoch == 1.0
