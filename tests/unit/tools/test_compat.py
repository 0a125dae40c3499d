"""targetlang.compat without TVM: a stand-in ``tvm`` module records what compat hands it.

The live oracles check the real thing (tests/golden/test_compat_check.py); here the logic:
which release, what is passed through, what is read as TVM 0.21 read it, hosts, helpers,
warnings, and the ImportError without TVM.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

import targetlang as tl
from targetlang import compat
from targetlang.configuration import presets
from targetlang.migration._minimal import minimal


class FakeTarget:
    """Records its constructor's arguments as ``tvm.target.Target`` would receive them."""

    def __init__(self, target: Any, host: Any = None) -> None:
        self.target = target
        self.host = host


def fake_tvm(monkeypatch: pytest.MonkeyPatch, version: str, **helpers: Any) -> types.ModuleType:
    tvm = types.ModuleType("tvm")
    target = types.ModuleType("tvm.target")
    target.Target = FakeTarget  # type: ignore[attr-defined]
    for name, function in helpers.items():
        setattr(target, name, function)
    tvm.target = target  # type: ignore[attr-defined]
    tvm.__version__ = version  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tvm", tvm)
    monkeypatch.setitem(sys.modules, "tvm.target", target)
    return tvm


def test_importing_compat_does_not_import_tvm(tmp_path: Path) -> None:
    # a tvm on the path that refuses to be imported: only a call may import it
    (tmp_path / "tvm").mkdir()
    (tmp_path / "tvm" / "__init__.py").write_text("raise ImportError('tvm was imported')\n")
    code = ("import sys, targetlang.compat as c; print('tvm' in sys.modules)\n"
            "try:\n    c.Target('llvm')\nexcept ImportError as e:\n    print(e)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO, env=env)
    first, second = done.stdout.splitlines()
    assert first == "False"
    assert "needs TVM" in second and "tvm was imported" in second


def test_a_call_without_tvm_says_tvm_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tvm", None)  # import tvm raises ImportError
    for call in (lambda: compat.Target("llvm"), lambda: compat.cuda(arch="sm_80"),
                 lambda: compat.hexagon("v68")):
        with pytest.raises(ImportError, match=r"needs TVM.*pip install apache-tvm"):
            call()


@pytest.mark.parametrize(("version", "dialect"), [
    ("0.25.0.post1", "tvm-0.25"), ("0.26.0", "tvm-0.26"), ("0.27.0.post1", "tvm-0.27"),
    ("0.24.0", "tvm-0.24"), ("0.24.dev0", "tvm-0.24"), ("0.27.0rc1", "tvm-0.27"),
    ("0.99.0", "tvm-0.27"), ("1.2.3", "tvm-0.27"), ("0.28.dev123+g1234", "tvm-0.27"),
    ("0.21.0", None), ("0.19.0", None), ("0.23.dev0", None), ("0.8.0", None),
])
def test_the_release_is_read_from_the_version(version: str, dialect: str | None) -> None:
    assert compat.release_dialect(version) == dialect


def test_the_newest_known_release_is_the_fallback() -> None:
    newest = max((d for d in tl.dialects() if d.startswith("tvm-0.")),
                 key=lambda d: int(d.split(".")[1]))
    assert compat.release_dialect("0.999.0") == newest


def test_a_json_release_gets_the_minimal_dict_of_the_legacy_meaning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.25.0.post1")
    made = compat.Target("cuda -arch=sm_80 -libs=cudnn")
    assert isinstance(made, FakeTarget) and made.host is None
    assert made.target == {"kind": "cuda", "arch": "sm_80", "libs": ["cudnn"]}
    for text in ("llvm -mtriple=aarch64-linux-gnu -mattr=+neon", "nvidia/jetson-nano",
                 '{"kind": "opencl", "device": "mali"}', "opencl -device=mali -model=rk3399"):
        got = compat.Target(text).target
        assert got == minimal(tl.migrate(text, source_dialect="tvm-0.21",
                                         target_dialect="tvm-0.25"), "tvm-0.25")
    # a dict is read as TVM 0.21 read it too
    assert compat.Target({"kind": "llvm", "mcpu": "skylake"}).target == \
        {"kind": "llvm", "mcpu": "skylake"}


def test_a_tag_keeps_its_0_21_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    got = compat.Target("apple/m1-gpu").target
    legacy = tl.parse("apple/m1-gpu", dialect="tvm-0.21")
    assert got["kind"] == legacy.kind
    migrated = tl.migrate("apple/m1-gpu", source_dialect="tvm-0.21", target_dialect="tvm-0.27")
    assert tl.from_json(got, dialect="tvm-0.27").to_json() == \
        tl.from_json(migrated, dialect="tvm-0.27").to_json()


def test_a_host_replaces_the_targets_own_as_in_tvm_0_21(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    made = compat.Target("cuda -host='llvm -mcpu=skylake'", host="llvm -mtriple=aarch64-linux-gnu")
    assert isinstance(made.target, FakeTarget) and isinstance(made.host, FakeTarget)
    assert made.target.target["kind"] == "cuda"
    assert made.host.target == {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}


def test_an_installed_target_is_returned_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    mine = FakeTarget({"kind": "llvm"})
    assert compat.Target(mine) is mine
    with_host = compat.Target(mine, host="llvm -mtriple=aarch64-linux-gnu")
    assert with_host.target is mine
    assert with_host.host.target == {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}


def test_a_targetlang_target_is_read_as_its_dialect_read_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    legacy = tl.parse("cuda -arch=sm_80 -libs=cudnn")
    assert compat.Target(legacy).target == {"kind": "cuda", "arch": "sm_80", "libs": ["cudnn"]}
    newer = tl.from_json({"kind": "opencl", "texture_depth_limit": 1024}, dialect="tvm-0.27")
    assert compat.Target(newer).target == {"kind": "opencl", "texture_depth_limit": 1024}


def test_what_tvm_0_21_refused_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    with pytest.raises(tl.TargetError):
        compat.Target("cuda -arhc=sm_80")
    with pytest.raises(ValueError, match="string or dictionary"):
        compat.Target(42)
    with pytest.raises(tl.MigrationError):  # read, but the kind is gone in 0.27
        compat.Target("hybrid")


def test_a_dict_written_for_a_newer_release_is_read_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    new = {"kind": "opencl", "texture_depth_limit": 1024}  # TVM 0.21 has no such attribute
    with pytest.raises(tl.TargetError):
        tl.from_json(new, dialect="tvm-0.21")
    assert compat.Target(new).target == new


def test_before_0_24_the_value_goes_through_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []
    fake_tvm(monkeypatch, "0.21.0", cuda=lambda *a, **k: calls.append(("cuda", a, k)),
             hexagon=lambda *a, **k: calls.append(("hexagon", a, k)))
    made = compat.Target("cuda -arhc=sm_80", "llvm")  # TVM itself answers, even a refusal
    assert (made.target, made.host) == ("cuda -arhc=sm_80", "llvm")
    compat.cuda("a100", options="-libs=cudnn")
    compat.hexagon("v68", link_params=True)
    assert calls == [("cuda", ("a100", None, "-libs=cudnn"), {}),
                     ("hexagon", ("v68",), {"link_params": True})]
    # a helper the old release does not have: TVM 0.21's TargetJSON
    made = compat.stm32("stm32F7xx")
    assert made.target == tl.parse("c -keys=arm_cpu,cpu -device=arm_cpu -mcpu=cortex-m7").to_json()


@pytest.mark.parametrize(("call", "legacy"), [
    (lambda: compat.cuda("a100", "sm_80", "-libs=cudnn"),
     lambda: presets.cuda("a100", "sm_80", "-libs=cudnn")),
    (lambda: compat.rocm(), lambda: presets.rocm()),
    (lambda: compat.mali("rk3399"), lambda: presets.mali("rk3399")),
    (lambda: compat.intel_graphics(), lambda: presets.intel_graphics()),
    (lambda: compat.arm_cpu("rasp4b", ["-mattr=+neon"]),
     lambda: presets.arm_cpu("rasp4b", ["-mattr=+neon"])),
    (lambda: compat.bifrost(), lambda: presets.bifrost()),
    (lambda: compat.riscv_cpu(), lambda: presets.riscv_cpu()),
    (lambda: compat.hexagon("v69", hvx=64, num_cores=2),
     lambda: presets.hexagon("v69", hvx=64, num_cores=2)),
    (lambda: compat.stm32("stm32H7xx"), lambda: presets.stm32("stm32H7xx")),
    (lambda: compat.adreno(clml=True), lambda: presets.adreno(clml=True)),
    (lambda: compat.create("llvm -mcpu=skylake"), lambda: tl.parse("llvm -mcpu=skylake")),
])
def test_helpers_mean_what_tvm_0_21s_returned(monkeypatch: pytest.MonkeyPatch, call: Any,
                                              legacy: Any) -> None:
    fake_tvm(monkeypatch, "0.26.0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made, expected = call(), legacy()
    assert made.target == minimal(tl.migrate(expected, target_dialect="tvm-0.26"), "tvm-0.26")


def test_hexagon_accepts_and_ignores_other_keywords_as_tvm_0_21(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    assert compat.hexagon("v68", link_params=True).target == compat.hexagon("v68").target


def test_tvms_warnings_point_at_the_callers_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tvm(monkeypatch, "0.27.0")
    with pytest.warns(UserWarning, match="arch=sm_xx") as caught:
        compat.cuda()
    assert caught[0].filename == __file__
    with pytest.warns(UserWarning, match="rasp\\(\\) is going to be deprecated") as caught:
        compat.rasp()
    assert caught[0].filename == __file__
    with pytest.warns(UserWarning, match="create\\(\\) is being deprecated"):
        compat.create("llvm")
    with pytest.warns(UserWarning, match="mkldnn"):
        assert compat.Target("llvm -libs=mkldnn").target["libs"] == ["dnnl"]
