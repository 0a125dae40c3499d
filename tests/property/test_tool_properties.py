"""Guarantee 3 for the tools built on parse: lint, explain, diff, parse_tvmc and the JSON Schema
see any text whatsoever and answer, or raise a TargetError with a sane offset."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._inspect.diff import diff
from targetlang._inspect.explain import explain, render
from targetlang.strategies import malformed_strings, target_strings, targets
from targetlang.tvmc import codegens, read_entries

any_text = st.one_of(st.text(), target_strings(), malformed_strings())


def _sane(err: tl.TargetError, text: str) -> None:
    assert err.offset is None or 0 <= err.offset <= len(text)
    assert str(err)


@given(any_text)
def test_lint_and_explain_answer_or_raise_target_error(text: str) -> None:
    try:
        warnings = tl.lint(text)
    except tl.TargetError as err:
        _sane(err, text)
        return
    for warning in warnings:
        assert warning.source == text
        assert warning.offset is None or 0 <= warning.offset <= len(text)
    tree = explain(text)
    assert render(tree).startswith(tree["kind"])
    json.dumps(tree)


@given(targets(), targets())
def test_diff_is_empty_exactly_for_equal_targets(a: tl.Target, b: tl.Target) -> None:
    assert (diff(a, b) == []) == (a == b)
    assert diff(a, a) == []


def _entries() -> st.SearchStrategy[str]:
    names = st.sampled_from([*codegens(), *tl.kinds(), "nvidia/jetson-nano", "foo"])
    value = st.one_of(st.text(alphabet="ab1+-.,=/ '\"", min_size=0, max_size=8),
                      st.sampled_from(["'a b'", '"x, y"', "1", "true"]))
    option = st.tuples(st.sampled_from(["-", "--", "---"]),
                       st.sampled_from(["mcpu", "mattr", "accelerator_config", "num_tiles",
                                        "enable_cascader", "host", "libs", ""]),
                       st.one_of(st.none(), value)).map(
        lambda o: o[0] + o[1] + ("" if o[2] is None else "=" + o[2]))
    entry = st.tuples(names, st.lists(option, max_size=3)).map(lambda e: " ".join([e[0], *e[1]]))
    return st.lists(entry, min_size=1, max_size=4).flatmap(
        lambda es: st.sampled_from([", ", ",", " , "]).map(lambda sep: sep.join(es)))


@given(st.one_of(st.text(), _entries()))
def test_parse_tvmc_answers_or_raises_target_error(text: str) -> None:
    try:
        result = tl.parse_tvmc(text)
    except tl.TargetError as err:
        _sane(err, text)
        return
    assert result.target.host == result.host
    if not text.strip().startswith("{"):
        names = [e.name for e in read_entries(text)]
        assert [c.name for c in result.codegens] == [n for n in names if n in codegens()]
    json.dumps(result.to_json())
