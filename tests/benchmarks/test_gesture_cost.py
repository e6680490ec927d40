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


def test_cpu_seconds_counts_the_live_children_too():
    """A server's decoding process lives as long as the server: its work is the server's."""
    import subprocess
    import sys

    before = gesture_cost.cpu_seconds(os.getpid())
    busy = "import time\nt = time.process_time() + 0.3\nwhile time.process_time() < t: pass\n"
    child = subprocess.Popen([sys.executable, "-c", busy + "print(flush=True)\ntime.sleep(60)"],
                             stdout=subprocess.PIPE)  # fmt: skip
    try:
        child.stdout.readline()  # its 0.3 s of CPU are done; it lives on, waited for by no one
        assert gesture_cost.family(os.getpid())[0] == os.getpid()
        assert child.pid in gesture_cost.family(os.getpid())
        assert gesture_cost.cpu_seconds(os.getpid()) - before >= 0.25
    finally:
        child.kill()
        child.wait()
