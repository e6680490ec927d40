"""benchmarks/classroom/class_load.py stays within its bounds: loopback servers only, a bounded
class, and a sentence of each visitor's own."""

from __future__ import annotations

import itertools

import pytest

from .modules import benchmark

class_load = benchmark("class_load")


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("http://127.0.0.1:8500", True),
        ("http://localhost:8501", True),
        ("http://127.0.0.2:9000", True),
        ("http://10.1.2.3:8501", False),
        ("http://192.168.0.10", False),
    ],
)
def test_only_loopback_servers_are_driven(url, allowed):
    assert class_load.loopback(url) == allowed


def test_a_class_is_bounded_in_sessions_rounds_and_time():
    with pytest.raises(ValueError, match="sessions"):
        class_load.Plan(sessions=class_load.MAX_SESSIONS + 1)
    with pytest.raises(ValueError, match="rounds"):
        class_load.Plan(rounds=0)
    with pytest.raises(ValueError, match="max_seconds"):
        class_load.Plan(max_seconds=7200)


def test_each_visitor_types_its_own_sentence_each_round():
    typed = [class_load.sentence(n, r) for n in range(300) for r in range(4)]
    assert len(set(typed)) == len(typed)
    firsts = [class_load.sentence(7, r).split()[0] for r in range(5)]
    assert all(a != b for a, b in itertools.pairwise(firsts))  # the browser's wait
