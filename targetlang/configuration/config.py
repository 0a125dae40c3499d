"""``CompilationConfig``: targets, target host, executor and runtime as one typed value.

Two shapes, one class (TVM's RFC "CompilationConfig" and the A1a composite of the
"Compilation Configuration Representation" pre-RFC):

* a configuration: ``CompilationConfig(target_host=..., targets=[...], executor=...,
  runtime=...)``; its targets may be labelled (``targets={"dsp-cpu": ..., "gpu": ...}``);
* a composite: labelled targets shared by named executor groups, each group itself a
  configuration (``CompilationConfig.composite(targets={...}, executors={...})``, or the A1a
  JSON document ``{"targets": {...}, "executors": {...}}``).

Like TVM, the host is attached to every target; a target that brings a different host of
its own is an error (TVM overrode it silently). Errors are :class:`ConfigError` (or the
``TargetError`` of the target at fault) with the JSON path of the member to blame.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Union

from .._equality import EqualAsJson
from .._lower.specialize import device_type
from ..environment import Environment
from ..errors import ConfigError, json_path, type_name
from ..target import Target
from ._common import (
    KIND_ALIASES as KIND_ALIASES,  # kept where it was (targetlang.configuration.config)
)
from ._common import check_dialect, check_members, json_object
from ._parts import (
    Parts,
    device_name,
    device_type_of,
    no_such,
    read_build_target,
    read_composite,
    read_given,
)
from .backends import Executor, ExecutorOrRuntimeLike, Runtime

__all__ = ["CompilationConfig", "ConfigError", "TargetLike"]

#: What reads as one target: a Target, target text (legacy, tag or JSON) or a TargetJSON dict.
TargetLike = Union[Target, str, Mapping[str, Any]]

_SINGLE_MEMBERS = ("dialect", "target_host", "targets", "executor", "runtime", "flow-config")
_COMPOSITE_MEMBERS = ("dialect", "targets", "executors")


class CompilationConfig(EqualAsJson):
    """Targets, target host, executor and runtime: what one compilation is configured with.

    ``CompilationConfig(target_host=host, targets=[target], executor=Executor("aot"),
    runtime=Runtime("crt", {"system-lib": True}))`` as TVM's RFC writes it. Targets are
    Targets, target text or TargetJSON dicts; a dict of targets labels them (``{"gpu": ...}``)
    and ``target_host`` may then name one by its label. The host is attached to every
    target. Immutable; ``==`` and ``hash`` follow :meth:`to_json`.
    """

    __slots__ = ("_parts", "_identity")
    _SORT_KEYS = False  # the order of targets means something: TVM took the first for a device

    _parts: Parts

    def __init__(self, target_host: TargetLike | Sequence[TargetLike] | None = None,
                 targets: Sequence[TargetLike] | Mapping[str, Any] | TargetLike | None = None,
                 executor: ExecutorOrRuntimeLike | None = None,
                 runtime: ExecutorOrRuntimeLike | None = None,
                 *, flow_config: Mapping[str, Any] | None = None, dialect: str | None = None,
                 environment: Environment | None = None) -> None:
        self._take(read_given(target_host, targets, executor, runtime, flow_config, dialect,
                              environment))

    @classmethod
    def _of(cls, parts: Parts) -> CompilationConfig:
        config = object.__new__(cls)
        config._take(parts)
        return config

    def _take(self, parts: Parts) -> None:
        self._parts = parts
        self._identity = None

    @classmethod
    def composite(cls, targets: Mapping[str, TargetLike],
                  executors: Mapping[str, Mapping[str, Any]], *, dialect: str | None = None,
                  environment: Environment | None = None) -> CompilationConfig:
        """The A1a composite: labelled targets, and executor groups that refer to them.

        Each group is ``{"targets": [labels], "target_host": label, "executor": ...,
        "runtime": ..., "flow-config": {...}}``; every label must name a target.
        """
        return cls._of(read_composite(targets, executors, dialect, environment, cls._of))

    # ---- TVM's canonicalization of the build functions' `target` argument ----------------------

    @classmethod
    def from_target(cls, target: TargetLike | Sequence[TargetLike] | Mapping[Any, TargetLike],
                    host: TargetLike | None = None, *,
                    executor: ExecutorOrRuntimeLike | None = None,
                    runtime: ExecutorOrRuntimeLike | None = None, dialect: str | None = None,
                    environment: Environment | None = None) -> CompilationConfig:
        """The configuration for the ``target`` argument of TVM's build functions.

        ``target`` is one target, a list of targets, or a dict from device (a device name
        such as ``"cuda"`` or a DLPack device type) to target; a dict with a ``"kind"`` is one
        TargetJSON. As TVM 0.21's ``Target.canon_multi_target_and_host``: ``host`` is used
        when the first target has none and is attached to every target; otherwise the first
        host a target brings is. Unlike TVM, a host that disagrees is an error, not ignored.
        Text is read in ``dialect``: by default the newest dialect of the Targets given.
        """
        return cls._of(read_build_target(target, host, executor, runtime, dialect,
                                         environment))

    # ---- JSON ------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str, *,
                  environment: Environment | None = None) -> CompilationConfig:
        """A configuration from its :meth:`to_json` form, or from an A1a composite document.

        JSON text is accepted too. Kind ``mali`` reads as ``opencl -device=mali`` and
        runtimes ``c++``/``c`` as ``cpp``/``crt``; everything else must be what TVM knew.
        """
        obj = json_object(obj, "a configuration")
        dialect = obj.get("dialect")
        if dialect is not None:
            check_dialect(dialect, "dialect")
        if "executors" in obj:
            check_members(obj, _COMPOSITE_MEMBERS, "", "composite configuration")
            return cls._of(read_composite(obj.get("targets"), obj["executors"], dialect,
                                          environment, cls._of))
        check_members(obj, _SINGLE_MEMBERS, "", "configuration")
        targets = obj.get("targets")
        if not isinstance(targets, (list, Mapping)):
            raise ConfigError(f"targets must be an array or an object of labelled targets, not "
                              f"{type_name(targets)}", path="targets")
        host = obj.get("target_host")
        if isinstance(host, str) and isinstance(targets, Mapping) and host not in targets:
            raise no_such("target", host, "target_host")
        return cls(target_host=host, targets=targets, executor=obj.get("executor"),
                   runtime=obj.get("runtime"), flow_config=obj.get("flow-config"),
                   dialect=dialect, environment=environment)

    def _target_json(self, target: Target) -> dict[str, Any]:
        out = target.to_json()
        if self._parts.host is not None:
            out.pop("host", None)  # hoisted: it is the configuration's target host
        if target.dialect != self._parts.dialect:
            out = {"dialect": target.dialect, **out}
        return out

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (a fresh dict): what :meth:`from_json` reads back.

        A configuration: ``dialect``, ``target_host``, ``targets`` (a list, or an object when
        labelled), ``executor``, ``runtime`` (``{"name", "attrs"}`` or null) and
        ``flow-config`` when set. A composite: ``dialect``, ``targets``, ``executors``.
        """
        out: dict[str, Any] = {"dialect": self._parts.dialect}
        if self._parts.groups:
            out["targets"] = {label: self._target_json(t) for label, t in self._parts.labels.items()}
            out["executors"] = {name: self._group_json(name) for name in self._parts.groups}
            return out
        if self._parts.host_label is not None:
            out["target_host"] = self._parts.host_label
        else:
            out["target_host"] = None if self._parts.host is None else self._target_json(self._parts.host)
        if self._parts.labels:
            out["targets"] = {label: self._target_json(t) for label, t in self._parts.labels.items()}
        else:
            out["targets"] = [self._target_json(t) for t in self._parts.targets]
        out["executor"] = None if self._parts.executor is None else self._parts.executor.to_json()
        out["runtime"] = None if self._parts.runtime is None else self._parts.runtime.to_json()
        if self._parts.flow:
            out["flow-config"] = json.loads(json.dumps(dict(self._parts.flow)))
        return out

    def _group_json(self, name: str) -> dict[str, Any]:
        group = self._parts.groups[name]
        labels, host_label = self._parts.group_refs[name]
        out: dict[str, Any] = {"targets": list(labels), "target_host": host_label,
                               "executor": None if group.executor is None
                               else group.executor.to_json(),
                               "runtime": None if group.runtime is None
                               else group.runtime.to_json()}
        if group.flow_config:
            out["flow-config"] = json.loads(json.dumps(dict(group.flow_config)))
        return out

    # ---- members -------------------------------------------------------------------------------

    @property
    def dialect(self) -> str:
        """The newest dialect of its targets (each target keeps its own)."""
        return self._parts.dialect

    @property
    def target_host(self) -> Target | None:
        """The host every target carries (None: no host given; always None in a composite)."""
        return self._parts.host

    @property
    def targets(self) -> tuple[Target, ...]:
        """The targets, each with the target host attached (a composite: all its targets)."""
        return self._parts.targets

    @property
    def labels(self) -> Mapping[str, Target]:
        """Labelled targets by label (empty when the targets are a plain list)."""
        return self._parts.labels

    @property
    def executor(self) -> Executor | None:
        """The executor (None: not chosen; TVM's build defaulted to ``graph``)."""
        return self._parts.executor

    @property
    def runtime(self) -> Runtime | None:
        """The runtime (None: not chosen; TVM's build defaulted to ``cpp``)."""
        return self._parts.runtime

    @property
    def flow_config(self) -> Mapping[str, Any]:
        """The A1a ``flow-config`` object (``link-params``, ``enable-byoc``, ...)."""
        return self._parts.flow

    @property
    def executors(self) -> Mapping[str, CompilationConfig]:
        """A composite's executor groups by name, each a configuration (else empty)."""
        return self._parts.groups

    @property
    def is_composite(self) -> bool:
        """Whether this is an A1a composite of executor groups."""
        return bool(self._parts.groups)

    # ---- devices ---------------------------------------------------------------------------------

    def target_for_device(self, device: str | int) -> Target:
        """The least-specialized target for a device (a name such as ``"cuda"``, or a type).

        Among the targets compiled for that device type, the one every other specializes
        (Collage: ``cuda -arch=sm_80`` rather than ``... -compiler=tensorrt``). No such target,
        or several minimal ones, is a :class:`ConfigError`.
        """
        wanted = device_type_of(device)
        candidates = [(i, t) for i, t in enumerate(self._parts.targets) if device_type(t) == wanted]
        if not candidates:
            have = "; ".join(f"{device_name(device_type(t))}: {t}" for t in self._parts.targets)
            raise ConfigError(f"no target for device {device!r} (device type {wanted}); the "
                              f"targets are {have}")
        for _, target in candidates:
            if all(other.specializes(target) for _, other in candidates):
                return target
        minimal = [f"{json_path('targets', i)} {t}" for i, t in candidates
                   if not any(t.specializes(o) and t != o for _, o in candidates)]
        raise ConfigError(f"no single least-specialized target for device {device!r}: "
                          f"{' and '.join(minimal)} are each minimal")

    # ---- value semantics --------------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        return (_from_json, (self.to_json(),))

    def __repr__(self) -> str:
        if self._parts.groups:
            return (f"CompilationConfig.composite(targets={list(self._parts.labels)!r}, "
                    f"executors={list(self._parts.groups)!r})")
        targets = [str(t.with_host(None)) for t in self._parts.targets]
        host = None if self._parts.host is None else str(self._parts.host)
        return (f"CompilationConfig(target_host={host!r}, targets={targets!r}, "
                f"executor={self._parts.executor!r}, runtime={self._parts.runtime!r})")


def _from_json(obj: Mapping[str, Any]) -> CompilationConfig:
    return CompilationConfig.from_json(obj)
