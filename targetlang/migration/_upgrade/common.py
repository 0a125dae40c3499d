"""What every file type's handler shares: the options, the outcome record, and the one
step from a string value found in a file to its replacement (``_sites.convert_value``)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..._lower.dialects import newest_release
from ...environment import Environment
from ...target import kinds, tags
from .._sites import NeedsPerson, Rewritten, convert_value, json_text
from ..pyscripts import Finding

__all__ = ["Change", "Edit", "Finding", "Lines", "Options", "Outcome", "apply_edits", "may_be_target", "value_site"]

#: An edit of a decoded text: (start, end, replacement), character offsets.
Edit = tuple[int, int, str]


@dataclass(frozen=True)
class Options:
    """What the user asked for: the release to upgrade to, and how."""

    target_dialect: str = field(default_factory=newest_release)  # the newest release known
    runtime: bool = False
    full: bool = False
    environment: Environment | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One site changed: where (1-based line, 0-based column), old and new source text,
    ``kind`` "rewritten" or "bridged", and the class of site (``"config value"``...).
    A string value also keeps the legacy ``value`` and the ``target`` JSON text it became."""

    line: int
    column: int
    old: str
    new: str
    kind: str
    site: str
    value: str | None = None
    target: str | None = None


@dataclass
class Outcome:
    """A handler's answer for one file: edits of its text, changes made, places reported.
    ``invalid`` is set when the file is not valid for its type (then nothing is edited)."""

    edits: list[Edit] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reported: dict[str, int] = field(default_factory=dict)
    invalid: Finding | None = None

    def report(self, finding: Finding, site: str) -> None:
        """A place that needs a person, counted under its class of site."""
        self.findings.append(finding)
        self.reported[site] = self.reported.get(site, 0) + 1

    def merge(self, other: Outcome) -> None:
        self.edits += other.edits
        self.changes += other.changes
        for finding in other.findings:
            self.findings.append(finding)
        for site, count in other.reported.items():
            self.reported[site] = self.reported.get(site, 0) + count


class Lines:
    """(line, column) of character offsets in a text; lines end at \\n, \\r\\n or \\r."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        index = 0
        size = len(text)
        while index < size:
            char = text[index]
            if char == "\n":
                self.starts.append(index + 1)
            elif char == "\r":
                if index + 1 < size and text[index + 1] == "\n":
                    index += 1
                self.starts.append(index + 1)
            index += 1

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with the non-overlapping ``edits`` made."""
    pieces: list[str] = []
    last = 0
    for start, end, new in sorted(edits):
        pieces.append(text[last:start])
        pieces.append(new)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


@cache
def _first_words() -> frozenset[str]:
    """The words a target text starts with in any release: kind names and tags."""
    words: set[str] = set()
    for dialect in ("tvm-0.6", "tvm-0.8", "tvm-0.21"):
        words |= set(kinds(dialect)) | set(tags(dialect))
    return frozenset(words)


_FIRST_WORD = re.compile(r"[ \t\n\r\f\v]*([A-Za-z][\w./-]*)")


def may_be_target(value: str) -> bool:
    """Cheap first look: whether ``value`` starts as a legacy target text does (its first
    word a kind or a tag, or JSON text with a kind), before the reader is asked."""
    if len(value) > 4096:
        return False
    if value.lstrip().startswith("{"):
        return '"kind"' in value
    match = _FIRST_WORD.match(value)
    return match is not None and match.group(1) in _first_words()


def value_site(value: str, *, quote: Callable[[str], str], options: Options, where: Finding,
               site: str, start: int, end: int, old: str, outcome: Outcome) -> None:
    """A string value found in a target role: rewritten (JSON text in the file's quoting,
    ``quote``), reported, or left alone, as ``convert_value`` answers. ``where`` carries the
    place (its message is unused)."""
    if not may_be_target(value):
        return
    answer = convert_value(value, target_dialect=options.target_dialect, full=options.full,
                           environment=options.environment)
    if isinstance(answer, Rewritten):
        target = json_text(answer.json)
        new = quote(target)
        outcome.edits.append((start, end, new))
        outcome.changes.append(Change(where.line, where.column, old, new, "rewritten", site,
                                      value, target))
    elif isinstance(answer, NeedsPerson):
        outcome.report(Finding(where.path, where.line, where.column,
                               f"{site} {value!r}: {answer.reason}; not rewritten"), site)
