"""benchmarks/classroom/gesture_cost.py reads a process's CPU time from /proc: what a gesture costs
the server is the difference of two readings."""

from __future__ import annotations

import os
import time

from .modules import benchmark

gesture_cost = benchmark("gesture_cost")


def test_cpu_seconds_counts_the_work_a_process_does_and_not_its_waits():
    before = gesture_cost.cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:  # 0.3 s of this process's own CPU
        pass
    busy = gesture_cost.cpu_seconds(os.getpid()) - before
    time.sleep(0.3)  # a wait costs no CPU
    idle = gesture_cost.cpu_seconds(os.getpid()) - before - busy
    assert 0.25 <= busy <= 1.0
    assert idle < 0.1
