"""The grammar file itself: installed with the package, conflict-free under strict checks."""

from __future__ import annotations

from lark import Lark

from targetlang._syntax.grammar import grammar_text, parse_target_text


def test_grammar_is_strict_lalr() -> None:
    """No shift/reduce conflicts and no colliding terminals (needs lark[interegular])."""
    Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)


def test_grammar_shapes_options() -> None:
    syntax = parse_target_text("  cuda  -arch=sm_80 --libs 'a b' -flag -x=y=z ")
    assert syntax.kind.text == "cuda"
    assert syntax.kind.offset == 2
    shapes = [(o.key, o.value.text if o.value else None, o.form) for o in syntax.options]
    assert shapes == [("arch", "sm_80", "assign"), ("libs", "'a b'", "spaced"),
                      ("flag", None, "flag"), ("x", "y=z", "assign")]


def test_only_space_separates_words() -> None:
    syntax = parse_target_text("llvm -mcpu=a\tb\n-c")
    assert [o.value.text for o in syntax.options if o.value] == ["a\tb\n-c"]


def test_quotes_and_escapes_keep_a_word_together() -> None:
    syntax = parse_target_text("llvm -a='x y' -b=\\ z -c='it\\'s ok'")
    assert [o.value.text for o in syntax.options if o.value] == ["'x y'", "\\ z", "'it\\'s ok'"]


# ---- the fast path must read exactly what the LALR parser reads ---------------------------

import pytest  # noqa: E402
from golden import records  # noqa: E402
from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from targetlang._syntax.grammar import _fast_parse, parse_with_lark  # noqa: E402
from targetlang.strategies import grammar_sentences, malformed_strings, target_strings  # noqa: E402


@given(st.one_of(st.text(), st.text(alphabet=" -='\\,ab"), st.text(alphabet=" -=,ab\t"),
                 target_strings(), malformed_strings(), grammar_sentences()))
def test_fast_path_agrees_with_the_lalr_parser(text: str) -> None:
    fast = _fast_parse(text)
    if fast is not None:
        assert fast == parse_with_lark(text)


def test_fast_path_agrees_on_the_golden_corpus_and_takes_the_valid_texts() -> None:
    taken = valid = 0
    for record in records():
        text = record["input"]
        fast = _fast_parse(text)
        if fast is not None:
            assert fast == parse_with_lark(text), text
        if record["ok"] and not text.startswith("{") and "/" not in text.split(" ")[0]:
            valid += 1
            taken += fast is not None
    assert taken >= 0.99 * valid


# ---- the other fast paths ---------------------------------------------------------------

from targetlang._lower import core as _lower  # noqa: E402
from targetlang._lower.dialects import load  # noqa: E402
from targetlang._schema.types import parse_type  # noqa: E402
from targetlang.target import _parse_uncached  # noqa: E402

_WORDS = st.one_of(st.text(alphabet="0123456789-+x,ab' \\", max_size=12),
                   st.from_regex(r"[0-9]{1,25}", fullmatch=True), st.text(max_size=8))


@given(_WORDS, st.sampled_from(["str", "int", "bool", "array<str>"]))
@example(" a", "str")
@example("a ,b", "array<str>")
@example("'a b '", "str")
def test_plain_values_equal_tvm_rules(raw: str, spelling: str) -> None:
    type_ = parse_type(spelling)
    fast = _lower.plain_value(raw, type_)
    if fast is _lower._NOT_PLAIN:
        return
    ctx = _lower.Context(load("tvm-0.21"), None, raw)
    assert fast == _lower.value_from_text(raw, type_, ctx, _lower.Place(), 0, "x")
    assert type(fast) is type(_lower.value_from_text(raw, type_, ctx, _lower.Place(), 0, "x"))


@pytest.mark.parametrize(("alphabet", "spelling"), [
    ("a' ,\\", "array<str>"), ("a' ,\\", "str"), ("1x+- '\\", "int"), ("1x0- '\\", "bool")])
def test_plain_values_equal_tvm_rules_on_every_short_text(alphabet: str, spelling: str) -> None:
    """Every text of up to 6 characters over the alphabet: the one-pass reader's value (or
    its hand-over, where TVM refuses) is value_from_text's."""
    import itertools

    import targetlang as tl

    type_ = parse_type(spelling)
    ctx = _lower.Context(load("tvm-0.21"), None, None)
    for size in range(7):
        for chars in itertools.product(alphabet, repeat=size):
            raw = "".join(chars)
            fast = _lower.plain_value(raw, type_)
            try:
                general = _lower.value_from_text(raw, type_, ctx, _lower.Place(), 0, "x")
            except tl.TargetError:
                assert fast is _lower._NOT_PLAIN, raw
                continue
            assert fast is not _lower._NOT_PLAIN, raw
            assert fast == general and type(fast) is type(general), raw


@given(st.one_of(target_strings(), malformed_strings()))
def test_memoized_parse_equals_a_fresh_read(text: str) -> None:
    import targetlang as tl

    try:
        fresh = _parse_uncached(text)
    except tl.TargetError as error:
        for _ in range(2):  # the memo raises the same error, afresh, every time
            try:
                tl.parse(text)
            except tl.TargetError as again:
                assert (type(again), again.message, again.offset) == \
                    (type(error), error.message, error.offset)
            else:
                raise AssertionError("the memo accepted what a fresh read refuses")
        return
    assert tl.parse(text) == fresh
    assert tl.parse(text).to_json() == fresh.to_json()
