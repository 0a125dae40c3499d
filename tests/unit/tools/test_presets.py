"""Presets: the target constructors of TVM 0.21, replayed from goldens recorded with TVM.

``tests/data/presets/golden.jsonl`` holds TVM 0.21's answers for every model of its tables
(``scripts/record_preset_goldens.py``); these tests run without TVM, under the environment
TVM had when recording. The ``oracle`` test asks the live TVM again.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from functools import cache
from typing import Any

import pytest
from conftest import REPO, TESTS

import targetlang as tl
from targetlang import CompilationConfig, Executor, Runtime
from targetlang.configuration import presets

ENV = tl.Environment.no_gpu()
GOLDEN = TESTS / "data" / "presets" / "golden.jsonl"


@cache
def records() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines())


def call(record: dict[str, Any]) -> dict[str, Any]:
    """Our answer to one recorded call, in the recording's shape."""
    answer: dict[str, Any] = {"ok": False, "export": None, "str": None, "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if record["fn"] == "micro_target":
                config = presets.micro(*record["args"], environment=ENV)
                target = config.targets[0].with_host(None)
            else:
                target = getattr(presets, record["fn"])(*record["args"], **record["kwargs"],
                                                        environment=ENV)
            answer.update(ok=True, export=target.to_json(), str=target.to_string(style="tvm"))
        except tl.TargetError as error:
            answer["error"] = error.message
    answer["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    return answer


def agree(record: dict[str, Any], answer: dict[str, Any]) -> None:
    assert answer["ok"] == record["ok"], answer["error"]
    assert answer["export"] == record["export"]
    assert answer["str"] == record["str"]
    assert answer["warnings"] == record["warnings"]
    if record["error_type"] == "ValueError" and "Target creation" not in record["error"]:
        assert answer["error"] == record["error"]  # the presets' own checks: TVM's words


def _id(record: dict[str, Any]) -> str:
    return f"{record['fn']}-{records().index(record)}"


@pytest.mark.parametrize("record", records(), ids=_id)
def test_preset_equals_tvm(record: dict[str, Any]) -> None:
    agree(record, call(record))


def test_goldens_cover_every_model_of_every_table() -> None:
    called = {(r["fn"], r["args"][0]) for r in records() if r["args"]}
    tables = {"arm_cpu": presets.arm_cpu_models(), "riscv_cpu": presets.riscv_cpu_models(),
              "micro_target": presets.micro_models(), "stm32": presets.stm32_series(),
              "hexagon": dict.fromkeys(presets.hexagon_versions())}
    for fn, table in tables.items():
        assert {(fn, model) for model in table} <= called, fn
    assert len(presets.arm_cpu_models()) == 14 and len(presets.micro_models()) == 16
    assert {r["fn"] for r in records()} == {
        "cuda", "rocm", "mali", "intel_graphics", "arm_cpu", "rasp", "bifrost", "riscv_cpu",
        "hexagon", "stm32", "adreno", "micro_target"}


def test_presets_without_environment_leave_machine_values_out() -> None:
    with pytest.warns(UserWarning, match="Try specifying cuda arch"):
        target = presets.cuda()
    assert "arch" not in target.attrs
    assert "mtriple" not in presets.arm_cpu().attrs
    assert presets.arm_cpu("rasp4b").attrs["mtriple"] == "armv8l-linux-gnueabihf"


def test_presets_in_the_collage_dialect() -> None:
    target = presets.cuda(arch="sm_80", options="-compiler=tensorrt", dialect="collage")
    assert target.specializes(presets.cuda(arch="sm_80"))


def test_micro_is_the_rfc_configuration() -> None:
    config = presets.micro("stm32f746xx")
    target = tl.parse("c -mcpu=cortex-m7 -march=armv7e-m -model=stm32f746xx")
    assert config == CompilationConfig(target_host=[target], targets=[target],
                                       executor=Executor("graph"),
                                       runtime=Runtime("crt", {"system-lib": True}))
    aot = presets.micro("host", executor="aot")
    assert aot.executor == Executor("aot") and aot.runtime == Runtime("crt", {"system-lib": False})
    assert presets.micro("host", options="-mcpu=cortex-m4").targets[0].attrs["mcpu"] == "cortex-m4"
    assert CompilationConfig.from_json(config.to_json()) == config


def test_error_micro_unknown_model() -> None:
    with pytest.raises(tl.TargetValueError, match="Model unknown not supported by tvm.target.micro"):
        presets.micro()


@pytest.mark.oracle
def test_presets_agree_with_live_tvm() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "record_preset_goldens.py"),
                           "--stdout"], capture_output=True, text=True, timeout=600, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(records())
    for record in answers:
        agree(record, call(record))
