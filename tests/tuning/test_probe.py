"""How a probe picks the fastest precision: by the least time, and only by a margin."""

from attnviz.tuning.probe import PROBE_MARGIN, fastest_of


def test_fastest_of_takes_the_least_time():
    assert fastest_of({"fp32": 10.0, "bf16": 8.7, "int8": 5.1}) == "int8"
    assert fastest_of({"fp32": 10.0, "bf16": 4.0, "int8": 5.1}) == "bf16"
    assert fastest_of({"fp32": 3.0, "bf16": 8.7, "int8": 5.1}) == "fp32"


def test_fastest_of_keeps_fp32_when_the_others_save_less_than_the_margin():
    almost = 10.0 * (1 - PROBE_MARGIN) + 0.01
    assert fastest_of({"fp32": 10.0, "int8": almost}) == "fp32"
    assert fastest_of({"fp32": 10.0, "int8": almost - 0.02}) == "int8"
