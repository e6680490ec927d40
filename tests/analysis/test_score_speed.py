"""The lesson's speed row holds its method: every score, one step of one sentence, keys prepared
once outside the timing, one thread, a median; not any number, which is the machine's."""

from __future__ import annotations

from torch.utils import benchmark

from attnviz.analysis import score_speed
from attnviz.model.attention import SCORES, Attention


def test_every_score_is_timed_on_one_thread_with_its_keys_prepared_once(monkeypatch):
    prepared, threads = [], []
    real_keys, real_timer = Attention.keys, benchmark.Timer

    def counted(self, values):
        prepared.append(type(self).__name__)
        return real_keys(self, values)

    def timer(*args, **kwargs):
        threads.append(kwargs["num_threads"])
        return real_timer(*args, **kwargs)

    monkeypatch.setattr(Attention, "keys", counted)
    monkeypatch.setattr(score_speed.benchmark, "Timer", timer)
    times = score_speed.score_times(hidden=32, source=5, min_seconds=0.01)
    assert [t.kind for t in times] == list(SCORES)
    assert len(prepared) == len(SCORES)  # once per score, not once per timed step
    assert threads == [1] * len(SCORES)
    assert all(t.microseconds > 0 and t.runs > 1 for t in times)
