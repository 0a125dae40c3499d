"""The one tokenizer (``_syntax/tokens.py``): its rules are the grammar's terminals."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from targetlang._syntax.grammar import (
    _fast_parse,
    compiled_terminals,
    parse_with_lark,
    terminals_module,
)
from targetlang._syntax.tokens import (
    option_key,
    options,
    scanner,
    words,
)
from targetlang.strategies import grammar_sentences, malformed_strings, target_strings


def test_the_tokenizers_rules_are_what_lark_compiles_from_the_grammar() -> None:
    """``_terminals.py`` is generated from grammar/target.lark (``python3 -m
    targetlang._syntax`` regenerates it after the grammar changes)."""
    from importlib import resources

    committed = resources.files("targetlang._syntax").joinpath("_terminals.py").read_text("utf-8")
    assert committed == terminals_module(), "run: python3 -m targetlang._syntax"
    separator, terminals = compiled_terminals()
    assert [name for name, _ in terminals] == list(scanner().groupindex)
    for name, pattern in terminals:
        assert f"(?P<{name}>{pattern})" in scanner().pattern
    assert scanner().pattern.startswith(f"(?:{separator})*")


def _scanned(text: str) -> list[tuple[str, str, int, str]] | None:
    """The words as the scanner compiled from the grammar's terminals finds them."""
    out = []
    pos = 0
    for m in scanner().finditer(text):
        if m.start() != pos:
            return None
        pos = m.end()
        name = m.lastgroup
        assert name is not None
        out.append((name, m.group(name), m.start(name), m.group(name).lstrip("-")))
    return None if text[pos:].strip(" ") else out


@given(st.one_of(st.text(alphabet=" -=,ab\t\n"), st.text(alphabet=" -=',ab"),
                 st.text(alphabet=" -=',\\ab"), st.text(), target_strings(),
                 grammar_sentences(), malformed_strings()))
def test_words_are_the_scanners(text: str) -> None:
    """The split at spaces finds and names the words the terminals do, escapes or not."""
    assert words(text) == _scanned(text)


def test_escapes_keep_spaces_and_quotes_in_their_word() -> None:
    text = "llvm -a=x\\ y -b='p \\' q' -c=\\'r s\\' \\"
    assert [token[:2] for token in words(text) or ()] == [
        ("WORD", "llvm"), ("OPTION_ASSIGN", "-a=x\\ y"), ("OPTION_ASSIGN", "-b='p \\' q'"),
        ("OPTION_ASSIGN", "-c=\\'r"), ("WORD", "s\\'"), ("WORD", "\\")]
    assert words(text) == _scanned(text)
    assert words("llvm -b='p \\'") is None  # the escaped quote closes nothing


def test_words_keep_quoted_runs_whole() -> None:
    assert [token[:3] for token in words("llvm -model='a b' 'c d'e -k='x=y' -j'=z'")
            or ()] == [
        ("WORD", "llvm", 0), ("OPTION_ASSIGN", "-model='a b'", 5), ("WORD", "'c d'e", 18),
        ("OPTION_ASSIGN", "-k='x=y'", 25), ("OPTION_NAME", "-j'=z'", 34)]
    assert words("llvm -model='a b") is None


@given(st.one_of(st.text(alphabet=" -='\\,ab"), target_strings(), malformed_strings(),
                 grammar_sentences()))
@example("a -\\  a ")  # a key word that ends in an escaped space
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
            # (the key word ends where its key does: an escaped space may end it)
            spans.append((text[option.offset:option.key_offset + len(option.key)],
                          option.offset))
            spans.append((option.value.text, option.value.offset))
        else:
            spans.append((text[option.offset:option.offset + option.length], option.offset))
    assert [(word, offset) for _, word, offset, _ in tokens] == spans
    assert all(key == option_key(word)[0] for _, word, _, key in tokens)


def test_option_key_strips_every_leading_dash() -> None:
    assert option_key("--mattr=+neon") == ("mattr=+neon", 2)
    assert option_key("-k") == ("k", 1)
    assert option_key("---") == ("", 3)


@given(st.one_of(st.text(alphabet=" -='\\,ab"), st.text(alphabet=" -=',ab"), st.text(),
                 target_strings(), malformed_strings(), grammar_sentences()))
def test_options_are_the_syntax_nodes(text: str) -> None:
    """The one-pass reader's view of the tokens is the grammar's ``start: kind option*``."""
    syntax = _fast_parse(text)
    expected = None if syntax is None else (
        syntax.kind.text, [(o.key, None if o.value is None else o.value.text)
                           for o in syntax.options])
    assert options(text) == expected


def test_options_of_every_spelling() -> None:
    assert options(" llvm  -a=1 --b 2 --c=3 -d 'x y' -e -f='p q'  -g\\ h -i") == (
        "llvm", [("a", "1"), ("b", "2"), ("c", "3"), ("d", "'x y'"), ("e", None),
                 ("f", "'p q'"), ("g\\ h", None), ("i", None)])
    assert options("llvm -a= -b") is None  # an empty value
    assert options("llvm x") is None  # a value with no option before it
    assert options("llvm -a='x") is None  # a quote never closed


@given(st.text(alphabet="      'a-=", min_size=20))
def test_words_of_long_quoted_runs_are_the_scanners(text: str) -> None:
    """Many spaces in few quotes: the pieces are found by the quotes (another way)."""
    assert words(text) == _scanned(text)
    assert words("llvm -model='" + "a b " * 50 + "' -x") == \
        _scanned("llvm -model='" + "a b " * 50 + "' -x")
