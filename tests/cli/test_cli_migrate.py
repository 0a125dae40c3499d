"""The migrate subcommand (targets; scripts are in test_pyscripts.py, logs in test_logs.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import targetlang as tl
from targetlang.cli import main


def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_migrate_prints_tvm_027_json() -> None:
    code, out, err = cli("migrate", "--compact", "llvm -device=arm_cpu -target=aarch64-linux-gnu")
    # TVM 0.6's -target is -mtriple since 0.7: said, and written so
    assert code == 0 and err.startswith("warning: TM301 -target: ") and err.count("\n") == 1
    assert json.loads(out)["mtriple"] == "aarch64-linux-gnu"
    assert json.loads(out) == tl.migrate("llvm -device=arm_cpu -target=aarch64-linux-gnu")


def test_migrate_reads_standard_input_and_reports_errors_with_a_caret() -> None:
    code, out, err = cli("migrate", stdin="cuda -model=v100\ncuda -arhc=sm_80\nllvm\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 3 and lines[0]["model"] == "v100"
    assert lines[1]["line"] == 2 and lines[1]["error"]["type"] == "UnknownAttributeError"
    assert lines[2]["kind"] == "llvm"
    assert "error: line 2: unknown attribute 'arhc'" in err
    assert "    cuda -arhc=sm_80\n" in err
    # line 1 is a cuda target: how TVM 0.25+ compiles it is said (moved meaning)
    assert err.startswith("warning: line 1: TM101 cuda: ")


def test_migrate_warns_on_a_line_and_config_carries_it() -> None:
    code, out, err = cli("migrate", "--compact", "llvm -system-lib -link-params=1")
    assert code == 0 and err.startswith("warning: TM201 -system-lib=1: ")
    assert "warning: TM202 -link-params=1: " in err and "migrate_config() carries it" in err
    assert "system_lib_prefix" in err  # the line that keeps the meaning in tvm-0.27
    code, out, err = cli("migrate", "--config", "--compact", "llvm -system-lib -link-params=1")
    config = json.loads(out)
    assert config["executor"] == {"name": "graph", "attrs": {"link-params": True}}
    assert config["runtime"] == {"name": "cpp", "attrs": {"system-lib": True}} and not err


def test_migrate_to_and_from_dialects() -> None:
    code, out, _ = cli("migrate", "--to", "tvm-0.21", "--compact", "opencl -device=mali")
    assert code == 0 and "texture_depth_limit" not in json.loads(out)
    code, _, err = cli("migrate", "--from", "tvm-0.6", "cuda -arch=sm_80")
    assert code == 1 and "TVM 0.6 did not read -arch" in err
    code, _, err = cli("migrate", "--to", "tvm-9", "llvm")
    assert code == 2 and "unknown dialect" in err


def test_migrate_subprocess_smoke() -> None:
    done = subprocess.run([sys.executable, "-m", "targetlang", "migrate", "--compact",
                           "nvidia/jetson-nano"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["arch"] == "sm_53"
