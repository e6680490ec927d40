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
    times = score_speed.score_times(hidden=32, source=5, min_seconds=0.01, repeats=3)
    assert [t.kind for t in times] == list(SCORES)
    assert len(prepared) == len(SCORES)  # once per score, not once per timed step
    assert threads == [1] * len(SCORES)
    assert all(len(t.rounds) == 3 and t.microseconds > 0 and t.runs > 3 for t in times)


def test_a_ratio_is_taken_round_by_round():
    times = [
        score_speed.ScoreTime("bahdanau", (10.0, 40.0, 12.0), 30),
        score_speed.ScoreTime("dot", (5.0, 10.0, 2.0), 30),
    ]
    assert score_speed.ratios(times, "bahdanau", "dot") == [2.0, 4.0, 6.0]
    assert times[0].microseconds == 12.0  # the median of the rounds
