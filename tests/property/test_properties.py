"""The guarantees of API.md as Hypothesis properties, over targetlang.strategies.

Profiles (tests/conftest.py): "ci" (default) is fast and derandomized; HYPOTHESIS_PROFILE=fuzz
runs long. `python -m fuzz` runs the same properties as timed campaigns.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden import DATA
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang.strategies import (
    grammar_sentences,
    malformed_strings,
    spellings,
    target_strings,
    targets,
)

any_text = st.one_of(st.text(), target_strings(), malformed_strings(), grammar_sentences())


@given(targets())
def test_text_round_trip(target: tl.Target) -> None:
    """parse(t.to_string(), dialect=t.dialect) == t."""
    assert tl.parse(target.to_string(), dialect=target.dialect) == target


@given(targets())
def test_json_round_trip(target: tl.Target) -> None:
    """from_json(t.to_json(), dialect=t.dialect) == t."""
    assert tl.from_json(target.to_json(), dialect=target.dialect) == target


@given(targets())
def test_to_json_is_plain_json(target: tl.Target) -> None:
    """to_json() survives json.dumps/json.loads unchanged."""
    exported = target.to_json()
    assert json.loads(json.dumps(exported)) == exported


@given(any_text)
def test_canonical_text_is_a_fixed_point(text: str) -> None:
    """parse(s).to_string() is a fixed point."""
    try:
        first = tl.parse(text).to_string()
    except tl.TargetError:
        return
    assert tl.parse(first).to_string() == first


@given(any_text)
def test_any_text_gives_a_target_or_a_target_error(text: str) -> None:
    """parse returns a Target or raises TargetError, whose offset lies within the source."""
    try:
        tl.parse(text)
    except tl.TargetError as err:
        assert err.source == text
        assert err.offset is None or 0 <= err.offset <= len(text)


@given(st.data())
def test_every_spelling_reads_back_as_the_target(data: st.DataObject) -> None:
    """The strategies' contract: spellings(t) are texts of t, in any syntactic variant."""
    target = data.draw(targets())
    assert tl.parse(data.draw(spellings(target))) == target


# ---- re-reading the TVM style ----------------------------------------------------------

def _special(text: str) -> bool:
    return any(c in text for c in " '\\") or text != text.strip(" ")


def tvm_reread_exception(target: tl.Target) -> str | None:
    """The class of TVM's own non-idempotence that ``target`` falls in, or None.

    Each class is confirmed with the oracle in tests/data/tvm-0.21/rereads.jsonl
    (scripts/record_rereads.py): there, TVM 0.21's own str -> Target -> str differs too.
    """
    default_keys = tl.kinds(target.dialect)[target.kind].default_keys
    if not target.keys and default_keys:
        return "empty-keys"
    if "" in target.keys:
        return "empty-key"
    if any(_special(k) or "," in k for k in target.keys):  # keys print raw
        return "key-needs-quoting"
    for value in target.attrs.values():
        if value == "":
            return "dropped-empty-value"
        if isinstance(value, str) and value != value.strip(" "):
            return "string-edge-spaces"
        if isinstance(value, tuple):
            items = [v for v in value if isinstance(v, str)]
            if "" in items:
                return "array-empty-item"
            if any(_special(v) for v in items):
                return "array-item-needs-quoting"
            if len(items) == 1 and "," in items[0]:
                return "array-single-item-with-comma"
    if "-libs=mkldnn" in target.to_string(style="tvm"):
        return "mkldnn-rewrite"
    return None


def _printable(target: tl.Target) -> str | None:
    try:
        return target.to_string(style="tvm")
    except tl.TargetError:  # TVM's str() fails too (composite devices)
        return None


@given(targets())
def test_tvm_style_rereads_idempotently_except_where_tvm_does_not(target: tl.Target) -> None:
    first = _printable(target)
    if first is None:
        return
    exception = tvm_reread_exception(target)
    try:
        second = _printable(tl.parse(first))
    except tl.TargetError:
        assert exception is not None, first
        return
    assert second == first or exception is not None, (first, second)


def _rereads() -> list[dict[str, Any]]:
    with open(DATA / "rereads.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("row", _rereads(), ids=lambda r: r["class"])
def test_tvm_style_rereads_as_tvm_does(row: dict[str, Any]) -> None:
    """On the recorded cases, our str -> Target -> str is TVM's, exceptions included."""
    env = tl.Environment.no_gpu()
    target = tl.parse(row["input"], environment=env)
    printed = target.to_string(style="tvm")
    assert printed == row["str"]
    if not row["reread_ok"]:
        with pytest.raises(tl.TargetError):
            tl.parse(printed, environment=env)
        return
    assert tl.parse(printed, environment=env).to_string(style="tvm") == row["reread_str"]
    if row["class"] != "idempotent":
        assert tvm_reread_exception(target) == row["class"]


def test_every_allowed_exception_is_confirmed_by_tvm() -> None:
    confirmed = {r["class"] for r in _rereads()
                 if r["class"] != "idempotent" and (not r["reread_ok"] or r["reread_str"] != r["str"])}
    allowed = {"empty-keys", "empty-key", "key-needs-quoting", "dropped-empty-value",
               "string-edge-spaces", "array-empty-item", "array-item-needs-quoting",
               "array-single-item-with-comma", "mkldnn-rewrite"}
    assert allowed == confirmed


@given(target_strings(dialect="tvm-0.6", max_host_depth=0))
def test_target_strings_of_a_dialect_without_tags(text: str) -> None:
    """tvm-0.6 has no tags: its strings are drawn all the same, and read back in it."""
    assert tl.parse(text, dialect="tvm-0.6").dialect == "tvm-0.6"
