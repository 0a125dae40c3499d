"""Colour on a terminal, never elsewhere: ``NO_COLOR`` (https://no-color.org) turns it off."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

_CODES = {
    "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
    "magenta": "35", "cyan": "36", "error": "1;31", "warning": "1;33",
}


def wants_colour(stream: TextIO, environ: Mapping[str, str], when: str = "auto") -> bool:
    """``always``/``never`` as told; ``auto``: off when ``NO_COLOR`` is set and not empty,
    on when ``FORCE_COLOR`` is (https://force-color.org), else on a terminal."""
    if when != "auto":
        return when == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def paint(text: str, style: str, enabled: bool) -> str:
    """``text`` in ``style`` (a name of ``_CODES``) when ``enabled``; else ``text`` itself."""
    if not enabled or not text or style not in _CODES:
        return text
    return f"\033[{_CODES[style]}m{text}\033[0m"
