"""Properties of the tools that read and write files and streams, over inputs nobody wrote:
``logs`` over arbitrary record bytes, ``migrate --py`` over arbitrary Python source, and the
command line's batches over arbitrary standard input.

``TARGETLANG_CAMPAIGN_EXAMPLES=N`` runs each property on N inputs (a fuzz campaign; default:
Hypothesis' usual 100).
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang.cli import main
from targetlang.logs import LogSummary, lines_of, locate, normalize, select, stats
from targetlang.migration import MigrationWarning
from targetlang.migration._sites import json_text, minimal
from targetlang.pyscripts import migrate_source, py_literal
from targetlang.strategies import malformed_strings, target_strings

CAMPAIGN = settings(
    max_examples=int(os.environ.get("TARGETLANG_CAMPAIGN_EXAMPLES", "100")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

texts = st.one_of(target_strings(), malformed_strings(), st.text(max_size=40))
endings = st.sampled_from([b"\n", b"\r\n", b"\r", b""])


# ---- logs: arbitrary record bytes --------------------------------------------------------------

@st.composite
def records(draw: st.DrawFn) -> bytes:
    """A record as AutoTVM writes it, or one cut short, spliced, or made of arbitrary bytes."""
    target = draw(st.one_of(texts, st.dictionaries(st.text(max_size=5), st.integers(),
                                                   max_size=2)))
    key = draw(st.sampled_from(["input", "i"]))
    line = json.dumps({key: [target, "task", [], {}], "result": [[0.1], 0, 1.0, 1], "v": 0.2},
                      ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    how = draw(st.sampled_from(["whole", "cut", "splice", "bytes", "nest"]))
    if how == "cut":
        line = line[:draw(st.integers(0, len(line)))]
    elif how == "splice":
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.binary(max_size=8)) + line[at:]
    elif how == "bytes":
        line = draw(st.binary(max_size=80))
    elif how == "nest":
        depth = draw(st.integers(1, 5000))
        line = line.replace(b"[", b"[" + b"[" * depth, 1).replace(b"]", b"]" + b"]" * depth, 1)
    return line


def check_log(data: bytes) -> None:
    """``logs`` on any bytes: every line kept, only target literals changed, nothing raised."""
    given_lines = list(lines_of(io.BytesIO(data)))
    assert b"".join(given_lines) == data  # splitting loses nothing
    summary = LogSummary()
    out = list(normalize(iter(given_lines), summary))
    assert len(out) == len(given_lines)
    for before, after in zip(given_lines, out):
        if before != after:  # only the target's literal changed
            found = locate(before)
            assert found is not None
            assert after.startswith(before[:found.start]) and after.endswith(before[found.end:])
    assert summary.records + summary.comments + summary.blank == len(given_lines)
    kept = LogSummary()
    chosen = list(select(iter(given_lines), "llvm", kept))
    assert set(chosen) <= set(given_lines)
    stats(iter(given_lines), LogSummary())


@CAMPAIGN
@given(st.lists(st.tuples(records(), endings), max_size=6))
def test_logs_keep_every_line_and_change_only_targets(pieces: list[tuple[bytes, bytes]]) -> None:
    check_log(b"".join(line + end for line, end in pieces))


@CAMPAIGN
@given(st.binary(max_size=300), st.integers(1, 64))
def test_lines_of_any_bytes_in_any_blocks(data: bytes, block: int) -> None:
    lines = list(lines_of(io.BytesIO(data), block))
    assert b"".join(lines) == data
    assert lines == data.splitlines(keepends=True)


# ---- migrate --py: arbitrary Python source ----------------------------------------------------------

_ODD = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\t", "é", "\r"]


@st.composite
def scripts(draw: st.DrawFn) -> str:
    """A Python file: imports, target calls with literal targets, and noise where Python
    allows it (comments and strings holding every character str.splitlines splits on)."""
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = [draw(st.sampled_from(["import tvm", "import tvm as t2", "from tvm.target import "
                                   "Target", "from tvm import relax"]))]
    for _ in range(draw(st.integers(0, 6))):
        odd = draw(st.text(alphabet=st.sampled_from(_ODD + ["a", " ", "'"]), max_size=4))
        target = draw(texts)
        call = draw(st.sampled_from([
            "tvm.target.Target({})", "t2.target.Target({}, host={})", "Target({})",
            "relax.build(mod, target={})", "tvm.compile(mod, {})"]))
        literals = [repr(target), repr(draw(texts))]
        choice = draw(st.sampled_from(["call", "comment", "string", "formfeed"]))
        if choice == "call":
            lines.append(f"x = {call.format(*literals)}  # {odd.replace(chr(13), '')}")
        elif choice == "comment":
            lines.append(f"# {odd.replace(chr(13), '')}")
        elif choice == "string":
            lines.append(f"s = {odd!r}")
        else:
            lines.append("\x0c")
    return newline.join(lines) + newline


def check_script(text: str) -> None:
    """``migrate --py`` on any source: it compiles afterwards, and only target literals
    changed, each into the dict literal of ``migrate()``."""
    result = migrate_source(text)
    if not result.rewrites:
        assert result.text == text
        return
    compile(result.text, "<property>", "exec", dont_inherit=True)
    # The file with each old literal (where the AST puts it, on Python's lines: \n, \r\n,
    # \r) replaced by its new one is the result, byte for byte: nothing else moved.
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    expected, at = [], 0
    for rewrite in result.rewrites:
        where = starts[rewrite.line - 1] + len(
            lines[rewrite.line - 1].encode("utf-8")[:rewrite.column].decode("utf-8"))
        assert text[where:where + len(rewrite.old)] == rewrite.old
        expected.append(text[at:where] + rewrite.new)
        at = where + len(rewrite.old)
        value = ast.literal_eval(rewrite.old)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MigrationWarning)
            migrated = targetlang.migrate(value)  # --py reads as migrate()'s one rule
        shown = minimal(migrated, "tvm-0.27")  # what the release would not fill in itself
        written = ast.literal_eval(rewrite.new)
        if isinstance(written, str):  # a string that reaches a target: JSON text of it
            assert json.loads(written) == shown and rewrite.new == repr(json_text(shown))
        else:  # written in a target position: the dict
            assert written == shown and rewrite.new == py_literal(shown)
        assert targetlang.from_json(shown, dialect="tvm-0.27").to_json() == \
            targetlang.from_json(migrated, dialect="tvm-0.27").to_json()  # the same target
    assert "".join(expected) + text[at:] == result.text



@CAMPAIGN
@given(scripts())
def test_migrate_py_changes_only_target_literals(text: str) -> None:
    check_script(text)


@CAMPAIGN
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(
    lambda b: b.decode("latin-1"))))
def test_migrate_py_answers_any_text(text: str) -> None:
    result = migrate_source("import tvm\n" + text)
    assert result.text == result.original or result.rewrites


# ---- the command line: arbitrary standard input ---------------------------------------------------

BATCH_JSON = [["parse"], ["migrate", "--compact"], ["tvmc"], ["explain", "--json"],
              ["check", "--json"], ["check", "--json", "--strict"]]


def check_batch(command: list[str], lines: list[str]) -> None:
    """Any batch on standard input prints one result a line, failures as error objects."""
    out, err = io.StringIO(), io.StringIO()
    code = main(command, stdin=io.StringIO("".join(line + "\n" for line in lines)),
                stdout=out, stderr=err, environ={})
    assert code in (0, 1), err.getvalue()
    printed = out.getvalue().split("\n")[:-1] if out.getvalue() else []
    assert len(printed) == len(lines)
    if command != ["format"]:
        for number, line in enumerate(printed, 1):
            value = json.loads(line)
            if isinstance(value, dict) and "error" in value and "line" in value:
                assert value["line"] == number and value["input"] == lines[number - 1]
    assert "Traceback" not in err.getvalue()


@CAMPAIGN
@given(st.sampled_from(BATCH_JSON + [["format"]]),
       st.lists(texts.filter(lambda t: "\n" not in t), max_size=5))
def test_every_batch_prints_one_result_per_line(command: list[str], lines: list[str]) -> None:
    check_batch(command, lines)


# ---- the console script: arbitrary bytes on its streams ---------------------------------------------

@settings(CAMPAIGN, max_examples=max(5, CAMPAIGN.max_examples // 20))
@given(st.sampled_from(BATCH_JSON + [["format"], ["logs", "stats", "-"],
                                      ["logs", "normalize", "-", "-o", "-"]]),
       st.binary(max_size=200), st.sampled_from(["utf-8", "ascii", "latin-1"]))
def test_the_console_script_never_prints_a_traceback(command: list[str], data: bytes,
                                                      encoding: str) -> None:
    import subprocess

    from test_cli import SCRIPT

    if SCRIPT is None:
        return
    done = subprocess.run([SCRIPT, *command], input=data, capture_output=True, timeout=60,
                          check=False, env={**os.environ, "PYTHONIOENCODING": encoding})
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert done.returncode in (0, 1)
