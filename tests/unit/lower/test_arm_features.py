"""Arm target-parser features: TVM 0.21's own feature tests, and the model of LLVM behind them.

The first part restates, through ``targetlang.parse``, what TVM's tests assert
(``tests/cpp/target/parsers/aprofile_test.cc``, ``mprofile_test.cc``,
``tests/python/target/test_arm_target.py``, ``test_target_parser_mprofile.py`` at v0.21.0);
the second checks pieces of ``targetlang._lower.arm`` directly.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from conftest import REPO

import targetlang as tl
from targetlang._lower import arm as _arm

APROFILE = ("is_aarch64", "has_asimd", "has_sve", "has_dotprod", "has_matmul_i8",
            "has_fp16_simd", "has_sme")


def features(mtriple: str, mattr: list[str], mcpu: str = "") -> Any:
    """``ParseTargetWithAttrs`` of aprofile_test.cc, through the Target constructor."""
    config: dict[str, Any] = {"kind": "llvm", "mtriple": mtriple, "mattr": mattr}
    if mcpu:
        config["mcpu"] = mcpu
    target = tl.from_json(config)
    assert target.keys == ("arm_cpu", "cpu") or "cortex-m" in mcpu
    return target.features


def version(value: float) -> str:
    """``"+v" + FloatToStringWithoutTrailingZeros(v) + "a"``."""
    return f"+v{value:g}a"


# ---- aprofile_test.cc ----------------------------------------------------------------------

def test_aprofile_keys_and_aarch64_triple() -> None:
    assert features("aarch64-arm-none-eabi", [""]).is_aarch64 is True
    assert tl.from_json({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "keys": ["cpu"]}).keys \
        == ("cpu", "arm_cpu")
    assert tl.from_json({"kind": "llvm", "mtriple": "aarch64-linux-gnu",
                         "keys": ["cpu", "arm_cpu"]}).keys == ("cpu", "arm_cpu")


@pytest.mark.parametrize("triple", ["armv7a-arm-none-eabi", "armv8a-arm-none-eabi",
                                    "arm-unknown-linux-gnu"])
@pytest.mark.parametrize("mcpu", ["", "cortex-a53"])
def test_aarch32_triples(triple: str, mcpu: str) -> None:
    f = features(triple, [""], mcpu)
    assert set(f) == set(APROFILE)
    assert f.is_aarch64 is False


@pytest.mark.parametrize("triple", ["armv7a-arm-none-eabi", "armv8a-arm-none-eabi",
                                    "arm-unknown-linux-gnu"])
def test_aarch32_triple_with_mprofile_cpu_is_not_aprofile(triple: str) -> None:
    f = features(triple, [""], "cortex-m33")
    assert dict(f) == {"has_dsp": True, "has_mve": False}
    assert f.is_aarch64 is None


def test_asimd() -> None:
    assert features("aarch64-arm-none-eabi", [""]).has_asimd is True
    assert features("armv8a-arm-none-eabi", []).has_asimd is True
    assert features("armv8a-arm-none-eabi", ["+simd"]).has_asimd is True
    assert features("armv8a-arm-none-eabi", ["+neon"]).has_asimd is True


def test_i8mm() -> None:
    assert features("aarch64-arm-none-eabi", [version(8.6)]).has_matmul_i8 is True
    assert features("aarch64-arm-none-eabi", [version(8.6), "-i8mm"]).has_matmul_i8 is False
    for v in (8.2, 8.3, 8.4, 8.5):
        assert features("aarch64-arm-none-eabi", [version(v)]).has_matmul_i8 is False
        assert features("aarch64-arm-none-eabi", [version(v), "+i8mm"]).has_matmul_i8 is True


def test_dotprod() -> None:
    assert features("aarch64-arm-none-eabi", [version(8.4)]).has_dotprod is True
    assert features("aarch64-arm-none-eabi", [version(8.4), "-dotprod"]).has_dotprod is False
    for v in (8.2, 8.3):
        assert features("aarch64-arm-none-eabi", [version(v)]).has_dotprod is False
        assert features("aarch64-arm-none-eabi", [version(v), "+dotprod"]).has_dotprod is True
    assert features("aarch64-arm-none-eabi", ["+v8.4b"]).has_dotprod is False


@pytest.mark.parametrize("v", [8.0, 8.1, 8.2, 8.3, 8.4, 8.5, 8.6, 8.7, 8.8, 8.9])
def test_optional_sve(v: float) -> None:
    assert features("aarch64-arm-none-eabi", [version(v)]).has_sve is False
    assert features("aarch64-arm-none-eabi", [version(v), "+sve"]).has_sve is True


@pytest.mark.parametrize("v", [8.2, 8.3, 8.4, 8.5, 8.6, 8.7, 8.8, 8.9])
def test_optional_fp16(v: float) -> None:
    assert features("aarch64-arm-none-eabi", [version(v)]).has_fp16_simd is False
    assert features("aarch64-arm-none-eabi", [version(v), "+fullfp16"]).has_fp16_simd is True
    assert features("aarch64-arm-none-eabi", [version(v), "+sve"]).has_fp16_simd is True


def test_v9a_defaults_and_sme() -> None:
    # aprofile_test.cc expects +v9a alone to give SVE and FP16 SIMD: true with the LLVM of its
    # time, not with LLVM 22 (SVE became optional in Armv9-A), which TVM 0.21 links here.
    f = features("aarch64-arm-none-eabi", ["+v9a"])
    assert (f.has_sve, f.has_fp16_simd, f.has_dotprod) == (False, False, True)
    f = features("aarch64-arm-none-eabi", ["+v9a", "+sve"])
    assert (f.has_sve, f.has_fp16_simd) == (True, True)
    f = features("aarch64-arm-none-eabi", ["+v9a", "+fullfp16"])
    assert (f.has_sve, f.has_fp16_simd) == (False, True)
    assert features("aarch64-arm-none-eabi", ["+v9a"]).has_sme is False
    assert features("aarch64-arm-none-eabi", ["+v9a", "+sme"]).has_sme is True


def test_implied_feature() -> None:
    f = features("aarch64-linux-gnu", ["+sve2"])
    assert (f.has_sve, f.has_asimd) == (True, True)


def test_unexpected_target_kind() -> None:
    with pytest.raises(tl.TargetError, match="kind 'llvm'"):
        tl.from_json({"kind": "c", "mtriple": "aarch64-linux-gnu"})


# ---- test_arm_target.py -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("llvm -mtriple=arm-linux-gnueabi -mattr=+neon", {"has_asimd": True}),
    ("llvm -mtriple=arm-linux-gnueabi", {"has_asimd": False, "has_dotprod": False}),
    ("llvm -mtriple=aarch64-linux-gnu -mattr=+v8.4a,+dotprod",
     {"is_aarch64": True, "has_asimd": True, "has_dotprod": True}),
    ("llvm -mtriple=aarch64-linux-gnu", {"is_aarch64": True, "has_asimd": True,
                                         "has_dotprod": False}),
    ("llvm -mtriple=aarch64-linux-gnu -mattr=+neon", {"has_asimd": True}),
    ("llvm -mtriple=aarch64-linux-gnu -mattr=+sve", {"has_sve": True}),
])
def test_arm_target_strings(text: str, expected: dict[str, bool]) -> None:
    target = tl.parse(text)
    assert target.keys == ("arm_cpu", "cpu")
    assert {k: target.features[k] for k in expected} == expected


# ---- mprofile_test.cc and test_target_parser_mprofile.py --------------------------------

MVE = ("cortex-m55", "cortex-m85")
DSP = ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p")
NONE = ("cortex-m0", "cortex-m3")


def mprofile(kind: str, mcpu: str, mattr: list[str] | None = None) -> dict[str, object]:
    config: dict[str, Any] = {"kind": kind, "mcpu": mcpu}
    if mattr is not None:
        config["mattr"] = mattr
    target = tl.from_json(config)
    assert target.keys == ("arm_cpu", "cpu")
    assert target.features  # TVM's test: the features map is not empty
    return dict(target.features)


@pytest.mark.parametrize("kind", ["c", "llvm"])
def test_mprofile_cpus(kind: str) -> None:
    # Kind c has no -mattr: the -mattr cases run on llvm only.
    attrs: list[str] | None = [""] if kind == "llvm" else None
    for cpu in MVE:
        assert mprofile(kind, cpu) == {"has_dsp": True, "has_mve": True}
        assert mprofile(kind, cpu + "+nomve", attrs) == {"has_dsp": True, "has_mve": False}
        assert mprofile(kind, cpu + "+nodsp", attrs) == {"has_dsp": False, "has_mve": False}
        for suffix in ("+nodsp+nomve", "+nomve+nodsp"):
            assert mprofile(kind, cpu + suffix, attrs) == {"has_dsp": False, "has_mve": False}
    for cpu in DSP:
        assert mprofile(kind, cpu) == {"has_dsp": True, "has_mve": False}
        assert mprofile(kind, cpu + "+nodsp", attrs) == {"has_dsp": False, "has_mve": False}
        assert mprofile(kind, cpu + "+nodsp+woofles", attrs) == \
            {"has_dsp": False, "has_mve": False}
    for cpu in NONE:
        assert mprofile(kind, cpu) == {"has_dsp": False, "has_mve": False}
    assert dict(tl.from_json({"kind": kind, "mcpu": "cake"}).features) == {}


def test_mprofile_mattr_overrides() -> None:
    for cpu in MVE:
        assert mprofile("llvm", cpu, ["+nomve"]) == {"has_dsp": True, "has_mve": False}
        assert mprofile("llvm", cpu, ["+nodsp"]) == {"has_dsp": False, "has_mve": False}
        assert mprofile("llvm", cpu, ["+nodsp", "+nomve"]) == \
            {"has_dsp": False, "has_mve": False}
    for cpu in DSP:
        assert mprofile("llvm", cpu, ["+nodsp"]) == {"has_dsp": False, "has_mve": False}


def test_mprofile_strings() -> None:
    for kind in ("c", "llvm"):
        assert dict(tl.parse(f"{kind} -mcpu=cortex-m55").features) == \
            {"has_dsp": True, "has_mve": True}
        assert dict(tl.parse(f"{kind} -mcpu=cortex-m7").features) == \
            {"has_dsp": True, "has_mve": False}
        assert dict(tl.parse(f"{kind} -mcpu=cortex-m3").features) == \
            {"has_dsp": False, "has_mve": False}
    target = tl.parse("llvm -mcpu=cortex-m55 -mattr=+nomve,+woof")
    assert (target.keys, target.features.has_dsp, target.features.has_mve) == \
        (("arm_cpu", "cpu"), True, False)


def test_test_kind() -> None:
    assert dict(tl.parse("test").features) == {"is_test": True}


# ---- targetlang._lower.arm ----------------------------------------------------------------------

@pytest.mark.parametrize(("arch", "canonical"), [
    (b"armv7a", b"v7a"), (b"armebv7", b"v7"), (b"armv7eb", b"v7"), (b"arm", b"arm"),
    (b"armeb", b"armeb"), (b"aarch64", b"aarch64"), (b"aarch64_be", b"aarch64_be"),
    (b"arm64e", b"arm64e"), (b"arm64ec", b"c"), (b"armx", b"x"), (b"armfoo", b""),
    (b"aarch64foo", b""), (b"aarch64_eb", b""), (b"armebv7eb", b""), (b"arm\xc3\xa9", b""),
    (b"armv\xd9\xa3", b""),
])
def test_canonical_subarch(arch: bytes, canonical: bytes) -> None:
    assert _arm.canonical_subarch(arch) == canonical


@pytest.mark.parametrize(("triple", "target", "thumb"), [
    ("aarch64-linux-gnu", "aarch64", False), ("arm64-apple-macos", "aarch64", False),
    ("arm64_32-apple-watchos", "aarch64", False), ("armv7a-linux", "arm", False),
    ("armv6m-none-eabi", "arm", True), ("aarch64m", "arm", True), ("armebv7", "arm", False),
])
def test_arm_triple_targets(triple: str, target: str, thumb: bool) -> None:
    parsed = _arm.arm_triple(triple)
    assert parsed is not None and (parsed.target, parsed.thumb) == (target, thumb)
    assert _arm.triple_problem(triple) is None


@pytest.mark.parametrize("triple", ["armfoo", "aarch64foo-linux-gnu", "armeb-apple-macos",
                                    "armebv7-pc-windows-msvc", "arm-unknown-uefi",
                                    "armv7-apple-ios-elf", "aarch64-linux-gnu-xcoff",
                                    "arm64-apple-macos-wasm", "armebv7k-apple-watchos"])
def test_triples_tvm_dies_on_are_errors(triple: str) -> None:
    assert _arm.triple_problem(triple) is not None
    with pytest.raises(tl.TargetValueError, match="crashes") as info:
        tl.parse(f"llvm -mtriple={triple} -mcpu=cortex-a53")
    assert info.value.offset == len("llvm -mtriple=")


@pytest.mark.parametrize("mattr", ["neon", "+neon,sve", "help"])
def test_unsigned_mattr_items_are_errors(mattr: str) -> None:
    with pytest.raises(tl.TargetValueError, match="must start with"):
        tl.from_json({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": [mattr]})
    assert _arm.unsigned_item(["+help", "", "-x"]) is None


def test_removal_clears_what_implies_and_keeps_what_is_implied() -> None:
    triple = _arm.arm_triple("aarch64-linux-gnu")
    assert triple is not None
    with_sve2 = _arm.cpu_features(triple, None, ["+sve2"])
    assert {"sve2", "sve", "neon"} <= with_sve2
    without_sve = _arm.cpu_features(triple, None, ["+sve2", "-sve"])
    assert "sve" not in without_sve and "sve2" not in without_sve
    assert "fullfp16" in without_sve  # what sve implied stays
    # Order matters: a later addition wins over an earlier removal, and the other way round.
    assert "neon" in _arm.cpu_features(triple, None, ["-neon", "+dotprod"])
    assert "neon" not in _arm.cpu_features(triple, None, ["+dotprod", "-neon"])


def test_unknown_cpu_falls_back_to_generic() -> None:
    triple = _arm.arm_triple("aarch64-linux-gnu")
    assert triple is not None
    generic = _arm.cpu_features(triple, None, [])
    for cpu in ("apple-m1", "cortex-a7", "bogus", ""):  # an alias, an AArch32 CPU, unknown
        assert _arm.effective_cpu(triple, cpu) == "generic"
        assert _arm.cpu_features(triple, cpu, []) == generic


def test_aarch32_generic_cpu_takes_the_architecture_from_the_triple() -> None:
    for triple, neon in (("arm-linux-gnueabihf", False), ("armv7a-linux-gnueabihf", True),
                         ("armv6-linux-gnueabihf", False)):
        assert tl.parse(f"llvm -mtriple={triple}").features.has_asimd is neon
    # A named CPU replaces it: the triple's architecture no longer counts.
    assert tl.parse("llvm -mtriple=armv8.2a-linux -mcpu=arm926ej-s").features.has_asimd is False


def test_features_not_derived_read_as_none() -> None:
    target = tl.parse("llvm -mtriple=aarch64-linux-gnu")
    assert target.features.has_dsp is None
    assert target.features.has_sve is False
    assert tl.parse("llvm -mtriple=arm64-apple-macos").features.is_aarch64 is False


def test_tables_are_loaded_lazily() -> None:
    code = ("import targetlang; from targetlang._lower import arm as _arm; "
            "assert _arm.tables.cache_info().currsize == 0; "
            "targetlang.parse('llvm -mtriple=aarch64-linux-gnu'); "
            "assert _arm.tables.cache_info().currsize == 1; "
            "print(_arm.tables().llvm_version)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True)
    data = json.loads((REPO / "targetlang" / "_data" / "arm-features.json").read_text())
    assert done.stdout.strip() == data["llvm_version"]


# ---- the JSON releases: each its own LLVM (release build) ------------------------------------

def _features(config: dict[str, Any], dialect: str) -> dict[str, object]:
    return dict(tl.from_json({"kind": "llvm", **config}, dialect=dialect).features)


def test_json_releases_take_an_llvm_cpu_alias_where_0_21_took_generic() -> None:
    m1 = {"mtriple": "arm64-apple-macos", "mcpu": "apple-m1"}
    assert _features(m1, "tvm-0.21")["has_dotprod"] is False  # not in the archlist: generic
    for dialect in ("tvm-0.24", "tvm-0.25", "tvm-0.26", "tvm-0.27"):
        assert _features(m1, dialect)["has_dotprod"] is True
    assert _arm.tables_of(_arm.RELEASE_FILES["tvm-0.27"]).aarch64.knows_cpu("apple-m1")
    assert "apple-m1" in _arm.tables().aarch64.cpu_aliases


def test_json_releases_llvm_is_a_release_build() -> None:
    unsigned = {"mtriple": "aarch64-linux-gnu", "mattr": ["neon"]}
    with pytest.raises(tl.TargetValueError, match="must start with"):
        _features(unsigned, "tvm-0.21")  # an LLVM with assertions dies on it
    assert _features(unsigned, "tvm-0.27")["has_asimd"] is False  # read as "-neon"
    uefi = {"mtriple": "arm-unknown-uefi"}  # object format and OS disagree (AArch32)
    with pytest.raises(tl.TargetValueError, match="asserts"):
        _features(uefi, "tvm-0.21")
    assert _features(uefi, "tvm-0.27")["has_asimd"] is False
    with pytest.raises(tl.TargetValueError, match="object format"):  # fatal anywhere
        _features({"mtriple": "aarch64-linux-gnu-xcoff"}, "tvm-0.27")
    exported = tl.from_json({"kind": "llvm", **unsigned}, dialect="tvm-0.27").to_json()
    assert exported["feature.has_asimd"] is False and exported["feature.is_aarch64"] is True
