"""API promises the fuzzers once found broken, and nothing but TargetError whatever the input."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._lower.core import MAX_JSON_DEPTH, MAX_TARGET_DEPTH, json_depth_exceeds
from targetlang.errors import show, type_name

HUGE = "1" * 4301


def test_calling_target_like_tvm_gets_the_same_hint_as_target() -> None:
    for args in [(), ("cuda -arch=sm_80",), ("cuda", "llvm")]:
        with pytest.raises(TypeError, match=r"targetlang\.parse\(\) or targetlang\.from_json"):
            tl.Target(*args)


def test_a_feature_not_derived_reads_as_none_in_both_views() -> None:
    features = tl.parse("c -mcpu=cortex-m55").features
    assert features["has_sve"] is None and features.has_sve is None
    assert features["has_mve"] is True and features.has_mve is True
    assert "has_sve" not in features and "has_mve" in features
    assert dict(features) == {"has_dsp": True, "has_mve": True}
    assert features.get("has_sve", 5) == 5


def test_lint_suggests_a_feature_name_no_kind_derives() -> None:
    text = '{"kind": "llvm", "feature.has_mev": true, "feature.has_mve": false}'
    warnings = tl.lint(text, dialect="tvm-0.27")
    assert [w.code for w in warnings] == ["unknown-feature"]
    assert "'has_mve'" in warnings[0].message and warnings[0].offset == text.index("has_mev")


def test_lint_reads_tvm_06_text() -> None:
    assert tl.lint("llvm -target=aarch64-linux-gnu", dialect="tvm-0.6") == []


def test_one_wording_for_types() -> None:
    assert [type_name(v) for v in (None, True, 1, 1.5, "s", [], (), {})] == \
        ["null", "bool", "int", "float", "string", "array", "array", "object"]
    with pytest.raises(tl.AttributeTypeError, match="not string"):
        tl.from_json({"kind": "cuda", "keys": "cuda"})
    with pytest.raises(tl.AttributeTypeError, match="must be a string, not array"):
        tl.from_json({"kind": ["cuda"]})


@pytest.mark.parametrize("call", [
    lambda: tl.parse("llvm -opt-level=" + HUGE),
    lambda: tl.lint("llvm -opt-level=" + HUGE),
    lambda: tl.migrate("llvm -opt-level=" + HUGE),
    lambda: tl.detect_dialect("llvm -opt-level=" + HUGE),
    lambda: tl.parse_tvmc("mrvl -num_tiles=" + HUGE + ", llvm"),
    lambda: tl.from_json({"kind": "cuda", "model": 10**4301}),
    lambda: tl.from_json({"kind": "cuda", "max_num_threads": 10**4301}),
    lambda: tl.parse("llvm -opt-level=9223372036854775808"),
], ids=["parse", "lint", "migrate", "detect", "tvmc", "json-str", "json-int", "int64+1"])
def test_huge_integers_are_attribute_type_errors(call: object) -> None:
    with pytest.raises(tl.AttributeTypeError):
        call()  # type: ignore[operator]


def test_integers_read_as_tvm_reads_them() -> None:
    # istream >> int64_t: leading zeros do not count, int64 is the range (TVM 0.21 oracle).
    assert tl.parse("llvm -opt-level=" + "0" * 5000 + "3").attrs["opt-level"] == 3
    assert tl.parse("llvm -opt-level=9223372036854775807").attrs["opt-level"] == 2**63 - 1
    assert tl.parse("llvm -opt-level=-9223372036854775808").attrs["opt-level"] == -(2**63)


def test_show_never_raises() -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert "digits" in show(10**5000) and show(deep) == "<array of 1 items>"
    assert len(show("x" * 10**6)) < 100


# ---- nesting: a documented limit, the same from any caller ----------------------------------

def _host_chain(levels: int) -> dict[str, object]:
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(levels - 1):
        config = {"kind": "llvm", "host": config}
    return config


def _at_stack_depth(frames: int, call: Callable[[], object]) -> str:
    """``call()`` run ``frames`` frames below here: "ok", or the TargetError's message."""
    if frames > 0:
        return _at_stack_depth(frames - 1, call)
    try:
        call()
    except tl.TargetError as error:
        return error.message
    return "ok"


def _room() -> int:
    """Frames left below the caller: how deep the calls below may start."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back  # type: ignore[assignment]
    return sys.getrecursionlimit() - depth


@pytest.mark.parametrize("levels", [MAX_TARGET_DEPTH, MAX_TARGET_DEPTH + 1])
def test_nesting_limit_is_the_same_from_any_stack_depth(levels: int) -> None:
    as_text = json.dumps(_host_chain(levels))
    as_dict = _host_chain(levels)
    calls = {"parse": lambda: tl.parse(as_text), "from_json": lambda: tl.from_json(as_dict),
             "lint": lambda: tl.lint(as_text), "migrate": lambda: tl.migrate(as_text),
             "detect": lambda: tl.detect_dialect(as_text)}
    for name, call in calls.items():
        deep = _at_stack_depth(_room() - 40, call)  # asked first, a few frames from the limit
        top = _at_stack_depth(0, call)  # then again at the top: the memo must not remember
        assert deep == top, name
        assert (top == "ok") == (levels <= MAX_TARGET_DEPTH), (name, top)
        if levels > MAX_TARGET_DEPTH:
            assert f"more than {MAX_TARGET_DEPTH} deep" in top, (name, top)


def test_json_nesting_limit_is_explicit() -> None:
    for text in ['{"kind": "llvm", "libs": ' + "[" * 300 + "]" * 300 + "}",
                 '{"kind": "llvm", "libs": ' + "[" * 100_000]:
        with pytest.raises(tl.TargetSyntaxError, match=f"more than {MAX_JSON_DEPTH} levels"):
            tl.parse(text)
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(tl.TargetSyntaxError, match=f"more than {MAX_JSON_DEPTH} levels"):
        tl.from_json({"kind": "llvm", "libs": deep})


def _nesting_by_characters(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings, one character at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


@given(st.text(alphabet='[]{}"\\ab,:', max_size=60), st.integers(0, 8))
def test_the_json_depth_check_agrees_with_a_character_loop(text: str, limit: int) -> None:
    assert json_depth_exceeds(text, limit) == (_nesting_by_characters(text) > limit)


def test_a_long_json_string_is_checked_in_linear_time() -> None:
    # One step per run of plain characters: a 1 MB value costs what a short one does, per byte.
    assert not json_depth_exceeds(json.dumps({"kind": "llvm", "mcpu": "[" * 1_000_000}))


def test_a_host_cannot_push_a_target_past_the_limit() -> None:
    deepest = tl.from_json(_host_chain(MAX_TARGET_DEPTH))
    with pytest.raises(tl.TargetSyntaxError, match="nested more than"):
        tl.parse("cuda").with_host(deepest)


# ---- the memo keeps texts of ordinary size only ---------------------------------------------

def test_the_memo_keeps_no_huge_text() -> None:
    from targetlang._memo import ORDINARY_CHARS
    from targetlang.target import DEFAULT_DIALECT, _parse_memo

    _parse_memo.clear()
    ordinary = "llvm -mcpu=" + "x" * (ORDINARY_CHARS - 20)
    huge = ["llvm -mcpu=" + str(i) + "x" * 1_000_000 for i in range(3)]
    assert tl.parse(ordinary) == tl.parse(ordinary)  # memoized
    assert tl.parse(ordinary) is tl.parse(ordinary)  # (its Target kept, from its second read)
    for text in huge:
        assert tl.parse(text) == tl.parse(text)
        with pytest.raises(tl.TargetError):
            tl.parse(text + " -arhc=1")
    assert len(_parse_memo) == 1 and len(_parse_memo.get(DEFAULT_DIALECT)) == 1


# ---- found by scripts/adversarial.py ---------------------------------------------------------

def test_lint_and_explain_read_a_release_dialect_text_as_its_reader_does() -> None:
    from targetlang._inspect.explain import explain

    # TVM 0.8 handed the text to C++ as a C string, which a NUL ends (its FFI lasted up to
    # 0.19, whose oracle reads "llvm -mcpu=a\0b -mattr=+neon" as "llvm -mcpu=a").
    text = "llvm -mcpu=a\x00b"
    assert tl.parse(text, dialect="tvm-0.8").attrs["mcpu"] == "a"
    assert [w.code for w in tl.lint(text, dialect="tvm-0.8")] == ["nul"]
    assert explain(text, dialect="tvm-0.8")["kind"] == "llvm"
    for read in (tl.parse, tl.lint, explain):  # "llvm -mcpu=": an empty value, for all three
        with pytest.raises(tl.TargetSyntaxError):
            read("llvm -mcpu=\x00", dialect="tvm-0.8")


@pytest.mark.parametrize("value", [{"a": 1}, 10**5000, [[1]], None, [{"a": [1]}]],
                         ids=["dict", "huge-int", "nested-list", "null", "list-of-dict"])
def test_parse_tvmc_options_take_only_what_tvmc_gave(value: object) -> None:
    with pytest.raises(tl.AttributeTypeError, match="must be a string, a number, a bool"):
        tl.parse_tvmc("llvm", {"llvm": {"mcpu": value}})


def test_explain_reads_tvm_06_keys_without_quotes() -> None:
    from targetlang._inspect.explain import explain

    text = "vulkan -keys=a'b,c"  # TVM 0.6 split -keys on commas; a quote is a character
    target = tl.parse(text, dialect="tvm-0.6")
    node = explain(text, dialect="tvm-0.6")
    assert [k["key"] for k in node["keys"]] == list(target.keys)
    assert tl.lint(text, dialect="tvm-0.6") is not None
