"""The grammar file itself: installed with the package, conflict-free under strict checks."""

from __future__ import annotations

from lark import Lark

from targetlang._grammar import grammar_text, parse_target_text


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

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from golden import records  # noqa: E402
from targetlang._grammar import _fast_parse, parse_with_lark  # noqa: E402
from targetlang.strategies import (grammar_sentences, malformed_strings,  # noqa: E402
                                   target_strings)


@given(st.one_of(st.text(), st.text(alphabet=" -='\\,ab"), target_strings(),
                 malformed_strings(), grammar_sentences()))
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
