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
