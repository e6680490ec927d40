"""Live toy runs: two owners train at once, the cap refuses cleanly, and the history's AER is
the one `attnviz align` and `attnviz aer` give on the saved model."""

from __future__ import annotations

import io

import pytest

from attnviz.analysis.align import pharaoh
from attnviz.cli.main import main
from attnviz.store.checkpoint import load
from attnviz.training.live import RunRefused, Runs, ToySettings, train_toy

from ..helpers import PATIENCE, wait_until

pytestmark = pytest.mark.slow  # every test trains

# three epochs: from the unigram output bias (issue 51) the second ends at AER 11.4, the third 4.6
SMALL = ToySettings("adjectives", "general", sentences=800, epochs=3)


@pytest.fixture(scope="module")
def two_runs():
    """Owners a and b start a run each; returns the registry, both runs, and whether b had
    recorded a snapshot while a was still training."""
    runs = Runs(cap=2)
    a = runs.start("a", SMALL)
    b = runs.start("b", ToySettings("reversed", "general", sentences=300, epochs=2))
    refused = []
    for owner in ("a", "c"):  # a already has a run; c finds the cap reached
        with pytest.raises(RunRefused) as e:
            runs.start(owner, SMALL)
        refused.append(str(e.value))
    overlapped = False

    def ended() -> bool:
        nonlocal overlapped
        overlapped |= a.running and b.history is not None and len(b.history.snapshots) > 1
        return not (a.running or b.running)

    try:
        wait_until(ended, "both runs ending")
    finally:  # runs that never ended would train on beside the tests after these
        for run in (a, b):
            run.stop.set()
    return runs, a, b, refused, overlapped


def test_a_second_owner_trains_beside_the_first_and_a_third_is_refused(two_runs):
    runs, a, b, refused, overlapped = two_runs
    assert a.error is None and b.error is None
    assert a.card is not None and b.card is not None  # both ended well
    assert overlapped  # b learned while a was training: neither waited for the other
    assert "still training" in refused[0] and "at most 2 at once" in refused[1]
    assert runs.running() == 0
    c = runs.start("c", ToySettings(sentences=100, epochs=1))  # room again once they end
    c.stop.set()
    c.thread.join(timeout=PATIENCE)
    assert c.card is not None and c.history.snapshots[-1].epoch == 1


def test_the_toy_model_learns_the_adjective_order(two_runs):
    _, a, _, _, _ = two_runs
    history = load(a.checkpoint).history
    assert len(history.probes) == 6 and all(p.gold is not None for p in history.probes)
    aers = [s.aer for s in history.snapshots]
    assert aers[0] > 50 and aers[-1] <= 10, aers


def test_history_aer_equals_attnviz_aer_on_the_saved_model(tmp_path, monkeypatch):
    # One short epoch: a model that is half way, so that its AER is neither 0 nor 100.
    model = tmp_path / "toy.safetensors"
    train_toy(ToySettings("reversed", "bahdanau", sentences=300, epochs=1), model)
    history = load(model).history
    best = next(s for s in history.snapshots if s.epoch == history.best["best_epoch"])
    pairs = "".join(f"{p.source} ||| {p.target}\n" for p in history.probes)
    monkeypatch.setattr("sys.stdin", io.StringIO(pairs))
    hyp, gold = tmp_path / "hyp.txt", tmp_path / "gold.txt"
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert main(["align", str(model)]) == 0
    hyp.write_text(out.getvalue(), encoding="utf-8")
    gold.write_text("".join(pharaoh(p.gold.sure) + "\n" for p in history.probes))
    out.seek(0), out.truncate()
    assert main(["aer", "--gold", str(gold), "--hyp", str(hyp)]) == 0
    printed = dict(line.split(" ", 1) for line in out.getvalue().splitlines()[:3])
    assert 0 < best.aer < 100
    assert float(printed["AER"]) == pytest.approx(best.aer, abs=0.005)
