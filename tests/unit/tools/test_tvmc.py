"""tvmc's multi-target syntax: parse_tvmc against what tvmc's own parser produced.

tests/data/tvmc/golden.jsonl was recorded by scripts/record_tvmc_goldens.py, which ran tvmc's
``target.py`` (TVM v0.18.0) inside the TVM 0.21 oracle; this file replays it without TVM.
Cases where targetlang deliberately differs carry a ``divergence`` in cases.json saying why
and what targetlang gives instead.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from conftest import REPO
from lark import Lark

import targetlang
from targetlang import Environment, TargetError, parse_tvmc
from targetlang.tvmc import codegens, parse_tvmc_args, read_entries, split_kind_option

DATA = REPO / "tests" / "data" / "tvmc"
NO_GPU = Environment.no_gpu()


@cache
def cases() -> list[dict[str, Any]]:
    recorded = [json.loads(line) for line in (DATA / "golden.jsonl").read_text("utf-8").splitlines()]
    written = json.loads((DATA / "cases.json").read_text("utf-8"))
    assert [c["text"] for c in written] == [r["text"] for r in recorded]
    return [{**w, **r} for w, r in zip(written, recorded)]


def _id(case: dict[str, Any]) -> str:
    return case["text"] + (" +options" if case["options"] else "")


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_entries_match_tvmc_parse_target(case: dict[str, Any]) -> None:
    divergence = case.get("divergence") or {}
    if "entries" in divergence:
        expected = [tuple(e) for e in divergence["entries"]]
    elif "parse_target" in case:
        expected = [(e["name"], e["opts"]) for e in case["parse_target"]]
    else:  # tvmc crashed on text that is not a target list: so do we, with a TargetError
        with pytest.raises(TargetError):
            read_entries(case["text"])
        return
    if case["text"].startswith("{"):
        return  # JSON is not a list of entries (parse_tvmc reads it as one target)
    assert [(e.name, e.opts()) for e in read_entries(case["text"])] == expected


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_parse_tvmc_matches_tvmc_target_from_cli(case: dict[str, Any]) -> None:
    divergence = case.get("divergence")
    expected = divergence["expected"] if divergence else None
    if expected is not None and "error" in expected or expected is None and "cli_error" in case:
        with pytest.raises(TargetError) as caught:
            parse_tvmc(case["text"], case["options"], environment=NO_GPU)
        if expected is not None:
            assert type(caught.value).__name__ == expected["error"]
        return
    result = parse_tvmc(case["text"], case["options"], environment=NO_GPU)
    if expected is not None:
        assert result.codegens == [tuple(c) for c in expected["codegens"]]
        target = targetlang.parse(expected["target"], environment=NO_GPU)
        assert result.target == target
        host = expected["host"]
        assert result.host == (None if host is None else targetlang.parse(host, environment=NO_GPU))
        return
    tvmc = case["target_from_cli"]
    assert result.codegens == [(e["name"], e["opts"]) for e in tvmc["extras"]]
    assert result.target.to_json() == tvmc["target"]
    assert (result.host.to_json() if result.host else None) == tvmc["host"]
    assert result.target.to_string("tvm") == tvmc["target_str"]


def test_every_divergence_is_one_tvmc_got_wrong_or_refused_later() -> None:
    for case in CASES:
        if case.get("divergence"):
            assert case["divergence"]["why"]
            # tvmc gave something else: a crash, a refusal or a different reading.
            assert "cli_error" in case or "target_from_cli" in case


def test_the_issues_example() -> None:
    result = parse_tvmc("ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c")
    assert result.codegens == [("ethos-u", {"accelerator_config": "ethos-u55-256"}),
                               ("cmsis-nn", {})]
    assert result.target == targetlang.parse("c")
    assert result.host is None


def test_target_and_host_with_per_kind_options() -> None:
    result = parse_tvmc("opencl -device=mali, llvm -mtriple=aarch64-linux-gnu",
                        {"llvm": {"mcpu": "cortex-a72"}})
    assert result.target.attrs["device"] == "mali"
    assert result.host == targetlang.parse("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72")
    assert result.target.host == result.host


def test_quoted_values_with_commas_and_spaces() -> None:
    result = parse_tvmc("""vitis-ai -dpu="DPU, v2" -work_dir='/a b/c', llvm -libs="cudnn,cublas" """)
    assert result.codegens == [("vitis-ai", {"dpu": "DPU, v2", "work_dir": "/a b/c"})]
    assert result.target.attrs["libs"] == ("cudnn", "cublas")


def test_values_with_quotes_backslashes_and_spaces_reach_the_target_exactly() -> None:
    result = parse_tvmc("""llvm -mcpu="it's a \\cpu" -mattr='+a b,+c'""")
    assert result.target.attrs["mcpu"] == "it's a \\cpu"
    assert result.target.attrs["mattr"] == ("+a b", "+c")


def test_codegen_options_are_typed() -> None:
    result = parse_tvmc("mrvl -num_tiles=4 -mcpu=cnf10kb, ethos-u --enable_cascader "
                        "-enable_striping=false, compute-library -disabled_ops=concatenate,add, llvm")
    assert result.codegens == [
        ("mrvl", {"num_tiles": 4, "mcpu": "cnf10kb"}),
        ("ethos-u", {"enable_cascader": True, "enable_striping": False}),
        ("compute-library", {"disabled_ops": ["concatenate", "add"]}),
    ]


def test_error_last_entry_is_a_codegen() -> None:
    with pytest.raises(targetlang.TargetValueError) as caught:
        parse_tvmc("c, ethos-u")
    assert str(caught.value) == ("the last entry must be a TVM target, not the codegen 'ethos-u'\n"
                                 "    c, ethos-u\n"
                                 "       ^")


def test_error_a_comma_glued_to_a_value_says_so() -> None:
    with pytest.raises(targetlang.TargetValueError, match="write ', c' to start an entry"):
        parse_tvmc("cmsis-nn -mcpu=cortex-m55,c")


def test_error_three_tvm_targets_points_at_the_third() -> None:
    with pytest.raises(targetlang.TargetValueError) as caught:
        parse_tvmc("cuda, opencl, llvm")
    assert caught.value.offset == len("cuda, opencl, ")


def test_error_duplicate_entry() -> None:
    with pytest.raises(targetlang.TargetValueError, match="'llvm' appears twice") as caught:
        parse_tvmc("llvm, ethos-u, llvm")
    assert caught.value.offset == len("llvm, ethos-u, ")


def test_error_unknown_name_suggests() -> None:
    with pytest.raises(targetlang.UnknownKindError, match="did you mean 'ethos-u'"):
        parse_tvmc("ethos_u, c")


def test_error_unknown_codegen_option_suggests() -> None:
    with pytest.raises(targetlang.UnknownAttributeError,
                       match="did you mean 'accelerator_config'") as caught:
        parse_tvmc("ethos-u -accelerator-config=ethos-u55-256, c")
    assert caught.value.offset == len("ethos-u -")


def test_error_codegen_option_type() -> None:
    with pytest.raises(targetlang.AttributeTypeError) as caught:
        parse_tvmc("mrvl -num_tiles=four, llvm")
    assert caught.value.offset == len("mrvl -num_tiles=")


def test_error_in_a_tvm_target_points_into_the_list() -> None:
    with pytest.raises(targetlang.UnknownAttributeError) as caught:
        parse_tvmc("ethos-u, c -mcpx=cortex-m55")
    assert str(caught.value).endswith("    ethos-u, c -mcpx=cortex-m55\n"
                                      "                ^")


def test_error_in_a_value_inside_quotes_points_at_it() -> None:
    with pytest.raises(targetlang.UnknownKindError) as caught:
        parse_tvmc("cuda -host='lvm -mcpu=x'")
    assert caught.value.offset == len("cuda -host='")


def test_error_per_kind_option_is_named() -> None:
    with pytest.raises(targetlang.UnknownAttributeError, match="given as --target-llvm-mcpx"):
        parse_tvmc("llvm", {"llvm": {"mcpx": "a"}})


def test_error_per_kind_option_for_a_missing_entry() -> None:
    with pytest.raises(targetlang.TargetValueError, match="names no 'opencl'"):
        parse_tvmc("llvm", {"opencl": {"max_num_threads": 404}})


def test_error_per_kind_option_conflicts_with_the_text() -> None:
    with pytest.raises(targetlang.DuplicateAttributeError):
        parse_tvmc("llvm -mcpu=a", {"llvm": {"mcpu": "b"}})
    assert parse_tvmc("llvm -mcpu=a", {"llvm": {"mcpu": "a"}}).target.attrs["mcpu"] == "a"


def test_error_target_with_host_and_a_second_target() -> None:
    with pytest.raises(targetlang.TargetValueError, match="already has a host"):
        parse_tvmc("cuda -host=llvm, c")


@pytest.mark.parametrize(("text", "offset", "message"), [
    ("", 0, "empty target list"),
    ("llvm,", 5, "after ','"),
    (",llvm", 0, "before ','"),
    ("llvm -mcpu", 10, "needs a value"),
    ("llvm -mcpu x", 11, "writes a value with '='"),
    ("llvm -mcpu=", 11, "empty value"),
    ("llvm ---mcpu=x", 5, "3 dashes"),
    ("llvm -=x", 6, "empty option name"),
    ("llvm -mattr='+neon", 12, "mismatched quote"),
    ('llvm -mattr="+neon', 12, "mismatched quote"),
    ("llvm=3", 4, "unexpected '='"),
    ("llvm -mcpu'x'", 10, "quotes belong in a value"),
    ("'llvm'", 0, "quotes belong in a value"),
    ("-mcpu=x, llvm", 0, "before the option"),
])
def test_error_syntax(text: str, offset: int, message: str) -> None:
    with pytest.raises(targetlang.TargetSyntaxError, match=message) as caught:
        parse_tvmc(text)
    assert caught.value.offset == offset


def test_json_target() -> None:
    result = parse_tvmc('{"kind": "cuda", "arch": "sm_80", "host": "llvm"}')
    assert result.codegens == []
    assert result.host == targetlang.parse("llvm")


def test_registered_tag_as_target_and_with_a_host() -> None:
    result = parse_tvmc("ethos-n, nvidia/nvidia-v100, llvm")
    assert result.target.attrs["arch"] == "sm_70"
    assert result.host == targetlang.parse("llvm")
    with pytest.raises(targetlang.TargetValueError, match="takes no options"):
        parse_tvmc("nvidia/nvidia-v100 -arch=sm_80")


def test_dialect_reaches_the_tvm_targets() -> None:
    result = parse_tvmc("ethos-u, cuda -compiler=tensorrt", dialect="collage")
    assert result.target.attrs["compiler"] == "tensorrt"
    assert result.target.dialect == "collage"


def test_to_json_and_equality() -> None:
    a = parse_tvmc("ethos-u -accelerator_config=ethos-u55-256, c")
    b = parse_tvmc("ethos-u  --accelerator_config='ethos-u55-256' ,c")
    assert a == b and hash(a) == hash(b)
    assert a.to_json() == {"codegens": [{"name": "ethos-u",
                                         "options": {"accelerator_config": "ethos-u55-256"}}],
                           "target": targetlang.parse("c").to_json()}
    assert "ethos-u" in repr(a)


def test_per_kind_option_words() -> None:
    assert split_kind_option("--target-llvm-mcpu=cortex-a72") == ("llvm", "mcpu", "cortex-a72")
    assert split_kind_option("--target-cmsis-nn-mcpu=x") == ("cmsis-nn", "mcpu", "x")
    assert split_kind_option("--target-llvm-opt-level") == ("llvm", "opt-level", None)
    assert split_kind_option("--target-ethos-n77-variant=a b") == ("ethos-n77", "variant", "a b")
    with pytest.raises(targetlang.UnknownKindError):
        split_kind_option("--target-lvm-mcpu=x")
    with pytest.raises(targetlang.TargetSyntaxError):
        split_kind_option("--targetllvm")


def test_tvmc_arguments() -> None:
    argv = ["--target=opencl, llvm", "--target-llvm-mtriple", "aarch64-linux-gnu",
            "--target-opencl-device=adreno"]
    text, options = parse_tvmc_args(argv)
    assert text == "opencl, llvm"
    assert options == {"llvm": {"mtriple": "aarch64-linux-gnu"}, "opencl": {"device": "adreno"}}
    result = parse_tvmc(text, options)
    assert result.target.keys[0] == "adreno"
    assert parse_tvmc_args(["--target", "c"]) == ("c", {})
    with pytest.raises(TargetError):
        parse_tvmc_args(["--output=x"])
    with pytest.raises(TargetError):
        parse_tvmc_args(["--target"])


def test_codegen_facts_come_from_tvm() -> None:
    table = codegens()
    assert {"ethos-n", "ethos-u", "cmsis-nn", "vitis-ai", "clml", "mrvl", "compute-library",
            "bnns"} <= set(table)
    assert table["ethos-u"].options["accelerator_config"].default == "ethos-u55-256"
    assert table["mrvl"].options["num_tiles"].type == "int"
    assert table["mrvl"].default_target == "llvm"
    assert table["clml"].open and not table["bnns"].open
    assert table["ethos-u"].releases == ("v0.8.0", "v0.18.0")


def test_tvmc_grammar_is_strict_lalr() -> None:
    from targetlang._syntax.grammar import grammar_text

    text = grammar_text("tvmc.lark")
    Lark(text, parser="lalr", lexer="contextual", strict=True, start=["targets", "kind_option"])


def test_module_examples() -> None:
    import doctest

    import targetlang.tvmc

    assert doctest.testmod(targetlang.tvmc).failed == 0


def test_bad_python_arguments_are_type_errors() -> None:
    with pytest.raises(TypeError):
        parse_tvmc(b"llvm")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_tvmc("llvm", {"llvm": "mcpu=x"})  # type: ignore[dict-item]
