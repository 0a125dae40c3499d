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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._files import write_atomically
from ._lower.dialects import releases
from ._sites import NeedsPerson, NotATarget, Unchanged, convert_value
from .environment import Environment
from .errors import TargetError
from .migration import LEGACY_DIALECT, MigrationWarning, migrate
from .target import parse

__all__ = ["Finding", "Rewrite", "ScriptResult", "NEWEST_RELEASE", "apply_edits", "migrate_source",
           "migrate_file", "py_literal"]

#: Spellings of the functions inside TVM's package, read as the public name.
_CANONICAL = {
    "tvm.target.target.Target": "tvm.target.Target",
    "tvm.driver.build": "tvm.build",
    "tvm.driver.build_module.build": "tvm.build",
    "tvm.driver.compile": "tvm.compile",
    "tvm.driver.build_module.compile": "tvm.compile",
    "tvm.relax.vm_build.build": "tvm.relax.build",
    "tvm.relay.build_module.build": "tvm.relay.build",
}
#: Positional parameters that are targets: TVM 0.21's signatures (relay.build: TVM 0.19's).
_POSITIONS: Mapping[str, Mapping[int, str]] = {
    "tvm.target.Target": {0: "target", 1: "host"},
    "tvm.compile": {1: "target"},
    "tvm.relax.build": {1: "target"},
    "tvm.relay.build": {1: "target", 2: "target_host"},
    # tvm.build is (mod, target, pipeline) since 0.20 and (inputs, args, target, target_host)
    # before; _build_positions tells them apart.
    "tvm.build": {},
}
_KEYWORDS = {"target", "target_host", "host"}
#: The default release to upgrade to: the newest the library knows.
NEWEST_RELEASE = releases()[0]


@dataclass(frozen=True, slots=True)
class Finding:
    """A place that was not rewritten, and why."""

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column + 1}: {self.message}"


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One site replaced: where, the old source text, the new source text, and ``kind``:
    ``"rewritten"`` (what the target release reads) or ``"bridged"`` (routed through
    :mod:`targetlang.compat` at run time)."""

    line: int
    column: int
    old: str
    new: str
    kind: str = "rewritten"


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


# ---- Python literals ---------------------------------------------------------------------------

def py_literal(value: Any) -> str:
    """A Python expression for a JSON value (dicts, lists, strings, numbers, bools, None)."""
    import json

    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


# ---- names ----------------------------------------------------------------------------------------

def _aliases(tree: ast.AST) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tvm" or alias.name.startswith("tvm."):
                    if alias.asname:
                        names[alias.asname] = alias.name
                    else:
                        names["tvm"] = "tvm"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                (node.module == "tvm" or node.module.startswith("tvm.")):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _qualified(func: ast.expr, aliases: Mapping[str, str]) -> str | None:
    dotted = _dotted(func)
    if dotted is None:
        return None
    head, _, rest = dotted.partition(".")
    if head not in aliases:
        return None
    name = aliases[head] + ("." + rest if rest else "")
    return _CANONICAL.get(name, name)


def _build_positions(call: ast.Call) -> Mapping[int, str]:
    second = call.args[1] if len(call.args) > 1 else None
    if isinstance(second, (ast.Constant, ast.JoinedStr)) and \
            isinstance(getattr(second, "value", ""), str):
        return {1: "target"}  # build(mod, target, pipeline)
    return {2: "target", 3: "target_host"}  # build(inputs, args, target, target_host)


def _target_arguments(call: ast.Call, name: str) -> list[tuple[str, ast.expr]]:
    positions = _build_positions(call) if name == "tvm.build" else _POSITIONS[name]
    found = [(positions[i], arg) for i, arg in enumerate(call.args) if i in positions]
    found += [(kw.arg, kw.value) for kw in call.keywords if kw.arg in _KEYWORDS]
    return [(role, node) for role, node in found if not isinstance(node, ast.Starred)]


# ---- rewriting ------------------------------------------------------------------------------------

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class _Source:
    """Offsets into the text from the AST's (line, UTF-8 byte column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Python's own line model: only \n, \r\n and \r end a line (str.splitlines also
        # splits on \x0c, \x0b, \x1c-\x1e, \x85, \u2028, \u2029, which the tokenizer does not).
        self.lines = _LINE.findall(text)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, byte_column: int) -> int:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:byte_column].decode("utf-8"))

    def span(self, node: ast.expr) -> tuple[int, int]:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return (self.offset(node.lineno, node.col_offset),
                self.offset(node.end_lineno, node.end_col_offset))


def _single_literal(segment: str) -> bool:
    """Whether the source of a str constant is one plain (not f-, not concatenated) literal."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(segment).readline)
                  if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER,
                                    tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1 and tokens[0].type == tokenize.STRING


def _describe(node: ast.expr) -> str:
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    if isinstance(node, ast.BinOp):
        return "a computed string (concatenation or formatting)"
    if isinstance(node, ast.Name):
        return f"the variable {node.id!r}"
    return f"a {type(node).__name__} expression"


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
    aliases = _aliases(tree)
    if not aliases:
        return result
    source = _Source(text)
    edits: list[tuple[int, int, str]] = []
    seen: set[int] = set()
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        name = _qualified(call.func, aliases)
        if name is not None and name.startswith("tvm.target.") and \
                name[len("tvm.target."):] in _removed_helpers(target_dialect):
            _rewrite_helper(call, name[len("tvm.target."):], source, text, target_dialect,
                            environment, path, result, edits)
            continue
        if name is None or name not in _POSITIONS:
            continue
        for role, node in _target_arguments(call, name):
            where = (path, node.lineno, node.col_offset)
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, (ast.Dict, ast.Call)) or \
                    (isinstance(node, ast.Constant) and node.value is None):
                continue  # already a dict, or a Target built elsewhere, or no target
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                result.findings.append(Finding(*where, f"{role} of {name} is {_describe(node)}: "
                                               "cannot prove it is a target; not rewritten"))
                continue
            start, end = source.span(node)
            segment = text[start:end]
            if not _single_literal(segment):
                result.findings.append(Finding(*where, f"{role} of {name} is a concatenation of "
                                               "string literals; not rewritten"))
                continue
            value = node.value
            answer = convert_value(value, target_dialect=target_dialect, full=full,
                                   environment=environment)
            if isinstance(answer, Unchanged):
                continue  # the target release reads it as it is (a tag), with the same meaning
            if isinstance(answer, NotATarget):
                result.findings.append(Finding(*where, f"{role} of {name} {value!r} is not a "
                                               f"target in any release: {answer.reason}"))
                continue
            if isinstance(answer, NeedsPerson):
                result.findings.append(Finding(*where, f"{role} of {name} {value!r}: "
                                               f"{answer.reason}; not rewritten"))
                continue
            migrated = answer.json
            new = py_literal(migrated)
            edits.append((start, end, new))
            result.rewrites.append(Rewrite(node.lineno, node.col_offset, segment, new))
    if _lacks_target_getattr(target_dialect):
        _report_attribute_reads(tree, aliases, target_dialect, path, result)
    if not edits:
        result.findings.sort(key=lambda f: (f.line, f.column))
        return result
    result.edits = sorted(edits)
    result.text = apply_edits(text, result.edits)
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
    result.findings.sort(key=lambda f: (f.line, f.column))
    result.rewrites.sort(key=lambda r: (r.line, r.column))
    return result



def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` of ``edits`` (sorted, not
    overlapping) applied."""
    pieces: list[str] = []
    last = 0
    for start, end, new in edits:
        pieces.append(text[last:start])
        pieces.append(new)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


# ---- the target helpers TVM 0.24 removed (tvm.target.cuda(), arm_cpu("rasp3b"), ...) -----------


def _removed_helpers(target_dialect: str) -> frozenset[str]:
    """The ``tvm.target`` helpers TVM 0.21 exported that release ``target_dialect`` lacks."""
    from ._schema.facts import data_json  # on first use: only a file calling tvm.target asks

    helpers = data_json("releases/python-helpers.json")
    exported = helpers["by_release"].get("tvm-0.21", {})
    return frozenset(name for name in exported
                     if target_dialect not in helpers["helpers"][name]["releases"])


def _rewrite_helper(call: ast.Call, helper: str, source: _Source, text: str,
                    target_dialect: str, environment: Environment | None, path: str,
                    result: ScriptResult, edits: list[tuple[int, int, str]]) -> None:
    """``tvm.target.cuda("v100")`` with literal arguments becomes ``tvm.target.Target({...})``:
    what the helper returned in TVM 0.21 (``targetlang.presets``), migrated."""
    from . import presets  # on first use: only a helper call needs what it returned

    where = (path, call.lineno, call.col_offset)
    if not isinstance(call.func, ast.Attribute):
        result.findings.append(Finding(*where, f"tvm.target.{helper} (removed in TVM 0.24) is "
                                       "called by its bare name; not rewritten"))
        return
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}
        if any(k.arg is None for k in call.keywords) or \
                any(isinstance(a, ast.Starred) for a in call.args):
            raise ValueError("unpacked arguments")
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        result.findings.append(Finding(*where, f"tvm.target.{helper} (removed in TVM 0.24) has "
                                       "arguments that are not literals; not rewritten"))
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if helper == "create":
                built = parse(*args, **kwargs, dialect=LEGACY_DIALECT)
            else:
                built = getattr(presets, helper)(*args, **kwargs, dialect=LEGACY_DIALECT)
            migrated = migrate(built, target_dialect=target_dialect, environment=environment)
        except (TargetError, TypeError, ValueError, KeyError) as error:
            why = error.message if isinstance(error, TargetError) else str(error)
            result.findings.append(Finding(*where, f"tvm.target.{helper}(...): {why}; "
                                           "not rewritten"))
            return
    lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)]
    if lost:
        result.findings.append(Finding(*where, f"tvm.target.{helper}(...) cannot be migrated "
                                       f"without loss ({'; '.join(lost)}); not rewritten"))
        return
    start, end = source.span(call)
    func_start, func_end = source.span(call.func)
    prefix = text[func_start:func_end].rsplit(".", 1)[0]
    new = f"{prefix}.Target({py_literal(migrated)})"
    edits.append((start, end, new))
    result.rewrites.append(Rewrite(call.lineno, call.col_offset, text[start:end], new))


# ---- attribute reads TVM 0.24 broke (target.arch; 0.25 restored Target.__getattr__) ---------


def _lacks_target_getattr(dialect: str) -> bool:
    """Whether release ``dialect`` reads JSON only and has no ``Target.__getattr__`` (0.24)."""
    from ._lower.dialects import DIALECTS  # on first use, as the helpers' facts
    from ._schema.facts import data_json

    release = DIALECTS[dialect].release if dialect in DIALECTS else None
    if release is None:
        return False
    try:
        rules = data_json(f"releases/tvm-{release[0]}.{release[1]}.json")["json"]
    except (OSError, KeyError):
        return False
    return bool(rules) and not rules.get("target_getattr", {}).get("value", False)


def _report_attribute_reads(tree: ast.AST, aliases: Mapping[str, str], dialect: str, path: str,
                            result: ScriptResult) -> None:
    """``t.arch`` where ``t`` is bound to a target in the file (``Target(...)``, a removed
    helper, ``Target.current()``) or is such a call: an AttributeError in ``dialect``."""
    from .target import kinds  # on first use: only a --to tvm-0.24 migration asks

    names = {a for kind in kinds("tvm-0.21").values() for a in kind.attrs} - {
        "kind", "tag", "keys", "host"}

    def makes_target(node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        name = _qualified(node.func, aliases) or ""
        return name in ("tvm.target.Target", "tvm.target.Target.current") or (
            name.startswith("tvm.target.") and name[len("tvm.target."):] in
            _removed_helpers("tvm-0.24"))

    bound = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and makes_target(node.value) for target in node.targets
             if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and \
                node.attr in names and ((isinstance(node.value, ast.Name) and
                                         node.value.id in bound) or makes_target(node.value)):
            result.findings.append(Finding(
                path, node.lineno, node.col_offset,
                f".{node.attr} of a Target: {dialect} has no Target.__getattr__ (an "
                f"AttributeError there; TVM 0.25 restored it); read "
                f"target.attrs[{node.attr!r}]"))


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
