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
from .._program import Program
from .._sites import NeedsPerson, Rewritten, convert_value, json_text, meaning_report
from ..pyscripts import Finding
from .suppress import Quiet

__all__ = ["Change", "Edit", "Finding", "Lines", "Options", "Outcome", "Quiet", "apply_edits",
           "embedded_target", "may_be_target", "value_site"]

#: An edit of a decoded text: (start, end, replacement), character offsets.
Edit = tuple[int, int, str]


@dataclass(frozen=True)
class Options:
    """What the user asked for: the release to upgrade to, and how."""

    target_dialect: str = field(default_factory=newest_release)  # the newest release known
    runtime: bool = False
    full: bool = False
    environment: Environment | None = None
    #: codes (or prefixes, or ALL) the configuration ignores in this file
    ignore: frozenset[str] = frozenset()
    #: programs embedded in documentation: ``tvm`` names TVM without an import
    docs: bool = False
    #: the Python modules of the run, read as one program (None: each file on its own)
    program: Program | None = field(default=None, compare=False)

    def quiet(self, lines: dict[int, frozenset[str] | None] | None = None) -> Quiet:
        """The suppressions of one program: its directive comments and these codes."""
        return Quiet(lines or {}, self.ignore)


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
    code: str = "TL101"
    end_line: int = 0
    end_column: int = 0


@dataclass
class Outcome:
    """A handler's answer for one file: edits of its text, changes made, places reported.
    ``invalid`` is set when the file is not valid for its type (then nothing is edited)."""

    edits: list[Edit] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    reported: dict[str, int] = field(default_factory=dict)
    invalid: Finding | None = None
    #: sites a comment or the configuration suppressed
    suppressed: int = 0
    #: a notebook's cells: each cell's number -> the file line of each of its lines (from 1)
    cell_lines: dict[int, list[int]] = field(default_factory=dict)

    def report(self, finding: Finding, site: str, quiet: Quiet | None = None) -> None:
        """A place that needs a person, counted under its class of site (unless ``quiet``
        suppresses its code on its line)."""
        if quiet is not None and quiet.covers(finding.code, finding.line,
                                              finding.end_line or finding.line):
            return
        self.findings.append(finding)
        self.reported[site] = self.reported.get(site, 0) + 1

    def merge(self, other: Outcome) -> None:
        self.edits += other.edits
        self.changes += other.changes
        for finding in other.findings:
            self.findings.append(finding)
        for site, count in other.reported.items():
            self.reported[site] = self.reported.get(site, 0) + count
        self.suppressed += other.suppressed


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


_EMBEDDED: re.Pattern[str] | None = None


def embedded_target(value: str) -> str | None:
    """A legacy target text written inside a larger string (``'!!python/object:Workload
    {..., target: llvm -keys=cpu -link-params=0, ...}'``), or None."""
    global _EMBEDDED
    if " -" not in value or len(value) > 1_000_000:
        return None
    if _EMBEDDED is None:
        from ...target import kinds  # (first use: a value with " -" in it asks)

        words = "|".join(sorted(map(re.escape, kinds("tvm-0.21")), key=len, reverse=True))
        _EMBEDDED = re.compile(rf"(?:^|(?<=[\s:=,(\[{{'\"]))(?:{words})(?:\s+--?[\w.-]+"
                               rf"(?:=[^\s,}}\]'\")]*)?)+")
    for match in _EMBEDDED.finditer(value):
        text = match.group(0)
        if text != value.strip() and isinstance(
                convert_value(text, target_dialect="tvm-0.27"), (Rewritten, NeedsPerson)):
            return text
    return None


#: Words of a key that say its value is no target to be read, but text about one.
_NOT_TARGET_WORDS = frozenset({"expected", "expect", "str", "string", "name", "names", "desc",
                               "description", "message", "msg", "help", "doc", "docs",
                               "comment", "log", "file", "path", "dir", "url", "id", "text",
                               "output", "result", "repr", "note", "notes", "title", "label",
                               "pattern", "regex", "example"})
_TARGET_WORDS = frozenset({"target", "targets", "tgt", "tgts"})


def _words(key: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", key.lower()) if w]


def key_role(keys: list[str | None]) -> str | None:
    """None when the innermost key of a config value names a target (``target``, ``host``,
    ``target_host``, ``targets``, ``*_target``, or any key under one of these that does not
    say it is text about a target); otherwise why it is not known to be one."""
    named = [k for k in keys if k is not None]
    if not named:
        return "it has no key"
    inner = _words(named[-1])
    if _NOT_TARGET_WORDS.intersection(inner):
        return f"its key {named[-1]!r} does not name a target"
    if _TARGET_WORDS.intersection(inner) or inner in (["host"], ["hosts"]) or \
            inner[-1:] == ["host"] and "target" in inner:
        return None
    for outer in named[:-1]:
        words = _words(outer)
        if _TARGET_WORDS.intersection(words) and not _NOT_TARGET_WORDS.intersection(words):
            return None
    return f"its key {named[-1]!r} does not name a target"


def value_site(value: str, *, quote: Callable[[str], str], options: Options, where: Finding,
               site: str, start: int, end: int, old: str, outcome: Outcome, quiet: Quiet,
               role: str | None = None) -> None:
    """A string value found in a file: rewritten (JSON text in the file's quoting,
    ``quote``), reported, or left alone, as ``convert_value`` answers. ``where`` carries the
    place (its message is unused). ``role``: None when the value's place names a target;
    otherwise why it is not known to be one (then a legacy target is reported, never
    rewritten)."""
    if not may_be_target(value):
        return
    answer = convert_value(value, target_dialect=options.target_dialect, full=options.full,
                           environment=options.environment)
    end_line = where.line + old.count("\n")
    if isinstance(answer, Rewritten) and role is None:
        if quiet.covers("TL101", where.line, end_line):
            return
        target = json_text(answer.json)
        new = quote(target)
        outcome.edits.append((start, end, new))
        outcome.changes.append(Change(where.line, where.column, old, new, "rewritten", site,
                                      value, target, "TL101", end_line))
        for note in answer.notes:
            code, message = meaning_report(note, f"{site} {value!r}")
            outcome.report(Finding(where.path, where.line, where.column, message, code,
                                   end_line), site, quiet)
    elif isinstance(answer, NeedsPerson) and answer.moved and role is None:
        for note in answer.moved:
            code, message = meaning_report(note, f"{site} {value!r}")
            outcome.report(Finding(where.path, where.line, where.column, message, code,
                                   end_line), site, quiet)
    elif isinstance(answer, (Rewritten, NeedsPerson)):
        if role is not None:
            code, message = "TL602", f"{site} {value!r} is a legacy target, but {role}: not " \
                "rewritten, since it may be an expected value or a name; if a tool reads it " \
                "as a target, write it as JSON text (`targetlang migrate`), else suppress it"
        else:
            assert isinstance(answer, NeedsPerson)
            code = "TL401" if "without loss" in answer.reason else "TL402"
            message = f"{site} {value!r}: {answer.reason}; not rewritten"
        finding = Finding(where.path, where.line, where.column, message, code, end_line)
        outcome.report(finding, site, quiet)
