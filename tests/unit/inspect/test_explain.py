"""explain (where each value came from) and diff (what differs, by meaning)."""

from __future__ import annotations

from typing import Any

import pytest

import targetlang
from targetlang import Environment
from targetlang._inspect.diff import Change, diff
from targetlang._inspect.diff import render as render_diff
from targetlang._inspect.explain import explain, render


def sources(node: dict[str, Any]) -> dict[str, str]:
    return {a["name"]: a["source"] for a in node["attrs"]}


def test_written_default_and_target_parser() -> None:
    node = explain("rocm -mcpu=gfx90a")
    assert sources(node) == {"mcpu": "written", "mtriple": "target parser",
                             "max_num_threads": "default", "max_shared_memory_per_block": "default",
                             "max_threads_per_block": "default", "thread_warp_size": "default"}


def test_environment() -> None:
    node = explain("rocm", environment=Environment.no_gpu())
    assert sources(node)["mcpu"] == "environment"
    assert "mcpu" not in sources(explain("rocm"))


def test_tag_and_its_host() -> None:
    node = explain("nvidia/jetson-agx-xavier")
    assert node["origin"] == "tag" and node["tag_name"] == "nvidia/jetson-agx-xavier"
    # The tag gave its values; those equal to the kind's registered defaults are defaults.
    defaults = targetlang.kinds()["cuda"].defaults
    assert sources(node) == {a["name"]: "default" if defaults.get(a["name"]) == a["value"]
                             else "tag" for a in node["attrs"]}
    assert sources(node)["arch"] == "tag" and sources(node)["max_num_threads"] == "default"
    assert set(sources(node).values()) == {"tag", "default"}
    assert node["host"]["source"] == "tag"
    assert sources(node["host"])["mcpu"] == "tag"


def test_a_tag_does_not_claim_the_kinds_defaults() -> None:
    node = explain("nvidia/jetson-nano")
    assert sources(node) == {"arch": "tag", "max_shared_memory_per_block": "tag",
                             "max_threads_per_block": "tag", "registers_per_block": "tag",
                             "max_num_threads": "default", "thread_warp_size": "default"}
    assert {k["source"] for k in node["keys"]} == {"default"}


def test_keys() -> None:
    node = explain("opencl -device=mali")
    assert node["keys"] == [{"key": "mali", "source": "-device"},
                            {"key": "opencl", "source": "default"},
                            {"key": "gpu", "source": "default"}]
    node = explain("llvm -keys=x,cpu -mtriple=aarch64-linux-gnu")
    assert node["keys"] == [{"key": "x", "source": "written"}, {"key": "cpu", "source": "written"},
                            {"key": "arm_cpu", "source": "target parser"}]


def test_features_and_json_and_devices() -> None:
    node = explain("llvm -mcpu=cortex-m55")
    assert {f["name"] for f in node["features"]} >= {"has_dsp", "has_mve"}
    node = explain('{"kind": "composite", "devices": ["cuda -arch=sm_80", {"kind": "opencl"}]}')
    assert node["origin"] == "json"
    first, second = node["devices"]
    assert sources(first)["arch"] == "written" and first["origin"] == "text"
    assert second["origin"] == "json"


def test_device_query() -> None:
    node = explain("llvm -from_device=0 -mcpu=x")
    assert sources(node)["mattr"] == "device query"
    assert sources(node)["mcpu"] == "written"


def test_render() -> None:
    text = render(explain("cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'"))
    assert text == (
        "cuda  (legacy text)\n"
        "├─ keys = [cuda, gpu]                default\n"
        "├─ arch = \"sm_80\"                    written\n"
        "├─ max_num_threads = 1024            default\n"
        "├─ thread_warp_size = 32             default\n"
        "└─ host: llvm                        written\n"
        "   ├─ keys = [arm_cpu, cpu]          target parser\n"
        "   ├─ mtriple = \"aarch64-linux-gnu\"  written\n"
        "   ├─ feature is_aarch64 = true      target parser\n"
        "   ├─ feature has_asimd = true       target parser\n"
        "   ├─ feature has_sve = false        target parser\n"
        "   ├─ feature has_dotprod = false    target parser\n"
        "   ├─ feature has_matmul_i8 = false  target parser\n"
        "   ├─ feature has_fp16_simd = false  target parser\n"
        "   └─ feature has_sme = false        target parser")


def test_explain_raises_target_errors() -> None:
    with pytest.raises(targetlang.TargetSyntaxError):
        explain("cuda -arch=")


# ---- diff ----------------------------------------------------------------------------------

P = targetlang.parse


def test_same_target_written_differently() -> None:
    assert diff(P("cuda -arch=sm_80 -max_num_threads=1024"),
                P('{"kind": "cuda", "arch": "sm_80", "keys": ["cuda", "gpu"]}')) == []


def test_changes_with_paths() -> None:
    changes = diff(P("cuda -arch=sm_80 -libs=cudnn -host=llvm"),
                   P("cuda -arch=sm_86 -host='llvm -mtriple=aarch64-linux-gnu'"))
    assert changes == [
        Change("host.keys", "changed", ["cpu"], ["arm_cpu", "cpu"]),
        Change("host.mtriple", "added", None, "aarch64-linux-gnu"),
        Change("arch", "changed", "sm_80", "sm_86"),
        Change("libs", "removed", ["cudnn"], None),
    ]
    assert render_diff(changes) == (
        '~ host.keys: ["cpu"] -> ["arm_cpu", "cpu"]\n'
        '+ host.mtriple: "aarch64-linux-gnu"\n'
        '~ arch: "sm_80" -> "sm_86"\n'
        '- libs: ["cudnn"]')


def test_kinds_devices_and_dialects() -> None:
    assert [c.path for c in diff(P("cuda"), P("llvm"))] == [
        "kind", "keys", "max_num_threads", "thread_warp_size"]
    assert diff(P("composite --devices=cuda,opencl"), P("composite --devices='cuda -arch=sm_80',opencl")) \
        == [Change("devices[0].arch", "added", None, "sm_80")]
    assert diff(P("llvm"), P("llvm", dialect="collage"))[0] == Change(
        "dialect", "changed", "tvm-0.21", "collage")


def test_true_is_not_one() -> None:
    a = targetlang.from_json({"kind": "llvm", "fast-math": True})
    b = targetlang.from_json({"kind": "llvm", "fast-math": 1})
    assert diff(a, b) == []  # both are the bool true
    assert Change("x", "added", None, 1).to_json() == {"path": "x", "change": "added", "new": 1}
