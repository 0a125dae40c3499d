"""One path per name: targetlang.configuration and targetlang.migration hold the tools, each
public module is where its code lives (no second path forwards to it), and the pieces the tools
share exist once."""

from __future__ import annotations

import ast
import importlib
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import targetlang as tl
from targetlang._equality import EqualAsJson

PACKAGE = Path(tl.__file__).parent
#: Paths that were once forwarding modules; a 0.1.0 package offers each name at one path.
GONE = ("targetlang.backends", "targetlang.config", "targetlang.views", "targetlang.architecture",
        "targetlang.components", "targetlang.presets", "targetlang.logs", "targetlang.pyscripts",
        "targetlang.upgrade", "targetlang.migration.targets", "targetlang.migration.compat")


def public_modules() -> list[str]:
    found = ["targetlang"]
    for info in pkgutil.walk_packages(tl.__path__, prefix="targetlang."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.append(info.name)
    return found


@pytest.mark.parametrize("name", GONE)
def test_a_name_has_one_path(name: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(name)


def test_only_the_package_loads_names_lazily() -> None:
    # One PEP 562 hook: targetlang's, for the names that load on first use. No module forwards.
    defining = sorted(str(path.relative_to(PACKAGE.parent)) for path in PACKAGE.rglob("*.py")
                      if any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
                             for node in ast.parse(path.read_text("utf-8")).body))
    assert defining == ["targetlang/__init__.py"]


@pytest.mark.parametrize("module", public_modules())
def test_a_public_class_is_named_where_it_lives(module: str) -> None:
    # A traceback and pickle name a class by __module__: that is the one path it has.
    value = importlib.import_module(module)
    for name in getattr(value, "__all__", ()):
        member = getattr(value, name)
        if isinstance(member, type) and member.__module__.startswith("targetlang"):
            assert getattr(importlib.import_module(member.__module__), member.__name__) is member


def test_dir_offers_the_public_modules() -> None:
    # Tab completion reads dir(): the README's `targetlang.compat` is there before its import.
    submodules = {name.split(".")[1] for name in public_modules() if name.count(".") == 1}
    assert submodules <= set(dir(tl)) and set(tl.__all__) <= set(dir(tl))
    code = "import targetlang; print(targetlang.compat.__name__, targetlang.migration.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["targetlang.compat", "targetlang.migration"]


def test_import_targetlang_loads_no_tool() -> None:
    # PEP 562: the tools load on first use, so `import targetlang` costs what reading needs.
    code = ("import sys, targetlang; print(' '.join(m for m in sys.modules "
            "if m.startswith(('targetlang.configuration', 'targetlang.migration'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == ""
    assert tl.CompilationConfig is importlib.import_module(
        "targetlang.configuration.config").CompilationConfig


# ---- one equality by canonical JSON ----------------------------------------------------------------

def _values() -> list[tuple[object, object, object]]:
    """(value, an equal value built anew, a different value) for each class that uses it."""
    config = tl.CompilationConfig(targets=["cuda", "llvm"], executor="graph")
    arch = {"components": ["nvidia/jetson-nano"]}
    return [
        (tl.Executor("aot", {"link-params": True}), tl.Executor.from_json(
            {"name": "aot", "attrs": {"link-params": True}}),
         tl.Executor("aot", {"link-params": False})),
        (tl.Runtime("crt"), tl.Runtime("c"), tl.Runtime("cpp")),
        (config, tl.CompilationConfig.from_json(config.to_json()),
         tl.CompilationConfig(targets=["llvm", "cuda"], executor="graph")),
        (tl.component("nvidia/jetson-nano"), tl.component("nvidia/jetson-nano"),
         tl.component("nvidia/jetson-nano").with_properties(os="linux")),
        (tl.Architecture.from_json(arch), tl.Architecture.from_json(arch),
         tl.Architecture.from_json({"components": ["nvidia/jetson-nano", "nvidia/jetson-nano"]})),
        (tl.parse_tvmc("llvm -mcpu=skylake"), tl.parse_tvmc("llvm -mcpu=skylake"),
         tl.parse_tvmc("llvm")),
    ]


@pytest.mark.parametrize("value, same, other", _values(),
                         ids=lambda v: type(v).__name__)
def test_values_are_equal_by_their_canonical_json(value: object, same: object,
                                                  other: object) -> None:
    assert isinstance(value, EqualAsJson)
    assert value is not same and value == same and hash(value) == hash(same)
    assert value != other
    assert pickle.loads(pickle.dumps(value)) == value
    assert value != "not a value" and value.__eq__(object()) is NotImplemented


def test_an_executor_never_equals_a_runtime() -> None:
    # Both are of one family (what a configuration takes), and their identity says which.
    assert tl.Executor("graph") != tl.Runtime("cpp")
    assert tl.Executor("graph").__eq__(tl.Runtime("cpp")) is False
    assert tl.Executor("graph").__eq__(tl.CompilationConfig(targets=["llvm"])) is NotImplemented


def test_the_order_of_targets_and_components_is_part_of_the_value() -> None:
    assert tl.CompilationConfig(targets=["cuda", "llvm"]) != \
        tl.CompilationConfig(targets=["llvm", "cuda"])
    one = {"components": ["nvidia/jetson-nano", {"name": "cuda", "target": "cuda"}]}
    two = {"components": [one["components"][1], one["components"][0]]}
    assert tl.Architecture.from_json(one) != tl.Architecture.from_json(two)


def test_one_table_of_the_options_tvm_moved_out_of_target() -> None:
    from targetlang._lower.specialize import MOVED_TO_COMPONENT, NOT_TUNING
    from targetlang.migration import MOVED_OPTIONS

    assert MOVED_OPTIONS == tuple(MOVED_TO_COMPONENT)
    assert set(MOVED_TO_COMPONENT.values()) == {"executor", "runtime"}
    # a tuning key leaves the moved options out, but for the byte alignments
    assert NOT_TUNING - {"host", "tag", "from_device"} == \
        set(MOVED_OPTIONS) - {"workspace-byte-alignment", "constant-byte-alignment"}
