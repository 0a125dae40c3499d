"""CompilationConfig: the RFC's examples, TVM's canonicalization, references and paths."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from conftest import TESTS

import targetlang as tl
from targetlang import CompilationConfig, ConfigError, Executor, Runtime
from targetlang.configuration import presets

DATA = TESTS / "data" / "config"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def collage(text: str) -> tl.Target:
    return tl.parse(text, dialect="collage")


# ---- the RFC "CompilationConfig" example (seed 003) ------------------------------------------

def test_rfc_example_in_python_equals_its_json_file() -> None:
    target = tl.parse("c")
    config = CompilationConfig(
        target_host=target,
        targets=[target],
        executor=Executor("aot", {"interface-api": "c", "unpacked-api": True}),
        runtime=Runtime("crt", {"system-lib": True}),
    )
    assert config == CompilationConfig.from_json(load("rfc-compilation-config.json"))
    assert config.executor is not None and config.executor["link-params"] is True  # default
    assert config.runtime == Runtime("crt", {"system-lib": True})
    assert config.target_host == target
    assert config.targets == (target.with_host(target),)  # the host travels with each target


def test_rfc_example_round_trips() -> None:
    config = CompilationConfig.from_json(load("rfc-compilation-config.json"))
    assert CompilationConfig.from_json(config.to_json()) == config
    assert CompilationConfig.from_json(json.dumps(config.to_json())) == config
    assert config.to_json() == {
        "dialect": "tvm-0.21",
        "target_host": {"kind": "c", "tag": "", "keys": ["cpu"]},
        "targets": [{"kind": "c", "tag": "", "keys": ["cpu"]}],
        "executor": {"name": "aot", "attrs": {"interface-api": "c", "link-params": True,
                                              "unpacked-api": True}},
        "runtime": {"name": "crt", "attrs": {"system-lib": True}},
    }


def test_rfc_target_host_may_be_a_one_element_list() -> None:
    # The RFC's micro() writes target_host=[target].
    target = tl.parse("c")
    assert CompilationConfig(target_host=[target], targets=[target]) == \
        CompilationConfig(target_host=target, targets=[target])


@pytest.mark.parametrize(("change", "path", "message"), [
    (lambda d: d["executor"].update(name="aoot"), "executor.name",
     'unknown executor "aoot" (did you mean "aot"?); known: aot, graph, vm'),
    (lambda d: d["executor"]["attrs"].update({"unpacked-api": "yes"}),
     "executor.attrs.unpacked-api", 'attribute "unpacked-api" of executor "aot" must be a bool, '
     "not string"),
    (lambda d: d["executor"]["attrs"].update({"unpacked-api": False}),
     "executor.attrs.interface-api",
     'interface-api "c" needs unpacked-api true with the crt runtime'),
    (lambda d: d["runtime"].update(name="cpp"), "executor.attrs.unpacked-api",
     "the cpp runtime needs unpacked-api false"),
    (lambda d: d["runtime"]["attrs"].update({"system_lib": True}), "runtime.attrs.system_lib",
     'runtime "crt" has no attribute "system_lib" (did you mean "system-lib"?); its attributes: '
     "system-lib"),
    (lambda d: d["targets"][0].update(kind="c", mcpu=7), "targets[0].mcpu",
     "'mcpu' must be a string, not int"),
    (lambda d: d["targets"].append({"kind": "cuda", "host": {"kind": "llvm"}}),
     "targets[1].host", "this target's host (llvm -keys=cpu) is not the configuration's target "
     "host (c -keys=cpu)"),
    (lambda d: d.update(target="c"), "target",
     'unknown configuration member "target" (did you mean "targets"?); the members are dialect, '
     "target_host, targets, executor, runtime, flow-config"),
    (lambda d: d.update(targets=[]), "targets", "a configuration needs at least one target"),
    (lambda d: d.update(dialect="tvm-9"), "dialect", 'unknown dialect "tvm-9"'),
])
def test_error_corrupted_rfc_example(change: Any, path: str, message: str) -> None:
    document = load("rfc-compilation-config.json")
    change(document)
    with pytest.raises(tl.TargetError) as caught:
        CompilationConfig.from_json(document)
    assert caught.value.path == path
    assert caught.value.message.startswith(message)


# ---- the A1a composite configuration (seed 000) ------------------------------------------------

def test_a1a_example_loads_with_aliases() -> None:
    config = CompilationConfig.from_json(load("a1a-composite.json"))
    assert config.is_composite
    assert list(config.labels) == ["dsp-cpu", "gpu", "low-power-cpu"]
    assert list(config.executors) == ["dsp", "low-power"]
    # kind "mali" is what tvm.target.mali() built; runtimes c++ and c are cpp and crt.
    assert config.labels["gpu"] == tl.parse("opencl -device=mali")
    dsp, low_power = config.executors["dsp"], config.executors["low-power"]
    assert dsp.executor == Executor("vm") and dsp.runtime == Runtime("cpp")
    assert low_power.executor == Executor("aot") and low_power.runtime == Runtime("crt")
    assert dict(low_power.flow_config) == {"enable-byoc": ["cmsis-nn"], "link-params": True}
    # Each group is a configuration: its host (by label) attached to each of its targets.
    assert dsp.target_host == tl.parse("llvm -mcpu=cortex-a72")
    assert [t.host for t in dsp.targets] == [dsp.target_host] * 2
    assert list(dsp.labels) == ["dsp-cpu", "gpu"]
    assert dsp.to_json()["target_host"] == "dsp-cpu"


def test_a1a_example_round_trips() -> None:
    config = CompilationConfig.from_json(load("a1a-composite.json"))
    again = CompilationConfig.from_json(config.to_json())
    assert again == config and hash(again) == hash(config)
    assert again.to_json() == config.to_json()
    for name, group in config.executors.items():
        assert CompilationConfig.from_json(group.to_json()) == group, name
    assert config.to_json()["executors"]["dsp"] == {
        "targets": ["dsp-cpu", "gpu"], "target_host": "dsp-cpu",
        "executor": {"name": "vm", "attrs": {}}, "runtime": {"name": "cpp", "attrs": {}}}


def test_a1a_composite_from_python() -> None:
    config = CompilationConfig.composite(
        targets={"cpu": "llvm -mcpu=cortex-a72", "gpu": presets.mali()},
        executors={"main": {"targets": ["cpu", "gpu"], "target_host": "cpu",
                            "executor": Executor("graph"), "runtime": "cpp"}})
    assert config.executors["main"].target_for_device("opencl").kind == "opencl"
    assert CompilationConfig.from_json(config.to_json()) == config


def _set(document: dict[str, Any], path: list[Any], value: Any) -> None:
    *parents, last = path
    node: Any = document
    for key in parents:
        node = node[key]
    if value is _DELETE:
        del node[last]
    else:
        node[last] = value


_DELETE = object()

A1A_CORRUPTIONS = [
    (["executors", "dsp", "targets", 1], "gpu2", 'executors.dsp.targets[1]: no target named "gpu2"'),
    (["executors", "dsp", "target_host", 0], "cpu",
     'executors.dsp.target_host[0]: no target named "cpu"'),
    (["executors", "dsp", "target_host"], ["dsp-cpu", "gpu"],
     "executors.dsp.target_host: an executor group has one target host, not 2"),
    (["executors", "dsp", "targets"], [], "executors.dsp.targets: an executor group's targets "
     "are a non-empty array of target labels"),
    (["executors", "dsp", "targets", 1], "dsp-cpu",
     'executors.dsp.targets[1]: target "dsp-cpu" is listed twice'),
    (["executors", "dsp", "targets", 0], 3,
     "executors.dsp.targets[0]: a target label is a string, not int"),
    (["executors", "dsp", "executor"], "vmm",
     'executors.dsp.executor: unknown executor "vmm" (did you mean "vm"?); known: aot, graph, vm'),
    (["executors", "dsp", "runtime"], "c#",
     'executors.dsp.runtime: unknown runtime "c#"; known: cpp, crt, c (= crt), c++ (= cpp)'),
    (["executors", "low-power", "flow-config", "link-params"], "yes",
     'executors.low-power.flow-config.link-params: flow-config "link-params" must be a bool, '
     "not string"),
    (["executors", "low-power", "flow-config", "enable-byoc"], "cmsis-nn",
     'executors.low-power.flow-config.enable-byoc: flow-config "enable-byoc" must be an array '
     "of strings, not string"),
    (["executors", "low-power", "executor"], {"name": "aot", "attrs": {"link_params": True}},
     'executors.low-power.executor.attrs.link_params: executor "aot" has no attribute '
     '"link_params" (did you mean "link-params"?); its attributes: link-params, unpacked-api, '
     "interface-api, workspace-byte-alignment, constant-byte-alignment"),
    (["executors", "low-power", "flow_config"], {},
     'executors.low-power.flow_config: unknown executor group member "flow_config" (did you mean '
     '"flow-config"?); the members are targets, target_host, executor, runtime, flow-config'),
    (["targets", "gpu", "device"], "adreno",
     'targets.gpu.device: kind "mali" stands for opencl with device "mali", so device cannot '
     'be "adreno"'),
    (["targets", "gpu", "host"], {"kind": "llvm", "mcpu": "cortex-a53"},
     "executors.dsp.targets[1].host: this target's host (llvm -keys=cpu -mcpu=cortex-a53) is not "
     "the configuration's target host (llvm -keys=cpu -mcpu=cortex-a72)"),
    (["targets", "dsp-cpu", "host"], {"kind": "llvm"},
     "executors.dsp.targets[0].host: the target host has a host of its own"),
    (["executors"], {}, "executors: a composite's executors are a non-empty object of named "
     "groups"),
    (["executors", "dsp"], "vm", "executors.dsp: an executor group is an object, not string"),
]


@pytest.mark.parametrize(("path", "value", "expected"), A1A_CORRUPTIONS,
                         ids=[".".join(map(str, c[0])) for c in A1A_CORRUPTIONS])
def test_error_corrupted_a1a_example(path: list[Any], value: Any, expected: str) -> None:
    document = load("a1a-composite.json")
    _set(document, path, value)
    with pytest.raises(ConfigError) as caught:
        CompilationConfig.from_json(document)
    assert str(caught.value) == expected
    assert caught.value.path == expected.split(": ", 1)[0]


@pytest.mark.parametrize(("path", "value", "error", "at"), [
    (["targets", "gpu", "kind"], "mali2", tl.UnknownKindError, "targets.gpu"),
    (["targets", "dsp-cpu", "mcpu"], 72, tl.AttributeTypeError, "targets.dsp-cpu.mcpu"),
    (["targets", "low-power-cpu", "mcpu"], _DELETE, None, None),
    (["targets", "gpu", "max_num_threads"], "many", tl.AttributeTypeError,
     "targets.gpu.max_num_threads"),
])
def test_error_corrupted_a1a_target(path: list[Any], value: Any, error: type[tl.TargetError] | None,
                                    at: str | None) -> None:
    document = load("a1a-composite.json")
    _set(document, path, value)
    if error is None:
        CompilationConfig.from_json(document)  # a legal change
        return
    with pytest.raises(error) as caught:
        CompilationConfig.from_json(document)
    assert caught.value.path == at
    assert at in str(caught.value)


def test_error_trailing_commas_are_not_json() -> None:
    # The forum post has them; JSON text with them is refused, with the place.
    text = (DATA / "a1a-composite.json").read_text(encoding="utf-8").replace(
        '"cortex-a72"\n', '"cortex-a72",\n')
    with pytest.raises(ConfigError) as caught:
        CompilationConfig.from_json(text)
    assert caught.value.offset == text.index('"cortex-a72",') + len('"cortex-a72",') + 5
    assert "not JSON" in str(caught.value)


def test_error_unknown_kind_is_not_aliased_in_text() -> None:
    # Aliases belong to configuration documents; target text stays TVM's language.
    with pytest.raises(tl.UnknownKindError):
        CompilationConfig.from_target("mali")
    assert CompilationConfig.from_target({"kind": "mali"}).targets[0].kind == "opencl"


# ---- TVM's canonicalization of the build functions' `target` argument ---------------------------

def test_from_target_single() -> None:
    config = CompilationConfig.from_target("cuda -arch=sm_80")
    assert config.targets == (tl.parse("cuda -arch=sm_80"),)
    assert config.target_host is None and config.executor is None and config.runtime is None


def test_from_target_takes_the_host_from_the_target() -> None:
    # canon_target_and_host: target_host = target.host
    config = CompilationConfig.from_target("cuda -host=llvm")
    assert config.target_host == tl.parse("llvm")
    assert config.targets[0] == tl.parse("cuda -host=llvm")


def test_from_target_attaches_the_host_to_every_target() -> None:
    # canon_multi_target_and_host: the host goes into every target.
    config = CompilationConfig.from_target(["cuda", "opencl"], host="llvm -mcpu=cortex-a72")
    assert [t.host for t in config.targets] == [tl.parse("llvm -mcpu=cortex-a72")] * 2
    # ... and so does the first host a target brings (TVM's CompilationConfig, rule A).
    config = CompilationConfig.from_target(["cuda", "opencl -host=llvm"])
    assert [t.host for t in config.targets] == [tl.parse("llvm")] * 2


def test_from_target_dict_from_device() -> None:
    # The legacy heterogeneous form: the keys are devices (names or DLPack types).
    config = CompilationConfig.from_target({"cuda": "cuda -arch=sm_80", 1: "llvm"}, host="llvm")
    assert [t.kind for t in config.targets] == ["cuda", "llvm"]
    assert config == CompilationConfig.from_target(["cuda -arch=sm_80", "llvm"], host="llvm")
    # A dict with "kind" is one TargetJSON, as in TVM.
    assert CompilationConfig.from_target({"kind": "cuda"}).targets == (tl.parse("cuda"),)


def test_from_target_accepts_targets_dicts_and_text_together() -> None:
    config = CompilationConfig.from_target([tl.parse("cuda"), "rocm", {"kind": "vulkan"}])
    assert [t.kind for t in config.targets] == ["cuda", "rocm", "vulkan"]


@pytest.mark.parametrize(("target", "host", "path", "message"), [
    (None, None, "target", "no target given"),
    ([], None, "target", "no target given"),
    ({}, None, "target", "no target given"),
    ([3], None, "target[0]", "a target is a Target, target text or a TargetJSON object, not int"),
    ({"cuda": "llvm"}, None, "target.cuda",
     "device 'cuda' is device type 2, but llvm compiles for device type 1"),
    ({"tpu": "llvm"}, None, "target.tpu", 'unknown device "tpu"'),
    ("cuda -host=llvm", "llvm -mcpu=cortex-a72", "host",
     "the target already has the host llvm -keys=cpu, which is not host=llvm -keys=cpu "
     "-mcpu=cortex-a72"),
    (["cuda -host=llvm", "rocm -host='llvm -mcpu=a'"], None, "target[1].host",
     "this target's host (llvm -keys=cpu -mcpu=a) is not the configuration's target host "
     "(llvm -keys=cpu)"),
    (["cuda", "rocm -host=llvm"], "c", "target[1].host",
     "this target's host (llvm -keys=cpu) is not the configuration's target host (c -keys=cpu)"),
    ("cuda -host='llvm -host=c'", None, "target.host.host", "the target host has a host of its own"),
])
def test_error_from_target(target: Any, host: Any, path: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        CompilationConfig.from_target(target, host=host)
    assert caught.value.path == path
    assert caught.value.message.startswith(message)


def test_error_from_target_bad_text_points_into_the_text() -> None:
    with pytest.raises(tl.UnknownAttributeError) as caught:
        CompilationConfig.from_target(["cuda", "cuda -arhc=sm_80"])
    assert caught.value.path == "target[1]"
    assert caught.value.offset == 6
    assert str(caught.value) == ("unknown attribute 'arhc' for target kind 'cuda' (did you mean "
                                 "'arch'?) (at target[1])\n    cuda -arhc=sm_80\n          ^")


def test_same_host_twice_is_fine() -> None:
    config = CompilationConfig.from_target("cuda -host=llvm", host="llvm")
    assert config.target_host == tl.parse("llvm")


# ---- Collage: backends as targets ---------------------------------------------------------------

def test_collage_list_target_for_device_is_the_least_specialized() -> None:
    trt = collage("cuda -arch=sm_80 -compiler=tensorrt")
    cutlass = collage("cuda -arch=sm_80 -compiler=cutlass")
    plain = collage("cuda -arch=sm_80")
    for order in ([trt, cutlass, plain], [plain, trt, cutlass], [cutlass, plain, trt]):
        config = CompilationConfig.from_target(order)
        assert config.target_for_device("cuda") == plain
        assert config.target_for_device(2) == plain
    # The plain target may come from the base dialect; it keeps its dialect.
    base = tl.parse("cuda -arch=sm_80")
    config = CompilationConfig.from_target([trt, cutlass, base])
    assert config.dialect == "collage"
    assert config.target_for_device("cuda") == base
    assert CompilationConfig.from_json(config.to_json()) == config
    assert config.to_json()["targets"][2]["dialect"] == "tvm-0.21"


def test_collage_text_is_read_in_the_dialect_of_the_targets_given() -> None:
    config = CompilationConfig.from_target(
        [collage("cuda -arch=sm_80"), "cuda -arch=sm_80 -compiler=tensorrt"])
    assert config.targets[1].attrs["compiler"] == "tensorrt"
    config = CompilationConfig.from_target(["cuda -compiler=cutlass", "llvm"], dialect="collage")
    assert config.target_for_device("cpu").kind == "llvm"


def test_error_target_for_device() -> None:
    config = CompilationConfig.from_target(["cuda -arch=sm_80", "cuda -arch=sm_86", "llvm"])
    with pytest.raises(ConfigError, match="no single least-specialized target for device 'cuda'"):
        config.target_for_device("cuda")
    with pytest.raises(ConfigError, match=r"no target for device 'rocm' \(device type 10\)"):
        config.target_for_device("rocm")
    with pytest.raises(ConfigError, match='unknown device "gpu"'):
        config.target_for_device("gpu")
    assert config.target_for_device("llvm") == config.target_for_device(1)


def test_target_device_type_attribute_decides_the_device() -> None:
    config = CompilationConfig.from_target(["llvm -target_device_type=2", "cuda"])
    with pytest.raises(ConfigError):
        config.target_for_device("cuda")  # two minimal targets for device type 2
    assert CompilationConfig.from_target(["llvm -target_device_type=2"]).target_for_device(
        "cuda").kind == "llvm"


# ---- value semantics ------------------------------------------------------------------------------

def test_value_semantics() -> None:
    a = CompilationConfig.from_target("cuda", host="llvm", executor="graph", runtime="cpp")
    b = CompilationConfig(target_host=tl.parse("llvm"), targets=["cuda"],
                          executor=Executor("graph"), runtime={"name": "cpp"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert a != CompilationConfig.from_target("cuda", host="llvm")
    assert a != CompilationConfig.from_target("cuda", host="llvm", executor="aot")
    # Order of targets is part of the value (TVM took the first target of a device).
    assert CompilationConfig.from_target(["cuda", "llvm"]) != \
        CompilationConfig.from_target(["llvm", "cuda"])
    with pytest.raises(AttributeError):
        a.targets = ()  # type: ignore[misc]


def test_to_json_is_a_fresh_plain_object() -> None:
    config = CompilationConfig.from_json(load("a1a-composite.json"))
    document = config.to_json()
    snapshot = copy.deepcopy(document)
    document["executors"]["low-power"]["flow-config"]["enable-byoc"].append("x")
    document["targets"]["gpu"]["keys"].clear()
    assert config.to_json() == snapshot
    assert json.loads(json.dumps(snapshot)) == snapshot


def test_labelled_targets_in_the_constructor() -> None:
    config = CompilationConfig(targets={"cpu": "llvm", "gpu": "cuda"}, target_host="cpu")
    assert config.target_host == tl.parse("llvm")
    assert config.labels["gpu"].host == tl.parse("llvm")
    assert config.to_json()["target_host"] == "cpu"
    assert CompilationConfig.from_json(config.to_json()) == config
    # A host text that is no label is a target.
    other = CompilationConfig(targets={"gpu": "cuda"}, target_host="llvm")
    assert other.target_host == tl.parse("llvm")
    with pytest.raises(ConfigError, match='^target_host: no target named "llvm"$'):
        CompilationConfig.from_json({"targets": {"gpu": {"kind": "cuda"}},
                                     "target_host": "llvm"})


def test_error_mixed_dialects_off_one_chain() -> None:
    # Dialects that do not extend one another cannot share a configuration.
    with pytest.raises(ConfigError, match="neither extends the other"):
        from targetlang.configuration._parts import _newest_dialect
        _newest_dialect([("collage", "targets[0]"), ("tvm-0.6", "targets[1]")], "tvm-0.21")
