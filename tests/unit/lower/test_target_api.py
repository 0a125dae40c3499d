"""The Target value: members, equality and hashing, copies, schema introspection."""

from __future__ import annotations

import pickle

import pytest

import targetlang as tl
from targetlang._lower.core import Context, Place, from_raw_string_general
from targetlang._lower.dialects import load
from targetlang.target import Target

ENV = tl.Environment.no_gpu()


def test_members_of_a_cuda_target() -> None:
    t = tl.parse("cuda -arch=sm_80 -libs=cudnn,cublas")
    assert t.kind == "cuda"
    assert t.dialect == "tvm-0.21"
    assert t.tag == ""
    assert t.keys == ("cuda", "gpu")
    assert t.host is None
    assert t.attrs["arch"] == "sm_80"
    assert t.attrs["libs"] == ("cudnn", "cublas")
    assert t.attrs["max_num_threads"] == 1024  # a registered default


def test_attrs_are_read_only() -> None:
    t = tl.parse("cuda -arch=sm_80")
    with pytest.raises(TypeError):
        t.attrs["arch"] = "sm_90"  # type: ignore[index]
    with pytest.raises(AttributeError):
        t.kind = "llvm"  # type: ignore[misc]


def test_target_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError):
        tl.Target()


def test_equality_follows_to_json_however_written() -> None:
    a = tl.parse("cuda -arch=sm_80 -libs=cudnn,cublas")
    b = tl.parse("cuda  --libs 'cudnn,cublas' --arch=sm_80")
    c = tl.from_json({"kind": "cuda", "arch": "sm_80", "libs": ["cudnn", "cublas"]})
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert a != tl.parse("cuda -arch=sm_86")
    assert a != "cuda -arch=sm_80"


def test_environment_decides_machine_values() -> None:
    assert "mtriple" not in tl.parse("llvm").attrs
    assert tl.parse("llvm", environment=ENV).attrs["mtriple"] == "x86_64-unknown-linux-gnu"
    assert "arch" not in tl.parse("cuda").attrs
    assert tl.parse("cuda", environment=ENV).attrs["arch"] == "sm_50"
    assert tl.parse("rocm", environment=ENV).attrs["mcpu"] == "gfx900"
    assert tl.parse("nvptx", environment=ENV).attrs["mcpu"] == "sm_50"
    custom = tl.Environment(system_triple="aarch64-unknown-linux-gnu")
    t = tl.parse("llvm", environment=custom)
    assert t.attrs["mtriple"] == "aarch64-unknown-linux-gnu"
    assert t.keys == ("arm_cpu", "cpu")


def test_old_rocm_gets_code_object_v2() -> None:
    env = tl.Environment(rocm_arch="gfx803", rocm_api_version=304)
    assert tl.parse("rocm", environment=env).attrs["mattr"] == ("-code-object-v3",)


@pytest.mark.parametrize("text", [
    "rocm -mattr=+a,+b", "rocm -mattr='+a,+b'", "rocm --mattr +a,+b -mcpu=gfx803",
    "rocm -mattr=+a,\\+b", "rocm -mattr=+a,+b -libs='x y'",
])
def test_old_rocm_mattr_given_stays_an_array(text: str) -> None:
    """A hook that replaces an array given in the text leaves an array (a tuple), as one
    it fills in from nothing does: on the one-pass reader, the general path, in a host."""
    env = tl.Environment(rocm_arch="gfx803", rocm_api_version=304)
    targets = [tl.parse(text, environment=env),
               from_raw_string_general(text, Context(load("tvm-0.21"), env, text, Target),
                                       Place())]
    if "'" not in text:
        host = tl.parse(f"cuda -host='{text}'", environment=env).host
        assert host is not None
        targets.append(host)
    for target in targets:
        assert target.attrs["mattr"] == ("+a", "+b", "-code-object-v3")
        assert target.to_json()["mattr"] == ["+a", "+b", "-code-object-v3"]


def test_to_json_is_fresh_and_plain() -> None:
    t = tl.parse("cuda -host='llvm -mcpu=x' -libs=a")
    first = t.to_json()
    first["libs"].append("mutated")
    first["host"]["kind"] = "mutated"
    assert t.to_json()["libs"] == ["a"]
    assert t.to_json()["host"]["kind"] == "llvm"
    assert list(t.to_json())[:4] == ["kind", "tag", "keys", "host"]


def test_host_forms() -> None:
    expected = tl.parse("llvm -mcpu=x")
    for text in ["cuda -host='llvm -mcpu=x'", "cuda --host='llvm -mcpu=x'",
                 "cuda -host 'llvm -mcpu=x'", "cuda --host 'llvm -mcpu=x'"]:
        assert tl.parse(text).host == expected
    assert tl.parse("cuda --host llvm").host == tl.parse("llvm")
    assert tl.parse("cuda --host nvidia/jetson-nano").host == tl.parse("nvidia/jetson-nano")
    assert tl.parse('cuda -host=\'{"kind": "llvm", "mcpu": "x"}\'').host == expected


def test_with_host() -> None:
    t = tl.parse("cuda -arch=sm_80")
    h = t.with_host("llvm -mtriple=aarch64-linux-gnu")
    assert h.host == tl.parse("llvm -mtriple=aarch64-linux-gnu")
    assert h.with_host(None) == t
    assert t.with_host({"kind": "llvm", "mcpu": "x"}).host == tl.parse("llvm -mcpu=x")
    assert t.with_host(tl.parse("c")).host == tl.parse("c")
    assert t.host is None  # unchanged


def test_with_attrs_sets_and_removes() -> None:
    t = tl.parse("cuda -arch=sm_80 -libs=cudnn")
    u = t.with_attrs({"arch": "sm_90", "libs": None, "max_num_threads": 512})
    assert u.attrs["arch"] == "sm_90"
    assert "libs" not in u.attrs
    assert u.attrs["max_num_threads"] == 512
    with pytest.raises(tl.UnknownAttributeError):
        t.with_attrs({"arhc": "sm_90"})
    with pytest.raises(tl.TargetValueError):
        t.with_attrs({"arch": "compute_90"})
    with pytest.raises(tl.AttributeTypeError):
        t.with_attrs({"max_num_threads": "many"})


def test_features_read_as_attributes_and_none_when_not_derived() -> None:
    t = tl.parse("llvm -mcpu=cortex-m55 -mattr=+nomve")
    assert t.features.has_dsp is True
    assert t.features.has_mve is False
    assert t.features["has_dsp"] is True
    assert t.features.has_sve is None
    assert tl.parse("test").features.is_test is True
    assert dict(tl.parse("cuda").features) == {}


def test_pickle_round_trip() -> None:
    t = tl.parse("cuda -arch=sm_80 -host='llvm -mcpu=x'")
    assert pickle.loads(pickle.dumps(t)) == t


def test_repr() -> None:
    assert repr(tl.parse("test")) == "<Target('test')>"


def test_kinds_schema() -> None:
    kinds = tl.kinds()
    assert len(kinds) == 14
    cuda = kinds["cuda"]
    assert cuda.default_keys == ("cuda", "gpu")
    assert cuda.device_type == 2
    assert cuda.attrs["arch"].type == "str"
    assert cuda.attrs["max_num_threads"].default == 1024
    assert kinds["composite"].attrs["devices"].type == "array<target>"
    assert kinds["llvm"].attrs["mattr"].element_type == "str"


def test_tags() -> None:
    tags = tl.tags()
    assert len(tags) == 256
    nano = tags["nvidia/jetson-nano"]
    assert nano.kind == "cuda"
    assert nano.tag == ""  # TVM leaves the tag field empty for a registered tag
    assert nano.attrs["arch"] == "sm_53"
    assert tl.parse("nvidia/jetson-nano") == nano


def test_tag_field_from_text_and_json() -> None:
    assert tl.parse("llvm -tag=mine").tag == "mine"
    assert tl.from_json({"kind": "llvm", "tag": "mine"}).tag == "mine"


def test_unknown_dialect() -> None:
    with pytest.raises(ValueError, match="unknown dialect"):
        tl.parse("llvm", dialect="tvm-9.9")


def test_parse_wants_text() -> None:
    with pytest.raises(TypeError):
        tl.parse({"kind": "llvm"})  # type: ignore[arg-type]


def test_from_json_accepts_text() -> None:
    assert tl.from_json('{"kind": "cuda", "arch": "sm_80"}') == tl.parse("cuda -arch=sm_80")


def test_public_names() -> None:
    for name in ["parse", "from_json", "Target", "Environment", "TargetError", "TargetSyntaxError",
                 "UnknownKindError", "UnknownAttributeError", "AttributeTypeError",
                 "DuplicateAttributeError", "kinds", "tags"]:
        assert name in dir(tl)
    assert issubclass(tl.TargetError, ValueError)


@pytest.mark.parametrize("text", [
    "llvm -from_device=0",
    "llvm -host='c -from_device=1'",
    "composite -devices='c -from_device=1'",
    '{"kind":"llvm","host":{"kind":"c","from_device":1}}',
    "c -libs='mkldnn' -from_device=1",
    '{"kind":"c","model":" x ","from_device":1}',
])
def test_queried_targets_round_trip(text: str) -> None:
    """-from_device on a CPU kind nulls every unset attribute (as TVM's device query does);
    such targets still round-trip, nested as hosts and devices too (found by fuzzing)."""
    t = tl.parse(text)
    assert tl.parse(t.to_string()) == t
    assert tl.from_json(t.to_json()) == t
    assert tl.parse(t.to_string()).to_string() == t.to_string()
