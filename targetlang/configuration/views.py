"""Architecture views: one configuration seen at three levels (the pre-RFC's V0/V1/V2).

======================  =========================================================================
``DeviceOnlyView``      one device target, no host (what compiling one TIR function needs)
``DeviceWithHostView``  one device target and an optional host (``Target(cuda, host=llvm)``)
``PackagedView``        devices, host, executor and runtime (what a build packages)
======================  =========================================================================

Conversions never drop information silently: a view that cannot hold what it is given
raises :class:`ViewError` naming what would be lost. They may add only TVM's own defaults,
which the way back removes again: the ``graph`` executor and ``cpp`` runtime of
``relay.build``, and, for a CPU (or Hexagon) device without a host, the device itself as
host (rule B of TVM's CompilationConfig).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import ConfigError, json_path
from ..target import Target
from ._common import can_host, check_aot
from .backends import Executor, Runtime
from .config import CompilationConfig

__all__ = ["DeviceOnlyView", "DeviceWithHostView", "PackagedView", "ViewError"]

class ViewError(ConfigError):
    """A view cannot hold its input without losing something (the path says what)."""


def _default_executor() -> Executor:
    return Executor("graph")


def _default_runtime() -> Runtime:
    return Runtime("cpp")


def _plain_config(config: CompilationConfig, view: str) -> None:
    """Refuse what no view below a configuration can hold: groups, labels, flow-config."""
    if config.is_composite:
        names = ", ".join(config.executors)
        raise ViewError(f"a composite of executor groups ({names}) is not one {view}; view a "
                        "group: config.executors[name]", path="executors")
    if config.flow_config:
        raise ViewError(f"a {view} has no flow-config; it would be lost", path="flow-config")


@dataclass(frozen=True)
class DeviceOnlyView:
    """One device target without a host (``DeviceOnlyArch``); raises :class:`ViewError` for
    a device that has a host."""

    #: the device target
    device: Target

    def __post_init__(self) -> None:
        if self.device.host is not None:
            raise ViewError("a device-only view has no host, and this device target has one "
                            "(use DeviceWithHostView)", path="device.host")

    @classmethod
    def from_config(cls, config: CompilationConfig) -> DeviceOnlyView:
        """The device of a one-target configuration with no host, executor or runtime."""
        return DeviceWithHostView.from_config(config).to_device_only()

    def to_device_with_host(self) -> DeviceWithHostView:
        """The same device, with no host."""
        return DeviceWithHostView(self.device)

    def to_packaged(self, host: Target | None = None, executor: Executor | None = None,
                    runtime: Runtime | None = None) -> PackagedView:
        """Packaged with ``host`` and TVM's defaults for what is not given (see
        :meth:`DeviceWithHostView.to_packaged`, which raises the same :class:`ViewError`)."""
        return self.to_device_with_host().to_packaged(host, executor, runtime)

    def to_config(self) -> CompilationConfig:
        """The configuration of the one device: no host, TVM's default executor and runtime."""
        return CompilationConfig(targets=[self.device])


@dataclass(frozen=True)
class DeviceWithHostView:
    """One device target and an optional host (``DeviceWithHostArch``).

    A device given with a host attached gives that host; ``device`` is kept without it.
    Raises :class:`ViewError` when that host is not the ``host`` given, or has a host itself.
    """

    #: the device target, without a host
    device: Target
    #: its host (None: none)
    host: Target | None = None

    def __post_init__(self) -> None:
        own = self.device.host
        if own is not None:
            if self.host is not None and self.host != own:
                raise ViewError(f"the device's host ({own}) is not the host given ({self.host})",
                                path="device.host")
            object.__setattr__(self, "host", own)
            object.__setattr__(self, "device", self.device.with_host(None))
        if self.host is not None and self.host.host is not None:
            raise ViewError("the host has a host of its own", path="host.host")

    @property
    def target(self) -> Target:
        """The device with its host attached, as TVM's ``Target(device, host)``."""
        return self.device if self.host is None else self.device.with_host(self.host)

    @classmethod
    def from_target(cls, target: Target) -> DeviceWithHostView:
        """The view of ``target``: its host (``target.host``) goes with it."""
        return cls(target)

    @classmethod
    def from_config(cls, config: CompilationConfig) -> DeviceWithHostView:
        """A one-target configuration; executor and runtime must be unset or TVM's defaults."""
        _plain_config(config, "device-with-host view")
        if len(config.targets) != 1:
            raise ViewError(f"a device-with-host view holds one device, not "
                            f"{len(config.targets)} (use PackagedView)", path="targets")
        if config.labels:
            raise ViewError("a device-with-host view has no labels; the target's label would "
                            "be lost", path="targets")
        _only_defaults(config.executor, config.runtime, "device-with-host view")
        return cls(config.targets[0].with_host(None), config.target_host)

    def to_device_only(self) -> DeviceOnlyView:
        """The device alone; raises :class:`ViewError` when the view has a host (it would be
        lost)."""
        if self.host is not None:
            raise ViewError(f"a device-only view has no host; the host {self.host} would be "
                            "lost", path="host")
        return DeviceOnlyView(self.device)

    def to_packaged(self, host: Target | None = None, executor: Executor | None = None,
                    runtime: Runtime | None = None) -> PackagedView:
        """Packaged with TVM's defaults for what is not given (see the module docstring)."""
        if host is not None and self.host is not None and host != self.host:
            raise ViewError(f"the view's host ({self.host}) is not the host given ({host})",
                            path="host")
        return PackagedView((self.device,), host or self.host, executor, runtime)

    def to_config(self) -> CompilationConfig:
        """The configuration: the device as its one target, the view's host as the target
        host, TVM's default executor and runtime."""
        return CompilationConfig(target_host=self.host, targets=[self.device])


def _only_defaults(executor: Executor | None, runtime: Runtime | None, view: str) -> None:
    if executor is not None and executor != _default_executor():
        raise ViewError(f"a {view} has no executor; {executor!r} would be lost "
                        "(only TVM's default graph executor is implied)", path="executor")
    if runtime is not None and runtime != _default_runtime():
        raise ViewError(f"a {view} has no runtime; {runtime!r} would be lost "
                        "(only TVM's default cpp runtime is implied)", path="runtime")


@dataclass(frozen=True)
class PackagedView:
    """Devices, host, executor and runtime (``PackagedArch``); devices are kept host-less.

    Built with ``host=None`` the host is the first device that can host (a CPU); with no
    executor or runtime, TVM's ``relay.build`` defaults (``graph``, ``cpp``).
    """

    #: the device targets, in order, each without a host
    devices: tuple[Target, ...]
    #: the host all devices share
    host: Target | None = None
    #: the executor (TVM's default ``graph`` when none is given)
    executor: Executor | None = None
    #: the runtime (TVM's default ``cpp`` when none is given)
    runtime: Runtime | None = None
    #: a label for each device (empty: the devices are not labelled)
    labels: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        devices: Sequence[Target] = self.devices
        if not devices:
            raise ViewError("a packaged view needs at least one device", path="devices")
        host = self.host
        for index, device in enumerate(devices):
            own = device.host
            if own is None:
                continue
            if host is None:
                host = own
            elif own.to_json() != host.to_json():
                raise ViewError(f"this device's host ({own}) is not the view's host ({host})",
                                path=json_path(json_path("devices", index), "host"))
        if host is None:
            host = next((d for d in devices if can_host(d)), None)
        if host is None:
            raise ViewError("a packaged view needs a host, and no device can host (none is a "
                            "CPU): give host=", path="host")
        host = host.with_host(None)
        if self.labels and len(self.labels) != len(devices):
            raise ViewError(f"{len(self.labels)} labels for {len(devices)} devices",
                            path="labels")
        object.__setattr__(self, "devices", tuple(d.with_host(None) for d in devices))
        object.__setattr__(self, "host", host)
        executor = self.executor or _default_executor()
        runtime = self.runtime or _default_runtime()
        try:
            check_aot(executor, runtime, "")
        except ConfigError as error:
            defaulted = " (the runtime defaulted to TVM's cpp: give runtime=)" \
                if self.runtime is None else ""
            raise ViewError(error.message + defaulted, path=error.path) from None
        object.__setattr__(self, "executor", executor)
        object.__setattr__(self, "runtime", runtime)
        object.__setattr__(self, "labels", tuple(self.labels))

    @classmethod
    def from_config(cls, config: CompilationConfig) -> PackagedView:
        """A configuration (not a composite: view one of its groups)."""
        _plain_config(config, "packaged view")
        return cls(tuple(t.with_host(None) for t in config.targets), config.target_host,
                   config.executor, config.runtime, tuple(config.labels))

    def to_config(self) -> CompilationConfig:
        """The configuration: host, targets (labelled if the view is), executor, runtime."""
        host: object = self.host
        targets: Sequence[Target] | Mapping[str, Target] = list(self.devices)
        if self.labels:
            targets = dict(zip(self.labels, self.devices))
            host = next((label for label, d in targets.items() if d == self.host), self.host)
        return CompilationConfig(target_host=host, targets=targets,  # type: ignore[arg-type]
                                 executor=self.executor, runtime=self.runtime)

    def to_device_with_host(self) -> DeviceWithHostView:
        """One device; executor and runtime must be TVM's defaults (they are implied)."""
        if len(self.devices) != 1:
            raise ViewError(f"a device-with-host view holds one device; {len(self.devices) - 1} "
                            "more would be lost", path="devices")
        if self.labels:
            raise ViewError("a device-with-host view has no labels; the device's label would be "
                            "lost", path="labels")
        _only_defaults(self.executor, self.runtime, "device-with-host view")
        return DeviceWithHostView(self.devices[0], self.host)

    def to_device_only(self) -> DeviceOnlyView:
        """One CPU device that is its own host, with the default executor and runtime."""
        view = self.to_device_with_host()
        if view.host is not None and view.host == view.device and can_host(view.device):
            return DeviceOnlyView(view.device)  # the host is the one to_packaged() would add
        return view.to_device_only()
