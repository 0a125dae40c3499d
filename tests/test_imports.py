"""The package's import graph: acyclic, counting imports inside functions.

Run as a script to list the graph's in-function imports (each must be lazy loading for
start-up time, with a one-line reason on the line above or after it):

    python tests/test_imports.py
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

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


if __name__ == "__main__":
    edges = in_function_imports()
    for edge in edges:
        print(f"{edge.importer}:{edge.line} -> {edge.imported}")
    print(f"{len(edges)} in-function imports of the package's own modules")
    cycle = find_cycle(graph())
    print("cycle: " + " -> ".join(cycle) if cycle else "no cycle")
    sys.exit(1 if cycle else 0)
