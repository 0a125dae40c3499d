"""Executor and Runtime: TVM's registered schemas, defaults, aliases and value semantics."""

from __future__ import annotations

import pickle

import pytest

import targetlang as tl
from targetlang import ConfigError, Executor, Runtime


def test_registered_names_and_options() -> None:
    assert Executor.list_registered() == ["aot", "graph", "vm"]
    assert Runtime.list_registered() == ["cpp", "crt"]
    assert Executor.list_registered_options("aot") == {
        "link-params": "bool", "unpacked-api": "bool", "interface-api": "str",
        "workspace-byte-alignment": "int", "constant-byte-alignment": "int"}
    assert Executor.list_registered_options("graph") == {"link-params": "bool"}
    assert Executor.list_registered_options("vm") == {}
    assert Runtime.list_registered_options("crt") == {"system-lib": "bool"}


def test_defaults_are_filled_in_as_tvm_did() -> None:
    assert Executor("aot").attrs == {"link-params": True}
    assert Executor("graph").attrs == {"link-params": False}
    assert Executor("graph", {"link-params": True})["link-params"] is True
    assert Runtime("crt").attrs == {}
    assert "system-lib" in Runtime("crt", {"system-lib": True})


def test_legacy_runtime_names_are_aliases() -> None:
    # kTvmRuntimeCpp = "c++" and kTvmRuntimeCrt = "c" were the -runtime= target values.
    assert Runtime("c++") == Runtime("cpp")
    assert Runtime("c", {"system-lib": True}).name == "crt"
    assert Runtime.from_json("c") == Runtime("crt")


def test_json_round_trip_and_value_semantics() -> None:
    executor = Executor("aot", {"interface-api": "c", "unpacked-api": True,
                                "workspace-byte-alignment": 16})
    assert executor.to_json() == {"name": "aot", "attrs": {
        "interface-api": "c", "link-params": True, "unpacked-api": True,
        "workspace-byte-alignment": 16}}
    assert Executor.from_json(executor.to_json()) == executor
    assert hash(Executor.from_json(executor.to_json())) == hash(executor)
    assert Executor.from_json("vm") == Executor("vm")
    assert pickle.loads(pickle.dumps(executor)) == executor
    assert Executor("graph") != Runtime("cpp")
    assert repr(Runtime("crt", {"system-lib": True})) == "Runtime('crt', {'system-lib': True})"
    executor.to_json()["attrs"].clear()
    assert executor["link-params"] is True


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Executor("aott"), 'unknown executor "aott" (did you mean "aot"?); known: aot, '
                               "graph, vm"),
    (lambda: Runtime("java"), 'unknown runtime "java"; known: cpp, crt, c (= crt), c++ (= cpp)'),
    (lambda: Executor("graph", {"link-params": 1}),
     'attrs.link-params: attribute "link-params" of executor "graph" must be a bool, not int'),
    (lambda: Executor("aot", {"workspace-byte-alignment": True}),
     'attrs.workspace-byte-alignment: attribute "workspace-byte-alignment" of executor "aot" '
     "must be an int, not bool"),
    (lambda: Executor("vm", {"link-params": True}),
     'attrs.link-params: executor "vm" has no attribute "link-params"; its attributes: none'),
    (lambda: Runtime.from_json({"name": "crt", "attr": {}}),
     'attr: unknown runtime member "attr" (write {"name": ..., "attrs": {...}})'),
    (lambda: Runtime.from_json({"attrs": {}}), 'runtime has no "name"'),
    (lambda: Executor.from_json({"name": "aot", "attrs": []}),
     "attrs: executor attributes must be an object, not array"),
    (lambda: Executor(3), "executor name must be a string, not int"),  # type: ignore[arg-type]
])
def test_error_messages(make: object, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make()  # type: ignore[operator]
    assert str(caught.value) == message
    assert isinstance(caught.value, tl.TargetError) and isinstance(caught.value, ValueError)
