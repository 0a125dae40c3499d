"""Syntax nodes of the legacy target language: immutable, with source spans, no schema knowledge.

Offsets index the text that was parsed (for a nested host, its interpreted text; the
lowering maps them back to the outermost source). The nodes are named tuples: they are
made once per word on the hot path, where a frozen dataclass costs several times more.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

OptionForm = Literal["assign", "spaced", "flag"]


class Word(NamedTuple):
    """One space-separated word, exactly as written (quotes and escapes kept)."""

    text: str
    offset: int

    @property
    def end(self) -> int:
        return self.offset + len(self.text)


class Option(NamedTuple):
    """``-key=value`` (assign), ``-key value`` (spaced) or ``-key`` (flag).

    ``key`` is the key without its leading dashes; ``value`` is None for a flag.
    """

    key: str
    key_offset: int
    value: Word | None
    form: OptionForm
    offset: int
    length: int


class TargetText(NamedTuple):
    """A kind word followed by options: ``cuda -arch=sm_80``."""

    kind: Word
    options: tuple[Option, ...]
