"""benchmarks/classroom/class_report.py: percentiles by nearest rank with failures as infinitely
slow, the capacity a sweep finds, and the count of open sessions over time."""

from __future__ import annotations

import math

from .modules import benchmark

report = benchmark("class_report")


def _visitor(enter: list[float | None], opened: float | None = 0.0, closed: float = 1.0):
    out = report.Outcome("protocol 1", opened=opened, closed=closed if opened is not None else None)
    out.gestures = [report.Gesture("enter", 0.0, s) for s in enter]
    return out


def test_percentiles_are_times_some_gesture_took():
    values = [i / 100 for i in range(1, 101)]  # 0.01 .. 1.00
    assert report.summary(values) == (0.5, 0.95, 1.0)
    assert report.summary([0.3]) == (0.3, 0.3, 0.3)
    assert all(math.isnan(v) for v in report.summary([]))


def test_a_failed_gesture_counts_as_infinitely_slow():
    values = [0.1] * 18 + [None, None]  # 10% failed: p95 is a failure
    p50, p95, slowest = report.summary(values)
    assert p50 == 0.1 and math.isinf(p95) and math.isinf(slowest)


def test_a_visitor_that_never_opened_counts_as_a_failed_enter():
    found = report.times([_visitor([0.2]), _visitor([], opened=None)], "enter")
    assert found == [0.2, None]


def test_capacity_is_where_p95_enter_passes_one_second():
    sweep = {
        40: [_visitor([0.1] * 20)],
        80: [_visitor([0.5] * 19 + [0.9])],
        120: [_visitor([0.5] * 10 + [1.5] * 10)],
    }
    assert report.capacity(sweep) == (80, 120)
    assert report.capacity({40: [_visitor([0.1])]}) == (40, None)


def test_open_sessions_rise_and_fall_with_opens_and_closes():
    visitors = [_visitor([], opened=1.0, closed=5.0), _visitor([], opened=2.0, closed=3.0)]
    visitors.append(_visitor([], opened=None))  # never opened: never counted
    assert report.active(visitors) == ([0.0, 1.0, 2.0, 3.0, 5.0], [0, 1, 2, 1, 0])
