"""The command line, run as the installed console script in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

SCRIPT = shutil.which("targetlang")
COMMANDS = [[SCRIPT]] if SCRIPT else []
COMMANDS.append([sys.executable, "-m", "targetlang"])


def run(command: list[str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.fixture(params=COMMANDS, ids=lambda c: "script" if c[0] == SCRIPT else "module")
def cli(request: pytest.FixtureRequest) -> list[str]:
    return request.param  # type: ignore[no-any-return]


def test_parse_prints_canonical_json(cli: list[str]) -> None:
    done = run(cli, "parse", "cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kind"] == "cuda"
    assert out["host"]["keys"] == ["arm_cpu", "cpu"]


def test_parse_reads_stdin_one_target_per_line(cli: list[str]) -> None:
    done = run(cli, "parse", stdin="cuda -arch=sm_80\nllvm -mcpu=x\n")
    assert done.returncode == 0
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["kind"] for line in lines] == ["cuda", "llvm"]


def test_format_tvm_style_with_no_gpu_environment(cli: list[str]) -> None:
    done = run(cli, "format", "--style", "tvm", "--environment", "no-gpu", "llvm")
    assert done.returncode == 0
    assert done.stdout == "llvm -keys=cpu -mtriple=x86_64-unknown-linux-gnu\n"


def test_format_canonical(cli: list[str]) -> None:
    done = run(cli, "format", "test")
    assert (done.returncode, done.stdout) == (0, "test\n")


def test_check_reports_with_a_caret_and_exit_1(cli: list[str]) -> None:
    done = run(cli, "check", stdin="cuda -arch=sm_80\ncuda -arhc=sm_80\n")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == ("error: unknown attribute 'arhc' for target kind 'cuda' "
                           "(did you mean 'arch'?)\n"
                           "    cuda -arhc=sm_80\n"
                           "          ^\n")


def test_check_valid_exits_0(cli: list[str]) -> None:
    assert run(cli, "check", "nvidia/jetson-nano", "llvm -mcpu=x").returncode == 0


def test_usage_error_exits_2(cli: list[str]) -> None:
    assert run(cli, "no-such-command").returncode == 2
    assert run(cli, "parse", "--dialect", "tvm-9.9", "llvm").returncode == 2


def test_version(cli: list[str]) -> None:
    done = run(cli, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("targetlang ")
