"""Release facts once: each release's facts are one file, ``_data/releases/tvm-0.N.json``,
which every loader reads; families and renamed attributes are data there too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import REPO

import targetlang as tl
from targetlang._lower.dialects import DIALECTS, newest_release, releases

DATA = REPO / "targetlang" / "_data"


def facts(release: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "releases" / f"tvm-{release}.json").read_text("utf-8"))
    return data


def test_one_data_file_per_release() -> None:
    assert not sorted(DATA.glob("tvm-*.json")), "a release's facts outside _data/releases/"
    for name in releases():
        assert DIALECTS[name].data_file == f"releases/{name}.json", name


def test_families_are_data_only() -> None:
    data = json.loads((DATA / "releases" / "families.json").read_text("utf-8"))
    named = {r: group["family"] for group in data["reader_families"] for r in group["releases"]}
    tvm = [name for name in releases() if DIALECTS[name].product == "tvm"]
    assert {name: DIALECTS[name].family for name in tvm} == named
    # another product's release (TVM TIRx) is no member of TVM's families: its own
    assert {name: DIALECTS[name].family for name in releases() if name not in tvm} == {
        "tirx-0.1": "tirx-0.1"}


def test_the_default_release_is_the_newest_tvm_release_registered() -> None:
    tvm = [name for name in releases() if DIALECTS[name].product == "tvm"]
    assert newest_release() == releases()[0] == max(
        tvm, key=lambda name: tuple(int(n) for n in name[4:].split(".")))
    assert tl.migrate("llvm") == tl.migrate("llvm", target_dialect=newest_release())
    assert releases()[-1] == "tirx-0.1"  # a product's release: tried after TVM's, no default


@pytest.mark.parametrize("release", [f"0.{n}" for n in range(7, 28)])
def test_a_rename_is_an_attribute_gone_and_one_come(release: str) -> None:
    """``renamed``: {kind: {old: new}}: old was the previous release's, new is this one's."""
    previous = facts(f"0.{int(release[2:]) - 1}")
    for kind, names in facts(release).get("renamed", {}).items():
        for old, new in names.items():
            assert old in previous["kinds"][kind]["attrs"], (kind, old)
            assert old not in facts(release)["kinds"][kind]["attrs"], (kind, old)
            assert new in facts(release)["kinds"][kind]["attrs"], (kind, new)
            assert new not in previous["kinds"][kind]["attrs"], (kind, new)


def test_tvm_09_renamed_cudas_shared_memory_option() -> None:
    assert facts("0.9")["renamed"] == {"cuda": {"shared_memory_per_block":
                                                "max_shared_memory_per_block"}}
    with pytest.warns(tl.MigrationWarning, match="renamed"):
        out = tl.migrate("cuda -arch=sm_80 -shared_memory_per_block=1024",
                         source_dialect="tvm-0.8")
    assert out["max_shared_memory_per_block"] == 1024 and "shared_memory_per_block" not in out
