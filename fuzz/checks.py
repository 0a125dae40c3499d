"""The contracts every fuzz target checks, one function per input type.

Each ``check_*`` takes one *case* (a text, or the bytes of a tuning log) and raises
``AssertionError`` when targetlang breaks a promise of API.md or of its tools; any other
exception escaping a check is a finding too. The same functions serve the Hypothesis
properties (fuzz/targets.py), the raw-bytes libFuzzer targets and the replay of
fuzz/regressions/ by the test suite, so each promise is written once.
"""

from __future__ import annotations

import ast
import io
import json
import re
import warnings
import zlib
from typing import Any

import targetlang as tl
from targetlang._inspect.diff import diff
from targetlang._inspect.explain import explain, render
from targetlang._lower.dialects import releases
from targetlang.migration import MigrationWarning, detect_dialect, logs, migrate
from targetlang.migration.pyscripts import apply_edits, migrate_source
from targetlang.tvmc import codegens, read_entries

RELEASES = tuple(releases())
#: Every dialect a text may be read in: the releases and the extensions (collage).
DIALECTS = tuple(tl.dialects())


def check_error(err: tl.TargetError, text: str | None) -> None:
    """A TargetError keeps API.md's promises: its source, a sane offset, a printable str()."""
    assert err.source is None or text is None or err.source == text, \
        f"error source {err.source!r} is not the text read"
    source = err.source
    assert err.offset is None or (source is not None and 0 <= err.offset <= len(source)), \
        f"offset {err.offset} outside the source"
    rendered = str(err)
    assert isinstance(rendered, str) and rendered, "str(err) is empty"


def check_target(target: tl.Target) -> None:
    """Guarantees 1 and 2 for one Target: text and JSON round trips, a fixed point."""
    canonical = target.to_string()
    again = tl.parse(canonical, dialect=target.dialect)
    assert again == target, f"parse(to_string()) differs: {canonical!r}"
    # The memo hands back the very same Target when the canonical text is the text read:
    # printing it again would only repeat to_string() (profiled: to_string() is two fifths
    # of this check).
    if again is not target:
        assert again.to_string() == canonical, "canonical text is not a fixed point"
    exported = target.to_json()
    assert json.loads(json.dumps(exported)) == exported, "to_json() is not plain JSON"
    assert tl.from_json(exported, dialect=target.dialect) == target, \
        "from_json(to_json()) differs"
    try:
        printed = target.to_string(style="tvm")
    except tl.TargetError as err:  # TVM's str() fails there too
        check_error(err, None)
    else:
        assert isinstance(printed, str)


def check_parse(text: str, dialect: str = "tvm-0.21") -> None:
    """Guarantee 3: any text gives a Target (which keeps 1 and 2) or a sane TargetError."""
    try:
        target = tl.parse(text, dialect=dialect)
    except tl.TargetError as err:
        check_error(err, text)
        return
    check_target(target)


def picked_dialect(text: str) -> str:
    """A dialect chosen by the text itself: every dialect over a run, one for each text."""
    return DIALECTS[zlib.crc32(text.encode("utf-8", "surrogatepass")) % len(DIALECTS)]


def check_parse_dialects(text: str) -> None:
    """Guarantee 3 in TVM 0.21's reading and in one more release's, picked by the text."""
    check_parse(text)
    dialect = picked_dialect(text)
    if dialect != "tvm-0.21":
        check_parse(text, dialect=dialect)


def check_round_trip(text: str) -> None:
    """A valid text: its target keeps guarantees 1 and 2."""
    check_target(tl.parse(text))


def check_json(text: str) -> None:
    """JSON text, and the dict it decodes to in a dialect picked by the text (every dialect
    over a run, one a text: a seventh of the work): a Target or a sane TargetError."""
    check_parse(text)
    try:
        config = json.loads(text)
    except (ValueError, RecursionError):
        return  # not JSON by Python's reading: parse() alone had to answer
    if not isinstance(config, dict):
        return
    try:
        target = tl.from_json(config, dialect=picked_dialect(text))
    except tl.TargetError as err:
        check_error(err, None)
        return
    check_target(target)


def check_tools(text: str) -> None:
    """lint, explain, detect_dialect and migrate answer any text or raise a sane TargetError;
    what migrate() writes is a TargetJSON the target release reads back as itself."""
    check_parse(text)
    try:
        warnings_found = tl.lint(text)
    except tl.TargetError as err:
        check_error(err, text)
    else:
        for warning in warnings_found:
            assert warning.source == text, "lint warning about another text"
            assert warning.offset is None or 0 <= warning.offset <= len(text), \
                f"lint offset {warning.offset}"
        tree = explain(text)
        assert render(tree).startswith(tree["kind"]), "explain's rendering lost its kind"
        json.dumps(tree)
    try:
        dialect = detect_dialect(text)
    except tl.TargetError as err:
        check_error(err, text)
        return
    assert dialect in RELEASES, f"detect_dialect answered {dialect!r}"
    try:
        with warnings.catch_warnings():  # what a release cannot carry: an answer, not noise
            warnings.simplefilter("ignore", MigrationWarning)
            migrated = migrate(text)
    except tl.TargetError as err:
        check_error(err, text)
        return
    assert json.loads(json.dumps(migrated)) == migrated, "migrate() is not plain JSON"
    newest = RELEASES[0]
    # (read and written again in the newest release: its export less the derived feature.*)
    assert migrate(migrated, source_dialect=newest, target_dialect=newest) == migrated, \
        f"{newest} does not read migrate()'s output as itself"


def check_tvmc(text: str) -> None:
    """parse_tvmc answers any text or raises a sane TargetError; its codegens are the
    entries that name one, in order."""
    try:
        result = tl.parse_tvmc(text)
    except tl.TargetError as err:
        check_error(err, text)
        return
    assert result.target.host == result.host, "the target's host is not the host"
    if not text.strip().startswith("{"):
        names = [e.name for e in read_entries(text)]
        assert [c.name for c in result.codegens] == [n for n in names if n in codegens()], \
            "codegens differ from the entries that name one"
    json.dumps(result.to_json())
    check_target(result.target)


def check_diff(text: str) -> None:
    """diff(a, b) is empty exactly when a == b (two targets: a JSON list of two texts)."""
    try:
        first, second = json.loads(text)
    except (ValueError, TypeError):
        return
    if not isinstance(first, str) or not isinstance(second, str):
        return
    try:
        a, b = tl.parse(first), tl.parse(second)
    except tl.TargetError:
        return
    assert (diff(a, b) == []) == (a == b), "diff disagrees with =="
    assert diff(a, a) == [], "a target differs from itself"


def check_logs(data: bytes) -> None:
    """The log tools on any bytes: never an exception; every line kept, in order; a record
    changes only inside its target; a failed record is kept verbatim."""
    lines = list(io.BytesIO(data))
    summary = logs.LogSummary()
    normalized = list(logs.normalize(lines, summary))
    assert len(normalized) == len(lines), "normalize lost or added lines"
    failed = {number for number, _ in summary.failures}
    for number, (before, after) in enumerate(zip(lines, normalized), 1):
        if before == after:
            continue
        assert number not in failed, f"line {number} failed but was changed"
        found = logs.locate(before)
        assert found is not None, f"line {number} changed but holds no target"
        tail = len(before) - found.end
        assert after[:found.start] == before[:found.start] and \
            after[len(after) - tail:] == before[found.end:], \
            f"line {number} changed outside its target"
    assert summary.records + summary.comments + summary.blank == len(lines), "lines miscounted"
    as_json = logs.LogSummary()
    assert len(list(logs.normalize(lines, as_json, to="json"))) == len(lines)
    counted = logs.LogSummary()
    logs.stats(lines, counted)
    for literal in _targets(lines)[:1]:  # select by the log's own first target
        try:
            key = logs.same_target_key(literal)
        except tl.TargetError:
            continue
        chosen = logs.LogSummary()
        selected = list(logs.select(lines, json.loads(key) if key.startswith("{") else literal,
                                    chosen))
        assert len(selected) <= len(lines)


def _targets(lines: list[bytes]) -> list[str]:
    out = []
    for line in lines:
        found = logs.locate(line)
        if found is None:
            continue
        try:
            value = json.loads(found.literal)
        except ValueError:
            continue
        if isinstance(value, str):
            out.append(value)
    return out


_PY_LINE = re.compile(r"\r\n|\r|\n")  # Python's own line ends (not str.splitlines')


def _py_offset(text: str, starts: list[int], line: int, byte_column: int) -> int:
    start = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    return start + len(text[start:end].encode("utf-8")[:byte_column].decode("utf-8"))


def _adds_no_error(text: str, expected: SyntaxError | ValueError) -> None:
    """``text`` compiles, or fails only as the original failed (type and message)."""
    try:
        compile(text, "<migrated>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        assert type(error) is type(expected) and \
            getattr(error, "msg", str(error)) == getattr(expected, "msg", str(expected)), \
            f"the rewrite added an error: {error}"


def check_pyscript(text: str) -> None:
    """migrate --py on any source: never an exception; a file that compiled still compiles;
    the edits (sorted, apart) give the new text; each rewrite replaced the text it says, and
    a string literal became a dict display or a string of a JSON object."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # migrate --py must not pass on the script's warnings
        result = migrate_source(text)
        warnings.simplefilter("ignore")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            assert result.text == text, "a file that is not Python was changed"
            return
        assert not any("not Python" in f.message for f in result.findings), \
            "Python source reported as not Python"
        if not result.rewrites:
            assert result.text == text, "the file changed without a rewrite"
            return
        try:
            compile(text, "<original>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            # parsed but never compiled as one file (a notebook's cells, a repeated keyword):
            # the rewrite must keep it parsing and add no error of its own
            ast.parse(result.text)
            _adds_no_error(result.text, error)
        else:
            compile(result.text, "<migrated>", "exec", dont_inherit=True)
    edits = result.edits
    assert edits == sorted(edits), "edits out of order"
    assert all(a[1] <= b[0] for a, b in zip(edits, edits[1:])), "edits overlap"
    assert apply_edits(text, edits) == result.text, "the edits do not give the new text"
    starts = [0] + [m.end() for m in _PY_LINE.finditer(text)]
    for rewrite in result.rewrites:
        start = _py_offset(text, starts, rewrite.line, rewrite.column)
        assert text[start:start + len(rewrite.old)] == rewrite.old, \
            f"rewrite at {rewrite.line}:{rewrite.column} replaced other text"
        try:
            old: Any = ast.literal_eval(rewrite.old)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue  # a call, an import, a property read
        if isinstance(old, str) and rewrite.new:
            value: Any = ast.literal_eval(rewrite.new)
            if isinstance(value, str):
                value = json.loads(value)
            assert isinstance(value, dict), "a literal was replaced by something not a target"
