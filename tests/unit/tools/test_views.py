"""Architecture views: conversions that keep everything, and errors where a view cannot."""

from __future__ import annotations

import json

import pytest
from conftest import TESTS

import targetlang as tl
from targetlang import (
    CompilationConfig,
    DeviceOnlyView,
    DeviceWithHostView,
    Executor,
    PackagedView,
    Runtime,
    ViewError,
)

A1A = json.loads((TESTS / "data" / "config" / "a1a-composite.json").read_text())


def test_device_with_host_round_trips_through_packaged() -> None:
    view = DeviceWithHostView.from_target(tl.parse("cuda -arch=sm_80 -host=llvm"))
    assert view.device == tl.parse("cuda -arch=sm_80") and view.host == tl.parse("llvm")
    assert view.target == tl.parse("cuda -arch=sm_80 -host=llvm")
    packaged = view.to_packaged()
    assert packaged.devices == (view.device,) and packaged.host == view.host
    assert packaged.executor == Executor("graph") and packaged.runtime == Runtime("cpp")
    assert packaged.to_device_with_host() == view
    assert DeviceWithHostView.from_config(view.to_config()) == view
    assert PackagedView.from_config(packaged.to_config()) == packaged


def test_device_only_round_trips() -> None:
    cuda = DeviceOnlyView(tl.parse("cuda"))
    assert cuda.to_device_with_host().to_device_only() == cuda
    assert DeviceOnlyView.from_config(cuda.to_config()) == cuda
    assert cuda.to_packaged(host=tl.parse("llvm")).devices == (cuda.device,)
    # A CPU device hosts itself (TVM's rule B), and the way back removes that host again.
    cpu = DeviceOnlyView(tl.parse("llvm -mcpu=cortex-a72"))
    packaged = cpu.to_packaged()
    assert packaged.host == cpu.device
    assert packaged.to_device_only() == cpu


def test_packaged_view_of_a_composite_group_keeps_labels() -> None:
    config = CompilationConfig.from_json(A1A)
    dsp = config.executors["dsp"]
    packaged = PackagedView.from_config(dsp)
    assert packaged.labels == ("dsp-cpu", "gpu")
    assert packaged.executor == Executor("vm") and packaged.runtime == Runtime("cpp")
    assert packaged.to_config() == dsp


def test_configuration_to_views_and_back() -> None:
    config = CompilationConfig.from_target(["cuda", "llvm"], host="llvm",
                                           executor=Executor("aot"), runtime=Runtime("crt"))
    packaged = PackagedView.from_config(config)
    assert packaged.to_config() == config
    single = CompilationConfig.from_target("cuda", host="llvm")
    assert DeviceWithHostView.from_config(single).to_config() == single


@pytest.mark.parametrize(("convert", "path", "message"), [
    (lambda: DeviceOnlyView(tl.parse("cuda -host=llvm")), "device.host",
     "a device-only view has no host, and this device target has one"),
    (lambda: DeviceWithHostView(tl.parse("cuda -host=llvm")).to_device_only(), "host",
     "a device-only view has no host; the host llvm -keys=cpu would be lost"),
    (lambda: DeviceWithHostView(tl.parse("cuda -host=llvm"), tl.parse("c")), "device.host",
     "the device's host (llvm -keys=cpu) is not the host given (c -keys=cpu)"),
    (lambda: DeviceOnlyView(tl.parse("cuda")).to_packaged(), "host",
     "a packaged view needs a host, and no device can host"),
    (lambda: PackagedView((tl.parse("cuda"), tl.parse("llvm"))).to_device_with_host(), "devices",
     "a device-with-host view holds one device; 1 more would be lost"),
    (lambda: PackagedView((tl.parse("llvm"),), executor=Executor("aot")).to_device_with_host(),
     "executor", "a device-with-host view has no executor; Executor('aot', {'link-params': True}) "
                 "would be lost"),
    (lambda: PackagedView((tl.parse("llvm"),), runtime=Runtime("crt")).to_device_only(),
     "runtime", "a device-with-host view has no runtime; Runtime('crt') would be lost"),
    (lambda: PackagedView((tl.parse("cuda"),), tl.parse("llvm")).to_device_only(), "host",
     "a device-only view has no host; the host llvm -keys=cpu would be lost"),
    (lambda: PackagedView.from_config(CompilationConfig.from_json(A1A)), "executors",
     "a composite of executor groups (dsp, low-power) is not one packaged view"),
    (lambda: PackagedView.from_config(CompilationConfig.from_json(A1A).executors["low-power"]),
     "flow-config", "a packaged view has no flow-config; it would be lost"),
    (lambda: DeviceWithHostView.from_config(CompilationConfig.from_target(["cuda", "llvm"])),
     "targets", "a device-with-host view holds one device, not 2"),
    (lambda: DeviceOnlyView.from_config(CompilationConfig.from_target("cuda", host="llvm")),
     "host", "a device-only view has no host"),
    (lambda: PackagedView(()), "devices", "a packaged view needs at least one device"),
    (lambda: PackagedView((tl.parse("cuda -host=llvm"), tl.parse("rocm -host=c"))),
     "devices[1].host", "this device's host (c -keys=cpu) is not the view's host"),
])
def test_error_a_view_that_cannot_hold_its_input(convert: object, path: str, message: str) -> None:
    with pytest.raises(ViewError) as caught:
        convert()  # type: ignore[operator]
    assert caught.value.path == path
    assert caught.value.message.startswith(message)
    assert isinstance(caught.value, tl.ConfigError)
