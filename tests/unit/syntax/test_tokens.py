"""The one tokenizer (``_syntax/tokens.py``): its rules are the grammar's terminals."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from targetlang._syntax.grammar import parse_with_lark, target_parser
from targetlang._syntax.tokens import (
    is_plain,
    option_key,
    plain_words,
    scanner,
    words,
)
from targetlang.strategies import grammar_sentences, malformed_strings, target_strings


def test_the_scanner_is_compiled_from_the_grammars_terminals() -> None:
    terminals = {t.name: t.pattern.to_regexp() for t in target_parser().terminals}
    pattern = scanner().pattern
    assert set(scanner().groupindex) == {"WORD", "OPTION_NAME", "OPTION_ASSIGN"}
    for name in scanner().groupindex:
        assert f"(?P<{name}>{terminals[name]})" in pattern


@given(st.one_of(st.text(alphabet=" -=,ab\t\n"), st.text().filter(is_plain),
                 target_strings().filter(is_plain)))
def test_plain_words_are_the_scanners(text: str) -> None:
    """Without quotes or escapes, the shortcut splits and names words as the terminals do."""
    expected = []
    pos = 0
    for m in scanner().finditer(text):
        assert m.start() == pos
        pos = m.end()
        name = m.lastgroup
        assert name is not None
        expected.append((name, m.group(name), m.start(name)))
    assert not text[pos:].strip(" ")
    assert plain_words(text) == expected


@given(st.one_of(st.text(alphabet=" -='\\,ab"), target_strings(), malformed_strings(),
                 grammar_sentences()))
def test_words_are_the_lalr_parsers_tokens(text: str) -> None:
    """Whatever the tokenizer splits, Lark's lexer splits the same way (where it parses)."""
    tokens = words(text)
    if tokens is None:
        return
    try:
        syntax = parse_with_lark(text)
    except Exception:  # noqa: BLE001  (a syntax error: the words are still the words)
        return
    spans = [(syntax.kind.text, syntax.kind.offset)]
    for option in syntax.options:
        if option.form == "spaced":
            assert option.value is not None
            spans.append((text[option.offset:option.value.offset].rstrip(" "), option.offset))
            spans.append((option.value.text, option.value.offset))
        else:
            spans.append((text[option.offset:option.offset + option.length], option.offset))
    assert [(word, offset) for _, word, offset in tokens] == spans


def test_option_key_strips_every_leading_dash() -> None:
    assert option_key("--mattr=+neon") == ("mattr=+neon", 2)
    assert option_key("-k") == ("k", 1)
    assert option_key("---") == ("", 3)
