"""The dialect registry: a release is one data file and one registration, nothing else."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

import targetlang as tl
from targetlang._inspect.explain import explain
from targetlang._lower.dialects import (
    DIALECTS,
    Dialect,
    load,
    newest_release,
    reads_like,
    register,
    releases,
    renamed_attribute,
    unregister,
)
from targetlang.cli import main


@pytest.fixture
def dummy_release(tmp_path: Path) -> Iterator[str]:
    """A made-up release "tvm-0.99": TVM 0.21's facts with one more cuda attribute."""
    # The data file (what scripts/generate_releases.py would write for a real release).
    data = json.loads((REPO / "targetlang/_data/releases/tvm-0.21.json").read_text("utf-8"))
    data["source"] = "a test's dummy release"
    data["kinds"]["cuda"]["attrs"]["dummy_cache_bytes"] = {"type": "int", "default": 0}
    path = tmp_path / "tvm-0.99.json"
    path.write_text(json.dumps(data), "utf-8")
    # The one registration.
    register(Dialect("tvm-0.99", "a dummy release for the registry's test",
                     data_file=str(path), release=(0, 99)))
    try:
        yield "tvm-0.99"
    finally:
        unregister("tvm-0.99")


def test_a_release_is_one_data_file_and_one_registration(dummy_release: str) -> None:
    assert dummy_release in tl.dialects() and releases()[0] == dummy_release
    target = tl.parse("cuda -arch=sm_80 -dummy_cache_bytes=4096", dialect=dummy_release)
    assert target.attrs["dummy_cache_bytes"] == 4096 and target.dialect == dummy_release
    assert tl.parse("cuda", dialect=dummy_release).attrs["dummy_cache_bytes"] == 0
    with pytest.raises(tl.UnknownAttributeError):
        tl.parse("cuda -dummy_cache_bytes=1")  # tvm-0.21 has no such attribute
    # Every reader of dialects finds it: the CLI, lint, explain, migrate.
    out = io.StringIO()
    assert main(["check", "--strict", "--dialect", dummy_release, "cuda -arch=sm_80"],
                stdout=out, stderr=io.StringIO()) == 0
    assert tl.lint("cuda -arch=sm_8O", dialect=dummy_release)
    sources = {a["name"]: a["source"] for a in explain("cuda", dialect=dummy_release)["attrs"]}
    assert sources["dummy_cache_bytes"] == "default"
    assert tl.detect_dialect("cuda -dummy_cache_bytes=1") == dummy_release
    assert load(dummy_release).source == "a test's dummy release"


@pytest.fixture
def release_028(tmp_path: Path) -> Iterator[str]:
    """TVM "0.28": 0.27's facts with one new kind and one attribute renamed, as data (the
    file ``scripts/generate_releases.py`` would write), and one registration."""
    data = json.loads((REPO / "targetlang/_data/releases/tvm-0.27.json").read_text("utf-8"))
    data.update(release="0.28", dialect="tvm-0.28", source="a test's release 0.28")
    data["kinds"]["npu28"] = {**data["kinds"]["ext_dev"], "device_type": 28}
    llvm = data["kinds"]["llvm"]["attrs"]
    llvm["opt_level"] = llvm.pop("opt-level")
    data["renamed"] = {"llvm": {"opt-level": "opt_level"}}
    path = tmp_path / "tvm-0.28.json"
    path.write_text(json.dumps(data), "utf-8")
    register(Dialect("tvm-0.28", "TVM 0.28 (a test's)", data_file=str(path), release=(0, 28),
                     **reads_like("tvm-0.27")))  # type: ignore[arg-type]
    try:
        yield "tvm-0.28"
    finally:
        unregister("tvm-0.28")


def test_release_028_is_data_and_one_registration(release_028: str) -> None:
    assert release_028 in tl.dialects() and tl.dialects()[release_028] == (release_028,)
    assert newest_release() == release_028
    # The new kind reads, in every form the release reads.
    assert tl.parse("npu28", dialect=release_028).kind == "npu28"
    assert tl.from_json({"kind": "npu28"}, dialect=release_028).kind == "npu28"
    assert "npu28" not in tl.kinds("tvm-0.27")
    # The renamed attribute: read under its new name, mapped from the old one by migrate().
    assert tl.from_json({"kind": "llvm", "opt_level": 3}, dialect=release_028).attrs[
        "opt_level"] == 3
    with pytest.warns(tl.MigrationWarning, match="renamed"):
        to_028 = tl.migrate("llvm -opt-level=3", target_dialect=release_028)
    assert to_028["opt_level"] == 3 and "opt-level" not in to_028
    with pytest.warns(tl.MigrationWarning, match="renamed"):  # the default: the newest release
        assert tl.migrate({"kind": "llvm", "opt-level": 2}, source_dialect="tvm-0.27") == {
            **tl.migrate({"kind": "llvm", "opt-level": 2}, source_dialect="tvm-0.27",
                         target_dialect=release_028)}
    with pytest.warns(tl.MigrationWarning, match="renamed"):
        assert tl.migrate("llvm -opt-level=3")["opt_level"] == 3


def test_the_newest_release_is_the_default_again_once_028_is_gone() -> None:
    assert newest_release() == "tvm-0.27" and "tvm-0.28" not in tl.dialects()
    assert tl.migrate("llvm -opt-level=3")["opt-level"] == 3


def test_renames_chain_through_the_releases_between(release_028: str) -> None:
    assert renamed_attribute("llvm", "opt-level", "tvm-0.8", release_028) == "opt_level"
    assert renamed_attribute("llvm", "opt-level", "tvm-0.8", "tvm-0.27") is None
    # TVM 0.9 renamed cuda's shared_memory_per_block (apache/tvm#10501): chained to 0.28.
    assert renamed_attribute("cuda", "shared_memory_per_block", "tvm-0.8", release_028) == \
        "max_shared_memory_per_block"
    with pytest.warns(tl.MigrationWarning, match="renamed"):
        out = tl.migrate("cuda -arch=sm_80 -shared_memory_per_block=1024", source_dialect="tvm-0.8",
                         target_dialect=release_028)
    assert out["max_shared_memory_per_block"] == 1024


def test_registering_twice_or_without_facts_is_refused() -> None:
    with pytest.raises(ValueError):
        register(Dialect("tvm-0.21", "again", data_file="releases/tvm-0.21.json"))
    with pytest.raises(ValueError):
        register(Dialect("nothing", "no facts"))
    assert "nothing" not in DIALECTS


def test_each_dialect_is_one_object_with_facts_reader_and_hooks() -> None:
    assert load("tvm-0.21").reader is None  # TVM 0.21's FromString
    assert load("tvm-0.27").hooks["webgpu"].name == "UpdateWebGPUAttrs"
    assert set(load("tvm-0.8").hooks) == {"nvptx", "rocm"}
    assert not load("tvm-0.6").hooks and not load("tvm-0.6").rules.quoting
    assert "compiler" in load("collage").kinds["cuda"].attrs


# ---- TVM 0.24 and later: {"tag": ..., <overrides>} ------------------------------------------

TAG_OVERRIDES = [
    {"tag": "nvidia/jetson-orin-nano", "max_num_threads": 512},
    {"tag": "nvidia/jetson-orin-nano", "keys": ["x"]},
    {"tag": "nvidia/jetson-orin-nano", "kind": "cuda", "arch": "sm_80"},  # a kind: no tag read
    {"tag": "nvidia/jetson-orin-nano", "max_threads_per_block": 512},
    {"tag": "nvidia/nope", "arch": "sm_80"},
    {"tag": "nvidia/jetson-orin-nano", "nonsense": 1},
    {"tag": 3},
    {"tag": "nvidia/jetson-orin-nano", "arch": "compute_80"},
]


def test_tag_with_overrides_is_traced() -> None:
    text = json.dumps({"tag": "nvidia/jetson-orin-nano", "max_num_threads": 512,
                       "host": {"kind": "llvm"}})
    node = explain(text, dialect="tvm-0.27", environment=tl.Environment.no_gpu())
    assert node["origin"] == "tag" and node["tag_name"] == "nvidia/jetson-orin-nano"
    sources = {a["name"]: a["source"] for a in node["attrs"]}
    assert sources["max_num_threads"] == "written" and sources["arch"] == "tag"
    assert node["host"]["source"] == "written"  # the override replaced the tag's host
    assert {a["name"]: a["source"] for a in node["host"]["attrs"]} == {"mtriple": "environment"}
    with pytest.raises(tl.TargetValueError):
        tl.from_json({"tag": "nvidia/jetson-orin-nano"})  # TVM 0.21 needs a kind


@pytest.mark.oracle
def test_tag_overrides_agree_with_tvm_027() -> None:
    import subprocess

    from conftest import ORACLE_DIR

    tvm027 = ORACLE_DIR / "bin" / "tvm027-python"
    if not tvm027.exists():
        pytest.skip(f"no TVM 0.27 oracle at {tvm027}")
    code = ("import json, sys, warnings\nwarnings.simplefilter('ignore')\n"
            "from tvm.target import Target\nout = []\n"
            "for c in json.load(sys.stdin):\n"
            "    try:\n        e = Target(c).export()\n"
            "        plain = lambda o: dict(o.items()) if hasattr(o, 'items') else list(o)\n"
            "        out.append(json.loads(json.dumps(e, default=plain)))\n"
            "    except Exception:\n        out.append(None)\n"
            "print(json.dumps(out))\n")
    done = subprocess.run([str(tvm027), "-c", code], input=json.dumps(TAG_OVERRIDES),
                          capture_output=True, text=True, timeout=300, check=True)
    exports = json.loads(done.stdout.splitlines()[-1])
    assert sum(export is not None for export in exports) == 4  # the other four are refused
    for config, export in zip(TAG_OVERRIDES, exports):
        if export is None:
            with pytest.raises(tl.TargetError):
                tl.from_json(config, dialect="tvm-0.27")
            continue
        ours = tl.from_json(config, dialect="tvm-0.27")
        assert ours == tl.from_json(export, dialect="tvm-0.27"), config


def test_every_release_is_a_dialect_in_the_family_its_facts_name() -> None:
    import json

    from conftest import REPO

    data = json.loads((REPO / "targetlang" / "_data" / "releases" / "families.json")
                      .read_text("utf-8"))
    expected = {f["family"]: tuple(f["releases"]) for f in data["reader_families"]}
    # TVM's releases in the families their facts name; another product's release (TVM TIRx)
    # is a family of its own, after TVM's
    expected["tirx-0.1"] = ("tirx-0.1",)
    assert dict(tl.release_families()) == expected
    assert list(tl.release_families())[-1] == "tirx-0.1"
    assert {f"tvm-0.{n}" for n in range(6, 28)} <= set(tl.dialects())
    assert tl.detect_dialect("llvm -keys=cpu -link-params=0 -mcpu=broadwell -num-cores=2") \
        == "tvm-0.9"


def test_dialects_map_each_family_to_its_releases() -> None:
    """API.md: ``dialects()`` lists every dialect and maps each family to its releases."""
    listed = tl.dialects()
    families = tl.release_families()
    for family, members in families.items():
        assert family in members and family == members[-1]  # named by its newest release
        for member in members:
            assert listed[member] == members
    assert set(listed) == {m for ms in families.values() for m in ms} | {"collage"}
    assert listed["tvm-0.26"] == ("tvm-0.25", "tvm-0.26")
    assert listed["collage"] == ("tvm-0.21",)  # an extension: the family it extends
