"""TVM's value rules: the fast paths agree with the character-by-character reading."""

from __future__ import annotations

import itertools

import pytest

from targetlang._syntax import rules as rules
from targetlang._syntax.tokens import MismatchedQuote, split_items

# Every text of up to 7 characters over the characters the rules care about.
ALPHABET = "a' \\,"
TEXTS = ["".join(t) for n in range(8) for t in itertools.product(ALPHABET, repeat=n)]


def test_interpret_fast_paths_agree_with_each_character() -> None:
    for text in TEXTS:
        fast, positions = rules.interpret(text)
        slow, slow_positions = rules.interpret_each(text)
        assert fast == slow, text
        expected = list(range(len(text) + 1)) if positions is None else list(positions)
        assert expected == slow_positions, text


def test_split_items_fast_path_agrees_with_each_character() -> None:
    for text in TEXTS:
        if "'" in text or "\\" in text:
            continue
        pieces = split_items(text)
        assert pieces == [(p, i) for i, p in _pieces(text)], text


def _pieces(text: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for i, c in enumerate(text + ","):
        if c == ",":
            if i > start:
                out.append((start, text[start:i]))
            start = i + 1
    return out


def _split_string(text: str) -> list[tuple[str, int]]:
    """TVM 0.21's ``TargetInternal::SplitString(str, ',')``, character by character: an
    escape pair is copied whole, a quote toggles quoting, a comma outside quotes ends a
    non-empty item; an unclosed quote is an error."""
    pieces: list[tuple[str, int]] = []
    current: list[str] = []
    start = i = 0
    quoted = False
    while i < len(text):
        c = text[i]
        if c == "," and not quoted:
            if current:
                pieces.append(("".join(current), start))
                current = []
            i += 1
            start = i
            continue
        if c == "\\" and i + 1 < len(text):
            current.append(text[i : i + 2])
            i += 2
            continue
        if c == "'":
            quoted = not quoted
        current.append(c)
        i += 1
    if quoted:
        raise MismatchedQuote(text.rfind("'"))
    if current:
        pieces.append(("".join(current), start))
    return pieces


def test_split_items_is_tvms_split_string() -> None:
    for text in TEXTS:
        try:
            expected: object = _split_string(text)
        except MismatchedQuote as e:
            expected = ("mismatched", e.offset)
        try:
            got: object = split_items(text)
        except MismatchedQuote as e:
            got = ("mismatched", e.offset)
        assert got == expected, text


def test_split_items_without_quotes_and_its_empty_items() -> None:
    # LLVM's -mattr split, tvmc's: every comma splits, quotes or not; empty items dropped.
    assert split_items("+a,'b,c'", quotes=False) == [("+a", 0), ("'b", 3), ("c'", 6)]
    assert split_items("a,,b,", empty="keep") == [("a", 0), ("", 2), ("b", 3), ("", 5)]
    # a std::getline loop (TVM 0.6): only a trailing empty item is dropped
    assert split_items("a,,b,", quotes=False, empty="last") == [("a", 0), ("", 2), ("b", 3)]
    assert split_items("", quotes=False, empty="last") == []
    assert split_items(",", quotes=False, empty="last") == [("", 0)]


@pytest.mark.parametrize(("text", "value"), [
    ("3x", 3), ("0x10", 0), ("+5", 5), (" 4", 4), ("\t-2", -2), ("TRUE", 1), ("False", 0),
    ("9223372036854775807", 2**63 - 1), ("-9223372036854775808", -(2**63)),
])
def test_parse_int_reads_like_istream(text: str, value: int) -> None:
    assert rules.parse_int(text) == value


@pytest.mark.parametrize("text", ["", "x3", " true", "yes", "9223372036854775808", "+", "- 1"])
def test_parse_int_refuses(text: str) -> None:
    with pytest.raises(rules.RuleError):
        rules.parse_int(text)


def test_interpreted_is_interprets_text() -> None:
    for text in TEXTS:
        assert rules.interpreted(text) == rules.interpret(text)[0], text


def _is_quoted_each(text: str) -> bool:
    """TVM 0.21's ``TargetInternal::IsQuoted``, character by character."""
    if len(text) < 2 or text[0] != "'" or text[-1] != "'":
        return False
    escaping = False
    for c in text[1:-1]:
        if escaping:
            escaping = False
        elif c == "\\":
            escaping = True
        elif c == "'":
            return False
    return not escaping


def test_is_quoted_agrees_with_each_character() -> None:
    for text in TEXTS:
        assert rules.is_quoted(text) == _is_quoted_each(text), text
