"""Replay the golden corpus recorded from TVM 0.21: accept/reject, to_json() and str().

Every case was answered by the real TVM 0.21 (scripts/record_goldens.py); these tests run
without it, under the environment TVM had when recording (a machine without GPUs).
"""

from __future__ import annotations

from typing import Any

import pytest
from golden import records

import targetlang as tl

ENV = tl.Environment.no_gpu(system_triple="x86_64-unknown-linux-gnu")

def _case_id(record: dict[str, Any]) -> str:
    return f"{record['category']}-{records().index(record)}"


CASES = [pytest.param(r, id=_case_id(r)) for r in records()]


@pytest.mark.parametrize("record", CASES)
def test_golden(record: dict[str, Any]) -> None:
    text = record["input"]
    if not record["ok"]:
        with pytest.raises(tl.TargetError):
            tl.parse(text, environment=ENV)
        return
    target = tl.parse(text, environment=ENV)
    assert target.to_json() == record["export"]
    error = record["str_error"] or ""
    if error.startswith("host: "):  # TVM's str() of the host failed (query.py's convention)
        assert target.to_string(style="tvm") == record["str"]
        assert target.host is not None
        with pytest.raises(tl.TargetError):
            target.host.to_string(style="tvm")
    elif error:
        with pytest.raises(tl.TargetError):
            target.to_string(style="tvm")
    else:
        assert target.to_string(style="tvm") == record["str"]
        host = target.host
        assert (None if host is None else host.to_string(style="tvm")) == record["host_str"]
    # Every feature the kind's target parser derived, Arm A-profile ones included (query.py
    # records the non-null ones, which for TVM 0.21 are all of them).
    assert dict(target.features) == record["features"]


def test_golden_corpus_is_large_and_mixed() -> None:
    cases = records()
    assert len(cases) >= 2000
    assert sum(r["ok"] for r in cases) >= 1000
    assert sum(not r["ok"] for r in cases) >= 500
    assert any(r["error_type"] == "Crash" for r in cases)


@pytest.mark.parametrize("record", [r for r in CASES if r.values[0]["ok"]][::7])
def test_golden_targets_round_trip(record: Any) -> None:
    """A sample of the accepted corpus through both round trips of API.md's guarantee 1."""
    target = tl.parse(record["input"], environment=ENV)
    assert tl.parse(target.to_string(), dialect=target.dialect) == target
    assert tl.from_json(target.to_json(), dialect=target.dialect) == target
