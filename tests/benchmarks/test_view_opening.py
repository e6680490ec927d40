"""benchmarks/classroom/view_opening.py: a second opening over a second fails the run."""

from __future__ import annotations

from .modules import benchmark

view_opening = benchmark("view_opening")


def test_only_a_second_opening_over_a_second_fails_the_run(capsys):
    # (seconds, server ms) of the first and second openings, per round
    slow_first = {"Model cards": [[(2.5, 90.0), (0.3, 20.0)], [(2.1, 80.0), (0.4, 30.0)]]}
    assert view_opening.report({"en": slow_first, "zh": slow_first})
    slow_second = {"Model cards": [[(0.5, 90.0), (1.2, 20.0)], [(0.5, 90.0), (1.4, 20.0)]]}
    assert not view_opening.report({"en": slow_first, "zh": slow_second})
    last = capsys.readouterr().out.splitlines()[-1]  # medians over the rounds; the late bold
    assert last == (
        "| Model cards | 2.30 s (85 ms) | 0.35 s (25 ms) | 0.50 s (90 ms) | **1.30 s** (20 ms) |"
    )
