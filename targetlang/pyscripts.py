"""Rewrite the legacy target strings of Python scripts into the dict literals TVM 0.24+ reads.

Found: string literals passed to ``tvm.target.Target(target, host)`` (however it is
imported: ``import tvm``, ``from tvm.target import Target as T``, ``from tvm import
target``), and the ``target`` / ``target_host`` / ``host`` arguments (by keyword or position)
of ``tvm.compile``, ``tvm.build``, ``relax.build`` and ``relay.build``. Each literal that a
release older than TVM 0.24 reads and TVM 0.27 does not (a bare kind name or a tag needs no
change) is replaced by the dict literal of :func:`targetlang.migrate`; every other byte of
the file stays as it was. What cannot be proved to be a target (an f-string, a concatenation,
a variable) or cannot be migrated without loss is reported with its line, never guessed at.
"""

from __future__ import annotations

import ast
import difflib
import errno
import io
import os
import re
import stat
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ._files import write_atomically
from ._lower.dialects import releases
from ._pysites import (
    Engine,
    Finding,
    Rewrite,
    apply_edits,
    might_have_sites,
    py_literal,
)
from .environment import Environment

__all__ = ["Finding", "Rewrite", "ScriptResult", "NEWEST_RELEASE", "apply_edits", "migrate_source",
           "migrate_file", "py_literal"]

#: The default release to upgrade to: the newest the library knows.
NEWEST_RELEASE = releases()[0]


@dataclass
class ScriptResult:
    """The outcome for one file: the new text and what was rewritten or reported."""

    path: str
    original: str
    text: str
    rewrites: list[Rewrite] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: ``(start, end, replacement)``, character offsets into ``original``, sorted and not
    #: overlapping: applying them to ``original`` gives ``text``.
    edits: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def diff(self) -> str:
        """A unified diff from the original to the rewritten text."""
        return "".join(difflib.unified_diff(
            _LINE.findall(self.original), _LINE.findall(self.text),
            fromfile=f"a/{self.path}", tofile=f"b/{self.path}"))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def migrate_source(text: str, *, path: str = "<string>", target_dialect: str = NEWEST_RELEASE,
                   environment: Environment | None = None, runtime: bool = False,
                   full: bool = False) -> ScriptResult:
    """Rewrite the legacy target literals of one Python source text."""

    result = ScriptResult(path=path, original=text, text=text)
    try:
        with warnings.catch_warnings():  # the script's own warnings ('\d' escapes): not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        result.findings.append(Finding(path, error.lineno or 1, (error.offset or 1) - 1,
                                       f"not Python: {error.msg}"))
        return result
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes; nested too deeply
        result.findings.append(Finding(path, 1, 0, f"not Python: {_why(error)}"))
        return result
    if not might_have_sites(text):
        return result
    engine = Engine(text, tree, path=path, target_dialect=target_dialect,
                    environment=environment, runtime=runtime, full=full)
    engine.run()
    result.findings = engine.findings
    result.rewrites = engine.rewrites
    edits: list[tuple[int, int, str]] = []
    for (start, end), new in sorted(engine.edits.items()):
        if edits and start < edits[-1][1]:  # pragma: no cover - one site inside another
            line = text.count("\n", 0, start) + 1
            result.findings.append(Finding(path, line, 0, "two rewrites overlap here; the "
                                           "inner one is left for a person"))
            continue
        edits.append((start, end, new))
    result.findings.sort(key=lambda f: (f.line, f.column))
    result.rewrites.sort(key=lambda r: (r.line, r.column))
    if not edits:
        return result
    result.edits = edits
    result.text = apply_edits(text, edits)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            compile(result.text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        # pragma: no cover - a literal for a literal cannot break it
        message = error.msg if isinstance(error, SyntaxError) else _why(error)
        result.findings.append(Finding(path, getattr(error, "lineno", None) or 1, 0,
                                       f"the rewritten file does not compile ({message}); "
                                       "left unchanged"))
        result.text = text
        result.rewrites.clear()
        result.edits.clear()
    return result


def _why(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply for Python to compile"
    if isinstance(error, MemoryError):
        return "too large for Python to compile"
    return str(error) or type(error).__name__


def _decode(raw: bytes, path: str) -> tuple[str, str] | Finding:
    """The text and encoding of a source file as Python reads it (PEP 263), or why not."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as error:  # an unknown or contradicting coding cookie
        return Finding(path, error.lineno or 1, 0, f"not Python: {error.msg}")
    try:
        return raw.decode(encoding), encoding
    except (UnicodeDecodeError, LookupError) as error:
        line = raw[:getattr(error, "start", 0)].count(b"\n") + 1
        return Finding(path, line, 0, f"not Python: not {encoding} text "
                                      f"({getattr(error, 'reason', error)})")


def migrate_file(path: str | os.PathLike[str], *, write: bool = False,
                 target_dialect: str = NEWEST_RELEASE,
                 environment: Environment | None = None, runtime: bool = False,
                 full: bool = False) -> ScriptResult:
    """Rewrite one file's legacy target literals; with ``write`` replace it atomically."""

    file = Path(path)
    kind = os.stat(file).st_mode  # before opening: opening a FIFO waits for its writer
    if not (stat.S_ISREG(kind) or stat.S_ISFIFO(kind)) or (write and not stat.S_ISREG(kind)):
        # a device such as /dev/zero never ends; a pipe cannot be rewritten in place
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    with open(file, "rb") as stream:  # noqa: PTH123 - one read, errors are OSError
        raw = stream.read()
    decoded = _decode(raw, str(path))
    if isinstance(decoded, Finding):
        return ScriptResult(path=str(path), original="", text="", findings=[decoded])
    text, encoding = decoded
    result = migrate_source(text, path=str(path), target_dialect=target_dialect,
                            environment=environment, runtime=runtime, full=full)
    if write and result.changed:
        try:
            data = result.text.encode(encoding)
        except UnicodeEncodeError as error:
            result.findings.append(Finding(str(path), 1, 0, f"the rewritten file cannot be "
                                           f"written in its encoding {encoding} ({error.reason}); "
                                           "left unchanged"))
            result.text = result.original
            result.rewrites.clear()
            result.edits.clear()
            return result
        write_atomically(file, data)
    return result
