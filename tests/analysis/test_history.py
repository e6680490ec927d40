"""The training history: which probe sentence's attention moved most."""

import numpy as np

from attnviz.analysis.history import History, Probe, most_changed


def test_most_changed_measures_how_far_the_rows_moved():
    probes = [Probe("a b", "x y"), Probe("c d", "z w")]  # 2 output words x 3 columns each
    still = np.full((2, 3), 1 / 3)
    peaked = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    history = History()
    history.probes = probes
    for matrices in ([still, still], [peaked * 0.5 + still * 0.5, peaked]):
        history.snapshots.append({"epoch": len(history.snapshots)})
        history.attention.append(np.concatenate([m.reshape(-1) for m in matrices]))
    assert most_changed([history]) == 1
    history.attention[-1] = np.concatenate([peaked.reshape(-1), still.reshape(-1)])
    assert most_changed([history]) == 0
