"""AutoTVM tuning logs without TVM: statistics, selection and normalization of their targets.

A log holds one JSON record a line: ``{"input": [target, task, args, kwargs], ...}`` (AutoTVM
log version 0.2) or ``{"r": ..., "v": 0.1, "i": [target, task, args, kwargs, workload,
config]}`` (0.1); the target is element 0 of ``input``/``i``, a target string (or, after
``normalize --to json``, a TargetJSON object). Lines starting with ``#`` and blank lines are
comments.

Every tool streams: lines are read and written as bytes, one at a time, so memory stays
flat whatever the size of the log, and every byte outside the target is kept as it was.
The target is found in the raw line (the ``"input": [`` / ``"i": [`` key at the top level,
which is exact when everything before it is keys and numbers, as AutoTVM writes records;
otherwise the line is parsed as JSON), and each distinct spelling is read only once. A record
is *readable* when its target is found that way and the line ends with ``}``; the rest of
the record is not parsed (``check_json=True`` parses every record in full, slower).

MetaSchedule databases (``JSONDatabase``'s ``database_tuning_record.json``: one
``[workload, [trace, run_secs, target, args_info]]`` array a line, the target a TargetJSON
dict) are read by the same tools; their targets can be normalized to JSON only.

Two targets are *the same target* when their ``migrate(..., target_dialect="tvm-0.21")``
JSON is equal: however each was written (``-target=`` or ``-mtriple=``, option order,
quoting, a tag or its expansion).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ..environment import Environment
from ..errors import TargetError
from ..target import from_json, parse
from . import LEGACY_DIALECT, MeaningWarning, MigrationWarning, migrate
from ._records import CACHE_LIMIT, RecordMemo, as_021, loads, skip_json_space, why

__all__ = ["LogSummary", "Located", "lines_of", "locate", "same_target_key", "normalized_text",
           "normalized_json", "stats", "select", "normalize"]

_KEY = re.compile(rb'"(?:input|i)"\s*:\s*\[\s*')
# Everything before the target key when it is at the top level of the record: keys and
# values without strings or objects (AutoTVM 0.1 records: {"r": [[...], 0, ...], "v": 0.1, ...).
_PREFIX = re.compile(rb'\s*\{(?:\s*"\w+"\s*:[^"{}]*,)*\s*')
_WS = b" \t\r\n"
#: A line longer than this (no record is) is read in pieces: memory stays bounded on any input.
LINE_LIMIT = 1 << 26

Kind = Literal["record", "comment", "blank", "unreadable"]


@dataclass(frozen=True, slots=True)
class Located:
    """Where a record's target sits in its line: ``line[start:end]`` is its JSON value."""

    #: the offset of the value's first byte in the line
    start: int
    #: the offset just past the value's last byte
    end: int
    #: the value's bytes as the line holds them (``line[start:end]``)
    literal: bytes


def lines_of(stream: Iterable[bytes], block: int = 1 << 20) -> Iterator[bytes]:
    """The lines of a binary stream, each with its own ending kept: ``\\n``, ``\\r\\n`` or
    ``\\r`` (a log written on an old Mac is still one record a line). ``stream`` is a file
    object (read in blocks, so memory stays flat) or any iterable of byte chunks."""
    read = getattr(stream, "read1", None) or getattr(stream, "read", None)
    chunks: Iterable[bytes] = iter(lambda: read(block), b"") if read is not None else stream
    carry = b""
    for chunk in chunks:
        if not chunk:
            continue
        pieces = (carry + chunk).splitlines(keepends=True)  # bytes: only \r, \n, \r\n
        carry = pieces.pop()
        if carry.endswith(b"\n") or len(carry) > LINE_LIMIT:
            pieces.append(carry)  # a line longer than any record is passed on in pieces
            carry = b""
        yield from pieces  # a last piece ending in \r waits: \n may follow
    if carry:
        yield carry


def _string_end(line: bytes, start: int) -> int:
    """The index after the closing quote of the JSON string starting at ``start`` (-1: none)."""
    end = line.find(b'"', start + 1)
    while end > 0:
        backslashes = 0
        while line[end - 1 - backslashes] == 0x5C:  # "\\"
            backslashes += 1
        if backslashes % 2 == 0:
            return end + 1
        end = line.find(b'"', end + 1)
    return -1


def _value_end(line: bytes, start: int) -> int:
    if line[start:start + 1] == b'"':
        return _string_end(line, start)
    if line[start:start + 1] == b"{":
        try:
            text = line[start:].decode("utf-8")
            _, end = json.JSONDecoder().raw_decode(text)
        except (ValueError, RecursionError):
            return -1
        return start + len(text[:end].encode("utf-8"))
    return -1


def locate(line: bytes, *, check_json: bool = False) -> Located | None:
    """The target of a record line, or None when the line is not a readable record."""
    if line[:1] == b"[":
        return _locate_meta_schedule(line)
    span = _fast_span(line)
    if span is not None:
        if not check_json or _is_record(line):
            return Located(span[0], span[1], line[span[0]:span[1]])
        return None
    return _locate_by_json(line)


def _fast_span(line: bytes) -> tuple[int, int] | None:
    """``(start, end)`` of the target value where AutoTVM writes it, without parsing the line."""
    match = _KEY.search(line)
    if match is None:
        return None
    key_start = match.start()
    if not (key_start == 1 and line[0] == 0x7B):  # anything but '{"input": [' first
        if _PREFIX.fullmatch(line, 0, key_start) is None or \
                line.count(b"[", 0, key_start) != line.count(b"]", 0, key_start):
            return None
    start = match.end()
    if line[start:start + 1] == b'"':
        end = line.find(b'"', start + 1)
        if end < 0:
            return None
        if line[end - 1] == 0x5C:  # a backslash before it: find the real end
            end = _string_end(line, start)
            if end < 0:
                return None
        else:
            end += 1
    else:
        end = _value_end(line, start)
        if end < 0:
            return None
    after = line[end:end + 1]
    if after != b"," and after != b"]" and line[end:].lstrip(_WS)[:1] not in (b",", b"]"):
        return None
    if not (line.endswith(b"}\n") or line.endswith(b"}") or line.rstrip(_WS).endswith(b"}")):
        return None
    return start, end


def _locate_meta_schedule(line: bytes) -> Located | None:
    """The target of a MetaSchedule tuning record (``JSONDatabase``'s
    ``database_tuning_record.json``): ``[workload, [trace, run_secs, target, args_info]]``,
    the target an exported TargetJSON dict."""
    try:
        text = line.decode("utf-8")
        record = loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    if not (isinstance(record, list) and len(record) == 2 and isinstance(record[0], int)
            and isinstance(record[1], list) and len(record[1]) == 4
            and isinstance(record[1][2], dict)):
        return None
    decoder = json.JSONDecoder()
    try:  # walk to the third member of the inner array, keeping character offsets
        at = text.index("[", text.index("[") + 1) + 1
        for _ in range(2):
            _, at = decoder.raw_decode(text, skip_json_space(text, at))
            at = skip_json_space(text, at)
            if text[at] != ",":
                return None
            at += 1
        start = skip_json_space(text, at)
        _, end = decoder.raw_decode(text, start)
    except (ValueError, IndexError, RecursionError):
        return None
    byte_start = len(text[:start].encode("utf-8"))
    byte_end = byte_start + len(text[start:end].encode("utf-8"))
    return Located(byte_start, byte_end, line[byte_start:byte_end])


def is_meta_schedule_record(line: bytes) -> bool:
    """Whether a line is a MetaSchedule tuning record (not an AutoTVM one)."""
    return line[:1] == b"["


#: What normalize says when it writes a MetaSchedule database for TVM 0.25 or later.
META_SCHEDULE_NOTE = (
    "note: TVM 0.25 and later cannot load a database TVM 0.21 wrote, whatever its targets say: "
    "0.25 changed the workload file's JSON format (root_index) and renamed the trace "
    "instruction GetBlock to GetSBlock; only the targets were rewritten")


def _release(name: str) -> tuple[int, ...]:
    """The TVM release a normal form writes for (``text`` and ``json``: TVM 0.21)."""
    from .._lower.dialects import DIALECTS  # on first use: only MetaSchedule records ask

    dialect = DIALECTS.get(name)
    return (dialect.release or (0, 21)) if dialect is not None else (0, 21)


def _is_record(line: bytes) -> bool:
    try:
        record = loads(line)
    except ValueError:
        return False
    return _target_of(record) is not None


def _target_of(record: Any) -> Any:
    if not isinstance(record, dict):
        return None
    items = record.get("input", record.get("i"))
    if not isinstance(items, list) or not items or not isinstance(items[0], (str, dict)):
        return None
    return items[0]


def _locate_by_json(line: bytes) -> Located | None:
    """A record whose target key is not where AutoTVM writes it: parse it, then find the
    target's value among the key's occurrences (the one whose value is the record's target)."""
    try:
        record = loads(line)
    except ValueError:
        return None
    target = _target_of(record)
    if target is None:
        return None
    for match in _KEY.finditer(line):
        start = match.end()
        end = _value_end(line, start)
        if end > 0:
            try:
                if loads(line[start:end]) == target:
                    # Only exact when this value is the only one of its text in the line.
                    if line.count(line[start:end]) == 1:
                        return Located(start, end, line[start:end])
            except ValueError:
                continue
    return None


def classify(line: bytes, *, check_json: bool = False) -> tuple[Kind, Located | None]:
    if line[:1] != b"{":
        stripped = line.strip(_WS)
        if not stripped:
            return "blank", None
        if stripped.startswith(b"#"):
            return "comment", None
    found = locate(line, check_json=check_json)
    return ("record", found) if found is not None else ("unreadable", None)


# ---- what one spelling means ------------------------------------------------------------------

def as_release(config: dict[str, Any], dialect: str,
               environment: Environment | None = None) -> dict[str, Any]:
    """A ``tvm-0.21`` TargetJSON as the TargetJSON release ``dialect`` accepts (``migrate``);
    what it cannot write without loss is an error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MigrationWarning)
        out = migrate(config, source_dialect=LEGACY_DIALECT, target_dialect=dialect,
                      environment=environment)
    lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)
            and not issubclass(w.category, MeaningWarning)]  # (a meaning note is no loss)
    if lost:
        raise TargetError(f"cannot be written in {dialect} without loss: {'; '.join(lost)}")
    return out


def same_target_key(target: str | dict[str, Any], environment: Environment | None = None) -> str:
    """The identity of a target in a log: equal exactly for the same target."""
    return json.dumps(as_021(json.dumps(target).encode(), environment), sort_keys=True)


def normalized_text(config: dict[str, Any]) -> str:
    """The ``tvm-0.21`` TVM-style string of a TargetJSON, or its canonical text where TVM's
    ``str()`` would lose something (a host, a tag) or fails."""

    target = from_json(config, dialect="tvm-0.21")
    try:
        text = target.to_string(style="tvm")
        if parse(text) == target:
            return text
    except TargetError:
        pass
    return target.to_string()


def normalized_json(config: dict[str, Any]) -> dict[str, Any]:
    """The ``tvm-0.21`` TargetJSON (``migrate(target, target_dialect="tvm-0.21")``)."""
    return config


# ---- the tools ------------------------------------------------------------------------------------

@dataclass
class LogSummary:
    """What a pass over a log did: records read, changed, unchanged, failed (with line numbers)."""

    #: records read
    records: int = 0
    #: records whose target was rewritten
    changed: int = 0
    #: records kept as they were
    unchanged: int = 0
    #: records that could not be read or rewritten (kept verbatim)
    failed: int = 0
    #: comment lines (starting with ``#``), kept
    comments: int = 0
    #: blank lines, kept
    blank: int = 0
    #: records selected (``logs select``)
    selected: int = 0
    #: True for a ``select`` pass, whose summary counts ``selected``
    selecting: bool = False
    #: ``(line number, why)`` of the first :attr:`max_failures` failed records
    failures: list[tuple[int, str]] = field(default_factory=list)
    #: what the reader should know about the output (printed after the counts)
    notes: list[str] = field(default_factory=list)
    #: failures beyond this many are counted, not kept
    max_failures: int = 1000

    def fail(self, number: int, why: str) -> None:
        """Count record ``number`` (1-based line number) as failed, ``why`` saying why; the
        first :attr:`max_failures` are kept in ``failures``."""
        self.failed += 1
        if len(self.failures) < self.max_failures:
            self.failures.append((number, why))

    def lines(self) -> list[str]:
        """The summary as text lines (what the command line prints to standard error)."""
        if self.selecting:
            done = (f"{self.selected} selected, {self.records - self.selected - self.failed} "
                    "left out")
        else:
            done = f"{self.changed} changed, {self.unchanged} unchanged"
        out = [f"records: {self.records} read, {done}, {self.failed} failed; {self.comments} "
               f"comment and {self.blank} blank lines kept"]
        out += [f"line {n}: {why}" if n else why for n, why in self.failures[:20]]
        if self.failed > 20:
            out.append(f"... and {self.failed - 20} more failed records")
        return out + self.notes


def _numbered(lines: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    return enumerate(lines, 1)


def normalize(lines: Iterable[bytes], summary: LogSummary, *, to: str = "text",
              environment: Environment | None = None, check_json: bool = False) -> Iterator[bytes]:
    """Every record's target rewritten to one spelling per target; every other byte kept.

    ``to="text"``: the ``tvm-0.21`` TVM-style string; ``"json"``: the ``tvm-0.21``
    TargetJSON object; a release dialect (``"tvm-0.25"``): the TargetJSON that release
    accepts and reads as TVM 0.21 read the record's target. A record whose target cannot be
    read (or not written without loss) is kept verbatim and counted as failed, as is an
    unreadable line.
    """
    def compute(literal: bytes) -> bytes:
        config = as_021(literal, environment)
        if to == "json":
            return json.dumps(config).encode("utf-8")
        if to != "text":
            return json.dumps(as_release(config, to, environment)).encode("utf-8")
        return json.dumps(normalized_text(config)).encode("utf-8")

    memo = RecordMemo(compute)
    cache = memo.cache
    records = changed = unchanged = 0
    try:
        for number, line in _numbered(lines):
            # The common case inline (a record AutoTVM wrote, a spelling seen before): this
            # loop runs once per record of logs of millions.
            span = _fast_span(line) if line[:1] == b"{" and not check_json else None
            if span is None:
                kind, found = classify(line, check_json=check_json)
                if kind != "record":
                    _count_other(kind, number, summary)
                    yield line
                    continue
                assert found is not None
                start, end = found.start, found.end
            else:
                start, end = span
            records += 1
            literal = line[start:end]
            if span is None and is_meta_schedule_record(line):
                if to == "text":
                    summary.fail(number, "a MetaSchedule record's target is a TargetJSON dict: "
                                 "use --to json or --to tvm-0.N")
                    yield line
                    continue
                if _release(to) >= (0, 25) and META_SCHEDULE_NOTE not in summary.notes:
                    summary.notes.append(META_SCHEDULE_NOTE)
            hit = cache.get(literal) or memo(literal)
            if not hit[0]:
                summary.fail(number, f"target {literal.decode('utf-8', 'replace')}: {hit[1]}")
            elif hit[1] == literal:
                unchanged += 1
            else:
                changed += 1
                line = line[:start] + hit[1] + line[end:]
            yield line
    finally:
        summary.records += records
        summary.changed += changed
        summary.unchanged += unchanged


def _count_other(kind: Kind, number: int, summary: LogSummary) -> None:
    if kind == "comment":
        summary.comments += 1
    elif kind == "blank":
        summary.blank += 1
    else:
        summary.records += 1
        summary.fail(number, "unreadable record (kept verbatim)")


def select(lines: Iterable[bytes], target: str | dict[str, Any], summary: LogSummary, *,
           environment: Environment | None = None, check_json: bool = False) -> Iterator[bytes]:
    """The records whose target is the same target as ``target``; comment and blank lines,
    and unreadable records (reported), are kept too."""
    summary.selecting = True
    wanted = same_target_key(target, environment)
    memo = RecordMemo(lambda literal: json.dumps(as_021(literal, environment), sort_keys=True)
                 == wanted)
    for number, line in _numbered(lines):
        kind, found = classify(line, check_json=check_json)
        if kind == "record":
            assert found is not None
            summary.records += 1
            ok, match = memo(found.literal)
            if not ok:
                summary.fail(number, f"target {found.literal.decode('utf-8', 'replace')}: {match}")
            elif match:
                summary.selected += 1
                yield line
            continue
        _count_other(kind, number, summary)
        yield line


@dataclass
class TargetCount:
    """One distinct target of a log: its normalized text, TargetJSON, records and spellings."""

    text: str
    json: dict[str, Any]
    count: int = 0
    spellings: dict[str, int] = field(default_factory=dict)


def stats(lines: Iterable[bytes], summary: LogSummary, *,
          environment: Environment | None = None, check_json: bool = False) -> list[TargetCount]:
    """The distinct targets of a log (as targets, not spellings), most records first."""
    by_literal: dict[bytes, int] = {}
    for number, line in _numbered(lines):
        span = _fast_span(line) if line[:1] == b"{" and not check_json else None
        if span is not None:
            literal: bytes | None = line[span[0]:span[1]]
        else:
            kind, found = classify(line, check_json=check_json)
            literal = found.literal if found is not None else None
            if kind != "record":
                _count_other(kind, number, summary)
                continue
        if literal is not None:
            summary.records += 1
            summary.unchanged += 1
            count = by_literal.get(literal)
            if count is None:
                if len(by_literal) >= CACHE_LIMIT * 4:
                    summary.fail(number, "too many distinct target spellings to count")
                    continue
                by_literal[literal] = 1
            else:
                by_literal[literal] = count + 1
    found_targets: dict[str, TargetCount] = {}
    for literal, count in by_literal.items():
        try:
            config = as_021(literal, environment)
            key = json.dumps(config, sort_keys=True)
            text = normalized_text(config) if key not in found_targets else ""
        except Exception as error:  # noqa: BLE001 - a bad record is kept and reported, always
            summary.unchanged -= count
            summary.failed += count
            summary.failures.append((0, f"{count} records with target "
                                        f"{literal.decode('utf-8', 'replace')}: {why(error)}"))
            continue
        entry = found_targets.get(key)
        if entry is None:
            entry = found_targets[key] = TargetCount(text, config)
        entry.count += count
        spelling = loads(literal)
        spelling_text = spelling if isinstance(spelling, str) else json.dumps(spelling)
        entry.spellings[spelling_text] = entry.spellings.get(spelling_text, 0) + count
    return sorted(found_targets.values(), key=lambda e: (-e.count, e.text))
