"""A Precision is written and read as its name: in JSON, in text and in a dictionary of names,
so that files and pages stay as they were before it was an enumeration."""

from __future__ import annotations

import json

import pytest

from attnviz.model.low_precision import PRECISIONS
from attnviz.model.precision import Precision


@pytest.mark.parametrize("precision", list(Precision))
def test_a_precision_is_written_and_read_as_its_name(precision):
    name = precision.value
    assert json.dumps({precision: precision}) == json.dumps({name: name})
    assert f"({precision})" == f"({name})" and precision == name
    assert {name: 1}[precision] == 1 and Precision(json.loads(json.dumps(precision))) is precision


def test_a_name_not_among_the_allowed_is_refused_with_the_allowed_names():
    with pytest.raises(ValueError, match=r"not 'auto'") as e:
        Precision.among("auto", PRECISIONS, "decoding precision")
    assert str(e.value).startswith("decoding precision must be one of ('fp32', 'bf16',")
    assert Precision.among("int8", PRECISIONS, "decoding precision") is Precision.INT8
