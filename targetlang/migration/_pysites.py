"""The legacy target sites of one Python program, and what each becomes: the engine of
:mod:`targetlang.migration.pyscripts` (see its docstring for the rules)."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import tokenize
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from .._memo import Memo
from ..environment import Environment
from ..errors import TargetError
from ..target import parse
from . import LEGACY_DIALECT, MeaningWarning, MigrationWarning, migrate
from ._minimal import minimal
from ._program import Program, python_text, single, use_engine
from ._pyflow import Binding, Scopes
from ._pyuses import DEVICE_CALLS, OTHER_CODES, Flow, Outside, Use, argparse_dest
from ._sites import (
    NeedsPerson,
    NotATarget,
    Rewritten,
    Unchanged,
    convert_value,
    json_text,
    meaning_report,
    notes_of_legacy,
)
from ._upgrade.suppress import Quiet, python_comment_lines


@dataclass(frozen=True, slots=True)
class Finding:
    """A place that was not rewritten, and why: its ``code`` (``targetlang upgrade
    --list-codes``), where it starts (line from 1, column from 0) and ends."""

    #: the file, as it was given
    path: str
    #: the line the place starts on, from 1
    line: int
    #: the column it starts at, from 0
    column: int
    #: why it was not rewritten and what to do
    message: str
    #: the report's stable code (``TL201``); ``""`` for none
    code: str = ""
    #: the line it ends on (0: not known)
    end_line: int = 0
    #: the column it ends at, exclusive (0 with ``end_line`` 0: not known)
    end_column: int = 0

    def __str__(self) -> str:
        code = f"{self.code} " if self.code else ""
        return f"{self.path}:{self.line}:{self.column + 1}: {code}{self.message}"


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One site replaced: where, the old source text, the new source text, and ``kind``:
    ``"rewritten"`` (what the target release reads) or ``"bridged"`` (routed through
    :mod:`targetlang.compat` at run time)."""

    #: the line the site starts on, from 1
    line: int
    #: the column it starts at, from 0
    column: int
    #: the site's source text before
    old: str
    #: its source text after
    new: str
    #: ``"rewritten"`` or ``"bridged"``
    kind: str = "rewritten"
    #: the rule's stable code (``TL101``)
    code: str = "TL101"
    #: the line the site ends on (0: not known)
    end_line: int = 0
    #: the column it ends at, exclusive
    end_column: int = 0


def decode_source(raw: bytes, path: str) -> tuple[str, str] | Finding:
    """The text and encoding of a source file as Python reads it (PEP 263), or why not."""
    try:
        return python_text(raw)
    except SyntaxError as error:  # an unknown or contradicting coding cookie
        return Finding(path, error.lineno or 1, 0, f"not Python: {error.msg}", "TL001")
    except (UnicodeDecodeError, LookupError) as error:
        encoding = tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
        line = raw[:getattr(error, "start", 0)].count(b"\n") + 1
        return Finding(path, line, 0, f"not Python: not {encoding} text "
                                      f"({getattr(error, 'reason', error)})", "TL001")


def py_literal(value: Any) -> str:
    """A Python expression for a JSON value (dicts, lists, strings, numbers, bools, None)."""
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


def py_json_text(value: dict[str, Any]) -> str:
    """A Python string literal holding the JSON text of ``value`` (single-quoted when the
    text has double quotes, as ``repr`` picks)."""
    return repr(json_text(value))


# ---- names -------------------------------------------------------------------------------------

#: Spellings of the functions inside TVM's package, read as the public name.
CANONICAL = {
    "tvm.target.target.Target": "tvm.target.Target",
    "tvm.driver.build": "tvm.build",
    "tvm.driver.build_module.build": "tvm.build",
    "tvm.driver.compile": "tvm.compile",
    "tvm.driver.build_module.compile": "tvm.compile",
    "tvm.relax.vm_build.build": "tvm.relax.build",
    "tvm.relay.build_module.build": "tvm.relay.build",
    "tvm.script.ir_builder.tir.target": "tvm.script.tir.target",
    "tvm.script.ir_builder.tir.ir.target": "tvm.script.tir.target",
    "tvm.script.parser.tir.target": "tvm.script.tir.target",
    # TVMScript's I.vdevice(target, ...), however it is imported
    "tvm.script.ir.vdevice": "tvm.script.ir_builder.ir.ir.vdevice",
    "tvm.script.parser.ir.vdevice": "tvm.script.ir_builder.ir.ir.vdevice",
    "tvm.script.ir_builder.ir.vdevice": "tvm.script.ir_builder.ir.ir.vdevice",
}
#: Positional parameters that are targets: TVM 0.21's signatures (relay.build: TVM 0.19's).
POSITIONS: Mapping[str, Mapping[int, str]] = {
    "tvm.target.Target": {0: "target", 1: "host"},
    "tvm.script.tir.target": {0: "target", 1: "host"},  # T.target(target_config, host)
    "tvm.compile": {1: "target"},
    "tvm.relax.build": {1: "target"},
    "tvm.relay.build": {1: "target", 2: "target_host"},
    # tvm.build is (mod, target, pipeline) since 0.20 and (inputs, args, target, target_host)
    # before; _build_positions tells them apart.
    "tvm.build": {},
}
#: Keywords that are targets in every call into ``tvm`` (build, compile, tuning, ...).
TARGET_KEYWORDS = frozenset({"target", "target_host"})
#: Calls whose ``host=`` is a target (elsewhere ``host`` may be a machine's name).
HOST_KEYWORD = frozenset({"tvm.target.Target", "tvm.script.tir.target"})
#: Names of pytest parameters and argparse options that hold a target.
TARGET_NAMES = frozenset({"target", "target_host"})
#: Calls that return a ``Target``.
MAKES_TARGET = frozenset({"tvm.target.Target", "tvm.target.Target.current",
                          "tvm.target.Target.target_or_current", "tvm.target.Target.from_device",
                          "tvm.target.Target.canon_target", "tvm.target.Target.with_host"})


def package_of(path: str) -> list[str] | None:
    """The package a file at ``path`` is part of when it lies in a ``tvm`` tree
    (``python/tvm/relax/x.py`` -> ``tvm.relax``), for its relative imports."""
    parts = list(PurePath(path).parts[:-1])
    if "tvm" not in parts:
        return None
    start = len(parts) - 1 - parts[::-1].index("tvm")
    return parts[start:]


def aliases(scopes: Scopes, path: str) -> dict[str, str]:
    """Each name the program binds to a ``tvm`` module or object, and what it is."""
    names: dict[str, str] = {}
    package = package_of(path)
    for node in [*scopes.of(ast.Import), *scopes.of(ast.ImportFrom)]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tvm" or alias.name.startswith("tvm."):
                    if alias.asname:
                        names[alias.asname] = alias.name
                    else:
                        names["tvm"] = "tvm"
        elif isinstance(node, ast.ImportFrom):
            module = import_module(node, package)
            if module is not None and (module == "tvm" or module.startswith("tvm.")):
                for alias in node.names:
                    if alias.name != "*":
                        names[alias.asname or alias.name] = f"{module}.{alias.name}"
    return names


def compat_aliases(scopes: Scopes) -> tuple[dict[str, str], str | None]:
    """The names a program binds to ``targetlang``, ``targetlang.compat`` or its members,
    and how the program spells the module (None: it does not import it)."""
    names: dict[str, str] = {}
    spelling: str | None = None
    for node in [*scopes.of(ast.Import), *scopes.of(ast.ImportFrom)]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("targetlang", "targetlang.compat"):
                    if alias.asname:
                        names[alias.asname] = alias.name
                        if alias.name == "targetlang.compat" and spelling is None:
                            spelling = alias.asname
                    else:
                        names["targetlang"] = "targetlang"
                        if alias.name == "targetlang.compat":
                            spelling = "targetlang.compat"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and \
                node.module in ("targetlang", "targetlang.compat"):
            for alias in node.names:
                if alias.name != "*":
                    full_name = f"{node.module}.{alias.name}"
                    names[alias.asname or alias.name] = full_name
                    if full_name == "targetlang.compat" and spelling is None:
                        spelling = alias.asname or alias.name
    # a bridge spelled in full is one where nothing else binds the name (a page whose blocks
    # were bridged without an import of their own): never wrapped again
    names.setdefault("targetlang", "targetlang")
    return names, spelling


def import_module(node: ast.ImportFrom, package: list[str] | None) -> str | None:
    """The absolute module of a from-import (relative ones only inside a ``tvm`` tree)."""
    if node.level == 0:
        return node.module
    if package is None or node.level > len(package):
        return None
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def qualified(func: ast.expr, names: Mapping[str, str]) -> str | None:
    """The public dotted name of a callee spelled through the program's tvm imports."""
    spelled = dotted(func)
    if spelled is None:
        return None
    head, _, rest = spelled.partition(".")
    if head not in names:
        return None
    name = names[head] + ("." + rest if rest else "")
    if name.startswith("tvm.target.target."):  # the module tvm.target re-exports
        name = "tvm.target." + name[len("tvm.target.target."):]
    return CANONICAL.get(name, name)


_NEW_BUILD: Mapping[int, str] = {1: "target"}  # build(mod, target, pipeline)
_OLD_BUILD: Mapping[int, str] = {2: "target", 3: "target_host"}  # (inputs, args, target, host)


def _build_positions(call: ast.Call) -> Mapping[int, str]:
    """Which ``tvm.build`` a call is, by what its arguments look like: a target text or a
    name like ``target`` second, or two arguments, is the 0.20+ one; an argument list
    second, or a target text third, the older one."""
    args = call.args
    second = args[1] if len(args) > 1 else None
    third = args[2] if len(args) > 2 else None

    def text(node: ast.expr | None) -> bool:
        return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and
                                                   isinstance(node.value, str))

    if text(second):
        return _NEW_BUILD
    if isinstance(second, (ast.List, ast.Tuple)) or text(third):
        return _OLD_BUILD
    if isinstance(second, ast.Name) and ("target" in second.id.lower() or
                                         "tgt" in second.id.lower()):
        return _NEW_BUILD
    return _NEW_BUILD if len(args) == 2 else _OLD_BUILD


_PARAMETERS: dict[str, list[tuple[str, dict[int, str]]]] | None = None


def target_positions(name: str) -> Mapping[int, str]:
    """The positions of ``name``'s parameters that are targets: TVM 0.18's and 0.21's
    signatures (``_data/releases/target-parameters.json``), a re-export (``tvm.meta_schedule.
    tune_tir`` of ``tvm.meta_schedule.tir_integration.tune_tir``) read as what it exports."""
    global _PARAMETERS
    if name in POSITIONS:
        return POSITIONS[name]
    if _PARAMETERS is None:
        from .._schema.facts import data_json  # on first use: a call into tvm asks

        _PARAMETERS = {}
        for full, where in data_json("releases/target-parameters.json")["functions"].items():
            _PARAMETERS.setdefault(full.rsplit(".", 1)[-1], []).append(
                (full, {int(i): role for i, role in where.items()}))
    prefix, _, last = name.rpartition(".")
    found = [where for full, where in _PARAMETERS.get(last, [])
             if full == name or full.startswith(prefix + ".")]
    if found and all(where == found[0] for where in found):
        return found[0]
    return {}


def target_arguments(call: ast.Call, name: str) -> list[tuple[str, ast.expr]]:
    """The (role, expression) of each argument of a call into ``tvm`` that is a target."""
    if name in DEVICE_CALLS:
        return []  # a parameter named target that reads a device name (runtime.enabled)
    positions = _build_positions(call) if name == "tvm.build" else target_positions(name)
    found = [(positions[i], arg) for i, arg in enumerate(call.args) if i in positions]
    keywords = TARGET_KEYWORDS | ({"host"} if name in HOST_KEYWORD else set())
    found += [(kw.arg, kw.value) for kw in call.keywords if kw.arg in keywords]
    return [(role, node) for role, node in found if not isinstance(node, ast.Starred)]


def older_helpers() -> frozenset[str]:
    """The ``tvm.target`` helpers that left TVM before 0.21 (``micro``, ``vta``): what they
    returned is no legacy reading the upgrade knows."""
    from .._schema.facts import data_json  # on first use: only a file calling tvm.target asks

    helpers = data_json("releases/python-helpers.json")
    exported = helpers["by_release"].get("tvm-0.21", {})
    return frozenset(name for name in helpers["helpers"] if name not in exported)


#: TVM's names of a device before 0.8 (tvm.device since): absent from 0.19 and 0.21 too
_CONTEXT_CALLS = frozenset({"tvm.context", "tvm.runtime.context", "tvm.nd.context",
                            "tvm.runtime.ndarray.context"})
_TARGET_NAME = re.compile(r"(?:[a-z0-9_]*_)?(?:target|tgt)(?:_host)?", re.I)


def _target_named(node: ast.expr) -> bool:
    """Whether a name or an attribute is named as a target is (``target``, ``tgt``,
    ``model.target``, ``host_target``)."""
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else None
    return name is not None and _TARGET_NAME.fullmatch(name) is not None


def _added(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of ``+``, left to right."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _added(node.left) + _added(node.right)
    return [node]


def _example_site(source: str, helpers: frozenset[str]) -> str | None:
    """What in a doctest example's source is a legacy site (a legacy target string, a
    removed helper's call), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                looks_like_legacy(node.value):
            return f"the legacy target {node.value!r}"
        if isinstance(node, ast.Call):
            spelled = dotted(node.func) or ""
            head, _, last = spelled.rpartition(".")
            if last in helpers and (head.split(".")[-1:] == ["target"] or head == "tvm"):
                return f"a call of {spelled} (removed in TVM 0.24)"
    return None


def removed_helpers(target_dialect: str) -> frozenset[str]:
    """The ``tvm.target`` helpers TVM 0.21 exported that release ``target_dialect`` lacks."""
    from .._schema.facts import data_json  # on first use: only a file calling tvm.target asks

    helpers = data_json("releases/python-helpers.json")
    exported = helpers["by_release"].get("tvm-0.21", {})
    return frozenset(name for name in exported
                     if target_dialect not in helpers["helpers"][name]["releases"])


# ---- values ------------------------------------------------------------------------------------

@dataclass
class CommandLine:
    """What a script's argparse reads as a target (:meth:`Engine.command_line`): option flag
    -> (it takes a value, its value is a target), and each positional argument in order
    (a target or not)."""

    options: dict[str, tuple[bool, bool]]
    positionals: list[bool]


@dataclass
class Value:
    """What an expression in a target position may hold: ``literals`` (string constants of
    this module that reach it, ``direct`` when written there), ``foreign`` ones (written in
    another module of the program, which decides them), or ``unknown`` (why: run time
    decides; ``code``: the report's code, TL201 unless the reason has its own), or a value
    that needs nothing (a ``Target``, a dict, ``None``)."""

    literals: list[tuple[ast.Constant, bool]] = field(default_factory=list)
    unknown: str | None = None
    may_be_none: bool = False
    foreign: list[tuple[Engine, ast.Constant]] = field(default_factory=list)
    code: str | None = None
    #: how the user can help a tool decide it (with ``unknown``)
    help: str | None = None

    def merge(self, other: Value) -> Value:
        first = self if self.unknown is not None else other
        return Value(self.literals + other.literals, first.unknown,
                     self.may_be_none or other.may_be_none, self.foreign + other.foreign,
                     first.code, first.help)

    def seen_from(self, engine: Engine) -> Value:
        """This value of ``engine``'s module, as another module sees it: its literals are
        that module's to decide."""
        return Value([], self.unknown, self.may_be_none,
                     [(engine, literal) for literal, _ in self.literals] + self.foreign,
                     self.code, self.help)


def _unknown(what: str, help: str | None = None, code: str | None = None,  # noqa: A002
             may_be_none: bool = False) -> Value:
    """A value only run time knows: ``what`` says what it is and why no tool can know it
    before, ``help`` how the user can help (None: the general advice)."""
    return Value(unknown=what, help=help, code=code, may_be_none=may_be_none)


_KNOWN = Value()


class Engine:
    """One program's sites, rewritten or reported."""

    def __init__(self, text: str, tree: ast.Module, *, path: str, target_dialect: str,
                 environment: Environment | None, runtime: bool, full: bool,
                 quiet: Quiet | None = None, assume_tvm: bool = False,
                 outside: Outside | None = None, program: Program | None = None,
                 analysis: bool = False) -> None:
        self.text, self.tree, self.path = text, tree, path
        #: the file's absolute path: how the program knows it
        self.where = os.path.normpath(os.path.abspath(path))
        #: the program this module is read in (a module alone: a program of one module)
        self.program = program if program is not None else single(
            text, path, target_dialect=target_dialect, environment=environment)
        #: an analysis for other modules' questions: what it finds is never written
        self.analysis = analysis
        self.dialect, self.environment = target_dialect, environment
        self.runtime, self.full = runtime, full
        self.scopes = Scopes(tree)
        self.names = aliases(self.scopes, path)
        if assume_tvm and "tvm" not in self.names and \
                "tvm" not in self.scopes.bindings.get(tree, {}):
            self.names["tvm"] = "tvm"  # documentation: a block's tvm comes from the page
        #: names bound to targetlang.compat or its members; how a new bridge spells it
        self.compat_names, self.compat_spelling = compat_aliases(self.scopes)
        self.quiet = quiet if quiet is not None else Quiet()
        if not self.quiet.lines:
            self.quiet.lines = python_comment_lines(text)
        self.flow = Flow(self.scopes, role=self.role, callee=self.public_name,
                         outside=outside if outside is not None else self.program.outside(self),
                         is_module=lambda node: self.module_of(node) is not None)
        self.reported_literals: set[int] = set()
        self.source = Source(text)
        self.edits: dict[tuple[int, int], str] = {}
        self.rewrites: list[Rewrite] = []
        self.findings: list[Finding] = []
        self.done: set[int] = set()  # the literals already rewritten or reported
        self.compat = False  # whether ``import targetlang.compat`` is needed
        self.import_tvm = False  # whether ``import tvm`` is needed (a bare helper rewritten)
        self.tvm_imported = False
        self.helper_uses: dict[str, list[tuple[ast.Name, str]]] = {}  # name -> (use, outcome)
        self._argparse: dict[str, list[ast.Call]] | None = None
        self._command_line: CommandLine | None = None
        self._following: set[tuple[int, str]] = set()  # functions being followed: no cycles
        self._helpers: frozenset[str] | None = None

    # ---- driving -----------------------------------------------------------------------------

    def run(self) -> None:
        if self.names:
            for call in self.scopes.of(ast.Call):
                self._call(call)
            self._helper_imports()
            self._parametrized()
        if self.names or self.program.index.imports.get(self.where):
            self._properties()  # (a Target may come from another module of the program)
        self._unknown_literals()
        self._templates()
        self._docstring_examples()
        if self.names:
            self._target_texts()
        newline = self.newline()
        lines = [line + newline for line, needed in (("import tvm", self.import_tvm and
                                              not self.tvm_imported),
                                             ("import targetlang.compat", self.compat))
                 if needed]
        if lines:
            offset, inline = self.insertion()
            new = ("".join("; " + line.strip() for line in lines) if inline else "".join(lines))
            self._add(offset, offset, self.edits.get((offset, offset), "") + new)

    def helpers(self) -> frozenset[str]:
        if self._helpers is None:
            self._helpers = removed_helpers(self.dialect)
        return self._helpers

    def finding(self, node: ast.AST, message: str, code: str) -> None:
        """A place for a person (unless a comment or the configuration suppresses it)."""
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        if self.quiet.covers(code, line, end_line):
            return
        end_column = getattr(node, "end_col_offset", None)
        self.findings.append(Finding(self.path, line, getattr(node, "col_offset", 0), message,
                                     code, end_line, end_column or 0))

    def _reported_on(self, line: int) -> bool:
        """Whether a report (or a suppressed one) covers ``line``: a target position whose
        value may be None, or of a call the engine does not read, reports nothing there."""
        return any(f.line <= line <= max(f.line, f.end_line) for f in self.findings) or \
            self.quiet.covers("TL201", line, line)

    def suppressed(self, node: ast.AST, code: str) -> bool:
        line = getattr(node, "lineno", 1)
        return self.quiet.covers(code, line, getattr(node, "end_lineno", None) or line)

    def compat_name(self) -> str:
        """How a bridge spells ``targetlang.compat`` here (``import targetlang.compat`` is
        added unless the program imports it already)."""
        if self.compat_spelling is not None:
            return self.compat_spelling
        self.compat = True
        return "targetlang.compat"

    def _add(self, start: int, end: int, new: str) -> None:
        self.edits[(start, end)] = new

    def absorb(self, node: ast.AST) -> str:
        """The text of ``node`` with the edits already made inside it, which it takes over
        (an expression about to be replaced as a whole: ``mali().device_name``)."""
        start, end = self.source.span(node)
        inner = sorted((s, e, new) for (s, e), new in self.edits.items()
                       if start <= s and e <= end)
        for s, e, _ in inner:
            del self.edits[(s, e)]
        shifted = [(s - start, e - start, new) for s, e, new in inner]
        return apply_edits(self.text[start:end], shifted)

    def replace(self, node: ast.AST, new: str, kind: str = "rewritten",
                code: str = "TL101") -> bool:
        """Replace ``node``'s text, unless a comment or the configuration suppresses the
        site; whether it was replaced."""
        if self.suppressed(node, code):
            return False
        start, end = self.source.span(node)
        self._add(start, end, new)
        self.rewrites.append(Rewrite(getattr(node, "lineno", 1), getattr(node, "col_offset", 0),
                                     self.text[start:end], new, kind, code,
                                     getattr(node, "end_lineno", 0) or 0,
                                     getattr(node, "end_col_offset", 0) or 0))
        return True

    # ---- what a call's argument is (for the uses of a value) --------------------------------

    def public_name(self, func: ast.expr) -> str | None:
        """The public dotted name of a callee: through the program's tvm imports, else as
        spelled (``print``, ``os.path.join``)."""
        return qualified(func, self.names) or dotted(func)

    def compat_callee(self, func: ast.expr) -> str | None:
        """The member of targetlang.compat a callee names (``Target``, ``cuda``), or None."""
        spelled = dotted(func)
        if spelled is None:
            return None
        head, _, rest = spelled.partition(".")
        full_name = self.compat_names.get(head)
        if full_name is None:
            return None
        full_name = full_name + ("." + rest if rest else "")
        prefix = "targetlang.compat."
        return full_name[len(prefix):] if full_name.startswith(prefix) else None

    def role(self, call: ast.Call, argument: ast.expr) -> str | None:
        """"target" where ``argument`` is in a target position of ``call``, "bridge" where
        targetlang.compat reads it, else None."""
        if self.compat_callee(call.func) is not None:
            return "bridge"
        name = qualified(call.func, self.names)
        if name is not None and name.startswith("tvm."):
            if name.startswith("tvm.target.") and name[len("tvm.target."):] in self.helpers():
                # a helper's arguments are model names and options, no targets; where the
                # call becomes a dict, the value is read now and its use there goes away
                return "neutral" if self._inlined(call) else None
            if any(node is argument for _, node in target_arguments(call, name)):
                return "target"
            return None
        if any(k.value is argument and k.arg in TARGET_KEYWORDS for k in call.keywords):
            return "target"
        return None

    # ---- calls -------------------------------------------------------------------------------

    def _call(self, call: ast.Call) -> None:
        name = qualified(call.func, self.names)
        if name is None:
            return  # a call of targetlang.compat too: it reads legacy text itself
        if name.startswith("tvm.target.") and name[len("tvm.target."):] in self.helpers():
            self._helper(call, name[len("tvm.target."):])
            return
        removed = self._removed_api(call, name)
        if removed is not None:
            self.finding(call, removed, "TL507")
            return
        if name.startswith("tvm."):
            for role, node in target_arguments(call, name):
                self._site(call, name, role, node)
            if name in DEVICE_CALLS and name.endswith("enabled") and call.args:
                self._enabled(call, name)

    def _removed_api(self, call: ast.Call, name: str) -> str | None:
        """What to say of a call of an API that neither 0.21 nor the release has and that
        no rewrite replaces (None: it is not one)."""
        if name.startswith("tvm.target.") and name[len("tvm.target."):] in older_helpers():
            helper = name[len("tvm.target."):]
            return (f"tvm.target.{helper} left TVM before 0.21 (0.21 and {self.dialect} have "
                    "no such helper), and what it returned is not known here: not rewritten; "
                    "write the target it made as JSON (`targetlang migrate TARGET` prints it) "
                    "and pass that to tvm.target.Target")
        if name.startswith("tvm.autotvm.") and name.endswith(".set_cuda_target_arch"):
            return ("set_cuda_target_arch (AutoTVM) is gone: AutoTVM left TVM before 0.21, and "
                    f"{self.dialect} has no tvm.autotvm; the CUDA architecture belongs in the "
                    "target: {\"kind\": \"cuda\", \"arch\": \"sm_53\"}, then drop this "
                    "call")
        if name in _CONTEXT_CALLS and call.args and self._target_related(call.args[0]):
            return (f"{name}(...) is not in TVM 0.21 nor {self.dialect} (tvm.device replaced "
                    "it in 0.8), and it is given a target: pass the kind name to tvm.device "
                    "(tvm.device(target.kind.name, 0)), not the target's text")
        return None

    def _target_related(self, node: ast.expr) -> bool:
        """Whether an argument is a target, its text, or a target-named value."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("str", "repr") and len(node.args) == 1:
            node = node.args[0]
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and looks_like_legacy(node.value)
        return self.is_target(node) or _target_named(node)

    def _target_texts(self) -> None:
        """The text of a Target (``str(t)``, ``repr(t)``, an f-string or a format of it) used
        as more than a message: since 0.24 it is JSON text, where 0.21 gave the legacy one."""
        made: list[tuple[ast.expr, ast.expr]] = []
        for call in self.scopes.of(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in ("str", "repr") and \
                    len(call.args) == 1 and not call.keywords and \
                    self.scopes.resolve(call.func) is None:
                made.append((call, call.args[0]))
            elif isinstance(call.func, ast.Attribute) and call.func.attr == "format" and \
                    isinstance(call.func.value, ast.Constant):
                made += [(call, arg) for arg in call.args]
        for joined in self.scopes.of(ast.JoinedStr):
            made += [(joined, v.value) for v in joined.values
                     if isinstance(v, ast.FormattedValue) and v.format_spec is None]
        for binop in self.scopes.of(ast.BinOp):
            if isinstance(binop.op, ast.Mod) and isinstance(binop.left, ast.Constant) and \
                    isinstance(binop.left.value, str):
                items = binop.right.elts if isinstance(binop.right, ast.Tuple) else [binop.right]
                made += [(binop, item) for item in items]
        seen: set[int] = set()
        for text, value in made:
            if id(text) in seen or isinstance(value, ast.Constant) or \
                    not (self.is_target(value) or _target_named(value)) or \
                    self._known_text(value):
                continue
            uses = self.flow.uses(text)
            other = next((use for use in uses if use.other), None)
            if other is None and uses:
                continue  # printed, logged, a message, stored
            seen.add(id(text))
            what = f"{other.what}, {other.where}" if other is not None else \
                "where it goes is not known here"
            self.finding(text, f"the text of the Target {_short(value)!r} is used as more than "
                               f"a message ({what}): since TVM 0.24 "
                               "str(Target) is JSON text ('{\"kind\":\"cuda\",...}') where "
                               "TVM 0.21 gave 'cuda -keys=cuda,gpu ...'; read target.kind.name "
                               "or target.attrs instead", "TL506")

    def _known_text(self, node: ast.expr) -> bool:
        """Whether a target-named value is known to be text (a string bound to it), not a
        Target: its text is itself."""
        if self.is_target(node):
            return False
        value = self.value(node)
        return value.unknown is None and bool(value.literals)

    def _enabled(self, call: ast.Call, name: str) -> None:
        """``tvm.runtime.enabled(x)`` with a legacy text: no release from 0.24 reads it."""
        for literal, _ in self.value(call.args[0]).literals:
            answer = convert_value(str(literal.value), target_dialect=self.dialect,
                                   environment=self.environment)
            if isinstance(answer, (Rewritten, NeedsPerson)):
                self.finding(call, f"{name}({literal.value!r}): {self.dialect} reads a bare kind "
                                   "name there and builds a Target from other text, which fails "
                                   "for legacy text: pass the kind name", "TL504")
                return

    def _site(self, call: ast.Call, name: str, role: str, node: ast.expr) -> None:
        value = self.value(node)
        if self.runtime and value.unknown is None and not value.may_be_none:
            # a value that also goes elsewhere is kept as it is: the target position reads it
            # through targetlang.compat instead
            mixed = [literal for literal, direct in value.literals
                     if not direct and self.other_uses(literal)]
            if mixed:
                self.done.update(id(literal) for literal in mixed)
                value.unknown = (f"{mixed[0].value!r}, which is also used as something other "
                                 "than a target")
            foreign = next((literal for engine, literal in value.foreign
                            if engine.other_uses(literal)), None)
            if foreign is not None and value.unknown is None:
                value.unknown = (f"{foreign.value!r} of another module, which is also used "
                                 "as something other than a target there")
        wrapped = value.unknown is not None and self.runtime and \
            name != "tvm.target.Target" and not value.may_be_none
        for literal, direct in value.literals:
            if direct and wrapped:
                continue  # inside the bridged expression: compat reads it as TVM 0.21 did
            self._literal(literal, direct, f"{role} of {name}", certain=name in POSITIONS)
        # (a literal of another module is that module's to rewrite or report)
        if value.unknown is None:
            return
        # the pieces of a computed target are reported (or bridged) with it, not one by one
        self.done.update(id(n) for n in ast.walk(node) if type(n) is ast.Constant)
        if self.runtime and name == "tvm.target.Target":
            self._bridge_callee(call, "Target")  # compat.Target reads target and host
            return
        if self.runtime and not value.may_be_none:
            if not self.suppressed(node, "TL105"):
                self.replace(node, f"{self.compat_name()}.Target({self.absorb(node)})",
                             "bridged", "TL105")
            return
        self.finding(node, run_time_message(f"{role} of {name}", value, self.runtime),
                     "TL202" if self.runtime else value.code or "TL201")

    def _bridge_callee(self, call: ast.Call, helper: str) -> bool:
        """Route a call through targetlang.compat; whether it was (not suppressed)."""
        if any(r.kind == "bridged" and r.line == call.func.lineno and
               r.column == call.func.col_offset for r in self.rewrites):
            return True
        if self.suppressed(call, "TL105"):
            return False
        if isinstance(call.func, ast.Name) and helper != "Target":
            # a helper imported by name: imported from targetlang.compat instead
            self.helper_uses.setdefault(call.func.id, []).append((call.func, "bridged"))
            self.rewrites.append(Rewrite(call.lineno, call.col_offset, call.func.id,
                                         call.func.id, "bridged", "TL105"))
            return True
        return self.replace(call.func, f"{self.compat_name()}.{helper}", "bridged", "TL105")

    # ---- literals ----------------------------------------------------------------------------

    def _literal(self, node: ast.Constant, direct: bool, role: str, certain: bool = True) -> None:
        if id(node) in self.done:
            return
        self.done.add(id(node))
        start, end = self.source.span(node)
        if not single_literal(self.text[start:end]):
            self.finding(node, f"{role} is a concatenation of string literals; not rewritten",
                         "TL404")
            return
        answer = convert_value(str(node.value), target_dialect=self.dialect, full=self.full,
                               environment=self.environment)
        if isinstance(answer, Unchanged):
            return
        if isinstance(answer, NotATarget):
            # elsewhere (tvm.runtime.enabled("rpc")) a name may be no target; text shaped
            # like a legacy target is reported all the same (it fails on every release)
            if certain or looks_like_legacy(str(node.value)):
                self.finding(node, f"{role} {node.value!r} is not a target in any release: "
                                   f"{answer.reason}", "TL403")
            return
        if isinstance(answer, NeedsPerson):
            if answer.moved:  # only options moved out of the target: one report each
                for note in answer.moved:
                    self.finding(node, *reversed(meaning_report(note, f"{role} {node.value!r}")))
                return
            code = "TL401" if "without loss" in answer.reason else "TL402"
            self.finding(node, f"{role} {node.value!r}: {answer.reason}; not rewritten", code)
            return
        if not direct:
            others = self.other_uses(node)
            if others:
                self._mixed(node, role, others)
                return
        if self.replace(node, py_literal(answer.json) if direct else py_json_text(answer.json)):
            for note in answer.notes:
                self.finding(node, *reversed(meaning_report(note, f"{role} {node.value!r}")))

    # ---- behaviour kept: a value used as something else too is left as it is ----------------

    def other_uses(self, node: ast.expr) -> list[Use]:
        """The uses of ``node``'s value that are neither target positions nor neutral."""
        return [use for use in self.flow.uses(node) if use.other]

    def _mixed(self, node: ast.Constant, role: str, others: list[Use]) -> None:
        """A legacy string that reaches a target and goes elsewhere too: left as it is,
        reported at its binding with the first other use of each kind."""
        first = others[0]
        seen: list[str] = []
        for use in others:
            text = f"{use.what} ({use.where})"
            if text not in seen:
                seen.append(text)
        also = "; ".join(seen[:3]) + (f"; and {len(seen) - 3} more" if len(seen) > 3 else "")
        self.finding(node, f"{node.value!r} ({role}) is also used as something else: "
                           f"{also}; rewriting it would change what that code does, so it is "
                           "left as it is: give the target its own JSON value, or bridge it "
                           "(upgrade --runtime)", OTHER_CODES[first.kind])

    # ---- following a value -------------------------------------------------------------------

    def value(self, node: ast.expr, depth: int = 0, direct: bool = True) -> Value:
        """What ``node`` may hold, following names (see the module docstring)."""
        if depth > 12:
            return _unknown("a value bound through too many names for the upgrade to follow",
                            "give it TargetJSON where it is written")
        if isinstance(node, ast.Constant):
            if node.value is None:
                return Value(may_be_none=True)
            if isinstance(node.value, str):
                return Value(literals=[(node, direct)])
            return _KNOWN  # a number or bytes: no legacy target, nothing to rewrite
        if isinstance(node, ast.Dict):
            return _KNOWN
        if isinstance(node, (ast.List, ast.Tuple)):  # several targets (heterogeneous builds)
            found = Value()
            for element in node.elts:
                found = found.merge(self.value(element, depth + 1, direct))
            return found
        if isinstance(node, ast.Call):
            return self._call_value(node, depth)
        if isinstance(node, ast.JoinedStr):
            return _unknown("an f-string: text put together at run time, which no tool can "
                            "rewrite as a whole", _BUILT_HELP)
        if isinstance(node, ast.BinOp):
            return _unknown("a computed string (concatenation or formatting): text put "
                            "together at run time, which no tool can rewrite as a whole",
                            _BUILT_HELP)
        if isinstance(node, ast.IfExp):
            return self.value(node.body, depth + 1, direct).merge(
                self.value(node.orelse, depth + 1, direct))
        if isinstance(node, ast.BoolOp):  # args.target or "llvm -mcpu=x": any operand
            found = Value()
            for operand in node.values:
                found = found.merge(self.value(operand, depth + 1, direct))
            return found
        if isinstance(node, ast.Name):
            return self._name(node, depth)
        if isinstance(node, ast.Subscript):
            return self._item(node, depth)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, depth)
        return _unknown(f"a {type(node).__name__} expression, whose value only run time knows")

    def _call_value(self, node: ast.Call, depth: int = 0) -> Value:
        name = qualified(node.func, self.names) or ""
        if name in MAKES_TARGET or (name.startswith("tvm.target.") and
                                    name[len("tvm.target."):] in self.helpers()) or \
                self.compat_callee(node.func) is not None:
            return _KNOWN  # a Target (targetlang.compat's too: never wrapped again)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("with_host",):
            return _KNOWN
        found = self.function_of(node.func)
        if found is not None:
            engine, function = found
            if engine is None:
                return _unknown(f"the result of {_short(node.func)}(...), a function of a module "
                                "that cannot be read as Python", _UNREADABLE_HELP, "TL802")
            returned = self._returned_value(engine, function, depth)
            if returned is not None:
                return returned
            return _unknown(f"the result of {_short(node.func)}(...), a function whose "
                            "returns are not all known before run time",
                            "make that function return TargetJSON or a Target")
        return _unknown(f"the result of {dotted(node.func) or 'a call'}(...), a call into code "
                        "outside the files of this run", "give it TargetJSON (or upgrade the "
                        "code it calls in the same run)")

    def _returned_value(self, engine: Engine, function: ast.AST, depth: int) -> Value | None:
        """What a function of this module or another returns, as this module sees it."""
        if engine is self:
            return self.returns(function)
        key = ("returns", engine.path, getattr(function, "lineno", 0))
        answer = self.program.ask(key, lambda: engine.returns(function),
                                  lambda far: _FAR if far else _CYCLE)
        if answer is _CYCLE or answer is _FAR:
            return _across(f"the result of {getattr(function, 'name', '?')}(...)",
                           answer is _FAR)
        return answer.seen_from(engine) if answer is not None else None

    def returns(self, function: ast.AST) -> Value | None:
        """What a function of this module returns, when every ``return`` is known."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                (id(function), "return") in self._following:
            return None
        if function.returns is not None and _is_target_annotation(function.returns):
            return _KNOWN
        returns = [r for r in self.scopes.of(ast.Return) if self.scopes.enclosing(r) is function]
        if not returns:
            return None
        self._following.add((id(function), "return"))
        try:
            found = Value()
            for statement in returns:
                if statement.value is None:
                    found.may_be_none = True
                    continue
                value = self.value(statement.value, 1, direct=False)
                if value.unknown is not None:
                    return None
                found = found.merge(value)
            return found
        finally:
            self._following.discard((id(function), "return"))

    def _name(self, node: ast.Name, depth: int) -> Value:
        binding = self.scopes.resolve(node)
        if binding is None:
            if node.id in self.names:
                return _KNOWN if self.names[node.id] in MAKES_TARGET else _unknown(
                    f"the name {node.id!r} of TVM, whose value only run time knows")
            scope = self.scopes.lookup(node.id, node)
            if scope is not None and depth < 6:
                # bound more than once: fine when every binding is (a Target, say)
                merged = Value()
                for candidate in scope[1]:
                    merged = merged.merge(self._binding(candidate, depth + 1))
                    if merged.unknown is not None:
                        break
                else:
                    return merged
            if scope is None:
                starred = self._starred(node.id, depth)
                if starred is not None:
                    return starred
            lines = sorted({getattr(b.node, "lineno", 0) for b in (scope[1] if scope else [])})
            where = f" (lines {', '.join(map(str, lines[:4]))})" if len(lines) > 1 else ""
            return _unknown(f"the variable {node.id!r}, bound more than once{where} or "
                            "elsewhere: which binding holds here depends on how the program runs",
                            "bind the target once, or give every binding TargetJSON")
        found = self._binding(binding, depth)
        if found.unknown is not None and not found.unknown.startswith(("the variable",
                                                                       "the parameter")):
            line = getattr(binding.node, "lineno", 0)
            found.unknown = f"the variable {node.id!r} (line {line}), {found.unknown}"
        return found

    def _binding(self, binding: Binding, depth: int) -> Value:
        if binding.value is not None:
            return self.value(binding.value, depth + 1, direct=False)
        if binding.iterable is not None:
            return self._items(binding.iterable, depth, f"an item of {_short(binding.iterable)}")
        if binding.parameter is not None:
            return self._parameter(binding)
        statement = self.scopes.statement(binding.node)
        if isinstance(statement, (ast.For, ast.AsyncFor)):
            return _unknown(f"the variable {binding.name!r}, unpacked from an item of "
                            f"{_short(statement.iter)}, which only run time knows",
                            "list the targets in a list or tuple the loop goes over")
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            return self._imported(binding, statement, depth)
        return _unknown(f"the variable {binding.name!r}, whose value only run time knows")

    # ---- across modules ------------------------------------------------------------------------

    def _module_text(self, statement: ast.Import | ast.ImportFrom, binding: Binding) -> str:
        if isinstance(statement, ast.ImportFrom):
            return "." * statement.level + (statement.module or "")
        alias = next((a for a in statement.names
                      if (a.asname or a.name.split(".")[0]) == binding.name), None)
        return alias.name if alias is not None else binding.name

    def import_target(self, binding: Binding) -> tuple[str, str | None] | None:
        """Where a name an import binds leads in the program: (the module's file, the name
        there) for ``from m import x``, (the module's file, None) for a module; None when the
        module is not among the run's files."""
        statement = self.scopes.statement(binding.node)
        if isinstance(statement, ast.ImportFrom):
            module = "." * statement.level + (statement.module or "")
            alias = next((a for a in statement.names
                          if (a.asname or a.name) == binding.name), None)
            if alias is None:
                return None
            joined = (module + "." if module and not module.endswith(".") else module) + \
                alias.name
            sub = self.program.resolve(self.where, joined)
            if sub is not None:
                return sub, None
            target = self.program.resolve(self.where, module)
            return (target, alias.name) if target is not None else None
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname == binding.name:
                    target = self.program.resolve(self.where, alias.name)
                    return (target, None) if target is not None else None
                if alias.asname is None and alias.name.split(".")[0] == binding.name:
                    target = self.program.resolve(self.where, binding.name)
                    return (target, None) if target is not None else None
        return None

    def _imported(self, binding: Binding, statement: ast.Import | ast.ImportFrom,
                  depth: int) -> Value:
        module = self._module_text(statement, binding)
        found = self.import_target(binding)
        if found is None:
            if self.program.is_project_module(self.where, module):
                return _unknown(f"the variable {binding.name!r}, imported from {module}, a "
                                "module of the project that is not among the files of this run",
                                "upgrade the whole project in one run (targetlang upgrade "
                                "on its directory)", "TL803")
            return _unknown(f"the variable {binding.name!r}, imported from {module}, a module "
                            "outside the project", "give it TargetJSON")
        path, member = found
        if member is None:
            return _unknown(f"the module {binding.name!r}")
        return self.foreign_value(path, member, depth)

    def foreign_value(self, path: str, name: str, depth: int) -> Value:
        """The value module ``path`` binds to ``name``, as this module sees it."""
        shown = self.program.shown(path)

        def compute() -> Value:
            other = self.program.analysis(path)
            if other is None:
                return _unknown(f"{name} of {shown}, a module that cannot be read as Python",
                                _UNREADABLE_HELP, "TL802")
            return other.module_value(name, depth + 1).seen_from(other)

        answer: Value = self.program.ask(("value", path, name), compute,
                                         lambda far: _across(f"{name} of {shown}", far))
        return answer

    def module_value(self, name: str, depth: int) -> Value:
        """What this module binds ``name`` to, for a module that imports it."""
        bindings = self.scopes.bindings.get(self.tree, {}).get(name, [])
        if not bindings:
            starred = self._starred(name, depth)
            if starred is not None:
                return starred
            return _unknown(f"{name}, which {self.program.shown(self.where)} does not bind")
        merged = Value()
        for binding in bindings:
            merged = merged.merge(self._binding(binding, depth + 1))
            if merged.unknown is not None:
                break
        return merged

    def _starred(self, name: str, depth: int) -> Value | None:
        """``name`` from a ``from m import *`` of a module of the program, if one binds it."""
        for node in self.scopes.of(ast.ImportFrom):
            if not any(a.name == "*" for a in node.names) or \
                    self.scopes.enclosing(node) is not self.tree:
                continue
            target = self.program.resolve(self.where, "." * node.level + (node.module or ""))
            if target is None:
                continue
            other = self.program.analysis(target)
            if other is not None and other.scopes.bindings.get(other.tree, {}).get(name):
                return self.foreign_value(target, name, depth)
        return None

    def module_of(self, node: ast.expr) -> str | None:
        """The file of the module ``node`` names (``cfg``, ``pkg.cfg`` through imports)."""
        if isinstance(node, ast.Name):
            binding = self.scopes.resolve(node)
            if binding is None or not isinstance(self.scopes.statement(binding.node),
                                                 (ast.Import, ast.ImportFrom)):
                return None
            found = self.import_target(binding)
            return found[0] if found is not None and found[1] is None else None
        if isinstance(node, ast.Attribute):
            spelled = dotted(node)
            head: ast.expr = node
            while isinstance(head, ast.Attribute):
                head = head.value
            binding = self.scopes.resolve(head) if isinstance(head, ast.Name) else None
            statement = self.scopes.statement(binding.node) if binding is not None else None
            if spelled is not None and isinstance(statement, ast.Import) and any(
                    a.asname is None and a.name.split(".")[0] == spelled.split(".")[0]
                    for a in statement.names):
                direct = self.program.resolve(self.where, spelled)  # import a.b; a.b.NAME
                if direct is not None:
                    return direct
            base = self.module_of(node.value)
            return self.program.submodule(base, node.attr) if base is not None else None
        return None

    def function_of(self, func: ast.expr) -> tuple[Engine | None, ast.AST] | None:
        """The function (of this module or another of the program) a callee names, with the
        engine of its module (None: that module cannot be read)."""
        if isinstance(func, ast.Name):
            binding = self.scopes.resolve(func)
            if binding is None:
                return None
            if isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return self, binding.node
            if isinstance(binding.node, ast.ClassDef):
                init = _initializer(binding.node)
                return (self, init) if init is not None else None
            statement = self.scopes.statement(binding.node)
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                found = self.import_target(binding)
                if found is not None and found[1] is not None:
                    return self.program.member_function(found[0], found[1])
            return None
        if isinstance(func, ast.Attribute):
            module = self.module_of(func.value)
            if module is not None:
                return self.program.member_function(module, func.attr)
        return None

    def imported_uses(self, path: str, name: str, called: bool = False) -> list[Use]:
        """The uses this module makes of ``name`` of module ``path`` (``called``: of what
        calling it returns)."""
        out: list[Use] = []
        flow = self.flow
        for statement in self.scopes.of(ast.ImportFrom):
            module = "." * statement.level + (statement.module or "")
            star = any(a.name == "*" for a in statement.names)
            if self.program.resolve(self.where, module) != path:
                continue
            if star:
                for read in flow.reads_of(name):
                    if self.scopes.lookup(name, read) is None:
                        out += self._read_uses(read, called)
                if not called:
                    out += flow.outside.exported(name)  # (re-exported by the star)
                continue
            for alias in statement.names:
                if alias.name != name:
                    continue
                scope = self.scopes.enclosing(statement)
                for binding in self.scopes.bindings.get(scope, {}).get(alias.asname or name, []):
                    if binding.node is not statement:
                        continue
                    if called:
                        for read in flow.binding_reads(binding):
                            out += self._read_uses(read, True)
                    else:
                        out += flow.binding_uses(binding)
        for node in self.scopes.of(ast.Attribute):
            if node.attr == name and isinstance(node.ctx, ast.Load) and \
                    self.module_of(node.value) == path:
                out += self._read_uses(node, called)
        return out

    def _read_uses(self, read: ast.expr, called: bool) -> list[Use]:
        if not called:
            return self.flow.uses(read)
        parent = self.scopes.parent.get(read)
        if isinstance(parent, ast.Call) and parent.func is read:
            return self.flow.uses(parent)
        return [Use("unknown", f"{_short(read)} passed on", getattr(read, "lineno", 0))]

    def parameter_of(self, function: ast.AST, argument: int | str) -> Binding | None:
        """The parameter of a function of this module that an argument goes to (``self`` of
        a method left out: a class's ``__init__``)."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        arguments = function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        if isinstance(self.scopes.enclosing(function), ast.ClassDef) and positional and \
                not any((dotted(d) or "") == "staticmethod" for d in function.decorator_list):
            positional = positional[1:]
        if isinstance(argument, str):
            chosen = next((a for a in [*positional, *arguments.kwonlyargs]
                           if a.arg == argument), None)
        else:
            chosen = positional[argument] if 0 <= argument < len(positional) else None
        if chosen is None:
            return None
        return next((b for b in self.scopes.bindings.get(function, {}).get(chosen.arg, [])
                     if b.parameter is chosen), None)

    # ---- containers, attributes --------------------------------------------------------------

    def _items(self, container: ast.expr, depth: int, what: str) -> Value:
        """Every item a container expression may give (a list, tuple, set or dict display,
        possibly through a name)."""
        if isinstance(container, ast.Name):
            binding = self.scopes.resolve(container)
            if binding is not None and binding.value is not None:
                return self._items(binding.value, depth + 1, what)
        if isinstance(container, ast.Call) and isinstance(container.func, ast.Attribute) and \
                container.func.attr == "values" and not container.args:
            return self._items(container.func.value, depth + 1, what)
        if isinstance(container, (ast.List, ast.Tuple, ast.Set)):
            found = Value()
            for element in container.elts:
                found = found.merge(self.value(element, depth + 1, direct=False))
            return found
        if isinstance(container, ast.Dict):
            found = Value()
            for element in container.values:
                found = found.merge(self.value(element, depth + 1, direct=False))
            return found
        return _unknown(f"{what}, a collection only run time fills",
                        "list the targets in a list or tuple display")

    def container(self, node: ast.expr) -> ast.expr:
        """A list, tuple or dict display ``node`` names (bound once to it), else ``node``."""
        for _ in range(12):
            if not isinstance(node, ast.Name):
                break
            binding = self.scopes.resolve(node)
            if binding is None or binding.value is None:
                break
            node = binding.value
        return node

    def _item(self, node: ast.Subscript, depth: int) -> Value:
        if isinstance(node.value, (ast.Name, ast.List, ast.Tuple, ast.Dict)):
            found = self._items(node.value, depth, "")
            if found.unknown is None:
                return found
        return _unknown(f"an item of {_short(node.value)}, a collection only run time fills",
                        "list the targets in a list, tuple or dict display")

    def _attribute(self, node: ast.Attribute, depth: int = 0) -> Value:
        if self._option(node.attr):
            return _unknown(f"the command-line option --{_flag(node.attr)} ({_short(node)}), "
                            "which only the command line decides", "give the option's default "
                            "and choices as TargetJSON and pass the target as JSON text "
                            "(`targetlang migrate TARGET` prints it)")
        module = self.module_of(node.value)
        if module is not None:
            return self.foreign_value(module, node.attr, depth)
        found = self.class_of(node.value)
        if found is not None:
            return self._class_attribute(found, node, depth)
        return _unknown(f"the attribute {_short(node)}: an attribute may be set wherever its "
                        "object goes", "give it TargetJSON where it is set")

    def class_of(self, node: ast.expr) -> tuple[Engine | None, ast.ClassDef, ast.Call | None,
                                                bool] | None:
        """The class whose attribute ``node.x`` reads: (its module's engine, the class, the
        call that made the instance (None: the class itself, or ``self``), whether ``node``
        is an instance)."""
        if isinstance(node, ast.Call):
            found = self._class_named(node.func)
            return (found[0], found[1], node, True) if found is not None else None
        if isinstance(node, ast.Name):
            binding = self.scopes.resolve(node)
            if binding is None:
                return None
            if binding.value is not None and isinstance(binding.value, ast.Call):
                found = self._class_named(binding.value.func)
                return (found[0], found[1], binding.value, True) if found is not None else None
            if binding.parameter is not None and binding.function is not None:
                holder = self.scopes.enclosing(binding.function)
                arguments = getattr(binding.function, "args", None)
                first = [*arguments.posonlyargs, *arguments.args][:1] if arguments else []
                if isinstance(holder, ast.ClassDef) and first and first[0] is binding.parameter:
                    return self, holder, None, True  # self
                return None
        found = self._class_named(node)
        return (found[0], found[1], None, False) if found is not None else None

    def _class_named(self, node: ast.expr) -> tuple[Engine | None, ast.ClassDef] | None:
        if isinstance(node, ast.Name):
            binding = self.scopes.resolve(node)
            if binding is None:
                return None
            if isinstance(binding.node, ast.ClassDef):
                return self, binding.node
            if isinstance(self.scopes.statement(binding.node), (ast.Import, ast.ImportFrom)):
                found = self.import_target(binding)
                if found is not None and found[1] is not None:
                    return self.program.member_class(found[0], found[1])
            return None
        if isinstance(node, ast.Attribute):
            module = self.module_of(node.value)
            if module is not None:
                return self.program.member_class(module, node.attr)
        return None

    def _class_attribute(self, found: tuple[Engine | None, ast.ClassDef, ast.Call | None, bool],
                         node: ast.Attribute, depth: int) -> Value:
        engine, holder, call, instance = found
        name = f"{holder.name}.{node.attr}"
        if engine is None:
            return _unknown(f"the attribute {name}, of a module that cannot be read as Python",
                            _UNREADABLE_HELP, "TL802")
        bindings = [b for b in engine.scopes.bindings.get(holder, {}).get(node.attr, [])
                    if b.value is not None]
        if len(bindings) != 1 or len(engine.scopes.bindings.get(holder, {}).get(
                node.attr, [])) != 1:
            return _unknown(f"the attribute {name}, which its class does not bind once",
                            "give it TargetJSON where it is set")
        if self.program.stored(node.attr):
            return _unknown(f"the attribute {name}, which the program also sets elsewhere "
                            f"(.{node.attr} = ...)", "give it TargetJSON where it is set")
        if instance and _fields_of(holder):
            passed = call is not None and (call.args or any(
                k.arg in (None, node.attr) for k in call.keywords))
            if call is None or passed:
                return _unknown(f"the attribute {name}, a field each instance may set",
                                "give it TargetJSON where the instance is made")
        value = engine._binding(bindings[0], depth + 1)
        return value if engine is self else value.seen_from(engine)

    def _option(self, dest: str, only: list[ast.Call] | None = None) -> bool:
        """An argparse option whose value flows into a target: its default and choices become
        JSON text. Whether the program has such an option."""
        calls = self.argparse().get(dest, []) if only is None else only
        for call in calls:
            for keyword in call.keywords:
                if keyword.arg == "default":
                    for literal, _ in self.value(keyword.value, direct=False).literals:
                        self._literal(literal, False, f"the default of --{_flag(dest)}")
                elif keyword.arg == "choices":
                    for literal, _ in self._items(keyword.value, 0, "").literals:
                        self._literal(literal, False, f"a choice of --{_flag(dest)}")
        return bool(calls)

    def argparse(self) -> dict[str, list[ast.Call]]:
        """The program's ``add_argument`` calls by destination."""
        if self._argparse is None:
            self._argparse = {}
            for call in self.scopes.of(ast.Call):
                if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument":
                    dest = argparse_dest(call)
                    if dest is not None:
                        self._argparse.setdefault(dest, []).append(call)
        return self._argparse

    def command_line(self) -> CommandLine:
        """What this script's argparse reads as a target: each option's flags (whether it
        takes a value, whether its value reaches a target and nothing else) and each
        positional argument's, in order."""
        if self._command_line is not None:
            return self._command_line
        found = CommandLine({}, [])
        for dest, calls in self.argparse().items():
            target = dest in TARGET_NAMES or self._reaches_target_only(dest)
            for call in calls:
                typed = next((k.value for k in call.keywords if k.arg == "type"), None)
                is_target = target or (typed is not None and
                                       qualified(typed, self.names) == "tvm.target.Target")
                action = next((k.value.value for k in call.keywords if k.arg == "action" and
                               isinstance(k.value, ast.Constant)), None)
                takes = action not in ("store_true", "store_false", "count", "help",
                                       "version", "store_const", "append_const")
                flags = [a.value for a in call.args if isinstance(a, ast.Constant) and
                         isinstance(a.value, str)]
                if flags and all(not f.startswith("-") for f in flags):
                    found.positionals.append(is_target)
                for flag in flags:
                    if flag.startswith("-"):
                        found.options[flag] = (takes, is_target)
        self._command_line = found
        return found

    def _reaches_target_only(self, dest: str) -> bool:
        """Whether the value of option ``dest`` (``args.dest``) reaches a target and is used
        as nothing else."""
        uses: list[Use] = []
        for node in self.scopes.of(ast.Attribute):
            if node.attr == dest and isinstance(node.ctx, ast.Load) and \
                    not (self.public_name(node) or "").startswith("tvm."):
                uses += self.flow.uses(node)
        return any(use.kind == "target" for use in uses) and not any(use.other for use in uses)

    # ---- parameters ----------------------------------------------------------------------

    def _parameter(self, binding: Binding) -> Value:
        parameter, function = binding.parameter, binding.function
        assert parameter is not None
        if parameter.annotation is not None and _is_target_annotation(parameter.annotation):
            return _KNOWN
        values = self.pytest_values(binding.name, function)
        if values is not None:
            found = Value()
            for value in values:
                found = found.merge(self.value(value, 1, direct=False))
            return found
        where = getattr(function, "name", "a lambda")
        fixture = any((dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith(
            "fixture") for d in getattr(function, "decorator_list", []))
        if where.startswith("test") or fixture:  # a fixture of the module or a conftest.py
            given = self.fixture_value(binding.name)
            if given is not None:
                return given
            for path in self.program.conftests(self.where):
                other = self.program.analysis(path)
                given = other.fixture_value(binding.name) if other is not None else None
                if given is not None and other is not None:
                    return given.seen_from(other)
        default = binding.default
        none = isinstance(default, ast.Constant) and default.value is None
        passed = self._arguments(binding)
        if passed is not None:
            return passed
        if isinstance(default, ast.Constant) and isinstance(default.value, str):
            # the default reaches the target whenever a caller leaves the parameter out
            self._literal(default, False, f"the default of the parameter {binding.name!r}")
        if where.startswith("test") or fixture:
            return _unknown(f"the parameter {binding.name!r} of {where}, which pytest gives at "
                            "run time from a fixture this module does not list",
                            "list the targets in @pytest.mark.parametrize or "
                            "tvm.testing.parameter(...) beside the test",
                            may_be_none=none)
        seen = self.callers_seen(function) if function is not None else []
        callers = f" (callers seen: {', '.join(seen[:3])}" + (
            f" and {len(seen) - 3} more)" if len(seen) > 3 else ")") if seen else \
            " (no caller in the files of this run)"
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return _unknown(f"the parameter {binding.name!r} of a lambda, which is called "
                            "wherever it goes", GENERAL_HELP, may_be_none=none)
        holder = self.scopes.enclosing(function)
        if isinstance(holder, ast.ClassDef):
            return _unknown(f"the parameter {binding.name!r} of the method "
                            f"{holder.name}.{where}{callers}, which is called wherever its "
                            "objects go", "give each caller's target TargetJSON",
                            may_be_none=none)
        if self._closed(function):
            return _unknown(f"the parameter {binding.name!r} of {where}{callers}, whose "
                            "callers pass values only run time knows, or pass the function on",
                            "give each caller's target TargetJSON", may_be_none=none)
        return _unknown(f"the parameter {binding.name!r} of {where}{callers}, a function "
                        "other modules can import and call: no tool sees every caller of an "
                        "importable function", f"if only this project calls it, make it "
                        f"private (_{where.lstrip('_')}) so that its callers decide it, or "
                        "give every caller's target TargetJSON", "TL804", may_be_none=none)

    def _closed(self, function: ast.AST) -> bool:
        """Whether every caller of a function is in the program: nested in another function,
        private (a leading underscore), or of a module that runs as a script or a test module
        that no other module of the run imports."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        outer = self.scopes.enclosing(function)
        if isinstance(outer, ast.ClassDef):
            return False
        if outer is not self.tree or function.name.startswith("_"):
            return True
        name = PurePath(self.path).name
        test = name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"
        return (self.program.is_script(self.where) or test) and \
            not self.program.imported(self.where)

    def callers_seen(self, function: ast.AST) -> list[str]:
        """Where the program calls a function (``path:line``, this module's first)."""
        name = getattr(function, "name", "")
        here = [f"line {read.lineno}" for read in self.flow.reads_of(name)
                if isinstance(self.scopes.parent.get(read), ast.Call) and
                self.scopes.parent[read].func is read and  # type: ignore[attr-defined]
                (b := self.scopes.resolve(read)) is not None and b.node is function]
        if self.scopes.enclosing(function) is not self.tree:
            return here
        for path in self.program.importers(self.where, name, limit=8):
            other = self.program.analysis(path)
            if other is not None:
                here += [f"{self.program.shown(path)}:{line}"
                         for line in other.call_lines(self.where, name)]
        return here

    def call_lines(self, path: str, name: str) -> list[int]:
        """The lines where this module calls ``name`` of module ``path``."""
        return sorted({getattr(call, "lineno", 0) for call in self.calls_to(path, name) or []})

    def calls_to(self, path: str, name: str) -> list[ast.Call] | None:
        """This module's calls of function ``name`` of module ``path`` (None: it passes the
        function on, so its callers are elsewhere)."""
        calls: list[ast.Call] = []
        for statement in self.scopes.of(ast.ImportFrom):
            module = "." * statement.level + (statement.module or "")
            if self.program.resolve(self.where, module) != path:
                continue
            for alias in statement.names:
                if alias.name not in (name, "*"):
                    continue
                local = name if alias.name == "*" else alias.asname or name
                for read in self.flow.reads_of(local):
                    binding = self.scopes.resolve(read)
                    if alias.name != "*" and (binding is None or binding.node is not statement):
                        continue
                    if alias.name == "*" and binding is not None:
                        continue
                    parent = self.scopes.parent.get(read)
                    if not (isinstance(parent, ast.Call) and parent.func is read):
                        return None
                    calls.append(parent)
        for node in self.scopes.of(ast.Attribute):
            if node.attr == name and isinstance(node.ctx, ast.Load) and \
                    self.module_of(node.value) == path:
                parent = self.scopes.parent.get(node)
                if not (isinstance(parent, ast.Call) and parent.func is node):
                    return None
                calls.append(parent)
        return calls

    def _calls_of(self, function: ast.AST) -> list[tuple[Engine, ast.Call]] | None:
        """Every call of a function whose callers are all in the program (see
        :meth:`_closed`), when the program only ever calls it (never passes it on); else
        None."""
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                function.decorator_list or not self._closed(function):
            return None
        calls: list[tuple[Engine, ast.Call]] = []
        for read in self.flow.reads_of(function.name):
            binding = self.scopes.resolve(read)
            if binding is None:
                found = self.scopes.lookup(read.id, read)
                if found is not None and any(b.node is function for b in found[1]):
                    return None  # perhaps this function, perhaps another of the name
                continue
            if binding.node is not function:
                continue  # another function of the same name
            parent = self.scopes.parent.get(read)
            if not (isinstance(parent, ast.Call) and parent.func is read):
                return None  # passed on: its callers are elsewhere
            calls.append((self, parent))
        if self.scopes.enclosing(function) is self.tree and function.name.startswith("_"):
            for path in self.program.importers(self.where, function.name):
                other = self.program.analysis(path)
                if other is None:
                    return None
                elsewhere = other.calls_to(self.where, function.name)
                if elsewhere is None:
                    return None
                calls += [(other, call) for call in elsewhere]
        return calls or None

    def _arguments(self, binding: Binding) -> Value | None:
        """The values the program's calls pass to a parameter, when they are all known."""
        function, parameter = binding.function, binding.parameter
        assert parameter is not None
        if (id(function), binding.name) in self._following:
            return None
        calls = self._calls_of(function) if function is not None else None
        if calls is None or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        arguments = function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        if parameter in (arguments.vararg, arguments.kwarg):
            return None
        index = positional.index(parameter) if parameter in positional else None
        self._following.add((id(function), binding.name))
        try:
            found = Value()
            for engine, call in calls:
                if any(isinstance(a, ast.Starred) for a in call.args) or \
                        any(k.arg is None for k in call.keywords):
                    return None
                given = [k.value for k in call.keywords if k.arg == binding.name]
                if index is not None and index < len(call.args):
                    given.append(call.args[index])
                if not given:
                    if binding.default is None:
                        return None
                    value = self.value(binding.default, 1, direct=False)
                else:
                    value = engine.value(given[0], 1, direct=False)
                    if engine is not self:
                        value = value.seen_from(engine)
                if value.unknown is not None:
                    return None
                found = found.merge(value)
            return found
        finally:
            self._following.discard((id(function), binding.name))

    def pytest_values(self, name: str, function: ast.AST | None) -> list[ast.expr] | None:
        """The values pytest gives the parameter ``name`` of ``function``, when every one is
        written in the program (``parametrize``, ``tvm.testing.parametrize_targets``,
        ``name = tvm.testing.parameter(...)``)."""
        decorators = getattr(function, "decorator_list", [])
        for decorator in decorators:
            if not isinstance(decorator, ast.Call):
                continue
            callee = dotted(decorator.func) or ""
            if callee.endswith("parametrize_targets") and name == "target":
                return [a for a in decorator.args if not isinstance(a, ast.Starred)] \
                    if decorator.args and not any(
                        isinstance(a, ast.Starred) for a in decorator.args) else None
            if callee.endswith("mark.parametrize") and len(decorator.args) >= 2:
                values = _parametrize_values(decorator.args[0], self.container(
                    decorator.args[1]), name)
                if values is not None:
                    return values
        module = self.scopes.bindings.get(self.tree, {}).get(name, [])
        if len(module) != 1:
            return None
        if isinstance(module[0].value, ast.Call):  # name = tvm.testing.parameter(a, b, ...)
            call = module[0].value
            if (dotted(call.func) or "").endswith("testing.parameter") and not call.keywords \
                    and not any(isinstance(a, ast.Starred) for a in call.args):
                return list(call.args)
            return None
        # a, b = tvm.testing.parameters((a1, b1), (a2, b2), ...)
        holder = self.scopes.parent.get(module[0].node)
        assign = self.scopes.parent.get(holder) if holder is not None else None
        if isinstance(holder, ast.Tuple) and isinstance(assign, ast.Assign) and \
                isinstance(assign.value, ast.Call) and \
                (dotted(assign.value.func) or "").endswith("testing.parameters") and \
                all(isinstance(e, ast.Name) for e in holder.elts):
            index = holder.elts.index(module[0].node)  # type: ignore[arg-type]
            values = []
            for row in assign.value.args:
                if not isinstance(row, (ast.Tuple, ast.List)) or \
                        len(row.elts) != len(holder.elts):
                    return None
                values.append(row.elts[index])
            return values
        return None

    def fixture_value(self, name: str) -> Value | None:
        """What this module's pytest fixture ``name`` gives (``name =
        tvm.testing.parameter(...)``, ``tvm.testing.parameters``, or a function decorated as
        a fixture: its ``params``, else what it returns), when the module has one."""
        values = self.pytest_values(name, None)
        if values is not None:
            found = Value()
            for value in values:
                found = found.merge(self.value(value, 1, direct=False))
            return found
        for binding in self.scopes.bindings.get(self.tree, {}).get(name, []):
            function = binding.node
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in function.decorator_list:
                callee = dotted(decorator.func if isinstance(decorator, ast.Call) else
                                decorator) or ""
                if not callee.endswith("fixture"):
                    continue
                params = next((k.value for k in getattr(decorator, "keywords", [])
                               if k.arg == "params"), None)
                if params is not None and Flow.fixture_returns_param(function):
                    return self._items(params, 1, "the fixture's params")
                return self.returns(function)
        return None

    def _parametrized(self) -> None:
        """pytest parameters named ``target``/``target_host``: their literals hold targets
        whether or not this file shows them reaching one."""
        functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = [
            *self.scopes.of(ast.FunctionDef), *self.scopes.of(ast.AsyncFunctionDef)]
        for node in functions:
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                if arg.arg in TARGET_NAMES:
                    for value in self.pytest_values(arg.arg, node) or []:
                        for literal, _ in self.value(value, 1, direct=False).literals:
                            self._literal(literal, False, f"the pytest parameter {arg.arg!r}")
        for dest in TARGET_NAMES:
            self._option(dest)
        for dest, calls in self.argparse().items():
            for call in calls:
                self._target_typed_option(dest, call)

    def _target_typed_option(self, dest: str, call: ast.Call) -> None:
        """``add_argument("--x", type=Target, default=...)``: argparse hands the default and
        every value given on the command line to ``Target``."""
        typed = next((k.value for k in call.keywords if k.arg == "type"), None)
        if typed is None or qualified(typed, self.names) != "tvm.target.Target":
            return
        self._option(dest, [call])
        if self.runtime:
            if not self.suppressed(typed, "TL105"):
                self.replace(typed, f"{self.compat_name()}.Target", "bridged", "TL105")
            return
        self.finding(typed, f"--{_flag(dest)} is read by Target at run time: a legacy target "
                            "string given on the command line fails on TVM >= 0.24; give it "
                            "TargetJSON, or route it through targetlang.compat (upgrade "
                            "--runtime)", "TL203")

    # ---- the removed helpers -----------------------------------------------------------------

    def _helper(self, call: ast.Call, helper: str) -> None:
        if isinstance(call.func, ast.Name):
            outcome = self._rewrite_helper(call, helper)
            self.helper_uses.setdefault(call.func.id, []).append((call.func, outcome))
            return
        self._rewrite_helper(call, helper)

    def _rewrite_helper(self, call: ast.Call, helper: str) -> str:
        """``tvm.target.cuda("v100")`` with arguments known before run time becomes
        ``tvm.target.Target({...})``: what the helper returned in TVM 0.21
        (``targetlang.configuration.presets``), migrated. Returns "rewritten", "bridged" or "reported"."""
        from ..configuration import (
            presets,  # on first use: only a helper call needs what it returned
        )

        self.done.update(id(n) for n in ast.walk(call) if type(n) is ast.Constant)
        try:
            if any(k.arg is None for k in call.keywords) or \
                    any(isinstance(a, ast.Starred) for a in call.args):
                raise ValueError("unpacked arguments")
            args = [self.constant(a) for a in call.args]
            kwargs = {k.arg: self.constant(k.value) for k in call.keywords if k.arg is not None}
            if helper == "hexagon":  # TVM 0.21's takes **kwargs and ignores what it never reads
                import inspect

                reads = set(inspect.signature(presets.hexagon).parameters) - {
                    "environment", "dialect"}
                kwargs = {k: v for k, v in kwargs.items() if k in reads}
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            if self.runtime:
                return "bridged" if self._bridge_callee(call, helper) else "reported"
            self.finding(call, f"tvm.target.{helper} (removed in TVM 0.24) has arguments known "
                               "only at run time, so what it returned cannot be written "
                               "before: not rewritten; call it with values written in the "
                               "program (names bound to literals are followed), or route it "
                               "through targetlang.compat (upgrade --runtime)", "TL204")
            return "reported"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if helper == "create":
                    built = parse(*args, **kwargs, dialect=LEGACY_DIALECT)
                else:
                    built = getattr(presets, helper)(*args, **kwargs, dialect=LEGACY_DIALECT)
                migrated = migrate(built, target_dialect=self.dialect,
                                   environment=self.environment)
            except (TargetError, TypeError, ValueError, KeyError) as error:
                why = error.message if isinstance(error, TargetError) else str(error)
                self.finding(call, f"tvm.target.{helper}(...): {why} (so did TVM 0.21); "
                                   "not rewritten", "TL405")
                return "reported"
        lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)
                and not issubclass(w.category, MeaningWarning)]  # (a meaning note is no loss)
        notes = notes_of_legacy(built, self.dialect, self.environment)
        what = f"tvm.target.{helper}(...)"
        if lost:
            moved = [note for note in notes if not note.kept]
            if len(moved) == len(lost):
                for note in moved:
                    self.finding(call, *reversed(meaning_report(note, what)))
                return "reported"
            self.finding(call, f"{what} cannot be migrated without loss "
                               f"({'; '.join(lost)}); not rewritten", "TL401")
            return "reported"
        if not self.full:
            migrated = minimal(migrated, self.dialect)
        if self.suppressed(call, "TL102"):
            return "reported"
        self.replace(call, f"{self.target_callee(call)}({py_literal(migrated)})", code="TL102")
        for note in notes:
            if note.compiles:
                self.finding(call, *reversed(meaning_report(note, what)))
        return "rewritten"

    def _inlined(self, call: ast.Call) -> bool:
        """Whether a removed helper's call has arguments known before run time (the call
        becomes a dict of what it returned)."""
        try:
            for argument in [*call.args, *(k.value for k in call.keywords)]:
                if isinstance(argument, ast.Starred):
                    return False
                self.constant(argument)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
        return all(k.arg is not None for k in call.keywords)

    def constant(self, node: ast.expr, depth: int = 0) -> Any:
        """The value of an argument known before run time: a literal, or a name bound once
        to one."""
        if isinstance(node, ast.Name) and depth < 12:
            binding = self.scopes.resolve(node)
            if binding is not None and binding.value is not None:
                return self.constant(binding.value, depth + 1)
        return ast.literal_eval(node)

    def target_callee(self, call: ast.Call) -> str:
        """How the program can spell ``tvm.target.Target`` where ``call`` is."""
        if isinstance(call.func, ast.Attribute):
            start, end = self.source.span(call.func)
            return self.text[start:end].rsplit(".", 1)[0] + ".Target"
        for name, full_name in self.names.items():
            if CANONICAL.get(full_name, full_name) == "tvm.target.Target" and \
                    self.scopes.bindings.get(self.tree, {}).get(name):
                return name
        if self.names.get("tvm") == "tvm":
            return "tvm.target.Target"
        for name, full_name in self.names.items():
            if full_name == "tvm.target" and self.scopes.bindings.get(self.tree, {}).get(name):
                return f"{name}.Target"
        self.import_tvm = True
        return "tvm.target.Target"

    def _helper_imports(self) -> None:
        """``from tvm.target import cuda`` fails on a release without the helper: drop the
        names whose every call was rewritten, import the bridged ones from targetlang.compat,
        and report the rest."""
        package = package_of(self.path)
        for node in self.scopes.of(ast.ImportFrom):
            if import_module(node, package) not in (
                    "tvm.target", "tvm.target.target"):
                continue
            removed = [a for a in node.names if a.name in self.helpers()]
            if not removed:
                continue
            bridged, left = [], []
            for alias in removed:
                local = alias.asname or alias.name
                uses = [n for n in self.scopes.of(ast.Name) if n.id == local and
                        isinstance(n.ctx, ast.Load)]
                outcomes = {id(n): o for n, o in self.helper_uses.get(local, [])}
                if any(outcomes.get(id(u)) in (None, "reported") for u in uses):
                    if self.runtime:
                        bridged.append(alias)
                    else:
                        left.append(alias)
                elif any(outcomes.get(id(u)) == "bridged" for u in uses):
                    bridged.append(alias)
            if left:
                self.finding(node, f"{', '.join(a.name for a in left)}: removed from tvm.target "
                                   "in TVM 0.24 (this import fails there) and used here in ways "
                                   "known only at run time; import from targetlang.compat "
                                   "(upgrade --runtime)", "TL502")
            kept = [a for a in node.names if a.name not in self.helpers() or a in left]
            statements = []
            if kept:
                statements.append(f"from {'.' * node.level}{node.module or ''} import "
                                  + ", ".join(_alias(a) for a in kept))
            if bridged:
                statements.append("from targetlang.compat import "
                                  + ", ".join(_alias(a) for a in bridged))
            if self.import_tvm and not self.tvm_imported:
                statements.append("import tvm")
                self.tvm_imported = True
            if not statements and self._drop_line(node):
                continue
            new = "; ".join(statements) or "pass"
            self.replace(node, new, "bridged" if bridged else "rewritten", "TL104")

    def _drop_line(self, node: ast.ImportFrom) -> bool:
        """Remove an import that is left with no name, with its line, when the line holds
        nothing else and its block keeps another statement (else it becomes ``pass``)."""
        holder = self.scopes.parent.get(node)
        block: list[ast.stmt] = next((getattr(holder, f) for f in ("body", "orelse", "finalbody")
                      if node in getattr(holder, f, [])), [])
        if len(block) < 2 or node.end_lineno is None:
            return False
        start, end = self.source.span(node)
        line_start = self.source.starts[node.lineno - 1]
        line_end = self.source.starts[node.end_lineno]
        before, after = self.text[line_start:start], self.text[end:line_end]
        if before.strip() or after.strip():  # another statement, or a comment to keep
            return False
        self._add(line_start, line_end, "")
        self.rewrites.append(Rewrite(node.lineno, node.col_offset, self.text[start:end], "",
                                     "rewritten", "TL104"))
        return True

    # ---- the Target properties TVM 0.24 removed (target.arch, .mcpu, .libs, ...) -------------

    def _properties(self) -> None:
        """``t.mcpu`` where ``t`` is known to be a ``Target`` becomes what TVM 0.21's property
        read, on every release from 0.24 (``t.attrs.get("mcpu", "")``); where ``t`` only
        looks like one (named ``target``, ``tgt``, ``*_target``), it is reported."""
        table = property_table(self.dialect)
        if not table:
            return
        # a Target comes from a call or an annotation that names one (Target, a helper of
        # tvm.target, targetlang.compat): without those words no value is known to be one
        can_be_known = "arget" in self.text or bool(self.compat_names)
        methods: set[int] | None = None
        for node in self.scopes.of(ast.Attribute):
            rule = table.get(node.attr)
            if rule is None or not isinstance(node.ctx, ast.Load):
                continue
            if not can_be_known and not _looks_like_target(node.value):
                continue
            if methods is None:
                methods = {id(call.func) for call in self.scopes.of(ast.Call)}
            if id(node) in methods:
                continue  # a method of something else
            known = can_be_known and self.is_target(node.value)
            new = _property_read(rule)
            if known and new is not None:
                if not self.suppressed(node, "TL103"):
                    self.replace(node, new.format(receiver=self.absorb(node.value)),
                                 code="TL103")
            elif known or _looks_like_target(node.value):
                how = (f"read {new.format(receiver='target')}" if new is not None else
                       "compute it from target.kind and target.attrs as TVM 0.21 did")
                what = "is" if known else "looks like"
                self.finding(node, f".{node.attr}: {_short(node.value)} {what} a Target, and "
                                   f"{self.dialect} has no Target.{node.attr} (TVM 0.24 removed "
                                   f"the properties){'' if known else ' if it is one'}: {how}",
                             "TL503")

    def is_target(self, node: ast.expr, depth: int = 0) -> bool:
        """Whether ``node`` surely holds a ``tvm.target.Target``."""
        if depth > 12:
            return False
        if isinstance(node, ast.Call):
            name = qualified(node.func, self.names) or ""
            if name in MAKES_TARGET or (name.startswith("tvm.target.") and
                                        name[len("tvm.target."):] in self.helpers()) or \
                    self.compat_callee(node.func) is not None:
                return True
            found = self.function_of(node.func)
            engine = found[0] if found is not None else None
            if found is None or engine is None:
                return False
            function = found[1]
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                    function.name == "__init__":
                return False
            if function.returns is not None and _is_target_annotation(function.returns):
                return True
            returns = [r.value for r in engine.scopes.of(ast.Return)
                       if engine.scopes.enclosing(r) is function]
            return bool(returns) and depth < 6 and all(
                value is not None and engine.is_target(value, depth + 6) for value in returns)
        if isinstance(node, ast.Name):
            binding = self.scopes.resolve(node)
            if binding is None:
                return False
            if binding.value is not None:
                return self.is_target(binding.value, depth + 1)
            if binding.parameter is not None:
                annotation = binding.parameter.annotation
                return annotation is not None and _is_target_annotation(annotation)
            if isinstance(binding.node, ast.Name):  # with Target(...) as t:
                holder = self.scopes.parent.get(binding.node)
                if isinstance(holder, ast.withitem) and holder.optional_vars is binding.node:
                    return self.is_target(holder.context_expr, depth + 1)
            if isinstance(self.scopes.statement(binding.node), (ast.Import, ast.ImportFrom)):
                leads = self.import_target(binding)  # a Target another module binds
                other = self.program.analysis(leads[0]) if leads and leads[1] else None
                if other is not None and leads is not None and leads[1] is not None:
                    bound = other.scopes.bindings.get(other.tree, {}).get(leads[1], [])
                    return len(bound) == 1 and bound[0].value is not None and \
                        other.is_target(bound[0].value, depth + 4)
        return False

    # ---- literals whose use is unknown -------------------------------------------------------

    def _unknown_literals(self) -> None:
        """A legacy target string anywhere else (a constant, an expected value, a message):
        reported, not rewritten: rewriting would change what the code means."""
        docstrings = {id(n.value) for n in self.scopes.of(ast.Expr)}
        # the text pieces of an f-string: what it makes is reported where it reaches a target
        docstrings.update(id(v) for n in self.scopes.of(ast.JoinedStr) for v in n.values)
        # a format template ("llvm -mcpu=%s" % cpu, "...{}".format(x)) is no target itself:
        # what it makes is reported where it reaches one
        docstrings.update(id(n.left) for n in self.scopes.of(ast.BinOp)
                          if isinstance(n.op, ast.Mod))
        docstrings.update(id(n.func.value) for n in self.scopes.of(ast.Call)
                          if isinstance(n.func, ast.Attribute) and n.func.attr == "format")
        for node in self.scopes.of(ast.Constant):
            if not isinstance(node.value, str) or \
                    id(node) in self.done or id(node) in docstrings:
                continue
            if not looks_like_legacy(node.value):
                inner = legacy_in_json(node.value)
                if inner is not None:  # a tuning record or a config held as text
                    self.finding(node, f"JSON text holding the legacy target {inner!r} (a "
                                       "tuning record, a config): not rewritten: no tool can "
                                       "tell how it is read; rewrite the target inside as TVM "
                                       ">= 0.24 reads it (`targetlang migrate`; `targetlang "
                                       "logs` for tuning records in files), or suppress this "
                                       "code", "TL601")
                continue
            answer = convert_value(node.value, target_dialect=self.dialect,
                                   environment=self.environment)
            if isinstance(answer, Unchanged):
                continue
            uses = self.flow.uses(node)
            if isinstance(answer, NotATarget):
                # shaped like a legacy target that no release reads (TVM 0.21 refused it too):
                # a typo in a target, or text about one; never dropped without a word
                parent = self.scopes.parent.get(node)
                if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
                    continue  # a piece of a concatenation: the whole is a template (TL605)
                if uses and all(use.shown or use.kind == "device" for use in uses):
                    continue
                goes = next((use for use in uses if use.other or use.kind == "target"), None)
                to = f" (it goes to {goes.what}, {goes.where})" if goes is not None else ""
                self.finding(node, f"{node.value!r} looks like a legacy target string but no "
                                   f"release reads it ({answer.reason}){to}: if it is a "
                                   "target, fix it and give it the JSON text TVM >= 0.24 reads "
                                   "('targetlang migrate'); if it is text about a target (an "
                                   "expected error), suppress this code", "TL601")
                self.reported_literals.add(id(node))
                continue
            if any(use.kind == "bridge" for use in uses):
                continue  # targetlang.compat reads it as TVM 0.21 did
            if uses and all(use.kind == "device" for use in uses):
                continue  # a device name (tvm.runtime.enabled reads the first word itself)
            reached = next((use for use in uses if use.kind == "target"), None)
            if reached is not None:
                # it reaches a target the following of target positions did not see (through
                # a function's parameter, another module): a site like the others
                if self.runtime and any(use.other for use in uses):
                    self.done.add(id(node))  # kept; its target positions read it at run time
                    continue
                self._literal(node, False, f"a value that reaches {reached.what} "
                                           f"({reached.where})", certain=False)
                continue
            goes = next((use for use in uses if use.other), None)
            to = f" (it goes to {goes.what}, {goes.where})" if goes is not None else ""
            self.finding(node, f"{node.value!r} is a legacy target string whose use here is not "
                               f"known to be a target (a constant, an expected value, a "
                               f"message){to}: no tool can tell a target from text about one; "
                               "not rewritten: if it is a target, give it the JSON text TVM "
                               ">= 0.24 reads ('targetlang migrate'), if it is text about a "
                               "target, suppress this code", "TL601")
            self.reported_literals.add(id(node))

    def _templates(self) -> None:
        """A string template that makes a legacy-looking target at run time (``"llvm
        -mcpu=%s" % cpu``, ``"...{}".format(x)``, an f-string): reported where it reaches
        a target position (TL201 there), else here, unless it is only printed or logged."""
        made: list[tuple[ast.expr, str]] = []
        for binop in self.scopes.of(ast.BinOp):
            if isinstance(binop.op, ast.Mod) and isinstance(binop.left, ast.Constant) and \
                    isinstance(binop.left.value, str):
                made.append((binop, binop.left.value))
        for call in self.scopes.of(ast.Call):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "format" and \
                    isinstance(call.func.value, ast.Constant) and \
                    isinstance(call.func.value.value, str):
                made.append((call, call.func.value.value))
        # (the parents are asked last, of legacy-looking text only: asking builds the whole
        # file's parent map, which most files never need)
        for binop in self.scopes.of(ast.BinOp):  # "cuda -arch=" + arch: the outermost +
            if not isinstance(binop.op, ast.Add):
                continue
            pieces = _added(binop)
            first = pieces[0]
            if not isinstance(first, ast.Constant) or not isinstance(first.value, str) or \
                    id(first) in self.reported_literals:
                continue
            template = "".join(str(p.value) if isinstance(p, ast.Constant) else "{}"
                               for p in pieces)
            if not looks_like_legacy(template):
                continue
            parent = self.scopes.parent.get(binop)
            if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)):
                made.append((binop, template))
        made_ids = {id(m) for m, _ in made}
        for joined in self.scopes.of(ast.JoinedStr):
            template = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}"
                               for v in joined.values)
            if looks_like_legacy(template) and \
                    id(self.scopes.parent.get(joined)) not in made_ids:
                made.append((joined, template))
        for node, template in made:
            if id(node) in self.done or not looks_like_legacy(template):
                continue
            uses = self.flow.uses(node)
            if any(use.kind == "bridge" or (use.kind == "target" and (
                    use.path or self.runtime or self._reported_on(use.line))) for use in uses):
                continue  # reported (or bridged) at the target position it reaches
            if uses and all(use.shown or use.kind == "device" for use in uses):
                continue  # a message, or a device name (its first word is read)
            goes = next((use for use in uses if use.other), None)
            to = f" (it goes to {goes.what}, {goes.where})" if goes is not None else ""
            self.done.add(id(node))
            self.finding(node, f"{template.strip()!r} is a template that makes a legacy-looking "
                               f"target at run time, not known to reach a target position{to}: "
                               "its text is put together at run time, so no tool can rewrite "
                               f"it; {_BUILT_HELP}, or route it through targetlang.compat."
                               "Target; if it is text about a target, suppress this code",
                         "TL605")

    def _docstring_examples(self) -> None:
        """A docstring's doctest examples (``>>>``/``...`` lines) holding a legacy target or
        a removed helper: rewritten in place where that is safe, else reported."""
        import doctest

        parser = doctest.DocTestParser()
        for statement in self.scopes.of(ast.Expr):
            node = statement.value
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or \
                    ">>>" not in node.value:
                continue
            try:
                examples = parser.get_examples(node.value)
            except ValueError:
                continue
            helpers = self.helpers() | older_helpers()
            sites = {example.lineno: _example_site(example.source, helpers)
                     for example in examples}
            if all(why is None for why in sites.values()) and \
                    not any("tvm" in example.source for example in examples):
                continue
            done = self._rewrite_examples(node, examples, sites)
            for example in examples:
                why = sites.get(example.lineno)
                if why is None or example.lineno in done:
                    continue
                line = node.lineno + example.lineno
                spot = ast.Constant(value="", lineno=line, col_offset=node.col_offset,
                                    end_lineno=line, end_col_offset=node.col_offset)
                self.finding(spot, f"a docstring example holds {why}, which cannot be rewritten "
                                   "in place safely (a backslash in the docstring, lines not "
                                   "as doctest reads them, or a rewrite needing an import or "
                                   "the docstring's quote); rewrite the example by hand "
                                   "(`targetlang migrate TARGET` prints the JSON) or suppress "
                                   "this code", "TL607")

    def _rewrite_examples(self, node: ast.Constant, examples: list[Any],
                          sites: dict[int, str | None]) -> set[int]:
        """A docstring's examples read as one program and its sites rewritten in place
        where that is safe: the literal holds no backslash (its text is its value), every
        example line is in the file as the docstring gives it, each edit lies within one
        line and needs no import. Returns the docstring lines (``example.lineno``) of the
        examples whose sites were rewritten or reported by the reading; the others are
        reported as examples (TL607)."""
        start, end = self.source.span(node)
        segment = self.text[start:end]
        quote = next((q for q in ('"""', "'''", '"', "'") if segment.endswith(q)), None)
        if quote is None or "\\" in segment or self.analysis:
            return set()
        at = start + segment.index(quote) + len(quote)
        if self.text[at:end - len(quote)] != node.value or segment[0] not in "rRuU'\"":
            return set()
        lines = node.value.splitlines(keepends=True)
        starts = [0]
        for text_line in lines:
            starts.append(starts[-1] + len(text_line))
        #: (offset in the program, offset in the file, length) of each example line
        mapping: list[tuple[int, int, int, int]] = []
        program = ""
        for example in examples:
            for number, source_line in enumerate(example.source.splitlines(keepends=True)):
                index = example.lineno + number
                prompt = ">>> " if number == 0 else "... "
                expected = " " * example.indent + prompt + source_line.rstrip("\n")
                if index >= len(lines) or lines[index].rstrip("\r\n") != expected and \
                        lines[index].rstrip("\r\n") != expected.rstrip():
                    return set()
                column = example.indent + len(prompt)
                mapping.append((len(program), at + starts[index] + column,
                                len(source_line.rstrip("\n")), example.lineno))
                program += source_line if source_line.endswith("\n") else source_line + "\n"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(program)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return set()
        inner = Engine(program, tree, path=self.path, target_dialect=self.dialect,
                       environment=self.environment, runtime=False, full=self.full,
                       quiet=Quiet(), assume_tvm=True, program=self.program,
                       analysis=False)
        inner.run()

        def place(offset: int, stop: int) -> tuple[int, int] | None:
            for begin, file_at, size, lineno in mapping:
                if begin <= offset and stop <= begin + size:
                    return file_at + offset - begin, lineno
            return None

        for begin, stop in inner.edits:  # what the reading rewrites is a site of its example
            found = place(begin, stop)
            if found is not None and sites.get(found[1]) is None:
                sites[found[1]] = "a site the upgrade rewrites in code"
        if inner.import_tvm or inner.compat:
            return set()

        edits: list[tuple[int, int, str, Rewrite]] = []
        for (s, e), new in inner.edits.items():
            found = place(s, e)
            if found is None or "\n" in new or "\\" in new or quote in new or \
                    quote[0] in new and len(quote) == 1 or new.endswith(quote[0]):
                return set()  # (a quote of the docstring's own would end it)
            edits.append((found[0], found[0] + e - s, new, next(
                (r for r in inner.rewrites if r.new == new), Rewrite(0, 0, "", new))))
        done: set[int] = set()
        for file_start, file_end, new, rewrite in edits:
            line = self.text.count("\n", 0, file_start) + 1
            column = file_start - (self.text.rfind("\n", 0, file_start) + 1)
            if self.quiet.covers(rewrite.code, line):
                continue
            self._add(file_start, file_end, new)
            self.rewrites.append(Rewrite(line, column, self.text[file_start:file_end], new,
                                         rewrite.kind, rewrite.code, line, column + len(new)))
        for begin, stop in inner.edits:
            found = place(begin, stop)
            if found is not None:
                done.add(found[1])
        for finding in inner.findings:
            offset = inner.source.starts[finding.line - 1] if finding.line - 1 < len(
                inner.source.starts) else 0
            found = place(offset + finding.column, offset + finding.column)
            if found is None or sites.get(found[1]) is None:
                continue  # (an example without a legacy site: its run-time values are its own)
            line = self.text.count("\n", 0, found[0]) + 1
            if self.quiet.covers(finding.code, line):
                done.add(found[1])
                continue
            self.findings.append(Finding(self.path, line, found[0] - (
                self.text.rfind("\n", 0, found[0]) + 1), finding.message, finding.code))
            done.add(found[1])
        return done

    # ---- where an import goes ----------------------------------------------------------------

    def newline(self) -> str:
        """The file's line ending (its first line's), for a line added to it."""
        first = self.source.lines[0] if self.source.lines else ""
        return "\r\n" if first.endswith("\r\n") else "\r" if first.endswith("\r") else "\n"

    def insertion(self) -> tuple[int, bool]:
        """Where an import line goes: after the module docstring, ``from __future__``
        imports and the imports already there (the leading run of import statements), else
        after the leading comment lines (a PEP 263 cookie stays first)."""
        body = self.tree.body
        last: ast.stmt | None = None
        for index, statement in enumerate(body):
            if index == 0 and isinstance(statement, ast.Expr) and \
                    isinstance(statement.value, ast.Constant) and \
                    isinstance(statement.value.value, str):
                last = statement
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                last = statement
            else:
                break
        if last is None:
            line = 1
            lines = self.source.lines
            while line <= len(lines) and lines[line - 1].lstrip().startswith("#"):
                line += 1
            offset = self.source.starts[line - 1] if line - 1 < len(self.source.starts) \
                else len(self.text)
            if offset == len(self.text) and self.text and not self.text.endswith(("\n", "\r")):
                self._add(offset, offset, self.newline())  # the last comment ends the file
            return offset, False
        _, end = self.source.span(last)
        assert last.end_lineno is not None
        rest = self.source.lines[last.end_lineno - 1] if last.end_lineno - 1 < len(
            self.source.lines) else ""
        line_end = self.source.starts[last.end_lineno - 1] + len(rest)
        tail = self.text[end:line_end]
        if tail.strip() and not tail.strip().startswith("#"):
            return end, True  # another statement follows on the line: "; import ..."
        if line_end == len(self.text) and not rest.endswith(("\n", "\r")):
            self._add(line_end, line_end, self.newline())
        return line_end, False


# ---- small helpers -------------------------------------------------------------------------------

_BUILT_HELP = ("build a dict from the same pieces ({\"kind\": \"llvm\", \"mcpu\": cpu}) "
               "instead of text")
_UNREADABLE_HELP = "make that module valid Python, then upgrade again"
_CYCLE_HELP = "give it TargetJSON where it is written"
#: an answer of a question across modules that led back to itself, or too far
_CYCLE = object()
_FAR = object()


def _across(what: str, far: bool) -> Value:
    """A value followed into a cycle of modules (or across too many): reported."""
    if far:
        return _unknown(f"{what}, which goes through more modules than the upgrade follows "
                        "(a chain of imports or calls)", _CYCLE_HELP, "TL805")
    return _unknown(f"{what}, which leads back where it started (modules or functions that "
                    "import or call each other)", _CYCLE_HELP, "TL801")


def _initializer(holder: ast.ClassDef) -> ast.FunctionDef | None:
    """A class's own ``__init__``."""
    return next((node for node in holder.body if isinstance(node, ast.FunctionDef) and
                 node.name == "__init__"), None)


def _fields_of(holder: ast.ClassDef) -> bool:
    """Whether a class's attributes are fields its constructor takes (a dataclass, attrs, a
    NamedTuple, a pydantic or similar model)."""
    for decorator in holder.decorator_list:
        name = dotted(decorator.func if isinstance(decorator, ast.Call) else decorator) or ""
        if name.rsplit(".", 1)[-1] in ("dataclass", "define", "frozen", "mutable", "s",
                                       "attrs", "dataclass_transform"):
            return True
    return any((dotted(base) or "").rsplit(".", 1)[-1] in (
        "NamedTuple", "BaseModel", "TypedDict", "Struct") for base in holder.bases) or \
        _initializer(holder) is None and bool(holder.keywords)


#: How a user can help where nothing more particular is known.
GENERAL_HELP = "give it TargetJSON"


def run_time_message(site: str, value: Value, runtime: bool) -> str:
    """The report of a target position whose value only run time knows: what the value is,
    why no tool can know it before, and how the user can help."""
    if runtime:  # (--runtime left it: it may be None)
        return (f"{site} is {value.unknown}; it may be None here, which "
                "targetlang.compat.Target does not take: route the value through "
                "targetlang.compat.Target where it is not None")
    return (f"{site} is {value.unknown}; a legacy target string there fails on TVM >= 0.24: "
            f"{value.help or GENERAL_HELP}, or route it through targetlang.compat "
            "(upgrade --runtime)")



_PROPERTIES: Memo[str, dict[str, dict[str, Any]]] = Memo(64)


def property_table(dialect: str) -> dict[str, dict[str, Any]]:
    """The TVM 0.21 ``Target`` properties release ``dialect`` lacks or reads differently, with
    what 0.21 read (``_data/releases/target-properties.json``); empty before 0.24."""
    known = _PROPERTIES.get(dialect)
    if known is not None:
        return known
    from .._lower.dialects import DIALECTS  # on first use: a file reading a Target asks
    from .._schema.facts import data_json

    release = DIALECTS[dialect].release if dialect in DIALECTS else None
    table: dict[str, dict[str, Any]] = {}
    if release is not None and release >= (0, 24):
        facts = data_json("releases/target-properties.json")
        answer = facts["releases"].get(dialect) or facts["releases"][min(facts["releases"])]
        getattr_too = answer["getattr"] and release >= (0, 25)
        for name, rule in facts["properties"].items():
            if name in answer["properties"]:
                continue  # still a property there
            if rule.get("index") and getattr_too:
                continue  # Target.__getattr__ reads attrs[key]: the same value or an error
            table[name] = rule
    return _PROPERTIES.put(dialect, table)


def _property_read(rule: Mapping[str, Any]) -> str | None:
    """The expression (``{receiver}`` for the target) that reads what 0.21's property read."""
    if rule.get("computed"):
        return None
    key = json.dumps(rule["key"])
    if rule.get("index"):
        return f"{{receiver}}.attrs[{key}]"
    read = f"{{receiver}}.attrs.get({key}, {py_literal(rule['default'])})"
    # JSON releases give str and int as they are; an array is an Array, 0.21 gave a list
    return f"list({read})" if rule["wrap"] == "list" else read


def _looks_like_target(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else \
        node.id if isinstance(node, ast.Name) else ""
    name = name.lower()
    return name in ("target", "tgt", "target_host") or name.endswith("_target") or \
        name.startswith("target_")


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


def _flag(dest: str) -> str:
    return dest.replace("_", "-")


def _parametrize_values(names_node: ast.expr, values_node: ast.expr,
                        name: str) -> list[ast.expr] | None:
    if not isinstance(names_node, ast.Constant) or not isinstance(names_node.value, str):
        return None
    names = [n.strip() for n in names_node.value.split(",") if n.strip()]
    if name not in names or not isinstance(values_node, (ast.List, ast.Tuple)):
        return None
    index = names.index(name)
    values: list[ast.expr] = []
    for element in values_node.elts:
        if isinstance(element, ast.Call) and (dotted(element.func) or "").endswith("param"):
            if not element.args:
                return None
            element = element.args[0] if len(names) == 1 else element
            if len(names) > 1 and isinstance(element, ast.Call):
                element = ast.Tuple(elts=list(element.args))
        if len(names) == 1:
            values.append(element)
        elif isinstance(element, (ast.Tuple, ast.List)) and len(element.elts) == len(names):
            values.append(element.elts[index])
        else:
            return None
    return values


def _is_target_annotation(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1] == "Target"
    spelled = dotted(node)
    if spelled is not None:
        return spelled.rsplit(".", 1)[-1] == "Target"
    if isinstance(node, ast.Subscript) and (dotted(node.value) or "").endswith("Optional"):
        return _is_target_annotation(node.slice)
    return False


def _alias(alias: ast.alias) -> str:
    return f"{alias.name} as {alias.asname}" if alias.asname else alias.name


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


_KIND_WORDS: frozenset[str] | None = None


def legacy_in_json(text: str) -> str | None:
    """The first legacy-looking string inside ``text`` when it is JSON text (an AutoTVM or
    Ansor record, a config held in a string), else None."""
    head = text.lstrip()[:1]
    if head not in ("{", "[") or " -" not in text or len(text) > 1_000_000:
        return None
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if looks_like_legacy(item):
                return item
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
    return None


def looks_like_legacy(value: str) -> bool:
    """A cheap first look: the text starts with a kind name of TVM 0.21 followed by options
    (every legacy string a JSON-only release refuses does, bar removed kinds)."""
    global _KIND_WORDS
    if _KIND_WORDS is None:
        from ..target import kinds  # on first use: only a legacy-looking string asks

        _KIND_WORDS = frozenset(kinds(LEGACY_DIALECT))
    head, _, rest = value.strip().partition(" ")
    return head in _KIND_WORDS and rest.lstrip().startswith("-")


_CANDIDATE: re.Pattern[str] | None = None


_PROPERTY_READ: re.Pattern[str] | None = None


def might_have_sites(text: str, *, properties: bool = False) -> bool:
    """A cheap look at the text before any parsing: a program that neither names ``tvm`` nor
    holds a string starting with a kind name and an option has no site (``properties``: nor
    reads a property TVM 0.24 removed, of a Target another module may give it)."""
    global _CANDIDATE, _PROPERTY_READ
    if "tvm" in text:
        return True
    if _CANDIDATE is None:
        from ..target import kinds  # on first use: a file without tvm asks

        words = "|".join(sorted(map(re.escape, kinds(LEGACY_DIALECT)), key=len, reverse=True))
        # ('llvm ' + '-mcpu=' + cpu: a concatenation of literals starting like one too)
        _CANDIDATE = re.compile(rf"""['"]\s*(?:{words})(?:\s+|\s*['"]\s*\+\s*['"]\s+)"""
                                rf"""(?:['"]\s*\+\s*['"]\s*)?-""")
    if _CANDIDATE.search(text) is not None:
        return True
    if not properties:
        return False
    if _PROPERTY_READ is None:
        from .._lower.dialects import newest_release  # on first use

        names = "|".join(sorted(property_table(newest_release())))
        _PROPERTY_READ = re.compile(rf"\.(?:{names})\b")
    return _PROPERTY_READ.search(text) is not None


def single_literal(segment: str) -> bool:
    """Whether the source of a str constant is one plain (not f-, not concatenated) literal."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(segment).readline)
                  if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER,
                                    tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1 and tokens[0].type == tokenize.STRING


class Source:
    """Offsets into the text from the AST's (line, UTF-8 byte column) positions."""

    def __init__(self, text: str) -> None:
        import re

        self.text = text
        # Python's own line model: only \n, \r\n and \r end a line (str.splitlines also
        # splits on \x0c, \x0b, \x1c-\x1e, \x85, \u2028, \u2029, which the tokenizer does not).
        self.lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, byte_column: int) -> int:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:byte_column].decode("utf-8"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        end_line = getattr(node, "end_lineno", None)
        end_column = getattr(node, "end_col_offset", None)
        assert end_line is not None and end_column is not None
        return (self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.offset(end_line, end_column))


use_engine(Engine)  # the program's analyses are engines of this module
