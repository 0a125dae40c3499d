"""Where a name in a Python program was bound: the name resolution behind ``pyscripts``.

A deliberately small model of Python's scoping, enough to follow a target through names:

* scopes are the module, functions, lambdas, classes and comprehensions; a name read in a
  function is looked up in that function, then in the enclosing functions (classes skipped, as
  Python skips them), then in the module; ``global`` and ``nonlocal`` redirect a binding;
* a binding is an assignment (``=``, annotated, walrus), a parameter, or anything else that
  binds a name (``for``, ``with ... as``, ``import``, ``def``, ``except ... as``, ``+=``,
  ``del``, a ``match`` capture) — the last kind has no value we can follow;
* a read is *resolved* to one binding when that binding surely holds when the read runs: in the
  read's own scope, the last binding before the read that dominates it (it sits in a block the
  read is nested in, earlier) with no other binding of the name between them, nor after the
  read inside a loop that holds both; in an enclosing scope, the only binding there is.
Anything else (two candidate bindings, a name bound nowhere) is not resolved.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPE_TYPES = frozenset(_SCOPES)
_BINDER_TYPES = frozenset({
    ast.Global, ast.Nonlocal, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign,
    ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor, ast.Import, ast.ImportFrom, ast.Name,
    ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping})
_Node = TypeVar("_Node", bound=ast.AST)
#: Nodes whose scope is asked for (``Scopes.enclosing``); others need only their parent.
_LOOKED_UP = frozenset({ast.Return, *_SCOPES})
#: Fields that never hold a node (an expression's context is a node, but no one's business).
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "arg", "name", "asname", "module", "level",
                          "kind", "type_comment", "is_async", "conversion", "simple", "op"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
#: the same, last field first
_CHILD_FIELDS_REVERSED: dict[type, tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class Binding:
    """One place binding ``name``: ``value`` for an assignment, ``parameter`` (with its
    ``function``) for a parameter, neither for any other binding."""

    name: str
    node: ast.AST
    value: ast.expr | None = None
    parameter: ast.arg | None = None
    function: ast.AST | None = None
    default: ast.expr | None = None
    #: a ``for`` target: what it iterates over
    iterable: ast.expr | None = None
    #: where the binding takes effect (the end of an assignment)
    at: tuple[int, int] = (0, 0)


class Scopes:
    """The bindings of every scope of one module, and the parent of every node."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._parent: dict[ast.AST, ast.AST] = {}
        self._scope_of: dict[ast.AST, ast.AST] = {}
        self._bindings: dict[ast.AST, dict[str, list[Binding]]] = {}
        self._redirect: dict[ast.AST, dict[str, ast.AST]] = {}
        self._complete = False
        #: every node of the module by its type, in source order: one walk serves all readers
        self.nodes = _nodes_by_type(tree)
        self._slots: dict[int, tuple[int, str, int]] | None = None
        self._seen_holders: set[int] = set()
        self._orders: dict[int, tuple[list[tuple[int, int]], list[Binding]]] = {}

    def of(self, kind: type[_Node]) -> list[_Node]:
        """Every node of type ``kind`` (exactly) in the module, in source order."""
        return self.nodes.get(kind, [])  # type: ignore[return-value]

    # Parents, scopes and bindings cost a second walk, made on first use: most modules that
    # name tvm hold no site, and are done with the nodes by type alone.

    @property
    def parent(self) -> dict[ast.AST, ast.AST]:
        if not self._complete:
            self._completed()
        return self._parent

    @property
    def scope_of(self) -> dict[ast.AST, ast.AST]:
        if not self._complete:
            self._completed()
        return self._scope_of

    @property
    def bindings(self) -> dict[ast.AST, dict[str, list[Binding]]]:
        if not self._complete:
            self._completed()
        return self._bindings

    def _completed(self) -> None:
        self._complete = True
        self._walk(self.tree, self.tree)

    # ---- building ----------------------------------------------------------------------------

    def _walk(self, node: ast.AST, scope: ast.AST) -> None:
        stack: list[tuple[ast.AST, ast.AST]] = [(node, scope)]
        parent, scope_of = self._parent, self._scope_of
        # locals for speed: this loop sees every node of every file with a site
        AST, Name, Load, Constant = ast.AST, ast.Name, ast.Load, ast.Constant  # noqa: N806
        while stack:
            current, owner = stack.pop()
            kind = type(current)
            if kind is Name:  # most nodes: no children but their context
                scope_of[current] = owner
                if type(current.ctx) is not Load:  # type: ignore[attr-defined]
                    self._bind(current, owner)
                continue
            if kind is Constant:
                continue
            if kind in _LOOKED_UP:
                scope_of[current] = owner
            inner = owner
            if kind in _SCOPE_TYPES and current is not owner:
                inner = current
                self._enter(current)
            if kind in _BINDER_TYPES:
                self._bind(current, owner)
            children: list[tuple[ast.AST, ast.AST]] = []
            scoped = inner is not owner or kind is ast.comprehension
            fields = _CHILD_FIELDS.get(kind)
            if fields is None:
                fields = _CHILD_FIELDS[kind] = tuple(
                    f for f in kind._fields if f not in _LEAF_FIELDS)
            for name in fields:
                value = getattr(current, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, AST):
                            parent[item] = current
                            children.append((item, owner if scoped and self._outside(
                                current, item) else inner))
                elif isinstance(value, AST):
                    parent[value] = current
                    children.append((value, owner if scoped and self._outside(
                        current, value) else inner))
            # pushed last first: nodes are seen in source order (a ``global`` before its use)
            stack.extend(reversed(children))

    def _enter(self, scope: ast.AST) -> None:
        self._bindings.setdefault(scope, {})
        if isinstance(scope, _FUNCTIONS):
            arguments = scope.args
            positional = [*arguments.posonlyargs, *arguments.args]
            defaults: list[ast.expr | None] = [None] * (len(positional) - len(
                arguments.defaults)) + list(arguments.defaults)
            pairs = list(zip(positional, defaults)) + list(zip(
                arguments.kwonlyargs, arguments.kw_defaults))
            pairs += [(a, None) for a in (arguments.vararg, arguments.kwarg) if a is not None]
            for arg, default in pairs:
                self._add(scope, Binding(arg.arg, arg, parameter=arg, function=scope,
                                         default=default, at=(scope.lineno, -1)))

    @staticmethod
    def _outside(parent: ast.AST, child: ast.AST) -> bool:
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return child in parent.decorator_list or child is parent.returns or \
                child is parent.args
        if isinstance(parent, ast.Lambda):
            return child is parent.args
        if isinstance(parent, ast.ClassDef):
            return child in parent.decorator_list or child in parent.bases or \
                child in parent.keywords
        if isinstance(parent, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return child is parent.generators[0].iter
        if isinstance(parent, ast.comprehension):
            return False
        return False

    def _add(self, scope: ast.AST, binding: Binding) -> None:
        target = self._redirect.get(scope, {}).get(binding.name, scope)
        self._bindings.setdefault(target, {}).setdefault(binding.name, []).append(binding)

    def _bind(self, node: ast.AST, owner: ast.AST) -> None:
        if type(node) is ast.Name:
            if isinstance(node.ctx, ast.Load):
                return
            parent = self._parent.get(node)
            if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.target is node:
                return
            if not isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and not (
                    isinstance(parent, (ast.Tuple, ast.List, ast.Starred))
                    and self._in_assign(parent)):
                self._add(owner, Binding(node.id, node))
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            redirect = self._redirect.setdefault(owner, {})
            for name in node.names:
                redirect[name] = self.tree if isinstance(node, ast.Global) else \
                    self._enclosing_binder(owner, name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._add(owner, Binding(node.name, node))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for bound, value in _pairs(target, node.value):
                    self._add(owner, Binding(bound.id, bound, value=value, at=_end(node)))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            self._add(owner, Binding(node.target.id, node.target, value=node.value,
                                     at=_end(node)))
        elif isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.target, ast.Name):
            self._add(owner, Binding(node.target.id, node.target, iterable=node.iter,
                                     at=_end(node.iter)))
        elif isinstance(node, ast.NamedExpr):
            # a walrus in a comprehension binds in the enclosing function
            scope = owner
            while isinstance(scope, (ast.ListComp, ast.SetComp, ast.DictComp,
                                     ast.GeneratorExp)):
                scope = self._scope_of.get(scope, self.tree)
            self._add(scope, Binding(node.target.id, node.target, value=node.value,
                                     at=_end(node)))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                if name != "*":
                    self._add(owner, Binding(name, node))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self._add(owner, Binding(node.name, node))
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            self._add(owner, Binding(node.name, node))
        elif isinstance(node, ast.MatchMapping) and node.rest:
            self._add(owner, Binding(node.rest, node))

    def _in_assign(self, node: ast.AST) -> bool:
        while isinstance(node, (ast.Tuple, ast.List, ast.Starred)):
            node = self._parent.get(node, node)
            if isinstance(node, ast.Assign):
                return True
        return False

    def _enclosing_binder(self, scope: ast.AST, name: str) -> ast.AST:
        current = self._scope_of.get(scope, self.tree)
        while current is not self.tree and not isinstance(current, _FUNCTIONS):
            current = self._scope_of.get(current, self.tree)
        return current

    # ---- reading -----------------------------------------------------------------------------

    def enclosing(self, node: ast.AST) -> ast.AST:
        """The scope whose code ``node`` is part of."""
        return self.scope_of.get(node, self.tree)

    def statement(self, node: ast.AST) -> ast.AST:
        while not isinstance(node, ast.stmt) and node in self.parent:
            node = self.parent[node]
        return node

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        while node in self.parent:
            node = self.parent[node]
            yield node

    def lookup(self, name: str, at: ast.AST) -> tuple[ast.AST, list[Binding]] | None:
        """The scope ``name`` read at ``at`` refers to, and its bindings there."""
        scope = self.enclosing(at)
        first = True
        while True:
            if first or isinstance(scope, _FUNCTIONS) or scope is self.tree:
                found = self.bindings.get(scope, {}).get(name)
                if found:
                    return scope, found
            if scope is self.tree:
                return None
            scope = self.enclosing(scope)
            first = False

    def resolve(self, read: ast.Name) -> Binding | None:
        """The one binding that holds where ``read`` runs, if there is one (module docstring)."""
        found = self.lookup(read.id, read)
        if found is None:
            return None
        scope, bindings = found
        if scope is not self.enclosing(read):
            return bindings[0] if len(bindings) == 1 else None
        if len(bindings) == 1 and bindings[0].parameter is not None:
            return bindings[0]
        return self._dominating(read, bindings)

    def _slot(self, statement: ast.AST) -> tuple[int, str, int] | None:
        """(holder id, field, index) of a statement in the block that holds it."""
        if self._slots is None:
            self._slots = {}
            for holder in self.parent.values():
                if id(holder) in self._seen_holders:
                    continue
                self._seen_holders.add(id(holder))
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(holder, field, None)
                    if isinstance(block, list):
                        for index, child in enumerate(block):
                            self._slots[id(child)] = (id(holder), field, index)
        return self._slots.get(id(statement))

    def _dominates(self, statement: ast.AST, read: ast.AST) -> bool:
        """Whether ``statement`` runs, in the same block, before the statement holding
        ``read`` (or one holding it) — so every path to ``read`` passes it."""
        slot = self._slot(statement)
        if slot is None:
            return False
        holder, field, index = slot
        node: ast.AST = read
        while node in self.parent:
            other = self._slot(node)
            if other is not None and other[0] == holder and other[1] == field:
                return other[2] > index
            node = self.parent[node]
        return False

    def _ordered(self, bindings: list[Binding]) -> tuple[list[tuple[int, int]], list[Binding]]:
        """The bindings of one name in one scope by where they take effect (cached)."""
        key = id(bindings)
        found = self._orders.get(key)
        if found is None or len(found[1]) != len(bindings):
            ordered = sorted(bindings, key=_position)
            found = ([_position(b) for b in ordered], ordered)
            self._orders[key] = found
        return found

    def _dominating(self, read: ast.Name, bindings: list[Binding]) -> Binding | None:
        position = (read.lineno, read.col_offset)
        positions, ordered = self._ordered(bindings)
        split = bisect.bisect_left(positions, position)
        candidate: Binding | None = None
        if split:
            candidate = ordered[split - 1]
        elif len(bindings) == 1 and bindings[0].parameter is not None:
            return bindings[0]
        if candidate is None:
            return None
        if candidate.parameter is not None:
            if split > 1:  # a parameter holds from the start of the function
                return None
        elif candidate.iterable is not None:
            loop = self.parent.get(candidate.node)
            if not any(loop is a for a in self.ancestors(read)):
                return None  # after the loop: the last item, or never bound
        elif isinstance(self.statement(candidate.node), (ast.With, ast.AsyncWith, ast.For,
                                                          ast.AsyncFor)):
            if self.statement(candidate.node) not in set(self.ancestors(read)):
                return None  # after the block: dominated only when also bound before it
        elif not self._dominates(self.statement(candidate.node), read):
            return None
        # a binding later in a loop that holds the read reaches it on the next round
        # (one after the read and before the loop's end is inside the loop)
        later = split
        for loop in (a for a in self.ancestors(read) if isinstance(a, _LOOPS)):
            end = (getattr(loop, "end_lineno", 0) or 0, getattr(loop, "end_col_offset", 0) or 0)
            if later < len(positions) and positions[later] <= end:
                return None
        return candidate


def _nodes_by_type(tree: ast.AST) -> dict[type[ast.AST], list[ast.AST]]:
    """Every node of ``tree`` by its type, in source order (no recursion)."""
    nodes: dict[type[ast.AST], list[ast.AST]] = {}
    stack: list[object] = [tree]
    # locals for speed: this loop sees every node of every file; a list's items are pushed
    # whole (names, a dict's None keys) and skipped when popped, cheaper than filtering
    pop, extend, append = stack.pop, stack.extend, stack.append
    AST = ast.AST  # noqa: N806
    fields_of = _CHILD_FIELDS_REVERSED
    while stack:
        current = pop()
        if not isinstance(current, AST):
            continue
        kind = type(current)
        found = nodes.get(kind)
        if found is None:
            nodes[kind] = [current]
        else:
            found.append(current)
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(
                reversed([f for f in kind._fields if f not in _LEAF_FIELDS]))
        for name in fields:  # last field first: the stack pops them in source order
            value = getattr(current, name, None)
            if type(value) is list:
                if value:
                    extend(value[::-1])
            elif isinstance(value, AST):
                append(value)
    return nodes


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _pairs(target: ast.expr, value: ast.expr | None) -> Iterator[tuple[ast.Name, ast.expr | None]]:
    """Each name an assignment binds, with the expression it gets when the program says
    (``a, b = "llvm", tvm.cpu()``), else None."""
    if isinstance(target, ast.Name):
        yield target, value
    elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts) and not any(
                isinstance(e, ast.Starred) for e in [*target.elts, *value.elts]):
        for element, item in zip(target.elts, value.elts):
            yield from _pairs(element, item)
    else:
        for name in _names(target):
            yield name, None


def _names(target: ast.expr) -> Iterator[ast.Name]:
    if isinstance(target, ast.Name):
        yield target
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _names(element)
    elif isinstance(target, ast.Starred):
        yield from _names(target.value)


def _position(binding: Binding) -> tuple[int, int]:
    if binding.at != (0, 0):
        return binding.at
    node = binding.node
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
