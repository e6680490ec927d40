"""benchmarks/classroom/hall.py: the one-process hall's targets read off class_load's record."""

from __future__ import annotations

from .modules import benchmark

hall = benchmark("hall")


def _record(enters: list[float | None], opened: list[float | None], peak: float) -> dict:
    outcomes = [
        {"who": f"protocol {k}", "opened": o, "closed": None, "errors": [], "exceptions": 0,
         "crosstalk": 0, "gestures": [] if o is None else [
             {"kind": "enter", "started": 1.0, "seconds": s} for s in enters]}
        for k, o in enumerate(opened)
    ]  # fmt: skip
    return {"outcomes": outcomes, "memory": {"peak": peak}}


def test_a_class_that_answers_every_turn_in_time_within_its_memory_meets_every_target():
    found = hall.verdict(_record([0.2, 0.3, 0.4], [0.1, 0.2], 1400.0), sessions=2)
    assert [met for *_, met in found] == [True, True, True]


def test_a_session_that_never_opened_a_slow_turn_and_too_much_memory_are_each_missed():
    found = hall.verdict(_record([0.2, 0.3, 4.0], [0.1, None], 1600.0), sessions=2)
    assert [met for *_, met in found] == [False, False, False]
    assert found[0][1] == "3, 1 sessions never opened"


def test_a_record_is_read_as_often_as_asked_the_same_each_time():
    record = _record([0.2, 0.3, 4.0], [0.1, 0.2], 900.0)  # the verdict, then the ratio's p95
    assert hall.verdict(record, sessions=2) == hall.verdict(record, sessions=2)
    assert hall.p95_enter(record) == hall.p95_enter(record) == 4.0
