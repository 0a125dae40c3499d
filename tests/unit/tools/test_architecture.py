"""Architectures: the seed's example, its views, JSON round trips, and what is refused."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from config_strategies import HALF, composites, configs
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang import (
    Architecture,
    CompilationConfig,
    Component,
    DeviceOnlyView,
    DeviceWithHostView,
    PackagedView,
    ViewError,
)
from targetlang.strategies import targets

A1A = json.loads((TESTS / "data" / "config" / "a1a-composite.json").read_text())

#: The pre-RFC's example: an x86 CPU that drives two GPUs ("NVIDIA_GPU_type1 could stand for
#: RTX3080"); the CPU runs Linux, the GPUs run bare metal.
SEED = {
    "components": [
        {"name": "skylake", "properties": {"os": "linux"}},
        {"name": "rtx 3080", "label": "gpu0", "properties": {"os": "baremetal"}},
        {"name": "rtx 3080", "label": "gpu1", "properties": {"os": "baremetal"}},
    ],
    "connections": [[0, "gpu0", "uni-directional"], [0, "gpu1", "uni-directional"]],
}


def seed() -> Architecture:
    return Architecture(
        components=[(tl.component("skylake"), "linux"),
                    (tl.component("rtx 3080"), "baremetal", "gpu0"),
                    (tl.component("rtx 3080"), "baremetal", "gpu1")],
        connections=[(0, "gpu0", "uni-directional"), (0, 2, "uni-directional")])


# ---- the seed's example ---------------------------------------------------------------------

def test_the_seed_example_from_python_and_from_json_is_one_value() -> None:
    arch = seed()
    assert Architecture.from_json(SEED) == arch
    assert Architecture.from_json(json.dumps(SEED)) == arch
    assert hash(Architecture.from_json(SEED)) == hash(arch)
    assert arch.labels == (None, "gpu0", "gpu1")
    assert arch.connections == ((0, "gpu0", "uni-directional"), (0, "gpu1", "uni-directional"))
    assert [c.name for c in arch.components] == ["skylake", "nvidia/geforce-rtx-3080",
                                                 "nvidia/geforce-rtx-3080"]
    assert arch.components[0].properties == {"os": "linux"}
    assert arch.components[1].target == tl.tags()["nvidia/geforce-rtx-3080"]
    assert arch.reaches(0, "gpu1") and not arch.reaches("gpu1", 0)
    assert not arch.reaches("gpu0", "gpu1")


def test_the_seed_example_round_trips_through_json() -> None:
    arch = seed()
    document = arch.to_json()
    assert document["components"][1]["target"] == tl.tags()["nvidia/geforce-rtx-3080"].to_json()
    assert Architecture.from_json(document) == arch
    text = json.dumps(document)
    assert json.dumps(Architecture.from_json(text).to_json()) == text
    assert pickle.loads(pickle.dumps(arch)) == arch
    assert arch.to_json() is not arch.to_json()


def test_the_three_views_of_the_seed_example() -> None:
    arch = seed()
    cpu = tl.component("skylake").target
    gpu = tl.component("rtx 3080").target
    alone = arch.view("gpu0")
    assert alone == DeviceOnlyView(gpu)
    hosted = arch.view("gpu1", host=0)
    assert hosted == DeviceWithHostView(gpu, cpu)
    assert hosted.target == gpu.with_host(cpu)
    packaged = arch.packaged()
    assert packaged == PackagedView((gpu, gpu), cpu, labels=("gpu0", "gpu1"))
    assert packaged.executor == tl.Executor("graph") and packaged.runtime == tl.Runtime("cpp")
    for view in (alone, hosted, packaged):
        back = Architecture.from_view(view)
        assert back.as_view() == view
        assert Architecture.from_json(json.loads(json.dumps(back.to_json()))).as_view() == view


#: The seed as written: ``Components = [X86_64_type1, NVIDIA_GPU_type1, NVIDIA_GPU_type1]``,
#: connections by index; the two GPUs are told apart by their indices alone.
SEED_BY_INDEX = {
    "components": ["skylake", "A100", "A100"],
    "connections": [[0, 1, "uni-directional"], [0, 2, "uni-directional"]],
}


def test_the_seed_as_written_identical_components_by_index() -> None:
    cpu, gpu = tl.component("skylake"), tl.component("A100")
    arch = Architecture([cpu, gpu, gpu], [(0, 1, "uni-directional"), (0, 2, "uni-directional")])
    assert arch == Architecture.from_json(SEED_BY_INDEX)
    assert arch.labels == (None, None, None)
    assert arch.components == (cpu, gpu, gpu)
    # An unlabelled component is named by its index, in connections and in JSON.
    assert arch.connections == ((0, 1, "uni-directional"), (0, 2, "uni-directional"))
    document = arch.to_json()
    assert document["connections"] == [[0, 1, "uni-directional"], [0, 2, "uni-directional"]]
    assert [c["name"] for c in document["components"]] == ["skylake", "nvidia/nvidia-a100",
                                                           "nvidia/nvidia-a100"]
    again = Architecture.from_json(json.dumps(document))
    assert again == arch and hash(again) == hash(arch) and again.to_json() == document
    assert pickle.loads(pickle.dumps(arch)) == arch
    # Equal by JSON: which index a connection names is part of the value.
    one_link = Architecture([cpu, gpu, gpu], [(0, 1, "uni-directional")])
    other_link = Architecture([cpu, gpu, gpu], [(0, 2, "uni-directional")])
    assert one_link != other_link and one_link.reaches(0, 1) and not one_link.reaches(0, 2)
    assert arch != Architecture([cpu, gpu], [(0, 1, "uni-directional")])
    # Views: each GPU by its index.
    assert arch.view(2, host=0) == DeviceWithHostView(gpu.target, cpu.target)
    assert arch.view(1) == DeviceOnlyView(gpu.target)
    assert arch.packaged() == PackagedView((gpu.target, gpu.target), cpu.target)
    with pytest.raises(ViewError, match=r"components\[2\] \(nvidia/nvidia-a100\) cannot host"):
        arch.view(1, host=2)
    with pytest.raises(ViewError, match=r"does not reach components\[2\]"):
        Architecture([cpu, gpu, gpu], [(0, 1, "uni-directional")]).view(2, host=0)
    # The way back keeps two GPUs two components.
    back = Architecture.from_config(arch.to_config())
    assert len(back.components) == 3 and back.to_config() == arch.to_config()
    assert back.connections == arch.connections


def test_identical_components_mix_labels_and_indices() -> None:
    gpu = tl.component("A100")
    arch = Architecture(["skylake", gpu, (gpu, None, "spare")],
                        [(0, 1, "uni-directional"), (0, "spare", "bi-directional")])
    assert arch.labels == (None, None, "spare")
    assert arch.connections == ((0, 1, "uni-directional"), (0, "spare", "bi-directional"))
    assert Architecture.from_json(arch.to_json()) == arch
    assert arch.index("spare") == 2 and arch.view("spare", host=0).device == gpu.target
    # A config member refers to each GPU by its own index.
    document = {**SEED_BY_INDEX, "config": {"target_host": {"component": 0},
                                            "targets": [{"component": 2}, {"component": 1}]}}
    with_config = Architecture.from_json(document)
    assert with_config.to_json()["config"]["targets"] == [{"component": 2}, {"component": 1}]
    assert Architecture.from_json(with_config.to_json()) == with_config


def test_a_config_member_keeps_which_of_two_identical_hosts_it_names() -> None:
    # [host] is written host; the reference still names the second CPU, the one that reaches
    document = {"components": ["skylake", "skylake", "A100"],
                "connections": [[1, 2, "uni-directional"]],
                "config": {"target_host": [{"component": 1}], "targets": [{"component": 2}]}}
    arch = Architecture.from_json(document)
    assert arch.to_json()["config"]["target_host"] == {"component": 1}
    assert Architecture.from_json(arch.to_json()) == arch
    assert arch.to_config().target_host == tl.component("skylake").target


def test_a_label_may_stand_among_the_properties() -> None:
    gpu = tl.component("rtx 3080")
    arch = Architecture([(tl.component("skylake"), {"os": "linux"}),
                         (gpu, {"os": "baremetal", "label": "gpu0"}),
                         (gpu, {"os": "baremetal", "label": "gpu1"})],
                        [(0, "gpu0", "uni-directional"), (0, "gpu1", "uni-directional")])
    assert arch == seed()
    assert Architecture([gpu.with_properties(label="g")]).labels == ("g",)
    with pytest.raises(tl.ConfigError) as caught:
        Architecture([(gpu, {"label": "a"}, "b")])
    assert caught.value.path == "components[0][1]"
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json({"components": [{"name": "A100", "properties": {"label": 1}}]})
    assert caught.value.path == "components[0].properties.label"
    with pytest.raises(tl.ConfigError) as caught:
        Architecture([(gpu, {}, "g"), (gpu, {}, "g")])  # one label names one component
    assert caught.value.path == "components[1]"


def test_views_are_refused_where_the_host_cannot_reach_the_device() -> None:
    arch = seed()
    with pytest.raises(ViewError) as caught:
        arch.view(0, host="gpu0")  # a GPU drives nothing, and cannot host
    assert caught.value.path == "host"
    two_cpus = Architecture([tl.component("skylake"), tl.component("cortex-a72"), "rtx 3080"],
                            [(0, 2, "uni-directional")])
    assert two_cpus.view(2, 0).host == tl.component("skylake").target
    with pytest.raises(ViewError, match="does not reach"):
        two_cpus.view(2, host=1)
    with pytest.raises(ViewError) as caught:
        two_cpus.view(5)
    assert caught.value.path == "device"
    with pytest.raises(ViewError) as caught:
        two_cpus.packaged()  # nothing reaches everything
    assert caught.value.path == "host"
    assert two_cpus.packaged(host=0).devices == (tl.component("rtx 3080").target,)


def test_connections_carry_both_ways_when_bi_directional() -> None:
    arch = Architecture(["cortex-a72", "skylake", "A100"],
                        [(0, 1, "bi-directional"), (0, 2, "uni-directional")])
    assert arch.reaches(1, 2) and arch.reaches(1, 0)
    assert arch.view(2, host=1).host == tl.component("skylake").target


def test_a_board_brings_its_own_host() -> None:
    arch = Architecture(["jetson orin nano"])
    view = arch.view(0)
    assert isinstance(view, DeviceWithHostView)
    assert view.target == tl.tags()["nvidia/jetson-orin-nano"]


# ---- the way back: targets, configurations, composites -----------------------------------------

def test_an_architecture_from_a_target_with_a_host() -> None:
    target = tl.parse("cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'")
    arch = Architecture.from_target(target)
    assert [c.target for c in arch.components] == [target.host, target.with_host(None)]
    assert arch.connections == ((0, 1, "uni-directional"),)
    assert arch.view(1, host=0).target == target
    assert arch.as_view() == DeviceWithHostView(target)
    assert arch.to_config() == CompilationConfig.from_target(target)


def test_an_architecture_from_the_a1a_composite() -> None:
    config = CompilationConfig.from_json(A1A)
    arch = Architecture.from_config(config)
    assert arch.to_config() == config
    assert Architecture.from_json(arch.to_json()) == arch
    assert set(arch.labels) == set(config.labels)
    for name, group in config.executors.items():
        if group.flow_config:  # a packaged view has no flow-config: it would be lost
            with pytest.raises(ViewError):
                arch.packaged(group=name)
        else:
            assert arch.packaged(group=name) == PackagedView.from_config(group)
    assert any(not g.flow_config for g in config.executors.values())
    with pytest.raises(ViewError) as caught:
        arch.packaged()
    assert caught.value.path == "group"


def test_a_configuration_whose_host_does_not_reach_is_refused() -> None:
    document = {"components": ["skylake", "A100"],
                "config": {"target_host": {"component": 0}, "targets": [{"component": 1}]}}
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json(document)
    assert caught.value.path == "config.targets[0]"
    document["connections"] = [[0, 1, "uni-directional"]]
    assert Architecture.from_json(document).to_config() == CompilationConfig(
        target_host=tl.component("skylake").target, targets=[tl.component("A100").target])
    document["config"]["targets"] = [{"component": 3}]  # type: ignore[index]
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json(document)
    assert caught.value.path == "config.targets[0].component"
    document["config"] = {"targets": [{"kind": "cuda"}]}
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json(document)
    assert caught.value.path == "config.targets[0]"


# ---- refused documents, each with its JSON path -------------------------------------------------

REFUSED = [
    ({"components": []}, "components"),
    ({}, "components"),
    ({"components": ["A100", "A100"], "connections": [[0, 2, "uni-directional"]]},
     "connections[0][1]"),
    ({"components": ["A100", "A100"], "connections": [[0, "1", "uni-directional"]]},
     "connections[0][1]"),
    ({"components": [{"name": "A100", "label": "g"}, {"name": "A100", "label": "g"}]},
     "components[1].label"),
    ({"components": ["A100"], "connections": [[0, 1, "uni-directional"]]}, "connections[0][1]"),
    ({"components": ["A100"], "connections": [[0, 0, "uni-directional"]]}, "connections[0][1]"),
    ({"components": ["A100", "skylake"], "connections": [[1, 0, "both"]]}, "connections[0][2]"),
    ({"components": ["A100", "skylake"], "connections": [["cpu", 0, "uni-directional"]]},
     "connections[0][0]"),
    ({"components": ["A100", "skylake"], "connections": [{"source": 1, "destination": 0}]},
     "connections[0].direction"),
    ({"components": ["A100", "skylake"], "connections": [[1, 0, "uni-directional"],
                                                         [0, 1, "bi-directional"]]},
     "connections[1]"),
    ({"components": ["A100", "skylake"], "connections": [[1, True, "uni-directional"]]},
     "connections[0][1]"),
    ({"components": ["A100"], "connections": {"0": 1}}, "connections"),
    ({"components": [{"name": "Z9999"}]}, "components[0].name"),
    ({"components": [{"name": "A100", "colour": "green"}]}, "components[0].colour"),
    ({"components": [{"name": "A100", "properties": {"os": 3}}]}, "components[0].properties.os"),
    ({"components": [{"target": {"kind": "cuda", "arch": 80}}]}, "components[0].target.arch"),
    ({"components": [{"target": "cuda -arch=sm_80", "label": ""}]}, "components[0].label"),
    ({"components": [{"target": "cuda", "dialect": "tvm-0.99"}]}, "components[0].dialect"),
    ({"components": [{"target": "cuda -arhc=sm_80"}]}, "components[0].target"),
    ({"components": ["A100"], "extra": 1}, "extra"),
    ({"components": ["A100"], "dialect": "tvm-9"}, "dialect"),
]


@pytest.mark.parametrize(("document", "path"), REFUSED)
def test_refused_documents_name_the_json_path(document: dict[str, Any], path: str) -> None:
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json(document)
    assert caught.value.path is not None and caught.value.path.startswith(path), caught.value
    assert str(caught.value).startswith(caught.value.path + ": ")


def test_architectures_are_immutable() -> None:
    arch = seed()
    with pytest.raises(AttributeError):
        arch._components = ()  # type: ignore[misc]
    assert arch.components[0] == tl.component("skylake").with_properties(os="linux")


# ---- properties ---------------------------------------------------------------------------------

#: A quarter of the loaded profile's examples: each architecture builds several targets.
QUARTER = settings(settings.default, max_examples=max(10, settings.default.max_examples // 4))

NAMES = ["skylake", "cortex-a72", "rtx 3080", "A100", "MI250X", "jetson nano",
         "raspberry pi 4", "c5.large"]
PROPERTIES: list[Any] = [None, "linux", "baremetal", {"os": "linux", "memory-gb": 8}]


@st.composite
def architectures(draw: st.DrawFn) -> Architecture:
    """Components from the database and from any target, some labelled; any connections."""
    count = draw(st.integers(1, 5))
    entries: list[tuple[Component, Any, str | None]] = []
    for index in range(count):
        if draw(st.booleans()):
            base = tl.component(draw(st.sampled_from(NAMES)))
        else:
            base = Component.from_target(draw(targets(max_host_depth=1)))
        label = draw(st.sampled_from([None, f"c{index}"]))
        entries.append((base, draw(st.sampled_from(PROPERTIES)), label))
    # The same component may stand more than once, labelled or not (the seed's two GPUs).
    if count > 1 and draw(st.booleans()):
        entries[-1] = (entries[0][0], entries[0][1], entries[-1][2])
    pairs = draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)),
                          max_size=6))
    links: list[tuple[Any, Any, str]] = []
    seen: set[frozenset[int]] = set()
    for a, b in pairs:
        if a == b or frozenset((a, b)) in seen:
            continue
        seen.add(frozenset((a, b)))
        ref_a: Any = entries[a][2] if entries[a][2] and draw(st.booleans()) else a
        links.append((ref_a, b, draw(st.sampled_from(["uni-directional", "bi-directional"]))))
    return Architecture(entries, links)


@QUARTER
@given(architectures())
def test_architecture_json_round_trip(arch: Architecture) -> None:
    document = arch.to_json()
    again = Architecture.from_json(document)
    assert again == arch and hash(again) == hash(arch)
    assert again.to_json() == document
    assert Architecture.from_json(json.dumps(document)) == arch
    text = str(arch)
    assert Architecture.from_json(text) == arch and str(Architecture.from_json(text)) == text


@QUARTER
@given(architectures())
def test_architecture_views_architecture(arch: Architecture) -> None:
    for device in range(len(arch.components)):
        views: list[Any] = []
        for host in [None, *range(len(arch.components))]:
            try:
                views.append(arch.view(device, host))
            except ViewError as error:
                # the host cannot host or reach; the device brings another host, or a host
                # with a host of its own
                assert error.path in ("host", "device.host", "host.host")
        for view in views:
            back = Architecture.from_view(view)
            assert back.as_view() == view
            assert Architecture.from_json(back.to_json()) == back
    try:
        packaged = arch.packaged()
    except ViewError:
        return
    assert Architecture.from_view(packaged).as_view() == packaged


@HALF
@given(targets(max_host_depth=1))
def test_target_architecture_view_keeps_the_target(target: tl.Target) -> None:
    if target.host is not None and target.host.host is not None:
        with pytest.raises(tl.ConfigError) as caught:  # no view holds a host's host
            Architecture.from_target(target)
        assert caught.value.path == "target_host.host"
        return
    arch = Architecture.from_target(target)
    view = arch.as_view()
    assert (view.device if isinstance(view, DeviceOnlyView) else view.target) == target
    assert Architecture.from_json(arch.to_json()) == arch


@HALF
@given(configs())
def test_configuration_architecture_configuration(config: CompilationConfig) -> None:
    arch = Architecture.from_config(config)
    assert arch.to_config() == config
    assert Architecture.from_json(json.dumps(arch.to_json())).to_config() == config


@HALF
@given(composites())
def test_composite_architecture_composite(config: CompilationConfig) -> None:
    arch = Architecture.from_config(config)
    assert arch.to_config() == config
    assert Architecture.from_json(arch.to_json()) == arch


MUTATIONS = ["index", "label", "direction", "self", "twice", "property", "member", "target"]


@QUARTER
@given(architectures(), st.sampled_from(MUTATIONS), st.data())
def test_invalid_architectures_are_refused_with_a_json_path(arch: Architecture, mutation: str,
                                                            data: st.DataObject) -> None:
    document = arch.to_json()
    count = len(document["components"])
    connections = document["connections"]
    at = len(connections)
    first = document["components"][0]
    if mutation == "index":
        connections.append([0, count + data.draw(st.integers(0, 3)), "uni-directional"])
        path = f"connections[{at}][1]"
    elif mutation == "label":
        connections.append(["no-such-label", 0, "uni-directional"])
        path = f"connections[{at}][0]"
    elif mutation == "direction":
        connections.append([0, 0, data.draw(st.sampled_from(["uni", "", "both", None]))])
        path = f"connections[{at}][2]"
    elif mutation == "self":
        connections.append([0, 0, "bi-directional"])
        path = f"connections[{at}][1]"
    elif mutation == "twice":  # a label that names two components
        first["label"] = "twice"
        document["components"].append({**first})
        path = f"components[{count}].label"
    elif mutation == "property":
        first["properties"] = {"os": data.draw(st.sampled_from([1, [], {}, True]))}
        path = "components[0].properties.os"
    elif mutation == "member":
        first["colour"] = "green"
        path = "components[0].colour"
    else:
        first["target"] = {**first["target"], "kind": "no-such-kind"}
        path = "components[0].target"
    with pytest.raises(tl.ConfigError) as caught:
        Architecture.from_json(document)
    assert caught.value.path is not None and caught.value.path.startswith(path)


def test_the_config_member_refers_to_components_only_where_targets_stand() -> None:
    document = {"components": ["skylake", "A100"], "connections": [[0, 1, "uni-directional"]],
                "config": {"target_host": [{"component": 0}], "targets": [{"component": 1}],
                           "flow-config": {"note": {"kind": "not a target", "component": 7}}}}
    arch = Architecture.from_json(document)
    config = arch.to_json()["config"]
    assert config["target_host"] == {"component": 0}  # the RFC's [host], written as TVM does
    assert config["flow-config"] == {"note": {"kind": "not a target", "component": 7}}
    assert Architecture.from_json(arch.to_json()) == arch
    assert arch.to_config().flow_config["note"] == {"kind": "not a target", "component": 7}


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 5) | st.sampled_from(
    ["A100", "skylake", "gpu0", "uni-directional", "bi-directional", "cuda", "", "linux"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["components", "connections", "config", "name", "label", "target", "properties",
         "source", "destination", "direction", "component", "targets", "target_host", "os",
         "kind", "dialect"]), inner, max_size=4), max_leaves=12)


@QUARTER
@given(_JSON)
def test_any_json_is_an_architecture_or_a_config_error(document: Any) -> None:
    try:
        arch = Architecture.from_json(document)
    except tl.ConfigError as error:
        assert isinstance(error.message, str)
        return
    assert Architecture.from_json(arch.to_json()) == arch
