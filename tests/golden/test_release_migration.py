"""migrate() to each JSON release, as its oracle answered (scripts/check_migration_releases.py).

Every target TVM 0.21 accepted in the golden set (TopHub's included), migrated to 0.25, 0.26,
0.27 and TVM TIRx 0.1: the recorded migration is still what migrate() writes, that release's
oracle accepted it, and read it as TVM 0.21 read the original (the allowed differences are
the script's: attributes only one release defines, values left for the machine, ``feature.*``;
TIRx leaves a cuda target without ``arch`` where 0.21 filled in ``sm_50`` without a GPU).
"""

from __future__ import annotations

import functools
import json
import lzma
import warnings
from typing import Any

import pytest
from conftest import TESTS

import targetlang as tl

RECORD = TESTS / "data" / "releases" / "migration-check.jsonl.xz"
RELEASES = ["0.25", "0.26", "0.27", "tirx-0.1"]


def dialect(release: str) -> str:
    return release if release.startswith("tirx-") else f"tvm-{release}"


@functools.cache
def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in lzma.open(RECORD, "rt", encoding="utf-8")]


@pytest.mark.parametrize("release", RELEASES)
def test_every_migrated_target_is_accepted_and_read_as_tvm_0_21_read_it(release: str) -> None:
    mine = [r for r in rows() if r["release"] == release]
    assert len(mine) > 2000
    migrated = [r for r in mine if r["migrated"] is not None]
    refused = [r["input"] for r in migrated if not r["ok"]]
    assert refused == []
    changed = [(r["input"], r["differences"]) for r in migrated if r["differences"]]
    assert changed == []
    # What cannot be migrated has no equivalent there (a kind the release does not have).
    for row in mine:
        if row["migrated"] is None:
            assert "MigrationError" in row["not_migrated"], row


@pytest.mark.parametrize("release", RELEASES)
def test_migrate_still_writes_what_the_oracles_checked(release: str) -> None:
    mine = [r for r in rows() if r["release"] == release][::5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in mine:
            if row["migrated"] is None:
                with pytest.raises((tl.TargetError, tl.MigrationError)):
                    tl.migrate(row["input"], source_dialect="tvm-0.21",
                               target_dialect=dialect(release))
                continue
            assert tl.migrate(row["input"], source_dialect="tvm-0.21",
                              target_dialect=dialect(release)) == row["migrated"], row["input"]


@pytest.mark.parametrize("release", RELEASES)
def test_every_migrated_target_reads_as_that_release_read_it(release: str) -> None:
    """The release's own reading of each migrated dict, ``feature.*`` keys included: what
    targetlang's dialect exports is what the oracle exported (under the oracle's machine)."""
    from test_release_differential import environment

    mine = [r for r in rows() if r["release"] == release and r["migrated"] is not None]
    differ = []
    for row in mine:
        ours = tl.from_json(row["migrated"], dialect=dialect(release),
                            environment=environment(release)).to_json()
        if ours != row["export"]:
            differ.append((row["input"], ours, row["export"]))
    assert differ == [], f"{len(differ)} of {len(mine)} differ"
    assert sum('"feature.' in json.dumps(r["export"]) for r in mine) > 100  # Arm ones among them


def test_what_each_release_left_for_the_machine_is_named() -> None:
    """The documented differences: only values the migration left for the machine differ,
    and which ones is recorded: 0.25-0.27 fill a bare llvm's triple from their own LLVM (a
    conda one), TVM TIRx fills no cuda arch without a GPU (0.21: sm_50; moved meaning TM103
    says so)."""
    left: dict[str, set[str]] = {}
    for row in rows():
        for item in row.get("left_for_machine") or ():
            left.setdefault(row["release"], set()).add(item.rsplit(".", 1)[-1])
    assert left["tirx-0.1"] == {"arch: 'sm_50' -> None"}
    for release in ("0.25", "0.26", "0.27"):
        assert left[release] == {"mtriple: 'x86_64-unknown-linux-gnu' -> 'x86_64-conda-linux-gnu'"}
    cuda_without_arch = [r for r in rows() if r["release"] == "tirx-0.1" and r["migrated"]
                         and r["left_for_machine"]]
    assert len(cuda_without_arch) > 200
    for row in cuda_without_arch[::20]:
        assert any(n.code == "TM103" for n in tl.meaning_notes(
            row["input"], source_dialect="tvm-0.21", target_dialect="tirx-0.1"))
