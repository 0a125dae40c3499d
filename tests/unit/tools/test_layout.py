"""The tools grouped by job (issue 23): targetlang.configuration and targetlang.migration hold
the code, the old public paths still answer with the same objects, and the pieces the tools
share exist once."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import pytest

import targetlang as tl
from targetlang._equality import EqualAsJson

# old public path -> where the code lives now
MOVED = {
    "targetlang.backends": "targetlang.configuration.backends",
    "targetlang.config": "targetlang.configuration.config",
    "targetlang.views": "targetlang.configuration.views",
    "targetlang.architecture": "targetlang.configuration.architecture",
    "targetlang.components": "targetlang.configuration.components",
    "targetlang.presets": "targetlang.configuration.presets",
    "targetlang.migration": "targetlang.migration.targets",
    "targetlang.logs": "targetlang.migration.logs",
    "targetlang.pyscripts": "targetlang.migration.pyscripts",
    "targetlang.upgrade": "targetlang.migration.upgrade",
    "targetlang.compat": "targetlang.migration.compat",
}


@pytest.mark.parametrize("face", sorted(MOVED))
def test_an_old_path_offers_the_same_objects(face: str) -> None:
    old, home = importlib.import_module(face), importlib.import_module(MOVED[face])
    assert old.__all__ is home.__all__ and old.__doc__ == home.__doc__
    for name in home.__all__:
        assert getattr(old, name) is getattr(home, name), f"{face}.{name}"


def test_an_old_path_offers_the_names_outside_all_too() -> None:
    import targetlang.components as components
    import targetlang.configuration.components as home

    assert "find" not in components.__all__ and components.find is home.find
    assert components.PRINTED_NAME_RULES is home.PRINTED_NAME_RULES  # docs/configuration.md
    with pytest.raises(AttributeError, match="module 'targetlang.components' has no attribute"):
        components.nothing  # noqa: B018


@pytest.mark.parametrize("face", sorted(MOVED))
def test_an_error_is_named_at_its_public_path(face: str) -> None:
    # A traceback names an exception's class by its __module__: as before the code moved.
    module = importlib.import_module(face)
    errors = [value for name in module.__all__ if isinstance(value := getattr(module, name), type)
              and issubclass(value, (Exception, Warning))]
    for error in errors:
        assert error.__module__ in (face, "targetlang.errors"), error
        assert getattr(importlib.import_module(error.__module__), error.__name__) is error


def test_what_was_pickled_at_the_old_paths_still_loads() -> None:
    config = tl.CompilationConfig(targets=["cuda"], executor="aot")
    component = tl.component("nvidia/jetson-nano")
    for value, home, face in ((config, b"targetlang.configuration.config", b"targetlang.config"),
                              (component, b"targetlang.configuration.components",
                               b"targetlang.components")):
        data = pickle.dumps(value, protocol=2)
        assert home in data
        assert pickle.loads(data.replace(home, face)) == value


def test_import_targetlang_loads_no_tool() -> None:
    # PEP 562: the tools load on first use, so `import targetlang` costs what reading needs.
    code = ("import sys, targetlang; print(' '.join(m for m in sys.modules "
            "if m.startswith(('targetlang.configuration', 'targetlang.migration'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == ""
    assert tl.CompilationConfig is importlib.import_module(
        "targetlang.configuration.config").CompilationConfig


def test_the_two_component_likes_have_their_own_names() -> None:
    from targetlang import backends, components

    assert backends.ComponentLike is backends.ExecutorOrRuntimeLike  # the old name, an alias
    assert components.ComponentLike is not backends.ExecutorOrRuntimeLike


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
