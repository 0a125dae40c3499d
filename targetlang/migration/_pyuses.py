"""Where a value in a Python program goes: the uses of a string, the dual of
:mod:`targetlang.migration._pyflow` (where a name was bound).

The upgrade rewrites a legacy target string only where *every* use of it is a target
position or neutral; :meth:`Flow.uses` lists the uses. From the expression that holds the
value, each parent is asked what it does with it:

* **target**: an argument in a target position (``Target(x)``, ``tvm.compile(m, target=x)``,
  any ``target=``/``target_host=`` keyword); **bridge**: an argument of
  ``targetlang.compat``, which reads legacy text itself;
* **neutral**: printed, logged, a warning's or an exception's message, stored in an
  attribute or an item, a truth test, ``is None``, ``isinstance``, serialized (``json``),
  a statement whose value is dropped;
* followed on: a name it is bound to (every read that may see that binding), ``str(x)``,
  ``x or y``, ``a if c else x``, the parameter of a function of this module it is passed
  to (a default included), the calls of a function of this module that returns it, a list,
  tuple, set or dict display that holds it (then what is done with the container: iterated,
  indexed, ``.values()``, ``.items()``, ``.get()``, pytest's ``parametrize``, an argparse
  option's ``default``), an f-string, ``+``, ``%`` or ``.format`` (a larger string, neutral
  only when it is only printed or logged);
* anything else is another use: a device name (``tvm.device(x)``), a comparison (``==``,
  ``in``, a ``match``, a dict key), a string method, indexing, ``len``, iteration, a larger
  string, or code this module does not show (a function of another module, a method).

Values that leave the module (a module-level name, a function's result, an argument of
another module's function, a class attribute, a ``conftest.py``'s fixture) are followed by
:class:`Outside`: the program's (:class:`targetlang.migration._program.ProgramOutside`) says
what the run's other modules do with them; :class:`Nowhere` (a module alone) says nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ._pyflow import Binding, Scopes

__all__ = ["OTHER_CODES", "Flow", "Nowhere", "Outside", "Use", "argparse_dest"]

#: The report code of each kind of other use (``cycle``, ``unreadable``, ``far``: what a
#: reading of the whole program met: modules that lead back to where they started, a module
#: that cannot be read, a chain of more modules than it follows).
OTHER_CODES = {"device": "TL301", "compared": "TL302", "string": "TL303",
               "formatted": "TL304", "unknown": "TL305", "cycle": "TL801",
               "unreadable": "TL802", "far": "TL805"}
#: TVM calls whose first argument is a device name, or a target text of which they read the
#: first word themselves (``tvm.runtime.enabled("llvm -mtriple=...")``, TVM 0.21's
#: ``tvm.testing.device_enabled``, which splits it): JSON text breaks them (checked in the
#: 0.27 oracle: "Unknown optional runtime {"kind": ...").
DEVICE_CALLS = frozenset({"tvm.device", "tvm.runtime.device", "tvm.context",
                          "tvm.runtime.context", "tvm.runtime.ndarray.device",
                          "tvm.nd.device", "tvm.runtime.Device", "tvm.runtime.enabled",
                          "tvm.runtime.module.enabled", "tvm.module.enabled",
                          "tvm.testing.device_enabled", "tvm.testing.utils.device_enabled"})
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical",
                          "exception", "log", "fatal"})
_NEUTRAL_CALLS = frozenset({"print", "isinstance", "type", "id", "bool", "callable",
                            "hash", "warnings.warn", "json.dump", "json.dumps", "pickle.dump",
                            "pickle.dumps", "yaml.dump", "yaml.safe_dump",
                            "sys.stdout.write", "sys.stderr.write", "pprint.pprint",
                            "pprint", "logging.log"})
_STRING_CALLS = frozenset({"len", "list", "tuple", "set", "sorted", "reversed", "iter",
                           "shlex.split", "re.match", "re.search", "re.fullmatch", "re.sub",
                           "re.split", "re.findall", "int", "float"})
_FORMATTING_CALLS = frozenset({"os.path.join", "open", "pathlib.Path", "Path", "repr",
                               "format", "os.makedirs", "os.path.exists"})
_CONTAINER_METHODS_NEUTRAL = frozenset({"append", "extend", "insert", "add", "update",
                                        "keys", "clear", "remove", "discard"})
_CONTAINER_METHODS_ITEM = frozenset({"get", "pop", "setdefault", "popitem"})
_CONTAINER_METHODS_SAME = frozenset({"values", "copy"})
_MAX_DEPTH = 16


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a value: ``kind`` (target, bridge, neutral, or another use: device,
    compared, string, formatted, unknown), what it is, and its line."""

    kind: str
    what: str
    line: int
    #: a neutral use that only shows the value (printed, logged, a message)
    shown: bool = False
    #: the module it is in, when not the value's own (as the run names the file)
    path: str = ""

    @property
    def other(self) -> bool:
        return self.kind in OTHER_CODES

    @property
    def where(self) -> str:
        """``line N``, or ``PATH:N`` in another module (or ``PATH`` alone)."""
        if self.path:
            return f"{self.path}:{self.line}" if self.line else self.path
        return f"line {self.line}"


class Outside(Protocol):
    """What other modules do with a value that leaves this one (a whole-program reading
    answers; one module alone cannot)."""

    def callee(self, call: ast.Call, argument: int | str) -> list[Use] | None:
        """The uses of an argument of a call into another module, or None (not known)."""

    def exported(self, name: str) -> list[Use]:
        """The uses other modules make of this module's name ``name``."""

    def returned(self, function: ast.AST) -> list[Use]:
        """The uses other modules make of what ``function`` returns."""

    def attribute(self, holder: str, name: str) -> list[Use]:
        """The uses other modules make of the class attribute ``holder.name``."""

    def fixture(self, name: str) -> list[Use]:
        """The uses the tests of other modules make of this module's pytest fixture."""


class Nowhere:
    """One module on its own: nothing is known of other modules, and nothing seen there."""

    def callee(self, call: ast.Call, argument: int | str) -> list[Use] | None:
        return None

    def exported(self, name: str) -> list[Use]:
        return []

    def returned(self, function: ast.AST) -> list[Use]:
        return []

    def attribute(self, holder: str, name: str) -> list[Use]:
        return []

    def fixture(self, name: str) -> list[Use]:
        return []


class Flow:
    """The uses of values in one module.

    ``role(call, argument)`` says whether an argument of a call is a target position
    ("target"), one that reads legacy text itself ("bridge"), or neither (None);
    ``callee(call)`` gives a call's public dotted name (``tvm.device``) or None.
    """

    def __init__(self, scopes: Scopes, *, role: Callable[[ast.Call, ast.expr], str | None],
                 callee: Callable[[ast.expr], str | None],
                 outside: Outside | None = None,
                 is_module: Callable[[ast.expr], bool] | None = None) -> None:
        self.scopes = scopes
        self.role = role
        self.callee = callee
        self.outside = outside or Nowhere()
        self.is_module = is_module or (lambda node: False)
        self._reads: dict[str, list[ast.Name]] | None = None
        self._bound_to: dict[int, list[Binding]] | None = None
        self._scope_of_binding: dict[int, ast.AST] = {}
        self._read_index: dict[str, tuple[dict[int, list[ast.Name]],
                                          dict[int, list[ast.Name]]]] = {}
        self._augmented: dict[str, list[ast.AugAssign]] | None = None
        self._attributes: dict[str, list[ast.Attribute]] | None = None

    # ---- indexes -------------------------------------------------------------------------

    def reads_of(self, name: str) -> list[ast.Name]:
        if self._reads is None:
            self._reads = {}
            for node in self.scopes.of(ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self._reads.setdefault(node.id, []).append(node)
        return self._reads.get(name, [])

    def bindings_of_value(self, node: ast.expr) -> list[Binding]:
        """The bindings (assignments) whose value is exactly ``node``."""
        if self._bound_to is None:
            self._bound_to = {}
            for scope, names in self.scopes.bindings.items():
                for bindings in names.values():
                    for binding in bindings:
                        self._scope_of_binding[id(binding)] = scope
                        if binding.value is not None:
                            self._bound_to.setdefault(id(binding.value), []).append(binding)
        return self._bound_to.get(id(node), [])

    def binding_reads(self, binding: Binding) -> list[ast.Name]:
        """Every read of ``binding``'s name that may see it: those resolved to it, and those
        resolved to no one binding in its scope (one pass over the name's reads, kept)."""
        self.bindings_of_value(binding.node)  # type: ignore[arg-type]  # builds the index
        scope = self._scope_of_binding.get(id(binding))
        if binding.name not in self._read_index:
            resolved_to: dict[int, list[ast.Name]] = {}
            unresolved: dict[int, list[ast.Name]] = {}
            for read in self.reads_of(binding.name):
                where = self.scopes.lookup(binding.name, read)
                if where is None:
                    continue
                resolved = self.scopes.resolve(read)
                if resolved is None:
                    unresolved.setdefault(id(where[0]), []).append(read)
                else:
                    resolved_to.setdefault(id(resolved), []).append(read)
            self._read_index[binding.name] = (resolved_to, unresolved)
        resolved_to, unresolved = self._read_index[binding.name]
        found = resolved_to.get(id(binding), []) + unresolved.get(id(scope), [])
        found.sort(key=lambda read: (read.lineno, read.col_offset))
        return found

    # ---- following ----------------------------------------------------------------------

    def uses(self, node: ast.expr) -> list[Use]:
        """Every use of the value ``node`` evaluates to."""
        out: list[Use] = []
        self._value(node, out, 0, set(), False)
        return out

    def binding_uses(self, binding: Binding) -> list[Use]:
        """Every use of the value a binding gives its name (a parameter, an import)."""
        out: list[Use] = []
        self._name_reads(binding, out, 0, set(), False, False)
        return out

    def attribute_uses(self, name: str, holder: str | None = None) -> list[Use]:
        """The uses of every read of an attribute ``name`` in this module that may be a
        class's (an instance goes anywhere: only reads of a module's or TVM's names are
        left out)."""
        if self._attributes is None:
            self._attributes = {}
            for node in self.scopes.of(ast.Attribute):
                self._attributes.setdefault(node.attr, []).append(node)
        out: list[Use] = []
        seen: set[tuple[int, bool]] = set()
        for node in self._attributes.get(name, []):
            if isinstance(node.ctx, ast.Load) and not (self.callee(node) or "").startswith(
                    "tvm.") and not self.is_module(node.value):
                self._value(node, out, 1, seen, False)
        return out

    def _line(self, node: ast.AST) -> int:
        return getattr(node, "lineno", 0) or getattr(self.scopes.statement(node), "lineno", 0)

    def _add(self, out: list[Use], kind: str, what: str, node: ast.AST,
             derived: bool, shown: bool = False) -> None:
        out.append(Use(kind, what, self._line(node), shown))

    def _name_reads(self, binding: Binding, out: list[Use], depth: int, seen: set[tuple[int, bool]],
                    container: bool, derived: bool) -> None:
        for read in self.binding_reads(binding):
            self._next(read, out, depth, seen, container, derived)
        scope = self._scope_of_binding.get(id(binding))
        if scope is self.scopes.tree:
            out += self.outside.exported(binding.name)
        elif isinstance(scope, ast.ClassDef):  # a class attribute: read as an attribute
            key = (id(binding), True)
            if key not in seen:
                seen.add(key)
                for attribute in self._class_reads(binding.name):
                    self._value(attribute, out, depth + 1, seen, derived)
                out += self.outside.attribute(scope.name, binding.name)
        if self._augmented is None:
            self._augmented = {}
            for node in self.scopes.of(ast.AugAssign):
                if isinstance(node.target, ast.Name):
                    self._augmented.setdefault(node.target.id, []).append(node)
        for node in self._augmented.get(binding.name, []):
            target = node.target
            if isinstance(target, ast.Name) and target.id == binding.name and \
                    self.scopes.lookup(target.id, target) is not None and \
                    self.scopes.lookup(target.id, target)[0] is scope:  # type: ignore[index]
                self._add(out, "formatted", f"{target.id} {_OPS.get(type(node.op), '?')}= ...",
                          node, derived)

    def _class_reads(self, name: str) -> list[ast.Attribute]:
        if self._attributes is None:
            self.attribute_uses("")  # builds the index
        assert self._attributes is not None
        return [node for node in self._attributes.get(name, [])
                if isinstance(node.ctx, ast.Load) and not self.is_module(node.value) and
                not (self.callee(node) or "").startswith("tvm.")]

    def _next(self, node: ast.expr, out: list[Use], depth: int, seen: set[tuple[int, bool]],
              container: bool, derived: bool) -> None:
        if container:
            self._container(node, out, depth + 1, seen, derived)
        else:
            self._value(node, out, depth + 1, seen, derived)

    def _parent(self, node: ast.expr, key: tuple[int, bool], out: list[Use], depth: int,
                seen: set[tuple[int, bool]], derived: bool) -> ast.AST | None:
        """The parent to ask about ``node``, or None: seen already, too deep, or the top."""
        if key in seen:
            return None
        seen.add(key)
        if depth > _MAX_DEPTH:
            self._add(out, "unknown", "code followed too far", node, derived)
            return None
        return self.scopes.parent.get(node)

    def _call_of(self, node: ast.expr, parent: ast.AST) -> tuple[ast.Call, str | None] | None:
        """The call ``node`` is an argument of, with its keyword (None: positional)."""
        if isinstance(parent, ast.keyword):
            call = self.scopes.parent.get(parent)
            return (call, parent.arg) if isinstance(call, ast.Call) else None
        if isinstance(parent, ast.Call) and node is not parent.func:
            return parent, None
        return None

    def _value(self, node: ast.expr, out: list[Use], depth: int, seen: set[tuple[int, bool]],
               derived: bool) -> None:
        """The uses of the value of ``node`` (a string)."""
        parent = self._parent(node, (id(node), derived), out, depth, seen, derived)
        if parent is None:
            return
        add = self._add
        called = self._call_of(node, parent)
        if called is not None:
            self._argument(called[0], node, called[1], out, depth, seen, derived)
            return
        if isinstance(parent, (ast.keyword, ast.Call)):
            add(out, "unknown", "a call", parent, derived)
            return
        if isinstance(parent, ast.Attribute):
            add(out, "string", f"the string method .{parent.attr}", parent, derived)
            return
        if isinstance(parent, ast.Compare):
            if all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
                add(out, "neutral", "an identity test", parent, derived)
            else:
                add(out, "compared", _compare_text(parent), parent, derived)
            return
        if isinstance(parent, (ast.BoolOp, ast.IfExp)) and node is not getattr(parent, "test",
                                                                                   None):
            self._value(parent, out, depth + 1, seen, derived)
            if isinstance(parent, ast.BoolOp) and node is not parent.values[-1]:
                add(out, "neutral", "a truth test", parent, derived)
            return
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert, ast.UnaryOp)):
            if isinstance(parent, ast.Assert) and node is parent.msg:
                add(out, "neutral", "an assertion's message", parent, derived)
            elif isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not):
                add(out, "string", "an operator", parent, derived)
            else:
                add(out, "neutral", "a truth test", parent, derived)
            return
        if isinstance(parent, ast.FormattedValue):
            joined = self.scopes.parent.get(parent)
            if isinstance(joined, ast.JoinedStr):
                self._larger(joined, "an f-string", out, depth, seen)
            return
        if isinstance(parent, ast.BinOp):
            what = "a concatenation (+)" if isinstance(parent.op, ast.Add) else \
                "%-formatting" if isinstance(parent.op, ast.Mod) else "an operator"
            self._larger(parent, what, out, depth, seen)
            return
        if isinstance(parent, ast.Subscript):
            if node is parent.value:
                add(out, "string", "indexing or slicing", parent, derived)
            else:
                add(out, "compared", "a key (looked up by its text)", parent, derived)
            return
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            self._assigned(parent, node, out, depth, seen, False, derived)
            if isinstance(parent, ast.NamedExpr):
                self._value(parent, out, depth + 1, seen, derived)
            return
        if isinstance(parent, (ast.List, ast.Tuple, ast.Set)):
            bound = self.bindings_of_value(node)
            if bound:  # a, b = "x", y: the name gets the value itself
                for binding in bound:
                    self._name_reads(binding, out, depth, seen, False, derived)
                return
            row = self.scopes.parent.get(parent)
            if isinstance(row, ast.Call) and parent in row.args and \
                    (self.callee(row.func) or "").endswith("testing.parameters"):
                self._fixture_row(row, parent.elts.index(node), out, depth, seen, derived)
                return
            self._container(parent, out, depth + 1, seen, derived)
            return
        if isinstance(parent, ast.Dict):
            if any(node is key for key in parent.keys):
                add(out, "compared", "a dict key (looked up by its text)", parent, derived)
            else:
                self._container(parent, out, depth + 1, seen, derived)
            return
        if isinstance(parent, ast.Return):
            self._returned(parent, out, depth, seen, False, derived)
            return
        if isinstance(parent, ast.Expr):
            add(out, "neutral", "a statement whose value is dropped", parent, derived)
            return
        if isinstance(parent, ast.arguments):
            self._default(parent, node, out, depth, seen, derived)
            return
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
            add(out, "string", "iteration over its characters", parent, derived)
            return
        if isinstance(parent, ast.Match):
            add(out, "compared", "a match statement", parent, derived)
            return
        if isinstance(parent, ast.AugAssign):
            add(out, "formatted", "an augmented assignment", parent, derived)
            return
        if isinstance(parent, ast.Raise):
            add(out, "neutral", "an exception", parent, derived)
            return
        add(out, "unknown", f"a {type(parent).__name__.lower()}", parent, derived)

    def _larger(self, node: ast.expr, what: str, out: list[Use], depth: int,
                seen: set[tuple[int, bool]]) -> None:
        """A larger string made of the value: neutral where it is only printed or logged
        (a larger string kept, or never read, is another use)."""
        inner: list[Use] = []
        self._value(node, inner, depth + 1, seen, True)
        if inner and all(use.shown for use in inner):
            out.append(Use("neutral", f"{what} that is only printed or logged",
                           self._line(node), True))
            return
        other = next((use for use in inner if not use.shown), None)
        where = f" that reaches {other.what}" if other is not None else ""
        out.append(Use("formatted", f"{what}{where}", self._line(node)))

    def _argument(self, call: ast.Call, node: ast.expr, keyword: str | None, out: list[Use],
                  depth: int, seen: set[tuple[int, bool]], derived: bool) -> None:
        add = self._add
        role = self.role(call, node)
        name = self.callee(call.func) or ""
        if role is not None:
            add(out, role, f"{name or 'a call'}(...)", call, derived)
            return
        if name in DEVICE_CALLS and (keyword in (None, "dev_type") and
                                     (call.args[:1] == [node] or keyword == "dev_type")):
            add(out, "device", f"{name}(...)", call, derived)
            return
        if _is_logging(call.func, name) or name in _NEUTRAL_CALLS or \
                name.rsplit(".", 1)[-1].endswith(("Error", "Exception", "Warning")):
            add(out, "neutral", f"{name}(...)", call, derived, shown=True)
            return
        if name == "str" and len(call.args) == 1:
            self._value(call, out, depth + 1, seen, derived)
            return
        if name.endswith("parametrize_targets"):
            decorated = self.scopes.parent.get(call)
            if isinstance(decorated, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._parameters_named(["target"], [decorated], out, depth, seen, derived)
                return
        if name.endswith("testing.parameter"):
            statement = self.scopes.parent.get(call)
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
                    isinstance(statement.targets[0], ast.Name):
                self._parameters_named([statement.targets[0].id], None, out, depth, seen,
                                       derived)
                return
        if name in _STRING_CALLS:
            add(out, "string", f"{name}(...)", call, derived)
            return
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and \
                keyword == "default":
            self._option(call, out, depth, seen, False, derived)
            return
        if isinstance(call.func, ast.Attribute) and call.func.attr in ("format", "join") and \
                isinstance(call.func.value, ast.Constant):
            self._larger(call, f"str.{call.func.attr}", out, depth, seen)
            return
        if name in _FORMATTING_CALLS:
            add(out, "formatted", f"{name}(...)", call, derived)
            return
        parameter = self._parameter(call, node, keyword)
        if parameter is not None:
            self._name_reads(parameter, out, depth, seen, False, derived)
            return
        outside = self.outside.callee(call, keyword if keyword is not None else
                                      call.args.index(node) if node in call.args else -1)
        if outside is not None:
            out.extend(outside)
            return
        add(out, "unknown", f"{name or ast.unparse(call.func)[:40]}(...), whose use of it "
                            "is not known here", call, derived)

    def _parameter(self, call: ast.Call, node: ast.expr, keyword: str | None) -> Binding | None:
        """The parameter of a function of this module that ``node`` is passed to."""
        if not isinstance(call.func, ast.Name):
            return None
        binding = self.scopes.resolve(call.func)
        function = binding.node if binding is not None else None
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or \
                (keyword is None and not any(a is node for a in call.args)):
            return None  # (``**kwargs``: which parameter it fills is not known)
        arguments = function.args
        if keyword is not None:
            chosen = next((a for a in [*arguments.posonlyargs, *arguments.args,
                                       *arguments.kwonlyargs] if a.arg == keyword), None)
        else:
            positional = [*arguments.posonlyargs, *arguments.args]
            index = call.args.index(node)
            chosen = positional[index] if index < len(positional) else None
        if chosen is None:
            return None
        found = self.scopes.bindings.get(function, {}).get(chosen.arg, [])
        return next((b for b in found if b.parameter is chosen), None)

    def _default(self, arguments: ast.arguments, node: ast.expr, out: list[Use], depth: int,
                 seen: set[tuple[int, bool]], derived: bool) -> None:
        function = self.scopes.parent.get(arguments)
        positional = [*arguments.posonlyargs, *arguments.args]
        chosen: ast.arg | None = None
        if any(node is d for d in arguments.defaults):
            index = next(i for i, d in enumerate(arguments.defaults) if d is node)
            chosen = positional[len(positional) - len(arguments.defaults) + index]
        else:
            keyword = next((i for i, d in enumerate(arguments.kw_defaults) if d is node), None)
            chosen = arguments.kwonlyargs[keyword] if keyword is not None else None
        if chosen is None or function is None:
            self._add(out, "unknown", "a parameter's default", arguments, derived)
            return
        found = self.scopes.bindings.get(function, {}).get(chosen.arg, [])
        for binding in found:
            if binding.parameter is chosen:
                self._name_reads(binding, out, depth, seen, False, derived)

    def _assigned(self, statement: ast.Assign | ast.AnnAssign | ast.NamedExpr, node: ast.expr,
                  out: list[Use], depth: int, seen: set[tuple[int, bool]], container: bool,
                  derived: bool) -> None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)):
                self._add(out, "neutral", "stored", statement, derived)
            elif not isinstance(target, ast.Name):
                self._add(out, "string" if not container else "unknown",
                          "unpacked", statement, derived)
        for binding in self.bindings_of_value(node):
            self._name_reads(binding, out, depth, seen, container, derived)

    def _returned(self, statement: ast.Return, out: list[Use], depth: int,
                  seen: set[tuple[int, bool]], container: bool, derived: bool) -> None:
        function = self.scopes.enclosing(statement)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._add(out, "unknown", "a lambda's result", statement, derived)
            return
        for read in self.reads_of(function.name):
            binding = self.scopes.resolve(read)
            if binding is None or binding.node is not function:
                continue
            parent = self.scopes.parent.get(read)
            if isinstance(parent, ast.Call) and parent.func is read:
                self._next(parent, out, depth, seen, container, derived)
            else:
                self._add(out, "unknown", f"{function.name} passed on", read, derived)
        if self.scopes.enclosing(function) is self.scopes.tree:
            out.extend(self.outside.returned(function))

    def _option(self, call: ast.Call, out: list[Use], depth: int, seen: set[tuple[int, bool]],
                container: bool, derived: bool) -> None:
        """An argparse option's default (or choices): the reads of ``args.<dest>``."""
        dest = argparse_dest(call)
        if dest is None:
            self._add(out, "unknown", "an argparse option", call, derived)
            return
        if self._attributes is None:
            self._attributes = {}
            for node in self.scopes.of(ast.Attribute):
                self._attributes.setdefault(node.attr, []).append(node)
        for attribute in self._attributes.get(dest, []):
            if attribute.attr == dest and isinstance(attribute.ctx, ast.Load) and \
                    not (self.callee(attribute) or "").startswith("tvm"):
                self._next(attribute, out, depth, seen, container, derived)

    # ---- containers ----------------------------------------------------------------------

    def _container(self, node: ast.expr, out: list[Use], depth: int,
                   seen: set[tuple[int, bool]], derived: bool) -> None:
        """The uses of an item of the container ``node`` evaluates to."""
        # a container and its item: different keys
        parent = self._parent(node, (id(node), not derived), out, depth, seen, derived)
        if parent is None:
            return
        add = self._add
        called = self._call_of(node, parent)
        if called is not None:
            self._container_argument(called[0], node, called[1], out, depth, seen, derived)
            return
        if isinstance(parent, (ast.keyword, ast.Call)):
            return
        if isinstance(parent, ast.Attribute):
            call = self.scopes.parent.get(parent)
            method = parent.attr
            if not (isinstance(call, ast.Call) and call.func is parent):
                add(out, "unknown", f"the attribute .{method}", parent, derived)
            elif method in _CONTAINER_METHODS_NEUTRAL:
                add(out, "neutral", f".{method}()", call, derived)
            elif method in _CONTAINER_METHODS_ITEM:
                self._value(call, out, depth + 1, seen, derived)
            elif method in _CONTAINER_METHODS_SAME:
                self._container(call, out, depth + 1, seen, derived)
            elif method == "items":
                self._pairs(call, out, depth, seen, derived)
            else:
                add(out, "compared" if method in ("index", "count", "sort") else "unknown",
                    f".{method}()", call, derived)
            return
        if isinstance(parent, ast.Subscript):
            if node is parent.value and isinstance(parent.ctx, ast.Load):
                self._value(parent, out, depth + 1, seen, derived)
            elif node is parent.value:
                add(out, "neutral", "stored", parent, derived)
            else:
                add(out, "compared", "a key", parent, derived)
            return
        if isinstance(parent, ast.Compare):
            if node in parent.comparators and any(isinstance(op, (ast.In, ast.NotIn))
                                                  for op in parent.ops):
                if isinstance(node, ast.Dict) or self._is_dict(node):
                    add(out, "neutral", "a membership test of its keys", parent, derived)
                else:
                    add(out, "compared", "a membership test (in)", parent, derived)
            else:
                add(out, "compared", _compare_text(parent), parent, derived)
            return
        if isinstance(parent, (ast.For, ast.AsyncFor)) and node is parent.iter:
            self._loop_target(parent.target, out, depth, seen, derived)
            return
        if isinstance(parent, ast.comprehension) and node is parent.iter:
            self._loop_target(parent.target, out, depth, seen, derived)
            return
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            self._assigned(parent, node, out, depth, seen, True, derived)
            return
        if isinstance(parent, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            if isinstance(parent, ast.Dict) and any(node is k for k in parent.keys):
                add(out, "compared", "a dict key", parent, derived)
                return
            self._container(parent, out, depth + 1, seen, derived)
            return
        if isinstance(parent, (ast.BoolOp, ast.IfExp)) and node is not getattr(parent, "test",
                                                                                   None):
            self._container(parent, out, depth + 1, seen, derived)
            return
        if isinstance(parent, ast.Return):
            self._returned(parent, out, depth, seen, True, derived)
            return
        if isinstance(parent, (ast.Expr, ast.If, ast.While, ast.Assert, ast.UnaryOp)):
            add(out, "neutral", "a statement or a truth test", parent, derived)
            return
        if isinstance(parent, ast.arguments):
            add(out, "unknown", "a parameter's default", parent, derived)
            return
        if isinstance(parent, ast.FormattedValue):
            joined = self.scopes.parent.get(parent)
            if isinstance(joined, ast.JoinedStr):
                self._larger(joined, "an f-string", out, depth, seen)
            return
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and \
                node is parent.right:  # "%s: %s" % (target, why): the items go in the text
            self._larger(parent, "%-formatting", out, depth, seen)
            return
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
            self._container(parent, out, depth + 1, seen, derived)  # [a] + [b]: its items
            return
        add(out, "unknown", f"a {type(parent).__name__.lower()}", parent, derived)

    def _is_dict(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            binding = self.scopes.resolve(node)
            return binding is not None and isinstance(binding.value, (ast.Dict, ast.DictComp))
        return isinstance(node, (ast.Dict, ast.DictComp))

    def _container_argument(self, call: ast.Call, node: ast.expr, keyword: str | None,
                            out: list[Use], depth: int, seen: set[tuple[int, bool]],
                            derived: bool) -> None:
        add = self._add
        name = self.callee(call.func) or ""
        role = self.role(call, node)
        if role is not None:
            add(out, role, f"{name or 'a call'}(...)", call, derived)
            return
        if _is_logging(call.func, name) or name in _NEUTRAL_CALLS or name == "len":
            add(out, "neutral", f"{name}(...)", call, derived)
            return
        if name in ("list", "tuple", "set", "dict", "reversed", "iter", "copy.copy",
                    "copy.deepcopy"):
            self._container(call, out, depth + 1, seen, derived)
            return
        if name == "enumerate" and call.args[:1] == [node]:
            self._pairs(call, out, depth, seen, derived)
            return
        if name.endswith("parametrize") and len(call.args) >= 2 and call.args[1] is node:
            self._parametrized(call, out, depth, seen, derived)
            return
        if name.endswith("fixture") and keyword == "params":
            decorated = self.scopes.parent.get(call)
            if isinstance(decorated, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    self.fixture_returns_param(decorated):  # the tests that name it get it
                self._parameters_named([decorated.name], None, out, depth, seen, derived)
                return
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and \
                keyword == "choices":
            self._option(call, out, depth, seen, False, derived)
            return
        if name == "sorted":
            add(out, "compared", "sorted(...)", call, derived)
            return
        if isinstance(call.func, ast.Attribute) and call.func.attr == "join" and \
                isinstance(call.func.value, ast.Constant):
            self._larger(call, "str.join", out, depth, seen)  # "-".join([target, ...])
            return
        parameter = self._parameter(call, node, keyword)
        if parameter is not None:
            self._name_reads(parameter, out, depth, seen, True, derived)
            return
        add(out, "unknown", f"{name or 'a call'}(...), whose use of it is not known here",
            call, derived)

    def _pairs(self, call: ast.Call, out: list[Use], depth: int, seen: set[tuple[int, bool]],
               derived: bool) -> None:
        """``for k, v in d.items()`` / ``for i, x in enumerate(xs)``: the second name."""
        parent = self.scopes.parent.get(call)
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and \
                parent.iter is call and isinstance(parent.target, ast.Tuple) and \
                len(parent.target.elts) == 2:
            self._loop_target(parent.target.elts[1], out, depth, seen, derived)
            return
        self._add(out, "unknown", "pairs of items", call, derived)

    def _loop_target(self, target: ast.expr, out: list[Use], depth: int,
                     seen: set[tuple[int, bool]], derived: bool) -> None:
        if not isinstance(target, ast.Name):
            if isinstance(target, ast.Tuple):
                self._add(out, "string", "unpacked", target, derived)
            else:
                self._add(out, "neutral", "stored", target, derived)
            return
        scope = self.scopes.lookup(target.id, target)
        for read in self.reads_of(target.id):
            where = self.scopes.lookup(target.id, read)
            if where is None or scope is None or where[0] is not scope[0]:
                continue
            resolved = self.scopes.resolve(read)
            if resolved is None or resolved.node is target:
                self._value(read, out, depth + 1, seen, derived)

    def _fixture_row(self, call: ast.Call, index: int, out: list[Use], depth: int,
                     seen: set[tuple[int, bool]], derived: bool) -> None:
        """``a, b = tvm.testing.parameters((a1, b1), ...)``: the fixture at ``index``."""
        statement = self.scopes.parent.get(call)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
                isinstance(statement.targets[0], ast.Tuple) and \
                index < len(statement.targets[0].elts) and \
                isinstance(statement.targets[0].elts[index], ast.Name):
            name = statement.targets[0].elts[index].id  # type: ignore[attr-defined]
            self._parameters_named([name], None, out, depth, seen, derived)
            return
        self._add(out, "unknown", "tvm.testing.parameters(...)", call, derived)

    def _parameters_named(self, names: list[str], functions: list[ast.AST] | None,
                          out: list[Use], depth: int, seen: set[tuple[int, bool]],
                          derived: bool) -> None:
        """The reads of the parameters ``names`` of ``functions`` (None: every function of
        the module, as pytest hands a fixture to each test that names it)."""
        candidates = functions if functions is not None else [
            *self.scopes.of(ast.FunctionDef), *self.scopes.of(ast.AsyncFunctionDef)]
        for function in candidates:
            for name in names:
                for binding in self.scopes.bindings.get(function, {}).get(name, []):
                    if binding.parameter is not None:
                        self._name_reads(binding, out, depth, seen, False, derived)
        if functions is None:  # a conftest.py's fixture: the tests below it too
            for name in names:
                out += self.outside.fixture(name)

    @staticmethod
    def fixture_returns_param(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a fixture returns ``request.param`` (its first parameter's), and only
        that."""
        first = [*function.args.posonlyargs, *function.args.args][:1]
        returns = [node for node in ast.walk(function) if isinstance(node, ast.Return)]
        return bool(first) and bool(returns) and all(
            isinstance(r.value, ast.Attribute) and r.value.attr == "param" and
            isinstance(r.value.value, ast.Name) and r.value.value.id == first[0].arg
            for r in returns)

    def fixture_uses(self, name: str) -> list[Use]:
        """The uses the tests of this module make of a pytest fixture ``name``."""
        out: list[Use] = []
        self._parameters_named([name], [*self.scopes.of(ast.FunctionDef),
                                        *self.scopes.of(ast.AsyncFunctionDef)], out, 0, set(),
                               False)
        return out

    def _parametrized(self, call: ast.Call, out: list[Use], depth: int,
                      seen: set[tuple[int, bool]], derived: bool) -> None:
        """``@pytest.mark.parametrize("a,b", [...])``: the test function's parameters."""
        decorated = self.scopes.parent.get(call)
        first = call.args[0]
        if not isinstance(decorated, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                not isinstance(first, ast.Constant) or not isinstance(first.value, str):
            self._add(out, "unknown", "a parametrized test", call, derived)
            return
        for name in (n.strip() for n in first.value.split(",") if n.strip()):
            for binding in self.scopes.bindings.get(decorated, {}).get(name, []):
                if binding.parameter is not None:
                    self._name_reads(binding, out, depth, seen, False, derived)


def argparse_dest(call: ast.Call) -> str | None:
    """The destination of an ``add_argument`` call (``--target-host`` -> ``target_host``)."""
    for keyword in call.keywords:
        if keyword.arg == "dest" and isinstance(keyword.value, ast.Constant) and \
                isinstance(keyword.value.value, str):
            return keyword.value.value
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and
             isinstance(a.value, str)]
    long = [f for f in flags if f.startswith("--")]
    chosen = long[0][2:] if long else (flags[0].lstrip("-") if flags else None)
    return chosen.replace("-", "_") if chosen else None


_OPS = {ast.Add: "+", ast.Mod: "%", ast.Mult: "*"}


def _compare_text(node: ast.Compare) -> str:
    op = node.ops[0]
    words = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Lt: "<",
             ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">="}
    return f"a comparison ({words.get(type(op), 'compared')})"


def _is_logging(func: ast.expr, name: str) -> bool:
    if name in ("print", "logging.log"):
        return True
    if isinstance(func, ast.Attribute) and func.attr in _LOG_METHODS:
        receiver = func.value
        text = receiver.attr if isinstance(receiver, ast.Attribute) else \
            receiver.id if isinstance(receiver, ast.Name) else ""
        return "log" in text.lower()
    return False
