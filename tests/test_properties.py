"""The three guarantees of API.md, as Hypothesis properties."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis.extra.lark import from_lark

import targetlang as tl
from lark import Lark

from targetlang._grammar import grammar_text
from strategies import any_text, targets


@given(targets())
def test_text_round_trip(target: tl.Target) -> None:
    """Guarantee 1: parse(t.to_string(), dialect=t.dialect) == t."""
    assert tl.parse(target.to_string(), dialect=target.dialect) == target


@given(targets())
def test_json_round_trip(target: tl.Target) -> None:
    """Guarantee 1: from_json(t.to_json(), dialect=t.dialect) == t, through plain JSON too."""
    assert tl.from_json(target.to_json(), dialect=target.dialect) == target
    plain = json.loads(json.dumps(target.to_json()))
    assert plain == target.to_json()
    assert tl.from_json(plain, dialect=target.dialect) == target


@given(any_text)
def test_canonical_text_is_a_fixed_point(text: str) -> None:
    """Guarantee 2: parse(s).to_string() is a fixed point."""
    try:
        first = tl.parse(text).to_string()
    except tl.TargetError:
        return
    assert tl.parse(first).to_string() == first


@given(any_text)
def test_any_text_gives_a_target_or_a_target_error(text: str) -> None:
    """Guarantee 3: nothing but TargetError, with an offset inside the source."""
    try:
        tl.parse(text)
    except tl.TargetError as err:
        assert err.source == text
        assert err.offset is None or 0 <= err.offset <= len(text)


@given(from_lark(Lark(grammar_text(), parser="lalr"), start="start"))
def test_grammar_sentences_give_a_target_or_a_target_error(text: str) -> None:
    """Every sentence of grammar/target.lark is read without any other exception."""
    try:
        tl.parse(text)
    except tl.TargetError as err:
        assert err.offset is None or 0 <= err.offset <= len(text)
