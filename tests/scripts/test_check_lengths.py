"""The length limits of ``scripts/check_lengths.py``, run with the suite."""

from __future__ import annotations

import pytest

from .loaded import script

check = script("check_lengths")


def test_no_function_or_module_is_over_its_limit_without_a_reason():
    found = check.over_limits()
    assert found  # the tree was read: some exceptions are allowed, with reasons
    assert check.problems(found, check.allowances()) == []


def test_the_allowances_stay_short():
    assert len(check.allowances()) <= 30


def test_a_long_function_and_a_stale_allowance_are_found(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(check.FUNCTION_LINES))
    source = tmp_path / "long.py"
    source.write_text(f"def long():\n{body}\n\n\ndef short():\n    return 1\n")
    assert check.long_functions(source) == [("long", check.FUNCTION_LINES + 1)]
    found = {"a.py:long": 51}
    assert check.problems(found, {}) == [f"a.py:long: 51 lines, not in {check.ALLOWANCES.name}"]
    stale = check.problems(found, {"a.py:long": "why", "b.py": "why"})
    assert stale == [f"b.py: within its limit now; take it out of {check.ALLOWANCES.name}"]


def test_an_allowance_without_a_reason_is_refused():
    with pytest.raises(ValueError, match="gives no reason"):
        check.allowances("attnviz/cli/main.py\n")
    assert check.allowances("# a comment\n\na.py:f | because\n") == {"a.py:f": "because"}
