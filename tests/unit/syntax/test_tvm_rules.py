"""TVM's value rules: the fast paths agree with the character-by-character reading."""

from __future__ import annotations

import itertools

import pytest

from targetlang._syntax import rules as rules

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


def test_split_string_fast_path_agrees_with_each_character() -> None:
    for text in TEXTS:
        if "'" in text or "\\" in text:
            continue
        pieces = rules.split_string(text, ",")
        assert pieces == [(p, i) for i, p in _pieces(text)], text


def _pieces(text: str) -> list[tuple[int, str]]:
    out, start = [], 0
    for i, c in enumerate(text + ","):
        if c == ",":
            if i > start:
                out.append((start, text[start:i]))
            start = i + 1
    return out


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
