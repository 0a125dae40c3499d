"""Pieces of the target-parser hooks (``_lower/hooks.py``) held to TVM's definitions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._lower.hooks import _has_gfx_version


def _extract_string_with_prefix(text: str, prefix: str) -> str:
    """TVM's ``ExtractStringWithPrefix`` (target_kind.cc), byte by byte: the run of
    ``std::isdigit`` or ``std::isalpha`` characters (ASCII, in the C locale) after the prefix."""
    if not text.startswith(prefix):
        return ""
    end = len(prefix)
    while end < len(text) and text[end] in "0123456789abcdefghijklmnopqrstuvwxyz" \
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        end += 1
    return text[len(prefix):end]


@given(st.one_of(st.text(max_size=6), st.text(max_size=4).map(lambda t: "gfx" + t)))
def test_has_gfx_version_is_a_nonempty_extract(mcpu: str) -> None:
    assert _has_gfx_version(mcpu) is (_extract_string_with_prefix(mcpu, "gfx") != "")


def test_rocm_mcpu_checked_as_tvm_does() -> None:
    assert tl.parse("rocm -mcpu=gfx90a").attrs["mcpu"] == "gfx90a"
    assert tl.parse("rocm -mcpu=gfx9-x").attrs["mcpu"] == "gfx9-x"
    for bad in ("gfx", "gfx-9", "gfx\u0669", "xgfx9", "GFX9"):
        with pytest.raises(tl.TargetError, match="invalid GFX version"):
            tl.from_json({"kind": "rocm", "mcpu": bad})
