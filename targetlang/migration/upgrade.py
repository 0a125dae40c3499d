"""Upgrade a whole project to the target release: every legacy target site in its files.

``targetlang upgrade PATH...`` (``cli/_upgrade.py``) is this module over the files
:func:`walk` finds: :func:`upgrade_file` reads one file as its type says (Python, a
notebook, Markdown, reStructuredText, JSON, YAML, TOML, a shell script), rewrites the
sites it can, reports those that need a person, and writes the file atomically when asked;
a :class:`Summary` counts what was done, per file type. The machinery of each file type
lives in ``targetlang/_upgrade/``.
"""

from __future__ import annotations

import codecs
import errno
import gc
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .._files import unified_diff, write_atomically
from ._pysites import decode_source
from ._upgrade import configs, docs, notebook, python, shell, text
from ._upgrade import walk as _walk
from ._upgrade.common import Change, Finding, Options, Outcome, apply_edits
from ._upgrade.walk import FILE_TYPES as _FILE_TYPES
from ._upgrade.walk import file_type, walk, walk_entries

__all__ = ["FILE_TYPES", "Change", "FileResult", "Finding", "Options", "Summary", "file_type",
           "upgrade_bytes", "upgrade_file", "upgrade_text", "walk", "walk_entries"]

#: File name endings and the file type that reads them (``".ipynb"``: ``"notebook"``); a
#: file given by name with another ending is read as Python.
FILE_TYPES: Mapping[str, str] = _FILE_TYPES

HANDLERS: dict[str, Callable[[str, str, Options], Outcome]] = {
    "python": python.handle,
    "notebook": notebook.handle,
    "markdown": docs.handle_markdown,
    "rst": docs.handle_rst,
    "json": configs.handle_json,
    "yaml": configs.handle_yaml,
    "toml": configs.handle_toml,
    "shell": shell.handle,
    "text": text.handle,
}


@dataclass
class FileResult:
    """One file's upgrade: its text before and after, the sites changed, the places
    reported, and ``invalid`` when the file is not valid for its type (then untouched)."""

    #: the file, as it is shown (relative to the current directory)
    path: str
    #: the file type that read it (:data:`FILE_TYPES`' values)
    file_type: str
    #: the text before
    original: str
    #: the text after (the original where nothing changed)
    text: str
    #: the sites rewritten or bridged, in order
    changes: list[Change] = field(default_factory=list)
    #: the places left for a person, in order
    findings: list[Finding] = field(default_factory=list)
    #: how many places of each class of site were reported
    reported: dict[str, int] = field(default_factory=dict)
    #: why the file is not valid for its type (then it is left untouched); None when valid
    invalid: Finding | None = None
    #: sites a comment or the configuration suppressed
    suppressed: int = 0
    #: the file could not be upgraded (a bug): its finding is among ``findings``
    failed: bool = False
    #: the file's bytes after the upgrade (its own when nothing changed)
    data: bytes = b""
    #: a notebook's cells: each cell's number -> the file line of each of its lines
    cell_lines: dict[int, list[int]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        """Whether the upgraded text differs from the original."""
        return self.text != self.original

    def diff(self) -> str:
        """A unified diff from the original to the upgraded text."""
        return unified_diff(self.path, self.original, self.text)

    def count(self, kind: str) -> int:
        """How many sites were ``kind``: "rewritten", "bridged" (only those that changed
        the text) or "reported"."""
        if kind == "reported":
            return len(self.findings) - (self.invalid is not None) - self.failed
        if not self.changed:
            return 0
        return sum(1 for change in self.changes if change.kind == kind and
                   (change.old != change.new or change.kind == "bridged"))


def upgrade_text(text: str, *, path: str, file_type: str, options: Options) -> FileResult:
    """The upgrade of one decoded file's text, read as ``file_type``. Whatever the text, an
    answer: a failure of the upgrade itself is a finding (TL005), the text kept."""
    collecting = gc.isenabled()
    # A file's nodes hold no reference cycles: the cycle collector's passes over them (a
    # 100,000-line file holds millions) only cost, and grew the time per line with the size
    # of the file; reference counting frees them all. Turned on again when the file is done.
    gc.disable()
    try:
        outcome = HANDLERS[file_type](text, path, options)
    except (Exception, RecursionError) as error:  # noqa: BLE001 - no input ends the run
        failure = Finding(path, 1, 0, f"the upgrade failed on this file "
                                      f"({type(error).__name__}: {str(error)[:200]}); it is "
                                      "left as it is: please report it", "TL005")
        return FileResult(path, file_type, text, text, findings=[failure], failed=True)
    finally:
        if collecting:
            gc.enable()
    result = FileResult(path, file_type, text, text)
    if outcome.invalid is not None:
        result.invalid = outcome.invalid
        result.findings = [outcome.invalid]
        return result
    edits: list[tuple[int, int, str]] = []
    for edit in sorted(outcome.edits):
        if edits and edit[0] < edits[-1][1]:
            continue  # two sites over one span: the first is kept (a guard; never seen)
        edits.append(edit)
    result.text = apply_edits(text, edits)
    result.changes = sorted(outcome.changes, key=lambda c: (c.line, c.column))
    result.findings = outcome.findings
    result.reported = outcome.reported
    result.suppressed = outcome.suppressed
    result.cell_lines = outcome.cell_lines
    if result.changed:
        # a change is the sum of its sites: a suppressed file type's invariant guard
        result.changes = [c for c in result.changes if c.old != c.new or c.kind == "bridged"]
    else:
        result.changes = []
    return result


def _decode(raw: bytes, path: str, kind: str) -> tuple[str, str] | Finding:
    """The text of a file and the encoding to write it back in, or why it is not text.
    Python follows PEP 263 (coding cookies); the other types are UTF-8 (a BOM kept)."""
    if kind == "python":
        return decode_source(raw, path)
    encoding = "utf-8-sig" if raw.startswith(codecs.BOM_UTF8) else "utf-8"
    if kind == "text":  # read only to report, never written: any bytes are text enough
        return raw.decode(encoding, errors="replace"), encoding
    try:
        return raw.decode(encoding), encoding
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        return Finding(path, line, 0, f"not {kind} text: not UTF-8 ({error.reason})", "TL001")


def upgrade_file(path: str | os.PathLike[str], *, file_type: str | None = None,
                 write: bool = False, options: Options | None = None,
                 shown: str | None = None) -> FileResult:
    """Upgrade one file (its type from its name unless given); with ``write`` replace it
    atomically when it changes. ``shown``: the path its reports name (default: ``path``).
    Raises :class:`OSError` when it cannot be read or written."""
    options = options or Options()
    real = os.fspath(path)
    shown = shown or real
    kind = file_type or _walk.file_type(real) or "python"
    mode = os.stat(real).st_mode  # before opening: opening a FIFO waits for its writer
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)) or (write and not stat.S_ISREG(mode)):
        raise OSError(errno.EINVAL, "not a regular file", real)
    with open(real, "rb") as stream:  # noqa: PTH123 - one read, errors are OSError
        raw = stream.read()
    result = upgrade_bytes(raw, shown=shown, file_type=kind, options=options)
    if write and result.changed and not result.failed:
        write_atomically(real, result.data)
    return result


def upgrade_bytes(raw: bytes, *, shown: str, file_type: str, options: Options) -> FileResult:
    """The upgrade of a file's bytes (``result.data``: the upgraded bytes)."""
    kind = file_type
    decoded = _decode(raw, shown, kind)
    if isinstance(decoded, Finding):
        return FileResult(shown, kind, "", "", findings=[decoded], invalid=decoded, data=raw)
    text, encoding = decoded
    result = upgrade_text(text, path=shown, file_type=kind, options=options)
    result.data = raw
    if result.changed:
        try:
            result.data = result.text.encode(encoding)
        except UnicodeEncodeError as error:
            result.findings.append(Finding(shown, 1, 0, f"the upgraded file cannot be written "
                                           f"in its encoding {encoding} ({error.reason}); "
                                           "left unchanged", "TL002"))
            result.reported["encoding"] = result.reported.get("encoding", 0) + 1
            result.text = result.original
            result.changes.clear()
    return result


@dataclass
class _Counts:
    files: int = 0
    changed: int = 0
    rewritten: int = 0
    bridged: int = 0
    reported: int = 0
    suppressed: int = 0
    invalid: int = 0
    unreadable: int = 0


@dataclass
class Summary:
    """What a run did, per file type: files scanned and changed, sites rewritten, bridged
    and needing a person, files not valid for their type or not readable."""

    #: the counts of each file type (files, changed, rewritten, bridged, reported,
    #: suppressed, invalid, unreadable)
    by_type: dict[str, _Counts] = field(default_factory=dict)

    def add(self, result: FileResult) -> None:
        """Count one file's result under its file type."""
        counts = self.by_type.setdefault(result.file_type, _Counts())
        counts.files += 1
        counts.changed += result.changed
        counts.rewritten += result.count("rewritten")
        counts.bridged += result.count("bridged")
        counts.reported += result.count("reported")
        counts.suppressed += result.suppressed
        counts.invalid += result.invalid is not None

    def unreadable(self, kind: str) -> None:
        """Count one file of type ``kind`` that could not be read or written."""
        self.by_type.setdefault(kind, _Counts()).unreadable += 1

    def total(self) -> _Counts:
        """The counts of every file type added together."""
        total = _Counts()
        for counts in self.by_type.values():
            for name in vars(total):
                setattr(total, name, getattr(total, name) + getattr(counts, name))
        return total

    def lines(self) -> list[str]:
        """The summary, a line for the whole run and one per file type."""
        def describe(c: _Counts) -> str:
            text = (f"{c.files} file{'s' * (c.files != 1)} scanned, {c.changed} changed; "
                    f"{c.rewritten} site{'s' * (c.rewritten != 1)} rewritten, {c.bridged} "
                    f"bridged, {c.reported} need{'s' * (c.reported == 1)} a person")
            if c.suppressed:
                text += f"; {c.suppressed} suppressed"
            if c.invalid:
                text += f"; {c.invalid} not valid for {'their' if c.invalid > 1 else 'its'} type"
            if c.unreadable:
                text += f"; {c.unreadable} not readable or writable"
            return text

        lines = [f"targetlang upgrade: {describe(self.total())}"]
        for kind in FILE_TYPES.values():
            if kind in self.by_type and not any(line.startswith(f"  {kind}:")
                                                for line in lines):
                lines.append(f"  {kind}: {describe(self.by_type[kind])}")
        return lines


