"""The per-release facts (targetlang/_data/releases/) hold together, and agree with the goldens
recorded from the TVM oracles (tests/data/releases/, tests/data/meta_schedule/). No TVM needed."""

from __future__ import annotations

import functools
import json
import lzma
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

FACTS = REPO / "targetlang" / "_data" / "releases"
GOLDENS = REPO / "tests" / "data" / "releases"
META = REPO / "tests" / "data" / "meta_schedule"
RELEASES = [f"0.{n}" for n in range(6, 28)]
ORACLES = ["0.19", "0.21", "0.25", "0.26", "0.27"]
JSON_ONLY_ORACLES = ["0.25", "0.26", "0.27"]
# Keys a JSON-only release takes out of a config before its schema sees it (target.cc FromConfig).
STRUCTURAL = {"kind", "tag", "keys", "host"}


@functools.cache
def facts(release: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FACTS / f"tvm-{release}.json").read_text(encoding="utf-8"))
    return data


@functools.cache
def xz_lines(path: str) -> list[Any]:
    # one row a "\n" (splitlines() would also split at a U+0085 inside a string)
    text = lzma.decompress((GOLDENS / path).read_bytes()).decode()
    return [json.loads(x) for x in text.split("\n") if x]


def answers(release: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(case, the oracle's answer) for every dict case of a release."""
    return list(zip(xz_lines("json-cases.jsonl.xz"), xz_lines(f"tvm-{release}/json-golden.jsonl.xz")))


# ---- the facts themselves --------------------------------------------------------------------

@pytest.mark.parametrize("release", RELEASES)
def test_every_release_has_facts_that_name_their_source(release: str) -> None:
    data = facts(release)
    assert data["release"] == release and data["dialect"] == f"tvm-{release}"
    assert "generate_releases.py" in data["source"]
    assert data["facts_from"] == ("oracle" if release in ORACLES else "git")
    assert data["kinds"], release


@pytest.mark.parametrize("release", [r for r in RELEASES if r not in ("0.6", "0.27")])
def test_transcribed_facts_cite_tag_path_and_line(release: str) -> None:
    data = facts(release)
    cite = re.compile(rf"^v{re.escape(release)}\.0:[\w./-]+:\d+")
    for name, kind in data["kinds"].items():
        assert cite.match(kind["source"]), (name, kind["source"])
        for attr, spec in kind["attrs"].items():
            assert cite.match(spec.get("source", "")), (name, attr)
    for name, tag in data["tags"].items():
        assert cite.match(tag["source"]), (name, tag["source"])
    for group in ("text", "json"):
        for fact, spec in data[group].items():
            assert cite.match(spec["source"]), (group, fact)


def test_release_0_27_tags_cite_its_wheel() -> None:
    for name, tag in facts("0.27")["tags"].items():
        assert re.match(r"apache-tvm 0\.27 wheel:tvm/[\w/]+\.py:\d+$", tag["source"]), name


@pytest.mark.parametrize("release", RELEASES)
def test_attribute_types_and_defaults_are_well_formed(release: str) -> None:
    python_type = {"int": int, "bool": bool, "str": str}
    for name, kind in facts(release)["kinds"].items():
        assert isinstance(kind["device_type"], int) and kind["device_type"] > 0, name
        assert all(isinstance(k, str) for k in kind["default_keys"]), name
        for attr, spec in kind["attrs"].items():
            assert spec["type"] in ("int", "bool", "str", "target", "array<str>",
                                    "array<target>", "array<int>"), (name, attr)
            if "default" in spec and spec["type"] in python_type:
                assert type(spec["default"]) is python_type[spec["type"]], (name, attr)


def test_legacy_strings_end_at_0_24() -> None:
    for release in RELEASES:
        expected = release_tuple(release) < (0, 24)
        assert facts(release)["text"]["legacy_strings"]["value"] is expected, release
        assert bool(facts(release)["json"]) is not expected, release


def release_tuple(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


# ---- families --------------------------------------------------------------------------------

def without_citations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_citations(v) for k, v in value.items()
                if k not in ("source", "registered_twice", "tag_exports_from", "hooks_source",
                             "validator_source", "hook_code")}
    if isinstance(value, list):
        return [without_citations(v) for v in value]
    return value


def essence(release: str, *, tags: bool = True) -> Any:
    keys = ["kinds", "text", "json", "aliases"] + (["tags", "tag_exports"] if tags else [])
    return without_citations({k: facts(release)[k] for k in keys if k in facts(release)})


@pytest.mark.parametrize("grouping,tags", [("families", True), ("reader_families", False)])
def test_families_partition_the_releases_where_facts_agree(grouping: str, tags: bool) -> None:
    families = json.loads((FACTS / "families.json").read_text(encoding="utf-8"))[grouping]
    covered = [r for family in families for r in family["releases"]]
    assert covered == [f"tvm-{r}" for r in RELEASES]
    for family in families:
        members = [r.removeprefix("tvm-") for r in family["releases"]]
        assert family["family"] == family["releases"][-1]
        for release in members[1:]:
            assert essence(release, tags=tags) == essence(members[0], tags=tags), release
    for before, after in zip(families, families[1:]):
        last, first = before["releases"][-1][4:], after["releases"][0][4:]
        assert essence(last, tags=tags) != essence(first, tags=tags), (last, first)
        assert after["boundary"], first  # the reason is recorded


# ---- facts against the oracles' goldens --------------------------------------------------------

def test_transcription_agrees_with_every_oracle() -> None:
    report = json.loads((GOLDENS / "transcription-check.json").read_text(encoding="utf-8"))
    assert sorted(report["releases"]) == [f"tvm-{r}" for r in ORACLES]
    for entry in report["releases"].values():
        assert entry["tags"]["differences"] == [] and entry["tags"]["tags_agreeing"] > 200
        if "kinds" in entry:
            assert entry["kinds"]["differences"] == [] and entry["kinds"]["facts_agreeing"] > 400


@pytest.mark.parametrize("release", ORACLES)
def test_a_bare_kind_is_accepted_exactly_when_the_release_has_it(release: str) -> None:
    kinds = facts(release)["kinds"]
    seen = 0
    for case, answer in answers(release):
        if case["category"] == "kind" and isinstance(case["input"], dict):
            kind = case["input"]["kind"]
            assert answer["ok"] is (kind in kinds), (release, kind, answer.get("error"))
            if answer["ok"]:
                seen += 1
                export = answer["export"]
                assert export["keys"] == kinds[kind]["default_keys"] or kind in ("llvm", "c") \
                    and export["keys"][-1:] == kinds[kind]["default_keys"][-1:], (kind, export)
                for attr, spec in kinds[kind]["attrs"].items():
                    if "default" in spec:
                        assert export.get(attr) == spec["default"], (release, kind, attr)
    assert seen == len(kinds)


@pytest.mark.parametrize("release", ORACLES)
def test_tags_are_accepted_exactly_when_registered_and_export_as_recorded(release: str) -> None:
    data = facts(release)
    seen = 0
    for case, answer in answers(release):
        if case["category"] == "tag" and isinstance(case["input"], str):
            tag = case["input"]
            assert answer["ok"] is (tag in data["tags"]), (release, tag)
            if answer["ok"]:
                seen += 1
                assert answer["export"] == data["tag_exports"][tag], (release, tag)
    assert seen == len(data["tags"])


@pytest.mark.parametrize("release", JSON_ONLY_ORACLES)
def test_json_releases_accept_only_registered_keys(release: str) -> None:
    data = facts(release)
    assert data["json"]["unknown_key_error"]["value"] == "Unknown config option"
    accepted = rejected_unknown = 0
    for case, answer in answers(release):
        config = case["input"]
        if not isinstance(config, dict) or not isinstance(config.get("kind"), str):
            continue
        kind = data["kinds"].get(config["kind"])
        if kind is None:
            assert not answer["ok"], config
            continue
        unknown = [k for k in config if k not in kind["attrs"] and k not in STRUCTURAL
                   and not k.startswith("feature.")]
        if unknown:
            assert not answer["ok"] and "Unknown config option" in answer["error"], config
            rejected_unknown += 1
        elif answer["ok"]:
            accepted += 1
    assert accepted > 300 and rejected_unknown > 20


@pytest.mark.parametrize("release", JSON_ONLY_ORACLES)
def test_json_releases_keep_feature_keys_and_read_tag_overrides(release: str) -> None:
    data = facts(release)
    assert data["json"]["feature_keys_kept"]["value"] and data["json"]["tag_with_overrides"]["value"]
    overrides = 0
    for case, answer in answers(release):
        config = case["input"]
        if case["category"] == "feature" and config["kind"] in data["kinds"] \
                and answer["ok"]:
            feature = next(k for k in config if k.startswith("feature."))
            if feature in data["kinds"][config["kind"]].get("derived_keys", []):
                # the kind's canonicalizer derives it: its value wins over the given one
                assert answer["export"][feature] != "yes", config
            else:
                assert answer["export"][feature] == config[feature], config
        if case["category"] == "tag-override" and config["tag"] in data["tags"] and answer["ok"]:
            overrides += 1
            base = data["tag_exports"][config["tag"]]
            for key, value in config.items():
                if key not in ("tag", "host", "keys"):
                    assert answer["export"][key] == value, config
            assert answer["export"]["kind"] == base["kind"] and answer["export"]["tag"] == config["tag"]
    assert overrides > 1000


def test_tvm_0_19_reads_legacy_strings_with_its_own_kinds_and_tags() -> None:
    cases = [json.loads(x)["input"] for x in
             (REPO / "tests" / "data" / "tvm-0.21" / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    golden = xz_lines("tvm-0.19/legacy-golden.jsonl.xz")
    assert len(golden) == len(cases)
    data = facts("0.19")
    accepted = 0
    for text, answer in zip(cases, golden):
        if not answer["ok"]:
            continue
        accepted += 1
        export = answer["export"]
        kind = data["kinds"][export["kind"]]
        assert set(export) - {"kind", "tag", "keys", "host", "devices"} <= set(kind["attrs"]), text
        if text in data["tags"]:
            assert export == data["tag_exports"][text], text
    assert accepted > 3000


# ---- MetaSchedule --------------------------------------------------------------------------------

def test_meta_schedule_database_and_how_later_releases_read_it() -> None:
    records = (META / "db" / "database_tuning_record.json").read_text(encoding="utf-8").splitlines()
    workloads = (META / "db" / "database_workload.json").read_text(encoding="utf-8").splitlines()
    assert len(workloads) == 1 and len(records) > 10
    targets = [json.loads(r)[1][2] for r in records]
    assert all(isinstance(t, dict) and "kind" in t for t in targets)
    reads = json.loads((META / "reads.json").read_text(encoding="utf-8"))
    assert reads["tvm-0.21"]["whole_database"] == {"ok": True, "records": len(records)}
    for release in ("tvm-0.25", "tvm-0.26", "tvm-0.27"):
        read = reads[release]
        assert [t["input"] for t in read["targets"]] == targets
        assert all(t["ok"] for t in read["targets"])
        assert not read["whole_database"]["ok"] and "root_index" in read["whole_database"]["error"]
        assert read["instruction_kinds"]["GetBlock"] is False
        assert read["instruction_kinds"]["GetSBlock"] is True
    assert reads["tvm-0.21"]["instruction_kinds"]["GetBlock"] is True


# ---- the generated files are what their scripts make now ------------------------------------

MIRROR = REPO.parent / ".mirror" / "apache+tvm" / "repo"


def tvm_mirror() -> Path:
    import os
    return Path(os.environ.get("TVM_GIT_DIR", MIRROR))


def run_script(*args: str) -> None:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, str(REPO / "scripts" / args[0]), *args[1:]],
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_release_notes_are_up_to_date() -> None:
    if not (tvm_mirror() / "HEAD").exists():
        pytest.skip("no TVM git mirror ($TVM_GIT_DIR): docs/releases.md lists its commits")
    run_script("generate_release_notes.py", "--check")


@pytest.mark.oracle
def test_release_facts_are_what_the_sources_and_oracles_say_now() -> None:
    from conftest import ORACLE_DIR
    missing = [r for r in ORACLES if not (ORACLE_DIR / "bin" / f"tvm0{r[2:]}-python").exists()]
    if missing or not (tvm_mirror() / "HEAD").exists():
        pytest.skip(f"needs the TVM git mirror and the oracles (missing: {missing or 'mirror'})")
    run_script("generate_releases.py", "--check")
    run_script("check_releases.py", "--check")


def test_python_helpers_removed_in_0_24_are_those_0_21_exported() -> None:
    data = json.loads((FACTS / "python-helpers.json").read_text(encoding="utf-8"))
    at_021 = data["by_release"]["tvm-0.21"]
    removed = {n for n, e in data["helpers"].items() if e["removed_in"] == "tvm-0.24"}
    assert removed == set(at_021) == set(data["at_removal"]["before"])
    assert {"cuda", "rocm", "mali", "arm_cpu", "hexagon", "adreno", "riscv_cpu"} <= removed
    for name, entry in at_021.items():
        assert re.match(r"v0\.21\.0:python/tvm/target/target\.py:\d+$", entry["source"]), name
    assert data["by_release"]["tvm-0.24"] == {} and data["by_release"]["tvm-0.26"] == {}


def test_python_helper_facts_are_up_to_date() -> None:
    if not (tvm_mirror() / "HEAD").exists():
        pytest.skip("no TVM git mirror ($TVM_GIT_DIR)")
    run_script("generate_python_helpers.py", "--check")


def json_kind(value: Any) -> str:
    """A JSON value's kind, in the words of ``json.value_casts``."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return "array of str"
        return "array of other"
    return {int: "int", str: "str", dict: "object", float: "float"}.get(type(value), "null")


@pytest.mark.parametrize("release", JSON_ONLY_ORACLES)
def test_json_releases_cast_values_as_the_facts_say(release: str) -> None:
    data = facts(release)
    casts = data["json"]["value_casts"]["value"]
    checked = 0
    for case, answer in answers(release):
        if case["category"] not in ("attr", "attr-wrong-type"):
            continue
        config = case["input"]
        kind = data["kinds"].get(config["kind"])
        (attr,) = [k for k in config if k != "kind"]
        if kind is None or attr not in kind["attrs"] or attr in STRUCTURAL:
            continue
        spec = kind["attrs"][attr]
        if spec["type"] not in ("int", "bool", "str", "array<str>"):
            continue
        checked += 1
        if json_kind(config[attr]) in casts[spec["type"]]:
            # taken; only a canonicalizer or validator may still refuse the value
            assert answer["ok"] or "expected type" not in answer["error"], config
        else:
            assert not answer["ok"] and "expected type" in answer["error"], config
    assert checked > 700
