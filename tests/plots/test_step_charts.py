"""The step's numbers as colour strips."""

import numpy as np

from attnviz.plots import step_charts


def test_each_vector_has_its_own_scale_so_small_ones_are_not_blank():
    """Issue 63: Bahdanau's tanh(·) (at most 1) and v were blank beside products of hundreds
    on one shared scale."""
    rows = {"W q": np.array([-15.0, 3.0, 7.5]), "tanh(·)": np.array([0.2, -0.1, 0.05])}
    heatmap = step_charts.strips(rows).data[0]
    z = np.asarray(heatmap.z, dtype=float)
    np.testing.assert_allclose(np.abs(z).max(axis=1), [1.0, 1.0])  # both reach full colour
    np.testing.assert_allclose(np.asarray(heatmap.customdata, dtype=float)[1], rows["tanh(·)"])
    assert list(heatmap.y) == ["W q (±15)", "tanh(·) (±0.2)"]
