"""benchmarks/classroom/gesture_cost.py reads a process's CPU time from /proc: what a gesture costs
the server is the difference of two readings."""

from __future__ import annotations

import os
import subprocess
import sys

from .modules import benchmark

gesture_cost = benchmark("gesture_cost")

# A process that works 0.3 s of its own CPU, says so, waits 0.3 s (the wait is what is measured:
# it must cost nothing), says so, and lives on until its input closes.
WORK_THEN_WAIT = """import sys, time
t = time.process_time() + 0.3
while time.process_time() < t:
    pass
print(flush=True)
time.sleep(0.3)
print(flush=True)
sys.stdin.read()
"""


def test_cpu_seconds_counts_the_work_a_process_does_and_not_its_waits():
    """Read on a fresh process of its own, which has no children and no threads of other
    tests: this one's (a decoding process an earlier test started) would count too."""
    child = subprocess.Popen([sys.executable, "-c", WORK_THEN_WAIT], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)  # fmt: skip
    try:
        child.stdout.readline()  # its 0.3 s of CPU done (and its start: a few hundredths)
        busy = gesture_cost.cpu_seconds(child.pid)
        child.stdout.readline()  # its 0.3 s of waiting done
        idle = gesture_cost.cpu_seconds(child.pid) - busy
        assert gesture_cost.family(child.pid) == [child.pid]
    finally:
        child.stdin.close()
        child.wait()
    assert 0.25 <= busy <= 1.0
    assert idle < 0.1


def test_cpu_seconds_counts_the_live_children_too():
    """A server's decoding process lives as long as the server: its work is the server's."""
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
