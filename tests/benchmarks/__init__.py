"""Tests of the benchmark harnesses in benchmarks/ that run without their peers."""
