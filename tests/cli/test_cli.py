"""The command line: the installed console script in a subprocess (a few per subcommand), and
``main(...)`` in-process for the details."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from targetlang.cli import build_parser, main
from targetlang.cli._common import EXIT_INVALID, EXIT_OK, EXIT_USAGE


def _script() -> str | None:
    here = Path(sysconfig.get_path("scripts")) / "targetlang"
    if here.exists():
        return str(here)
    return shutil.which("targetlang")


SCRIPT = _script()
COMMANDS = [[SCRIPT]] if SCRIPT else []
COMMANDS.append([sys.executable, "-m", "targetlang"])
needs_script = pytest.mark.skipif(SCRIPT is None, reason="the console script is not installed")


def run(command: list[str], *args: str, stdin: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False, env=env)


def script(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    assert SCRIPT is not None
    return run([SCRIPT], *args, stdin=stdin)


def cli_main(*argv: str, stdin: str = "", environ: dict[str, str] | None = None,
             tty: bool = False) -> tuple[int, str, str]:
    out: io.StringIO = _Tty() if tty else io.StringIO()
    err: io.StringIO = _Tty() if tty else io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err,
                environ={} if environ is None else environ)
    return code, out.getvalue(), err.getvalue()


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(params=COMMANDS, ids=lambda c: "script" if c[0] == SCRIPT else "module")
def cli(request: pytest.FixtureRequest) -> list[str]:
    return request.param  # type: ignore[no-any-return]


# ---- the program, both ways ---------------------------------------------------------------------

def test_parse_prints_canonical_json(cli: list[str]) -> None:
    done = run(cli, "parse", "cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kind"] == "cuda"
    assert out["host"]["keys"] == ["arm_cpu", "cpu"]


def test_check_reports_with_a_caret_and_exit_1(cli: list[str]) -> None:
    done = run(cli, "check", stdin="cuda -arch=sm_80\ncuda -arhc=sm_80\n")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == ("error: line 2: unknown attribute 'arhc' for target kind 'cuda' "
                           "(did you mean 'arch'?)\n"
                           "    cuda -arhc=sm_80\n"
                           "          ^\n")


def test_usage_error_exits_2(cli: list[str]) -> None:
    assert run(cli, "no-such-command").returncode == 2
    done = run(cli, "parse", "--dialect", "tvm-9.9", "llvm")
    assert done.returncode == 2
    assert "unknown dialect 'tvm-9.9'" in done.stderr


def test_version(cli: list[str]) -> None:
    done = run(cli, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("targetlang ")


# ---- the installed console script, per subcommand ------------------------------------------------

@needs_script
def test_script_parse_reads_stdin_one_target_per_line() -> None:
    done = script("parse", stdin="cuda -arch=sm_80\nllvm -mcpu=x\n")
    assert done.returncode == 0
    assert [json.loads(line)["kind"] for line in done.stdout.splitlines()] == ["cuda", "llvm"]
    bad = script("parse", stdin="llvm\ncuda -arch=\nllvm -mcpu=x\n")
    assert bad.returncode == 1
    # Aligned with the input: the failed line prints an error object in its place.
    lines = [json.loads(line) for line in bad.stdout.splitlines()]
    assert [line.get("kind") for line in lines] == ["llvm", None, "llvm"]
    assert lines[1] == {"line": 2, "input": "cuda -arch=", "error": {
        "type": "TargetSyntaxError", "message": "empty value for attribute 'arch'",
        "offset": 11, "path": None}}
    assert bad.stderr == ("error: line 2: empty value for attribute 'arch'\n    cuda -arch=\n"
                          "               ^\n")


@needs_script
def test_script_format_tvm_style_with_no_gpu_environment() -> None:
    done = script("format", "--style", "tvm", "--environment", "no-gpu", "llvm")
    assert (done.returncode, done.stdout) == (0, "llvm -keys=cpu -mtriple=x86_64-unknown-linux-gnu\n")
    done = script("format", "composite --devices=cuda", "--style", "tvm")
    assert done.returncode == 1 and done.stderr.startswith("error: ")


@needs_script
def test_script_check_valid_exits_0() -> None:
    done = script("check", "nvidia/jetson-nano", "llvm -mcpu=x")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@needs_script
def test_script_check_strict_warns_with_a_caret() -> None:
    done = script("check", "--strict", "llvm -opt-level=3x", "llvm -opt-level=3")
    assert done.returncode == 1
    assert done.stderr == ("warning: line 1: -opt-level=3x is read as 3: TVM ignores 'x' after the "
                           "number [int-suffix]\n"
                           "    llvm -opt-level=3x\n"
                           "                     ^\n")
    assert script("check", "--strict", "llvm -opt-level=3").returncode == 0


@needs_script
def test_script_explain() -> None:
    done = script("explain", "cuda -arch=sm_80")
    assert done.returncode == 0
    assert done.stdout == ("cuda  (legacy text)\n"
                           "├─ keys = [cuda, gpu]      default\n"
                           "├─ arch = \"sm_80\"          written\n"
                           "├─ max_num_threads = 1024  default\n"
                           "└─ thread_warp_size = 32   default\n")
    done = script("explain", "cuda -arch=sm_80 -x=1")
    assert done.returncode == 1
    assert done.stderr.endswith("    cuda -arch=sm_80 -x=1\n                      ^\n")


@needs_script
def test_script_diff_exit_codes() -> None:
    same = script("diff", "cuda -arch=sm_80", '{"kind": "cuda", "arch": "sm_80"}')
    assert (same.returncode, same.stdout) == (0, "")
    differ = script("diff", "cuda -arch=sm_80", "cuda -arch=sm_86 -libs=cudnn")
    assert differ.returncode == 1
    assert differ.stdout == '~ arch: "sm_80" -> "sm_86"\n+ libs: ["cudnn"]\n'
    assert script("diff", "cuda").returncode == 2
    bad = script("diff", "cuda", "cuda -arch=")
    assert bad.returncode == 1 and bad.stderr.endswith("    cuda -arch=\n               ^\n")


@needs_script
def test_script_kinds_and_tags() -> None:
    done = script("kinds")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].split() == ["kind", "device", "default", "keys",
                                                   "attributes"]
    assert script("kinds", "cuda").stdout.startswith("cuda: device cuda (2), default keys: "
                                                     "cuda, gpu\n")
    done = script("tags", "nvidia/jetson-nano")
    assert done.returncode == 0 and "sm_53" in done.stdout
    bad = script("tags", "nvidia/jetson-nanoo")
    assert bad.returncode == 1
    assert bad.stderr == ("error: unknown tag 'nvidia/jetson-nanoo' "
                          "(did you mean 'nvidia/jetson-nano'?)\n")


@needs_script
def test_script_schema_is_json_schema() -> None:
    done = script("schema", "--compact")
    assert done.returncode == 0
    assert json.loads(done.stdout)["$schema"].startswith("https://json-schema.org/")


@needs_script
def test_script_tvmc() -> None:
    done = script("tvmc", "--target=cmsis-nn, c", "--target-c-mcpu=cortex-m55", "--compact")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "codegens": [{"name": "cmsis-nn", "options": {}}],
        "target": {"kind": "c", "tag": "", "keys": ["arm_cpu", "cpu"], "mcpu": "cortex-m55"}}
    bad = script("tvmc", "c, ethos-u")
    assert bad.returncode == 1
    assert bad.stderr == ("error: the last entry must be a TVM target, not the codegen 'ethos-u'\n"
                          "    c, ethos-u\n"
                          "       ^\n")


@needs_script
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_script_colours_a_terminal_unless_no_color() -> None:
    def on_terminal(env: dict[str, str]) -> bytes:
        main_fd, other_fd = os.openpty()
        try:
            subprocess.run([str(SCRIPT), "check", "cuda -arhc=sm_80"], stdin=subprocess.DEVNULL,
                           stdout=other_fd, stderr=other_fd, env=env, timeout=60, check=False)
            os.close(other_fd)
            chunks = []
            while True:
                try:
                    chunk = os.read(main_fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(main_fd)

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    assert b"\x1b[1;31merror:\x1b[0m" in on_terminal(env)
    assert b"\x1b[" not in on_terminal({**env, "NO_COLOR": "1"})
    assert b"\x1b[" not in script("check", "cuda -arhc=sm_80").stderr.encode()


# ---- in-process ------------------------------------------------------------------------------

def test_parse_stdin_and_compact() -> None:
    code, out, _ = cli_main("parse", "--compact", "test")
    assert (code, out) == (0, '{"kind": "test", "tag": "", "keys": []}\n')
    code, out, _ = cli_main("parse", stdin="test\n")
    assert (code, out) == (0, '{"kind": "test", "tag": "", "keys": []}\n')


def test_every_subcommand_has_a_handler_dialect_and_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    choices = sub.choices  # type: ignore[attr-defined]
    assert {"parse", "format", "check", "explain", "diff", "kinds", "tags", "schema",
            "tvmc"} <= set(choices)
    for name, subparser in choices.items():
        if name == "logs":
            # A group of tools; each record is read in the dialect it was written in.
            tools = next(a for a in subparser._actions if a.dest == "logs_command")
            for tool in tools.choices.values():  # type: ignore[attr-defined]
                assert callable(tool.get_default("handler")), tool.prog
            continue
        defaults = subparser.parse_args([] if name != "diff" else []).__dict__
        assert callable(defaults["handler"]), name
        # upgrade reads legacy targets as TVM 0.21 did and writes the release --to names
        dialect = "--to" if name == "upgrade" else "--dialect"
        assert dialect in subparser.format_help(), name


def test_check_json() -> None:
    code, out, err = cli_main("check", "--json", "--strict", "llvm -num-cores=0x10",
                              "cuda -arhc=1")
    assert (code, err) == (1, "")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {"input": "llvm -num-cores=0x10", "valid": True, "error": None,
                     "warnings": [{"code": "int-hex", "offset": 17, "path": None,
                                   "message": "-num-cores=0x10 is read as 0: TVM reads "
                                              "integers in decimal only"}]}
    assert second["valid"] is False
    assert second["error"]["type"] == "UnknownAttributeError"
    assert second["error"]["offset"] == 6


def test_check_strict_reads_the_dialect() -> None:
    code, _, err = cli_main("check", "--strict", "--dialect", "collage",
                            "cuda -compiler=tensorrt -arch=sm_80")
    assert (code, err) == (0, "")


def test_explain_json_and_several_targets() -> None:
    code, out, _ = cli_main("explain", "--json", "llvm -mcpu=cortex-a72 -mtriple=aarch64-linux-gnu")
    assert code == 0
    tree = json.loads(out)
    assert {a["name"]: a["source"] for a in tree["attrs"]} == {"mcpu": "written",
                                                              "mtriple": "written"}
    code, out, _ = cli_main("explain", stdin="test\ntest\n")
    one = ("test  (legacy text)\n"
           "├─ keys = []               default\n"
           "└─ feature is_test = true  target parser\n")
    assert (code, out) == (0, one + "\n" + one)


def test_explain_environment() -> None:
    code, out, _ = cli_main("explain", "--environment", "no-gpu", "llvm")
    assert out.splitlines()[-1] == '└─ mtriple = "x86_64-unknown-linux-gnu"  environment'


def test_diff_stdin_and_json() -> None:
    code, out, _ = cli_main("diff", "--json", stdin="llvm\nllvm -mcpu=x\n")
    assert code == 1
    assert json.loads(out) == [{"path": "mcpu", "change": "added", "new": "x"}]
    code, _, err = cli_main("diff", stdin="llvm\n")
    assert code == EXIT_USAGE and err == "error: diff compares two targets, not 1\n"


def test_kinds_json_and_unknown() -> None:
    code, out, _ = cli_main("kinds", "--json", "cuda")
    spec = json.loads(out)["cuda"]
    assert spec["default_keys"] == ["cuda", "gpu"]
    assert spec["attrs"]["max_num_threads"] == {"type": "int", "default": 1024}
    code, _, err = cli_main("kinds", "cudaa")
    assert code == EXIT_INVALID and "did you mean 'cuda'" in err


def test_tags_glob_kind_filter_and_json() -> None:
    code, out, _ = cli_main("tags", "nvidia/jetson-*", "--json")
    assert code == 0 and "nvidia/jetson-nano" in json.loads(out)
    code, out, _ = cli_main("tags", "--kind", "llvm")
    assert code == 0
    assert all(line.split()[1] == "llvm" for line in out.splitlines()[1:])
    code, _, err = cli_main("tags", "--kind", "lvm")
    assert code == EXIT_INVALID and "did you mean 'llvm'" in err


def test_schema_dialect() -> None:
    code, out, _ = cli_main("schema", "--dialect", "collage")
    schema = json.loads(out)
    assert "compiler" in schema["$defs"]["cuda"]["properties"]


def test_tvmc_usage_errors() -> None:
    code, _, err = cli_main("tvmc", "cmsis-nn, c", "--target-c-mcpu", "cortex-m55")
    assert code == EXIT_USAGE and "--target-KIND-OPTION=VALUE" in err
    code, _, err = cli_main("tvmc", "c", "--target-lvm-mcpu=x")
    assert code == EXIT_USAGE and "did you mean 'llvm'" in err
    code, _, err = cli_main("parse", "llvm", "--target-llvm-mcpu=x")
    assert code == EXIT_USAGE and "unrecognized arguments" in err


def test_tvmc_stdin_and_options() -> None:
    code, out, _ = cli_main("tvmc", "--target-llvm-mcpu=cortex-a72", stdin="ethos-n, llvm\n")
    assert code == 0
    assert json.loads(out)["target"]["mcpu"] == "cortex-a72"


def test_colour_on_a_terminal_only() -> None:
    _, _, err = cli_main("check", "cuda -arhc=1", tty=True)
    assert err.startswith("\x1b[1;31merror:\x1b[0m ") and err.endswith("\x1b[1;31m^\x1b[0m\n")
    _, _, err = cli_main("check", "cuda -arhc=1", tty=True, environ={"NO_COLOR": "1"})
    assert "\x1b[" not in err
    _, _, err = cli_main("check", "cuda -arhc=1")
    assert "\x1b[" not in err
    _, out, _ = cli_main("diff", "llvm", "c", tty=True)
    assert "\x1b[33m~ kind" in out
    _, out, _ = cli_main("--color=always", "explain", "llvm")
    assert "\x1b[2m" in out
    _, out, _ = cli_main("--color=never", "diff", "llvm", "c", tty=True)
    assert "\x1b[" not in out


def test_help_lists_exit_codes() -> None:
    code, out, _ = cli_main("--help")
    assert code == EXIT_OK
    assert "exit codes:" in out and "NO_COLOR" in out
