"""targetlang.lint: the legacy traps TVM accepted silently (``check --strict``)."""

from __future__ import annotations

import pytest
from golden import records

import targetlang
from targetlang import Environment, LintWarning, TargetError, lint


def codes(text: str) -> list[tuple[str, int | None]]:
    return [(w.code, w.offset) for w in lint(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("llvm -opt-level=3x", [("int-suffix", 17)]),
    ("llvm -opt-level=3.5", [("int-suffix", 17)]),
    ("llvm -num-cores=0x10", [("int-hex", 17)]),
    ("llvm -opt-level=true", [("int-word", 16)]),
    ("llvm -fast-math=2", [("bool-range", 16)]),
    ("llvm -fast-math=-1", [("bool-range", 16)]),
    ("llvm -fast-math=2x", [("bool-range", 16), ("int-suffix", 17)]),
    ("llvm -mcpu", [("bare-flag", 5)]),
    ("llvm -num-cores", [("bare-flag", 5)]),
    ("cuda -keys=cuda,gpuu", [("unknown-value", 16)]),
    ("cuda -libs=cudnn,cublass", [("unknown-value", 17)]),
    ("opencl -device=adreeno", [("unknown-value", 15)]),
    ("cuda -arch=sm_x", [("arch-format", 11)]),
    ("nvptx -mcpu=sm_x", [("arch-format", 12)]),
    ("rocm -mcpu=gfxq", [("arch-format", 11)]),
    ("llvm -libs=mkldnn,cblas", [("mkldnn", 11)]),
    ("llvm -mcpu=a\0b", [("nul", 12)]),
    ("cuda -host='llvm -opt-level=2x'", [("int-suffix", 29)]),
    ("composite --host=llvm --devices='llvm -fast-math=3',cuda", [("bool-range", 49)]),
    ("llvm -mattr=+neon,+dotprod -mtriple=aarch64-linux-gnu -opt-level=3 -fast-math", []),
    ("nvidia/jetson-nano", []),
    ("opencl -device=mali -keys=mali,opencl,gpu -libs=cublas", []),
])
def test_warnings(text: str, expected: list[tuple[str, int | None]]) -> None:
    assert codes(text) == expected


def test_messages_say_what_tvm_read() -> None:
    [w] = lint("llvm -opt-level=3x")
    assert w.message == "-opt-level=3x is read as 3: TVM ignores 'x' after the number"
    assert str(w) == ("-opt-level=3x is read as 3: TVM ignores 'x' after the number\n"
                      "    llvm -opt-level=3x\n"
                      "                     ^")
    [w] = lint("llvm -num-cores=0x10")
    assert w.message == "-num-cores=0x10 is read as 0: TVM reads integers in decimal only"
    [w] = lint("llvm -keys=arm-cpu,cpu")
    assert "did you mean 'arm_cpu'?" in w.message


def test_json_warnings_have_paths() -> None:
    warnings = lint('{"kind": "llvm", "fast-math": 2, "keys": ["cpu", "arm-cpu"], '
                    '"host": {"kind": "llvm", "libs": ["cudnnn"]}}')
    assert [(w.code, w.offset, w.path) for w in warnings] == [
        ("bool-range", None, "fast-math"),
        ("unknown-value", None, "keys[1]"),
        ("unknown-value", None, "host.libs[0]"),
    ]
    assert str(warnings[0]).endswith("(at fast-math)\n    " + warnings[0].source)  # type: ignore[operator]


def test_invalid_text_raises_its_error() -> None:
    with pytest.raises(targetlang.UnknownAttributeError):
        lint("cuda -arhc=sm_80")


def test_dialect_and_environment() -> None:
    assert lint("cuda -compiler=tensorrt", dialect="collage") == []
    assert lint("llvm", environment=Environment.no_gpu()) == []
    with pytest.raises(ValueError, match="unknown dialect"):
        lint("llvm", dialect="tvm-9")


def test_warning_is_a_value() -> None:
    a, b = lint("llvm -mcpu")[0], lint("llvm -mcpu")[0]
    assert isinstance(a, LintWarning) and a == b and hash(a) == hash(b)


def test_golden_targets_lint_without_crashing() -> None:
    # Guarantee 3, for lint: a TargetError or a list of warnings, nothing else (the large
    # generated categories are left to tests/property/test_tool_properties.py); TopHub's strings and
    # TVM's tags are clean.
    noisy = 0
    for record in records():
        if record["category"] in ("kind-attr", "generated"):
            continue
        try:
            warnings = lint(record["input"], environment=Environment.no_gpu())
        except TargetError:
            assert not record["ok"]
            continue
        for warning in warnings:
            assert warning.offset is None or 0 <= warning.offset <= len(record["input"])
        if record["category"] in ("tophub", "tags") and warnings:
            noisy += 1
    assert noisy == 0
