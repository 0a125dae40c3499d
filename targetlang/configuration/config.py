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
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Union

from .._equality import EqualAsJson
from .._lower.dialects import DIALECTS, dialect_extends
from .._lower.specialize import device_type
from .._schema.compilation import facts
from ..environment import Environment
from ..errors import ConfigError, json_path, type_name
from ..target import DEFAULT_DIALECT, Target
from ._common import check_aot, check_members, read_target
from .backends import ComponentLike, Executor, Runtime

__all__ = ["CompilationConfig", "ConfigError", "TargetLike"]

#: What reads as one target: a Target, target text (legacy, tag or JSON) or a TargetJSON dict.
TargetLike = Union[Target, str, Mapping[str, Any]]

_SINGLE_MEMBERS = ("dialect", "target_host", "targets", "executor", "runtime", "flow-config")
_COMPOSITE_MEMBERS = ("dialect", "targets", "executors")
_GROUP_MEMBERS = ("targets", "target_host", "executor", "runtime", "flow-config")
#: flow-config members whose type we know (the rest is kept as given, as PassConfig would).
_FLOW_TYPES: Mapping[str, tuple[str, type]] = MappingProxyType({
    "link-params": ("a bool", bool),
    "enable-byoc": ("an array of strings", list),
})


# ---- paths and errors ------------------------------------------------------------------------


def _no_such(what: str, name: object, path: str) -> ConfigError:
    return ConfigError(f'no {what} named "{name}"', path=path or None)


# ---- reading the parts --------------------------------------------------------------------------

def _dialect_of(obj: object) -> str | None:
    if isinstance(obj, Target):
        return obj.dialect
    if isinstance(obj, Mapping) and isinstance(obj.get("dialect"), str):
        return str(obj["dialect"])
    return None


def _newest_dialect(dialects: Iterable[tuple[str, str]], default: str) -> str:
    """The dialect that extends all the others (they must lie on one base chain)."""
    best: tuple[str, str] | None = None
    for dialect, path in dialects:
        if best is None or dialect_extends(dialect, best[0]):
            best = (dialect, path)
        elif not dialect_extends(best[0], dialect):
            raise ConfigError(f'targets of dialects "{best[0]}" and "{dialect}" cannot share a '
                              "configuration (neither extends the other)", path=path or None)
    return best[0] if best is not None else default


def _read_component(cls: type[Executor] | type[Runtime], value: object, path: str) -> Any:
    if value is None:
        return None
    if isinstance(value, cls):
        return value
    if isinstance(value, (Executor, Runtime)):
        raise ConfigError(f"expected {cls.__name__.lower()}, got {type_name(value)}",
                          path=path)
    return cls._read(value, path)


def _is_json(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_json(v) for v in value)
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and _is_json(v) for k, v in value.items())
    return False


def _read_flow(value: object, path: str) -> Mapping[str, Any]:
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, Mapping):
        raise ConfigError(f"flow-config must be an object, not {type_name(value)}", path=path)
    out: dict[str, Any] = {}
    for key in sorted(value, key=str):
        item = value[key]
        where = json_path(path, str(key))
        if not isinstance(key, str) or not _is_json(item):
            raise ConfigError("flow-config holds plain JSON values only", path=where)
        if key in _FLOW_TYPES:
            name, type_ = _FLOW_TYPES[key]
            ok = isinstance(item, type_)
            if isinstance(item, list):
                ok = ok and all(isinstance(v, str) for v in item)
            if not ok:
                raise ConfigError(f'flow-config "{key}" must be {name}, not {type_name(item)}',
                                  path=where)
        out[key] = json.loads(json.dumps(item))  # a private copy: the value is immutable
    return MappingProxyType(out)


def _device_type_of(device: str | int) -> int:
    if isinstance(device, bool) or not isinstance(device, (str, int)):
        raise ConfigError(f"a device is a device name or a DLPack device type, not "
                          f"{type_name(device)}")
    if isinstance(device, int):
        if device <= 0:
            raise ConfigError(f"invalid device type {device}")
        return device
    names = facts().device_types
    if device not in names:
        raise ConfigError(f'unknown device "{device}"; the device names are '
                          f"{', '.join(names)} (or give a DLPack device type)")
    return names[device]


def _device_name(dev_type: int) -> str:
    names = [n for n, t in facts().device_types.items() if t == dev_type]
    preferred = {1: "cpu"}
    return preferred.get(dev_type, names[0] if names else str(dev_type))


# ---- the value ---------------------------------------------------------------------------------

class _Entry:
    """A target of a configuration while it is being built: label, target, JSON path."""

    __slots__ = ("label", "target", "path")

    def __init__(self, label: str | None, target: Target, path: str) -> None:
        self.label = label
        self.target = target
        self.path = path


class CompilationConfig(EqualAsJson):
    """Targets, target host, executor and runtime: what one compilation is configured with.

    ``CompilationConfig(target_host=host, targets=[target], executor=Executor("aot"),
    runtime=Runtime("crt", {"system-lib": True}))`` as TVM's RFC writes it. Targets are
    Targets, target text or TargetJSON dicts; a dict of targets labels them (``{"gpu": ...}``)
    and ``target_host`` may then name one by its label. The host is attached to every
    target. Immutable; ``==`` and ``hash`` follow :meth:`to_json`.
    """

    __slots__ = ("_dialect", "_host", "_host_label", "_targets", "_labels", "_executor",
                 "_runtime", "_flow", "_groups", "_group_refs", "_identity")
    _SORT_KEYS = False  # the order of targets means something: TVM took the first for a device

    _dialect: str
    _host: Target | None
    _host_label: str | None
    _targets: tuple[Target, ...]
    _labels: Mapping[str, Target]
    _executor: Executor | None
    _runtime: Runtime | None
    _flow: Mapping[str, Any]
    _groups: Mapping[str, CompilationConfig]
    _group_refs: Mapping[str, tuple[tuple[str, ...], str | None]]

    def __init__(self, target_host: TargetLike | Sequence[TargetLike] | None = None,
                 targets: Sequence[TargetLike] | Mapping[str, Any] | TargetLike | None = None,
                 executor: ComponentLike | None = None, runtime: ComponentLike | None = None,
                 *, flow_config: Mapping[str, Any] | None = None, dialect: str | None = None,
                 environment: Environment | None = None) -> None:
        if targets is None:
            raise ConfigError("a configuration needs at least one target", path="targets")
        if isinstance(targets, Mapping) and "kind" not in targets:
            labelled: dict[Any, object] | None = dict(targets)
            items: list[tuple[str | None, object, str]] = [
                (label, value, json_path("targets", str(label))) for label, value in targets.items()]
        elif isinstance(targets, (list, tuple)):
            labelled = None
            items = [(None, value, json_path("targets", i)) for i, value in enumerate(targets)]
        else:
            labelled = None
            items = [(None, targets, "targets[0]")]
        host: object = target_host
        if isinstance(host, (list, tuple)):  # the RFC writes target_host=[target]
            if len(host) != 1:
                raise ConfigError(f"a configuration has one target host, not {len(host)}",
                                  path="target_host")
            host = host[0]
        host_label: str | None = None
        if isinstance(host, str) and labelled is not None and host in labelled:
            host_label = host  # a label; any other text is a target
        self._build(items, host, host_label, executor, runtime, flow_config, dialect,
                    environment, "")

    # ---- building ------------------------------------------------------------------------------

    def _build(self, items: Sequence[tuple[str | None, object, str]], host: object,
               host_label: str | None, executor: object, runtime: object, flow: object,
               dialect: str | None, environment: Environment | None, path: str) -> None:
        if not items:
            raise ConfigError("a configuration needs at least one target",
                              path=json_path(path, "targets"))
        for label, _, where in items:
            if label is not None and (not isinstance(label, str) or not label):
                raise ConfigError("a target label is a non-empty string", path=where)
        host_path = json_path(path, "target_host")
        if host_label is not None:
            host_path = next(where for label, _, where in items if label == host_label)
        values = [value for _, value, _ in items] + ([host] if host is not None else [])
        dialect = _reading_dialect(values, dialect, path)
        entries = [_Entry(label, read_target(value, where, dialect, environment), where)
                   for label, value, where in items]
        host_target: Target | None = None
        if host_label is not None:
            host_target = next(e.target for e in entries if e.label == host_label)
        elif host is not None:
            host_target = read_target(host, host_path, dialect, environment)
        dialect = _final_dialect(values, dialect, path, [(e.target, e.path) for e in entries]
                                 + ([(host_target, host_path)] if host_target else []))
        if host_target is None:
            # TVM's CompilationConfig, rule A: the first target that brings a host gives it.
            first = next((e for e in entries if e.target.host is not None), None)
            if first is not None:
                host_target, host_path = first.target.host, json_path(first.path, "host")
        if host_target is not None and host_target.host is not None:
            raise ConfigError("the target host has a host of its own",
                              path=json_path(host_path, "host"))
        targets: list[Target] = []
        for entry in entries:
            target = entry.target
            if target.host is not None and host_target is not None and \
                    target.host.to_json() != host_target.to_json():
                raise ConfigError(f"this target's host ({target.host}) is not the "
                                  f"configuration's target host ({host_target})",
                                  path=json_path(entry.path, "host"))
            if host_target is not None:
                target = target.with_host(host_target)
            targets.append(target)
        labels: dict[str, Target] = {}
        for entry, target in zip(entries, targets):
            if entry.label is not None:
                labels[entry.label] = target
        executor_value = _read_component(Executor, executor, json_path(path, "executor"))
        runtime_value = _read_component(Runtime, runtime, json_path(path, "runtime"))
        check_aot(executor_value, runtime_value, path)
        self._dialect = dialect
        self._host = host_target
        self._host_label = host_label
        self._targets = tuple(targets)
        self._labels = MappingProxyType(labels)
        self._executor = executor_value
        self._runtime = runtime_value
        self._flow = _read_flow(flow, json_path(path, "flow-config"))
        self._groups = MappingProxyType({})
        self._group_refs = MappingProxyType({})
        self._identity = None

    @classmethod
    def composite(cls, targets: Mapping[str, TargetLike],
                  executors: Mapping[str, Mapping[str, Any]], *, dialect: str | None = None,
                  environment: Environment | None = None) -> CompilationConfig:
        """The A1a composite: labelled targets, and executor groups that refer to them.

        Each group is ``{"targets": [labels], "target_host": label, "executor": ...,
        "runtime": ..., "flow-config": {...}}``; every label must name a target.
        """
        return cls._composite(targets, executors, dialect, environment)

    @classmethod
    def _composite(cls, targets: object, executors: object, dialect: str | None,
                   environment: Environment | None) -> CompilationConfig:
        if not isinstance(targets, Mapping) or not targets:
            raise ConfigError("a composite's targets are a non-empty object of labelled "
                              "targets", path="targets")
        if not isinstance(executors, Mapping) or not executors:
            raise ConfigError("a composite's executors are a non-empty object of named "
                              "groups", path="executors")
        dialect = _reading_dialect(list(targets.values()), dialect, "")
        pool: dict[str, Target] = {}
        for label, value in targets.items():
            where = json_path("targets", str(label))
            if not isinstance(label, str) or not label:
                raise ConfigError("a target label is a non-empty string", path=where)
            pool[label] = read_target(value, where, dialect, environment)
        dialect = _final_dialect(list(targets.values()), dialect, "",
                                 [(t, json_path("targets", k)) for k, t in pool.items()])
        groups: dict[str, CompilationConfig] = {}
        refs: dict[str, tuple[tuple[str, ...], str | None]] = {}
        for name, group in executors.items():
            where = json_path("executors", str(name))
            if not isinstance(name, str) or not name:
                raise ConfigError("an executor group's name is a non-empty string", path=where)
            if not isinstance(group, Mapping):
                raise ConfigError(f"an executor group is an object, not {type_name(group)}",
                                  path=where)
            check_members(group, _GROUP_MEMBERS, where, "executor group")
            labels = _labels_of(group.get("targets"), pool, json_path(where, "targets"))
            host_label = _host_label_of(group.get("target_host"), pool,
                                        json_path(where, "target_host"))
            items: list[tuple[str | None, object, str]] = [
                (label, pool[label], json_path(json_path(where, "targets"), i))
                for i, label in enumerate(labels)]
            config = object.__new__(cls)
            host: object = None
            if host_label is not None and host_label not in labels:
                host = pool[host_label]
            config._build(items, host, host_label if host_label in labels else None,
                          group.get("executor"), group.get("runtime"), group.get("flow-config"),
                          dialect, environment, where)
            groups[name] = config
            refs[name] = (labels, host_label)
        self = object.__new__(cls)
        self._dialect = dialect
        self._host = None
        self._host_label = None
        self._targets = tuple(pool.values())
        self._labels = MappingProxyType(pool)
        self._executor = None
        self._runtime = None
        self._flow = MappingProxyType({})
        self._groups = MappingProxyType(groups)
        self._group_refs = MappingProxyType(refs)
        self._identity = None
        return self

    # ---- TVM's canonicalization of the build functions' `target` argument ----------------------

    @classmethod
    def from_target(cls, target: TargetLike | Sequence[TargetLike] | Mapping[Any, TargetLike],
                    host: TargetLike | None = None, *, executor: ComponentLike | None = None,
                    runtime: ComponentLike | None = None, dialect: str | None = None,
                    environment: Environment | None = None) -> CompilationConfig:
        """The configuration for the ``target`` argument of TVM's build functions.

        ``target`` is one target, a list of targets, or a dict from device (a device name
        such as ``"cuda"`` or a DLPack device type) to target; a dict with a ``"kind"`` is one
        TargetJSON. As TVM 0.21's ``Target.canon_multi_target_and_host``: ``host`` is used
        when the first target has none and is attached to every target; otherwise the first
        host a target brings is. Unlike TVM, a host that disagrees is an error, not ignored.
        Text is read in ``dialect``: by default the newest dialect of the Targets given.
        """
        items: list[tuple[object, str]]
        if target is None:
            raise ConfigError("no target given (TVM: a build needs at least one target)",
                              path="target")
        if isinstance(target, Mapping) and "kind" not in target:
            items = [(value, json_path("target", str(key))) for key, value in target.items()]
            keys = list(target)
        elif isinstance(target, (list, tuple)):
            items = [(value, json_path("target", i)) for i, value in enumerate(target)]
            keys = []
        else:
            items = [(target, "target")]
            keys = []
        if not items:
            raise ConfigError("no target given (TVM: a build needs at least one target)",
                              path="target")
        dialect = _reading_dialect([v for v, _ in items] + [host], dialect, "")
        targets = [read_target(value, where, dialect, environment) for value, where in items]
        for key, target_value, (_, where) in zip(keys, targets, items):
            _check_device_key(key, target_value, where)
        host_target = None
        if host is not None:
            host_target = read_target(host, "host", dialect, environment)
            first_host = targets[0].host
            if first_host is not None and first_host.to_json() != host_target.to_json():
                raise ConfigError(f"the target already has the host {first_host}, which is not "
                                  f"host={host_target} (TVM kept the target's and ignored host=)",
                                  path="host")
        config = object.__new__(cls)
        config._build([(None, t, w) for t, (_, w) in zip(targets, items)], host_target, None,
                      executor, runtime, None, dialect, environment, "")
        return config

    # ---- JSON ------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str, *,
                  environment: Environment | None = None) -> CompilationConfig:
        """A configuration from its :meth:`to_json` form, or from an A1a composite document.

        JSON text is accepted too. Kind ``mali`` reads as ``opencl -device=mali`` and
        runtimes ``c++``/``c`` as ``cpp``/``crt``; everything else must be what TVM knew.
        """
        if isinstance(obj, str):
            text = obj
            try:
                obj = json.loads(text)
            except ValueError as error:
                raise ConfigError(f"not JSON: {getattr(error, 'msg', error)}", source=text,
                                  offset=getattr(error, "pos", None)) from None
        if not isinstance(obj, Mapping):
            raise ConfigError(f"a configuration is a JSON object, not {type_name(obj)}")
        dialect = obj.get("dialect")
        if dialect is not None and (not isinstance(dialect, str) or dialect not in DIALECTS):
            raise ConfigError(f'unknown dialect "{dialect}"; known: {", ".join(DIALECTS)}',
                              path="dialect")
        if "executors" in obj:
            check_members(obj, _COMPOSITE_MEMBERS, "", "composite configuration")
            return cls._composite(obj.get("targets"), obj["executors"], dialect, environment)
        check_members(obj, _SINGLE_MEMBERS, "", "configuration")
        targets = obj.get("targets")
        if not isinstance(targets, (list, Mapping)):
            raise ConfigError(f"targets must be an array or an object of labelled targets, not "
                              f"{type_name(targets)}", path="targets")
        host = obj.get("target_host")
        if isinstance(host, str) and isinstance(targets, Mapping) and host not in targets:
            raise _no_such("target", host, "target_host")
        return cls(target_host=host, targets=targets, executor=obj.get("executor"),
                   runtime=obj.get("runtime"), flow_config=obj.get("flow-config"),
                   dialect=dialect, environment=environment)

    def _target_json(self, target: Target) -> dict[str, Any]:
        out = target.to_json()
        if self._host is not None:
            out.pop("host", None)  # hoisted: it is the configuration's target host
        if target.dialect != self._dialect:
            out = {"dialect": target.dialect, **out}
        return out

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (a fresh dict): what :meth:`from_json` reads back.

        A configuration: ``dialect``, ``target_host``, ``targets`` (a list, or an object when
        labelled), ``executor``, ``runtime`` (``{"name", "attrs"}`` or null) and
        ``flow-config`` when set. A composite: ``dialect``, ``targets``, ``executors``.
        """
        out: dict[str, Any] = {"dialect": self._dialect}
        if self._groups:
            out["targets"] = {label: self._target_json(t) for label, t in self._labels.items()}
            out["executors"] = {name: self._group_json(name) for name in self._groups}
            return out
        if self._host_label is not None:
            out["target_host"] = self._host_label
        else:
            out["target_host"] = None if self._host is None else self._target_json(self._host)
        if self._labels:
            out["targets"] = {label: self._target_json(t) for label, t in self._labels.items()}
        else:
            out["targets"] = [self._target_json(t) for t in self._targets]
        out["executor"] = None if self._executor is None else self._executor.to_json()
        out["runtime"] = None if self._runtime is None else self._runtime.to_json()
        if self._flow:
            out["flow-config"] = json.loads(json.dumps(dict(self._flow)))
        return out

    def _group_json(self, name: str) -> dict[str, Any]:
        group = self._groups[name]
        labels, host_label = self._group_refs[name]
        out: dict[str, Any] = {"targets": list(labels), "target_host": host_label,
                               "executor": None if group._executor is None
                               else group._executor.to_json(),
                               "runtime": None if group._runtime is None
                               else group._runtime.to_json()}
        if group._flow:
            out["flow-config"] = json.loads(json.dumps(dict(group._flow)))
        return out

    # ---- members -------------------------------------------------------------------------------

    @property
    def dialect(self) -> str:
        """The newest dialect of its targets (each target keeps its own)."""
        return self._dialect

    @property
    def target_host(self) -> Target | None:
        """The host every target carries (None: no host given; always None in a composite)."""
        return self._host

    @property
    def targets(self) -> tuple[Target, ...]:
        """The targets, each with the target host attached (a composite: all its targets)."""
        return self._targets

    @property
    def labels(self) -> Mapping[str, Target]:
        """Labelled targets by label (empty when the targets are a plain list)."""
        return self._labels

    @property
    def executor(self) -> Executor | None:
        """The executor (None: not chosen; TVM's build defaulted to ``graph``)."""
        return self._executor

    @property
    def runtime(self) -> Runtime | None:
        """The runtime (None: not chosen; TVM's build defaulted to ``cpp``)."""
        return self._runtime

    @property
    def flow_config(self) -> Mapping[str, Any]:
        """The A1a ``flow-config`` object (``link-params``, ``enable-byoc``, ...)."""
        return self._flow

    @property
    def executors(self) -> Mapping[str, CompilationConfig]:
        """A composite's executor groups by name, each a configuration (else empty)."""
        return self._groups

    @property
    def is_composite(self) -> bool:
        """Whether this is an A1a composite of executor groups."""
        return bool(self._groups)

    # ---- devices ---------------------------------------------------------------------------------

    def target_for_device(self, device: str | int) -> Target:
        """The least-specialized target for a device (a name such as ``"cuda"``, or a type).

        Among the targets compiled for that device type, the one every other specializes
        (Collage: ``cuda -arch=sm_80`` rather than ``... -compiler=tensorrt``). No such target,
        or several minimal ones, is a :class:`ConfigError`.
        """
        wanted = _device_type_of(device)
        candidates = [(i, t) for i, t in enumerate(self._targets) if device_type(t) == wanted]
        if not candidates:
            have = "; ".join(f"{_device_name(device_type(t))}: {t}" for t in self._targets)
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
        if self._groups:
            return (f"CompilationConfig.composite(targets={list(self._labels)!r}, "
                    f"executors={list(self._groups)!r})")
        targets = [str(t.with_host(None)) for t in self._targets]
        host = None if self._host is None else str(self._host)
        return (f"CompilationConfig(target_host={host!r}, targets={targets!r}, "
                f"executor={self._executor!r}, runtime={self._runtime!r})")


def _from_json(obj: Mapping[str, Any]) -> CompilationConfig:
    return CompilationConfig.from_json(obj)


def _reading_dialect(values: Sequence[object], dialect: str | None, path: str) -> str:
    """The dialect text is read in: the one given, else the newest of the Targets given."""
    if dialect is None:
        return _newest_dialect([(d, path) for v in values if (d := _dialect_of(v)) is not None],
                               DEFAULT_DIALECT)
    if dialect not in DIALECTS:
        raise ConfigError(f'unknown dialect "{dialect}"; known: {", ".join(DIALECTS)}',
                          path=json_path(path, "dialect"))
    return dialect


def _final_dialect(values: Sequence[object], dialect: str, path: str,
                   targets: Sequence[tuple[Target, str]]) -> str:
    """The configuration's dialect: the newest of its targets' and of the one text was read in."""
    found = [(t.dialect, where) for t, where in targets]
    if any(not isinstance(v, Target) for v in values if v is not None):
        found.insert(0, (dialect, json_path(path, "dialect")))
    return _newest_dialect(found, dialect)


def _labels_of(value: object, pool: Mapping[str, Target], path: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise ConfigError("an executor group's targets are a non-empty array of target labels",
                          path=path)
    labels: list[str] = []
    for index, label in enumerate(value):
        where = json_path(path, index)
        if not isinstance(label, str):
            raise ConfigError(f"a target label is a string, not {type_name(label)}", path=where)
        if label not in pool:
            raise _no_such("target", label, where)
        if label in labels:
            raise ConfigError(f'target "{label}" is listed twice', path=where)
        labels.append(label)
    return tuple(labels)


def _host_label_of(value: object, pool: Mapping[str, Target], path: str) -> str | None:
    if value is None:
        return None
    where = path
    if isinstance(value, (list, tuple)):  # the pre-RFC writes "target_host": ["dsp-cpu"]
        if len(value) != 1:
            raise ConfigError(f"an executor group has one target host, not {len(value)}",
                              path=path)
        value, where = value[0], json_path(path, 0)
    if not isinstance(value, str):
        raise ConfigError(f"a target host is a target label, not {type_name(value)}", path=where)
    if value not in pool:
        raise _no_such("target", value, where)
    return value


def _check_device_key(key: object, target: Target, path: str) -> None:
    """A key of TVM's legacy ``{device: target}`` dict must name the target's device type."""
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise ConfigError(f"a device key is a device name or a device type, not "
                          f"{type_name(key)}", path=path)
    try:
        wanted = _device_type_of(key)
    except ConfigError as error:
        raise ConfigError(error.message, path=path) from None
    if device_type(target) != wanted:
        raise ConfigError(f"device {key!r} is device type {wanted}, but {target.kind} compiles "
                          f"for device type {device_type(target)}", path=path)
