"""The lowering's trace: the true origin of every value, and its readers on every dialect."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from conftest import REPO, TOPHUB

import targetlang as tl
from targetlang._inspect.diff import diff
from targetlang._inspect.explain import explain
from targetlang.cli import main


def origins(node: dict[str, Any]) -> dict[str, str]:
    return {a["name"]: a["source"] for a in node["attrs"]}


def key_origins(node: dict[str, Any]) -> list[tuple[str, str]]:
    return [(k["key"], k["source"]) for k in node["keys"]]


# ---- every value's origin ----------------------------------------------------------------

def test_tag() -> None:
    node = explain("nvidia/jetson-nano")
    assert node["origin"] == "tag" and node["tag_name"] == "nvidia/jetson-nano"
    # The tag's export repeats the kind's defaults; the rest is the tag's own.
    assert origins(node) == {"arch": "tag", "max_num_threads": "default",
                             "max_shared_memory_per_block": "tag",
                             "max_threads_per_block": "tag", "registers_per_block": "tag",
                             "thread_warp_size": "default"}
    assert key_origins(node) == [("cuda", "default"), ("gpu", "default")]  # the kind's own


def test_tag_as_host_with_written_device_values() -> None:
    # A tag named inside a text: the outer values are written, the host's are the tag's.
    node = explain("cuda -arch=sm_87 -host=nvidia/jetson-agx-xavier")
    assert origins(node)["arch"] == "written"
    assert node["host"]["source"] == "written"
    host = explain("nvidia/jetson-agx-xavier")["host"]
    assert set(origins(host).values()) == {"tag"}


def test_bare_kind_with_the_environment() -> None:
    node = explain("rocm", environment=tl.Environment.no_gpu())
    assert origins(node) == {"max_num_threads": "default",
                             "max_shared_memory_per_block": "default",
                             "max_threads_per_block": "default", "mcpu": "environment",
                             "mtriple": "target parser", "thread_warp_size": "default"}
    hooks = {a["name"]: a.get("hook") for a in node["attrs"]}
    assert hooks["mcpu"] == hooks["mtriple"] == "UpdateROCmAttrs"
    assert key_origins(node) == [("rocm", "default"), ("gpu", "default")]
    node = explain("llvm", environment=tl.Environment.no_gpu())
    assert origins(node) == {"mtriple": "environment"}
    node = explain("cuda", environment=tl.Environment.no_gpu())
    assert origins(node)["arch"] == "environment"
    assert "arch" not in origins(explain("cuda"))


def test_arm_triple() -> None:
    node = explain("llvm -mtriple=aarch64-linux-gnu -keys=x")
    assert origins(node) == {"mtriple": "written"}
    # MergeKeys: the written keys first, then arm_cpu and cpu from the hook.
    assert key_origins(node) == [("x", "written"), ("arm_cpu", "target parser"),
                                 ("cpu", "target parser")]
    assert {f["source"] for f in node["features"]} == {"target parser"}
    assert {f["hook"] for f in node["features"]} == {"parsers::cpu::ParseTarget"}


def test_device_key() -> None:
    node = explain("opencl -device=mali -keys=x")
    assert origins(node)["device"] == "written"
    # Written keys replace the kind's default keys (TVM 0.21); the device is appended.
    assert key_origins(node) == [("x", "written"), ("mali", "-device")]
    assert key_origins(explain("opencl -device=mali")) == [
        ("mali", "-device"), ("opencl", "default"), ("gpu", "default")]
    node = explain("opencl -device=intel_graphics", dialect="tvm-0.6")
    assert origins(node)["thread_warp_size"] == "derived"  # CreateTarget's table
    assert key_origins(node)[0] == ("intel_graphics", "-device")


def test_json_text() -> None:
    node = explain('{"kind": "cuda", "arch": "sm_80", "keys": ["cuda"], '
                   '"host": {"kind": "llvm", "mcpu": "cortex-a72"}}')
    assert node["origin"] == "json"
    assert origins(node) == {"arch": "written", "max_num_threads": "default",
                             "thread_warp_size": "default"}
    assert key_origins(node) == [("cuda", "written")]
    assert node["host"]["source"] == "written"
    assert origins(node["host"]) == {"mcpu": "written"}


def test_device_query() -> None:
    node = explain("llvm -from_device=0 -mcpu=x")
    assert origins(node)["mcpu"] == "written"
    assert {s for n, s in origins(node).items() if n != "mcpu"} == {"device query"}


def test_trace_is_not_part_of_the_value() -> None:
    a = tl.parse("cuda -arch=sm_80")
    b = tl.from_json({"kind": "cuda", "arch": "sm_80"})
    assert a == b and hash(a) == hash(b)
    assert a._trace.form == "text" and b._trace.form == "json"


def test_lint_reads_offsets_from_the_trace() -> None:
    text = "cuda -host='llvm -opt-level=3x' -libs=cudnn,cublass"
    found = {(w.code, w.offset) for w in tl.lint(text)}
    assert ("int-suffix", text.index("x'")) in found
    assert ("unknown-value", text.index("cublass")) in found
    text = "llvm -libs=mkldnn\0 -opt-level=3x"
    assert [(w.code, w.offset) for w in tl.lint(text)] == [("mkldnn", 11), ("nul", 17)]


# ---- every dialect, over the golden corpus and TopHub ----------------------------------------

def _corpus() -> list[str]:
    lines = (REPO / "tests/data/tvm-0.21/golden.jsonl").read_text("utf-8").splitlines()
    texts = [json.loads(line)["input"] for line in lines]
    tophub = TOPHUB / "tophub-targets.txt"  # TVM 0.6-era strings, shipped with the tests
    texts += [t for t in tophub.read_text("utf-8").splitlines() if t.strip()]
    return [t for t in texts if isinstance(t, str)]


@pytest.mark.parametrize("dialect", list(tl.dialects()))
def test_readers_of_the_trace_raise_only_target_errors(dialect: str) -> None:
    read: list[tl.Target] = []
    for text in _corpus():
        try:
            read.append(tl.parse(text, dialect=dialect))
        except tl.TargetError:
            continue
        tl.lint(text, dialect=dialect)
        explain(text, dialect=dialect)
    for a, b in zip(read, read[1:]):
        assert (diff(a, b) == []) == (a == b)
    out, err = io.StringIO(), io.StringIO()
    texts = [t for t in _corpus() if "\n" not in t]
    code = main(["check", "--strict", "--json", "--dialect", dialect, "--", *texts],
                stdout=out, stderr=err)
    assert code in (0, 1)
    assert len(out.getvalue().rstrip("\n").split("\n")) == len(texts)  # one JSON line each


def test_diff_reads_where_each_side_came_from() -> None:
    env = tl.Environment.no_gpu()
    changes = diff(tl.parse("rocm", environment=env), tl.parse("rocm -mcpu=gfx90a"))
    assert [(c.path, c.origins) for c in changes] == [("mcpu", ("environment", "written"))]
    changes = diff(tl.parse("cuda -arch=sm_72 -host=llvm"), tl.parse("nvidia/jetson-agx-xavier"))
    origins = {c.path: c.origins for c in changes}
    assert origins["host.mcpu"] == (None, "tag")  # added: only the new side has an origin
    assert origins["max_shared_memory_per_block"] == (None, "tag")
    assert origins["host.keys"] == (None, None)  # keys are not one attribute
    out = io.StringIO()
    main(["diff", "--origins", "rocm", "rocm -mcpu=gfx90a", "--environment", "no-gpu"],
         stdout=out, stderr=io.StringIO())
    assert out.getvalue() == '~ mcpu: "gfx900" -> "gfx90a"  (environment -> written)\n'
