"""MetaSchedule databases moved between TVM releases: records, trace instructions, workloads.

A database is what ``JSONDatabase(work_dir=DIR)`` writes: ``database_workload.json`` (one
``[structural hash, IR]`` array a line, the IR an ``IRModule`` as TVM serializes it, base64)
and ``database_tuning_record.json`` (one ``[workload index, [trace, run_secs, target,
args_info]]`` array a line). Moving one to another release changes three things:

- each record's target: the TargetJSON the release reads (``logs.as_release``);
- the trace's instruction kinds: renamed where TVM renamed them (``GetBlock`` became
  ``GetSBlock`` in 0.24), a record using a kind the release does not know is refused;
  the tables come from the oracles (``scripts/generate_schedule_instructions.py``);
- the workload table: its IR is serialized with type keys and a graph format that change in
  every release, so it is taken as it is only when the release that wrote it is the release
  written for; otherwise the table that release wrote for the same workloads must be given
  (checked against the database: count, order, argument shapes, hashes where comparable).

Every other byte of a record (run_secs, args_info, the trace's inputs, attributes and
decisions) is kept as it was.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .._schema.resources import data_text
from ..environment import Environment
from ._records import RecordMemo, as_021, skip_json_space
from .logs import LogSummary, as_release, locate, select

__all__ = ["RECORDS", "WORKLOADS", "DatabaseError", "WorkloadTable", "check_workloads",
           "convert_records", "normalize_database", "normalize_records", "read_workload_table", "release_of",
           "select_database", "workloads_for"]

WORKLOADS = "database_workload.json"
RECORDS = "database_tuning_record.json"


class DatabaseError(ValueError):
    """A database that cannot be written as asked (nothing is written)."""


# ---- the instruction tables ---------------------------------------------------------------------

@cache
def _instructions() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(data_text("schedule-instructions.json"))
    return data


def _release_name(release: tuple[int, ...]) -> str:
    return ".".join(str(n) for n in release[:2])


def known_kinds(release: tuple[int, ...]) -> frozenset[str] | None:
    """The trace instruction kinds TVM ``release`` knows (None: no table for it)."""
    entry = _instructions()["releases"].get(_release_name(release))
    return frozenset(entry["kinds"]) if entry is not None else None


def releases_with_tables() -> list[str]:
    return list(_instructions()["releases"])


def _require_table(release: tuple[int, ...]) -> None:
    if known_kinds(release) is None:
        raise DatabaseError(f"no trace instruction table for TVM {_release_name(release)}: "
                            f"databases are written for TVM {', '.join(releases_with_tables())}")


def _rename(kind: str, release: tuple[int, ...]) -> str | None:
    """What instruction ``kind`` is called in ``release`` (None: it does not know it)."""
    known = known_kinds(release)
    assert known is not None
    if kind in known:
        return kind
    for rename in _instructions()["renames"]:
        if kind == rename["old"] and rename["new"] in known:
            return str(rename["new"])
        if kind == rename["new"] and rename["old"] in known:  # back to an older release
            return str(rename["old"])
    return None


# ---- the workload table -------------------------------------------------------------------------

@dataclass
class WorkloadTable:
    """A ``database_workload.json``: its lines as written, and what can be compared of them."""

    lines: list[bytes]
    #: where it was read from (for messages)
    name: str
    #: the release that wrote it (from the IR's ``tvm_version``), None when unknown
    release: tuple[int, int] | None
    hashes: list[str] = field(default_factory=list)
    #: per workload, every array of integers in its IR (the buffers' shapes among them)
    int_arrays: list[frozenset[tuple[frozenset[int], ...]]] = field(default_factory=list)

    def data(self) -> bytes:
        return b"".join(self.lines)


def release_of(version: str) -> tuple[int, int] | None:
    """``(0, 25)`` for a ``tvm_version`` such as ``0.25.0.post1`` or ``0.21.dev0``."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def _graph(payload: Any) -> dict[str, Any]:
    """The JSON graph of a workload's IR: base64 of a length-prefixed JSON text, or JSON."""
    if isinstance(payload, dict):
        return payload
    if not isinstance(payload, str):
        raise ValueError("the IR is neither a string nor an object")
    raw = base64.b64decode(payload, validate=True)
    if len(raw) >= 8 and int.from_bytes(raw[:8], "little") == len(raw) - 8:
        raw = raw[8:]  # a serialized std::string: its length first
    graph = json.loads(raw)
    if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list):
        raise ValueError("the IR is not a JSON graph of nodes")
    return graph


def _version(graph: dict[str, Any]) -> str | None:
    for key in ("metadata", "attrs"):  # TVM >= 0.22 / <= 0.21
        meta = graph.get(key)
        if isinstance(meta, dict) and isinstance(meta.get("tvm_version"), str):
            return str(meta["tvm_version"])
    return None


def _int_arrays(graph: dict[str, Any]) -> frozenset[tuple[frozenset[int], ...]]:
    """Every array of integer nodes in a graph, in either serialization: per element the
    values it may hold (an ``IntImm``'s value is inline in some releases and a reference to
    an ``int`` node in others, and a graph does not say which)."""
    nodes: list[Any] = graph["nodes"]

    def plain(index: Any) -> int | None:
        node = nodes[index] if isinstance(index, int) and 0 <= index < len(nodes) else None
        if isinstance(node, dict) and node.get("type") == "int" and \
                isinstance(node.get("data"), int):
            return int(node["data"])
        return None

    def integer(index: Any) -> frozenset[int] | None:
        if (direct := plain(index)) is not None:
            return frozenset([direct])
        node = nodes[index] if isinstance(index, int) and 0 <= index < len(nodes) else None
        if not isinstance(node, dict):
            return None
        kind = node.get("type", node.get("type_key"))
        if not (isinstance(kind, str) and kind.endswith("IntImm")):
            return None
        data = node.get("data")
        value = data.get("value") if isinstance(data, dict) else \
            (node.get("attrs") or {}).get("value")
        if isinstance(value, str):  # TVM <= 0.21: every attribute a string
            return frozenset([int(value)]) if value.lstrip("-").isdigit() else None
        if isinstance(value, int):
            referenced = plain(value)
            return frozenset([value] if referenced is None else [value, referenced])
        return None

    found = set()
    for node in nodes:
        if isinstance(node, dict) and node.get("type", node.get("type_key")) == "ffi.Array" \
                and isinstance(node.get("data"), list) and node["data"]:
            values = [integer(i) for i in node["data"]]
            if all(v is not None for v in values):
                found.add(tuple(v for v in values if v is not None))
    return frozenset(found)


def _holds(arrays: frozenset[tuple[frozenset[int], ...]], shape: tuple[int, ...]) -> bool:
    return any(len(array) == len(shape) and all(n in v for n, v in zip(shape, array))
               for array in arrays)


def read_workload_table(data: bytes, name: str) -> WorkloadTable:
    """Read a ``database_workload.json``; a line that is not a workload is an error."""
    table = WorkloadTable(lines=[], name=name, release=None)
    releases = set()
    for number, line in enumerate(data.splitlines(keepends=True), 1):
        if not line.strip():
            continue
        try:
            shash, payload = json.loads(line)
            graph = _graph(payload)
        except (ValueError, TypeError, RecursionError) as error:
            raise DatabaseError(f"{name}: line {number} is not a workload ({error})") from None
        if not line.endswith(b"\n"):
            line += b"\n"
        table.lines.append(line)
        table.hashes.append(str(shash))
        table.int_arrays.append(_int_arrays(graph))
        version = _version(graph)
        releases.add(release_of(version) if version else None)
    if len(releases) == 1:
        table.release = releases.pop()
    return table


def _shapes(args_info: Any) -> list[tuple[int, ...]]:
    """The tensor shapes of a record's ``args_info`` (``[["TENSOR", dtype, shape], ...]``)."""
    out = []
    if isinstance(args_info, list):
        for arg in args_info:
            if isinstance(arg, list) and len(arg) == 3 and arg[0] == "TENSOR" and \
                    isinstance(arg[2], list) and all(isinstance(n, int) for n in arg[2]):
                out.append(tuple(arg[2]))
    return out


def check_workloads(source: WorkloadTable, given: WorkloadTable, records: list[Any],
                    release: tuple[int, ...]) -> None:
    """That ``given`` (written by ``release``) holds the workloads of ``source``, in order:
    as many, each holding the shapes its records measured, the same structural hashes when
    one release wrote both."""
    name = given.name
    wanted = _release_name(release)
    if given.release is not None and given.release != tuple(release[:2]):
        raise DatabaseError(f"{name} was written by TVM {_release_name(given.release)}, not "
                            f"{wanted}: give the workload table TVM {wanted} writes")
    if len(given.lines) != len(source.lines):
        raise DatabaseError(f"{name} holds {len(given.lines)} workloads, the database "
                            f"{len(source.lines)}: it must hold the same workloads in the same "
                            "order")
    if given.release is not None and given.release == source.release:
        for index, (a, b) in enumerate(zip(source.hashes, given.hashes)):
            if a != b:
                raise DatabaseError(f"{name}: workload {index} has structural hash {b}, the "
                                    f"database's {a}: not the same workload")
    for index, record in records:
        if not 0 <= record[0] < len(given.int_arrays):
            continue  # reported with the record
        for shape in _shapes(record[1][3]):
            if shape and not _holds(given.int_arrays[record[0]], shape):
                raise DatabaseError(
                    f"{name}: workload {record[0]} has no buffer of shape {list(shape)}, which "
                    f"record {index} measured: not the database's workload {record[0]} (the "
                    "table must hold the same workloads in the same order)")


def workloads_for(source: WorkloadTable, given: WorkloadTable | None, records: list[Any],
                  release: tuple[int, ...]) -> bytes:
    """The workload table to write for ``release``: the database's own when ``release``
    wrote it, else ``given`` once checked; else what is needed, as an error."""
    if given is not None:
        check_workloads(source, given, records, release)
        return given.data()
    if source.release is not None and source.release == tuple(release[:2]):
        return source.data()
    wrote = f"TVM {_release_name(source.release)}" if source.release else "an unknown release"
    wanted = _release_name(release)
    raise DatabaseError(
        f"the workload table was written by {wrote}; TVM {wanted} serializes IR differently "
        f"and targetlang cannot prove a conversion exact: give --workloads FILE, the "
        f"{WORKLOADS} TVM {wanted} writes for the same workloads in the same order "
        f"(JSONDatabase(work_dir=...).commit_workload(mod) for each); nothing written")


# ---- the records --------------------------------------------------------------------------------

def instruction_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of each trace instruction's kind string in a record's text
    (character offsets), or ValueError when the record is not shaped as TVM writes it."""
    decoder = json.JSONDecoder()
    at = skip_json_space(text, 0)

    def expect(char: str) -> None:
        nonlocal at
        at = skip_json_space(text, at)
        if text[at:at + 1] != char:
            raise ValueError(f"expected {char!r} at {at}")
        at += 1

    expect("[")
    _, at = decoder.raw_decode(text, skip_json_space(text, at))  # the workload index
    for char in ",[[[":  # [trace, ...  trace = [instructions, decisions]
        expect(char)
    spans: list[tuple[int, int, str]] = []
    at = skip_json_space(text, at)
    if text[at:at + 1] == "]":
        return spans
    while True:
        at = skip_json_space(text, at)
        if text[at:at + 1] != "[":
            raise ValueError(f"an instruction is an array (at {at})")
        start = skip_json_space(text, at + 1)
        kind, end = decoder.raw_decode(text, start)
        if not isinstance(kind, str):
            raise ValueError("an instruction starts with its kind")
        spans.append((start, end, kind))
        _, at = decoder.raw_decode(text, at)
        at = skip_json_space(text, at)
        if text[at:at + 1] == "]":
            return spans
        expect(",")


@dataclass
class RecordCounts:
    """What converting the records did, beyond the usual summary."""

    renamed: dict[tuple[str, str], int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)


def convert_records(lines: Iterable[tuple[int, bytes]], release: tuple[int, ...],
                    target_of: Callable[[bytes], tuple[bool, Any]], fail: Callable[[int, str], None],
                    counts: RecordCounts, workload_count: int | None = None) -> Iterator[
                        tuple[int, bytes, bool]]:
    """Each record as ``release`` reads it: ``(line number, line, changed)``; a record that
    cannot be (its target, an instruction the release does not know, a workload index out
    of the table, not a record) is reported through ``fail`` and left out."""
    _require_table(release)
    for number, line in lines:
        if not line.strip():
            continue
        found = locate(line) if line[:1] == b"[" else None
        if found is None:
            fail(number, "not a MetaSchedule tuning record: left out")
            continue
        try:
            text = line.decode("utf-8")
            record = json.loads(text)
            spans = instruction_spans(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            fail(number, f"not a MetaSchedule tuning record ({error}): left out")
            continue
        index = record[0]
        if workload_count is not None and not 0 <= index < workload_count:
            fail(number, f"workload index {index} is not in the workload table "
                         f"({workload_count} workloads): left out")
            continue
        ok, target = target_of(found.literal)
        if not ok:
            fail(number, f"target {found.literal.decode('utf-8', 'replace')}: {target}: left out")
            continue
        pieces = []
        unknown = None
        at = 0
        for start, end, kind in spans:
            new = _rename(kind, release)
            if new is None:
                unknown = kind
                break
            if new != kind:
                counts.renamed[(kind, new)] = counts.renamed.get((kind, new), 0) + 1
                pieces += [text[at:start], json.dumps(new)]
                at = end
        if unknown is not None:
            counts.refused[unknown] = counts.refused.get(unknown, 0) + 1
            fail(number, f"the trace uses instruction {unknown}, which TVM "
                         f"{_release_name(release)} does not have: record refused")
            continue
        pieces.append(text[at:])
        out = "".join(pieces).encode("utf-8")
        # The target follows the trace: its byte offsets shift by what the renames changed.
        shift = len(out) - len(line)
        start, end = found.start + shift, found.end + shift
        out = out[:start] + target + out[end:]
        yield number, out, out != line


def records_with_indexes(lines: Iterable[bytes]) -> list[Any]:
    """``(line number, record)`` of the parseable records (to check a workload table)."""
    out = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(record, list) and len(record) == 2 and isinstance(record[0], int) and \
                isinstance(record[1], list) and len(record[1]) == 4:
            out.append((number, record))
    return out


# ---- whole databases ----------------------------------------------------------------------------

def _target_release(to: str) -> tuple[int, ...]:
    from .._lower.dialects import DIALECTS  # on first use, as logs does: the release table

    if to == "json":
        return (0, 21)  # the tvm-0.21 TargetJSON
    dialect = DIALECTS.get(to)
    if dialect is None or dialect.release is None:
        raise DatabaseError(f"{to} is not a TVM release")
    entry = _instructions()["releases"].get(to, {})
    if entry.get("meta_schedule") is False:  # (its oracle has no MetaSchedule at all)
        raise DatabaseError(f"{to} has no MetaSchedule (no JSONDatabase, no trace "
                            "instructions; schedule-instructions.json): no database is "
                            f"written for it. `logs normalize --to {to}` writes the targets "
                            "of an AutoTVM log; `--to tvm-0.N` a database TVM loads")
    return tuple(dialect.release)


def normalize_database(records: bytes, source: WorkloadTable, summary: LogSummary, *,
                       to: str, given: WorkloadTable | None = None,
                       environment: Environment | None = None) -> dict[str, bytes]:
    """The files of the database for ``to`` (``json`` or a release dialect): every record's
    target and trace as that release reads them, and its workload table; what cannot be
    written is an error (:class:`DatabaseError`), records that cannot are left out and
    reported in ``summary``."""
    release = _target_release(to)
    _require_table(release)
    lines = records.splitlines(keepends=True)
    table = workloads_for(source, given, records_with_indexes(lines), release)
    out = normalize_records(lines, summary, to=to, workload_count=len(source.lines),
                            environment=environment)
    summary.notes.append("workload table: " + (
        "the one given (--workloads), checked against the database" if given is not None
        else "the database's own"))
    return {WORKLOADS: table, RECORDS: out}


def normalize_records(lines: list[bytes], summary: LogSummary, *, to: str,
                      workload_count: int | None = None,
                      environment: Environment | None = None) -> bytes:
    """A database's records alone as release ``to`` reads them (targets and traces); the
    records that cannot be are left out and reported in ``summary``."""
    release = _target_release(to)
    _require_table(release)

    def compute(literal: bytes) -> bytes:
        config = as_021(literal, environment)
        if to != "json":
            config = as_release(config, to, environment)
        return json.dumps(config).encode("utf-8")

    counts = RecordCounts()
    out = []
    summary.records += sum(1 for line in lines if line.strip())
    summary.blank += sum(1 for line in lines if not line.strip())
    for _, line, changed in convert_records(enumerate(lines, 1), release, RecordMemo(compute),
                                            summary.fail, counts, workload_count):
        out.append(line if line.endswith(b"\n") else line.rstrip(b"\r\n") + b"\n")
        if changed:
            summary.changed += 1
        else:
            summary.unchanged += 1
    name = _release_name(release)
    summary.notes += [f"trace instruction {old} renamed {new} (TVM {name}) in {n} records"
                      for (old, new), n in sorted(counts.renamed.items())]
    summary.notes += [f"{n} records refused: their traces use {kind}, which TVM {name} does "
                      "not have" for kind, n in sorted(counts.refused.items())]
    return b"".join(out)


def select_database(records: bytes, table: WorkloadTable, summary: LogSummary, *,
                    target: str | dict[str, Any],
                    environment: Environment | None = None) -> dict[str, bytes]:
    """The files of the database of ``target``'s records (``logs.select``), with the workload
    table as it was: the same release reads it."""
    def records_only(lines: Iterable[bytes]) -> Iterator[bytes]:
        for number, line in enumerate(lines, 1):
            if line.strip() and (line[:1] != b"[" or locate(line) is None):
                summary.records += 1
                summary.fail(number, "not a MetaSchedule tuning record: left out")
            elif line.strip():
                yield line

    kept = [line if line.endswith(b"\n") else line.rstrip(b"\r\n") + b"\n"
            for line in select(records_only(records.splitlines(keepends=True)), target,
                               summary, environment=environment)]
    return {WORKLOADS: table.data(), RECORDS: b"".join(kept)}
