"""The package's import graph: acyclic, counting imports inside functions; and no module
imports a private name of another public module (what two modules share lives once, in a
private module of their package).

Run as a script to list the graph's in-function imports (each must be lazy loading for
start-up time, with a one-line reason on the line above or after it):

    python tests/test_imports.py
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "targetlang"


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    """Every import of the package's own modules that runs (``if TYPE_CHECKING`` excluded)."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def resolve(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = package.split(".")
        base = base[: len(base) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def visit(node: ast.AST, in_function: bool) -> None:
        if _type_checking_block(node):
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    found.append(Import(name, alias.name, node.lineno, in_function))
        elif isinstance(node, ast.ImportFrom):
            target = resolve(node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in known:  # from . import module
                    found.append(Import(name, sub, node.lineno, in_function))
                elif target in known:
                    found.append(Import(name, target, node.lineno, in_function))
        for child in ast.iter_child_nodes(node):
            visit(child, in_function or isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    # importlib.import_module(f"{__name__}.{...}") in __init__'s __getattr__ is lazy by design:
    # the names it loads are listed in _LAZY and are checked by the test below as edges.
    return [i for i in dict.fromkeys(found) if i.imported != name]


def graph() -> list[Import]:
    known = modules()
    return [edge for name, path in known.items() for edge in _imports_of(name, path, set(known))]


def find_cycle(edges: list[Import]) -> list[str] | None:
    """One cycle of the graph (module names, first repeated at the end), or None."""
    successors: dict[str, set[str]] = {}
    for edge in edges:
        successors.setdefault(edge.importer, set()).add(edge.imported)
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(successors.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle is not None:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(successors):
        if node not in state:
            cycle = walk(node)
            if cycle is not None:
                return cycle
    return None


def in_function_imports() -> list[Import]:
    return [edge for edge in graph() if edge.in_function]


def test_no_import_cycle() -> None:
    assert find_cycle(graph()) is None


def test_in_function_imports_say_why() -> None:
    """Each import of our own modules inside a function is lazy loading, and says so."""
    known = modules()
    for edge in in_function_imports():
        lines = known[edge.importer].read_text("utf-8").splitlines()
        around = " ".join(lines[max(0, edge.line - 2): edge.line + 1])
        assert "#" in around, f"{edge.importer}:{edge.line} imports {edge.imported} without a reason"


def test_graph_sees_imports_in_functions() -> None:
    # The checker itself: a late import is an edge like any other.
    edges = graph()
    assert any(e.importer == "targetlang" and e.imported == "targetlang.target" for e in edges)


def _is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


def private_cross_imports() -> list[str]:
    """Each ``from M import _name`` (or ``M._name``, ``M`` imported as a module) where ``M`` is
    another public module of the package: a piece two modules need lives once in a private
    module of their package (``configuration/_common.py``), under a name public to it."""
    known = modules()
    found: list[str] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text("utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        aliases: dict[str, str] = {}  # local name -> public module imported as a module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in known:  # a module: its private names are checked where used
                        aliases[alias.asname or alias.name] = sub
                    elif (target in known and target != name and _is_public(target)
                          and alias.name.startswith("_") and not alias.name.startswith("__")):
                        found.append(f"{name}:{node.lineno} imports {target}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.attr.startswith("_") and not node.attr.startswith("__"):
                module = aliases.get(node.value.id)
                if module is not None and module != name and _is_public(module):
                    found.append(f"{name}:{node.lineno} uses {module}.{node.attr}")
    return found


def test_no_private_names_from_another_public_module() -> None:
    assert private_cross_imports() == []


def test_private_cross_imports_are_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The checker itself, on a package of three modules: one import of a private name from a
    # public sibling, one use of a private attribute of a public module imported as a module.
    root = tmp_path / "pkg"
    (root / "tools").mkdir(parents=True)
    for init in (root / "__init__.py", root / "tools" / "__init__.py"):
        init.write_text("")
    (root / "tools" / "config.py").write_text("def _at(): pass\n")
    (root / "tools" / "views.py").write_text("from .config import _at\n")
    (root / "tools" / "arch.py").write_text("from . import config\nconfig._at()\n")
    (root / "tools" / "_common.py").write_text("def at(): pass\ndef _hidden(): pass\n")
    (root / "tools" / "ok.py").write_text("from ._common import _hidden, at\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert sorted(private_cross_imports()) == ["pkg.tools.arch:2 uses pkg.tools.config._at",
                                               "pkg.tools.views:1 imports pkg.tools.config._at"]


if __name__ == "__main__":
    edges = in_function_imports()
    for edge in edges:
        print(f"{edge.importer}:{edge.line} -> {edge.imported}")
    print(f"{len(edges)} in-function imports of the package's own modules")
    cycle = find_cycle(graph())
    print("cycle: " + " -> ".join(cycle) if cycle else "no cycle")
    sys.exit(1 if cycle else 0)
