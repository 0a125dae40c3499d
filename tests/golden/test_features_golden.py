"""Replay the features golden table recorded from TVM 0.21 (scripts/record_feature_goldens.py).

Every Arm CPU LLVM knows on AArch64, AArch32 and arm64 triples with a set of ``-mattr``
lists, triple variants, M-profile and test-kind targets, and inputs TVM dies on: targetlang
must accept exactly what TVM accepted, with the same features and keys, without TVM.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from golden import DATA

import targetlang as tl
from targetlang._lower import arm as _arm

ENV = tl.Environment.no_gpu(system_triple="x86_64-unknown-linux-gnu")


@cache
def rows() -> tuple[dict[str, Any], ...]:
    with open(DATA / "features-golden.jsonl", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f)


@pytest.mark.parametrize("row", [pytest.param(r, id=f"{r['category']}-{i}")
                                 for i, r in enumerate(rows())])
def test_features_golden(row: dict[str, Any]) -> None:
    if not row["ok"]:
        with pytest.raises(tl.TargetError):
            tl.parse(row["input"], environment=ENV)
        return
    target = tl.parse(row["input"], environment=ENV)
    assert dict(target.features) == row["features"]
    assert list(target.keys) == row["keys"]


def test_golden_table_covers_every_cpu_and_was_recorded_with_our_llvm() -> None:
    inputs = " ".join(r["input"] for r in rows())
    tables = _arm.tables()
    for cpu in {*tables.aarch64.cpus, *tables.arm.cpus, *tables.aarch64.cpu_aliases}:
        assert f"-mcpu={cpu} " in inputs or inputs.endswith(f"-mcpu={cpu}")
    provenance = (DATA / "features-PROVENANCE.md").read_text(encoding="utf-8")
    assert f"| TVM / LLVM | {tables.tvm_version} / {tables.llvm_version} |" in provenance
    assert len(rows()) >= 5000
    assert sum(r["error_type"] == "Crash" for r in rows()) >= 10
