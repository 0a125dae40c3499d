"""The fuzz campaigns: what each one draws and what it checks.

Every campaign draws text and checks one property of it; a failing text is shrunk by
Hypothesis and saved to fuzz/regressions/, which tests/property/test_fuzz_regressions.py replays.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

import targetlang as tl
from targetlang.strategies import grammar_sentences, malformed_strings, target_strings, targets

from . import oracle


@dataclass(frozen=True)
class Campaign:
    name: str
    description: str
    strategy: Callable[[], st.SearchStrategy[str]]
    check: Callable[[str], None]
    needs_oracle: bool = False


def check_round_trip(text: str) -> None:
    """A valid text: its target survives text and JSON, and its canonical text is stable."""
    target = tl.parse(text)
    canonical = target.to_string()
    again = tl.parse(canonical, dialect=target.dialect)
    assert again == target, f"parse(to_string()) differs: {canonical!r}"
    assert again.to_string() == canonical, "canonical text is not a fixed point"
    exported = target.to_json()
    assert json.loads(json.dumps(exported)) == exported, "to_json() is not plain JSON"
    assert tl.from_json(exported, dialect=target.dialect) == target, "from_json(to_json()) differs"


def check_robustness(text: str) -> None:
    """Any text: a Target (which round-trips) or a TargetError with a sane offset."""
    try:
        tl.parse(text)
    except tl.TargetError as err:
        assert err.source == text, "error source is not the text parsed"
        assert err.offset is None or 0 <= err.offset <= len(text), f"offset {err.offset}"
        str(err)  # rendering must not fail either
        return
    check_round_trip(text)


_ORACLE: oracle.Oracle | None = None


def check_differential(text: str) -> None:
    """Any text: targetlang reads it exactly as TVM 0.21 does."""
    global _ORACLE
    if _ORACLE is None:
        _ORACLE = oracle.Oracle()
    oracle.compare(text, _ORACLE.ask(text))


@functools.cache
def _valid_texts() -> st.SearchStrategy[str]:
    return st.one_of(target_strings(), targets().map(lambda t: t.to_string()),
                     targets().map(lambda t: json.dumps(t.to_json())))


@functools.cache
def _any_texts() -> st.SearchStrategy[str]:
    return st.one_of(
        malformed_strings(),
        st.text(),
        st.binary().map(lambda b: b.decode("utf-8", errors="replace")),
        grammar_sentences(),
    )


@functools.cache
def _differential_texts() -> st.SearchStrategy[str]:
    return st.one_of(target_strings(), malformed_strings())


CAMPAIGNS: dict[str, Campaign] = {c.name: c for c in (
    Campaign("roundtrip", "valid targets and spellings: text and JSON round trips, fixed point",
             _valid_texts, check_round_trip),
    Campaign("robustness", "malformed, random and grammar-generated text: only TargetError",
             _any_texts, check_robustness),
    Campaign("differential", "valid and malformed text compared with the live TVM 0.21 oracle",
             _differential_texts, check_differential, needs_oracle=True),
)}
