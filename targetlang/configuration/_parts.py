"""The parts of a :class:`~targetlang.configuration.config.CompilationConfig`, read and checked: its targets
with their host, executor, runtime, flow-config and executor groups, each error with the JSON
path of the member to blame. ``config.py`` keeps the value: it builds from :class:`Parts`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .._lower.dialects import dialect_extends
from .._lower.specialize import device_type
from .._schema.compilation import facts
from ..environment import Environment
from ..errors import ConfigError, json_path, type_name
from ..target import DEFAULT_DIALECT, Target
from ._common import check_aot, check_dialect, check_members, read_target
from .backends import Executor, Runtime

if TYPE_CHECKING:
    from .config import CompilationConfig

_GROUP_MEMBERS = ("targets", "target_host", "executor", "runtime", "flow-config")
#: flow-config members whose type we know (the rest is kept as given, as PassConfig would).
_FLOW_TYPES: Mapping[str, tuple[str, type]] = MappingProxyType({
    "link-params": ("a bool", bool),
    "enable-byoc": ("an array of strings", list),
})

#: A target as given, with its label (None: a plain list) and its JSON path.
Item = tuple[str | None, object, str]

_NONE: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Parts:
    """What a configuration is made of, read and checked (a composite: its targets by label
    and its executor groups, no host, executor or runtime of its own)."""

    dialect: str
    host: Target | None
    host_label: str | None
    targets: tuple[Target, ...]
    labels: Mapping[str, Target]
    executor: Executor | None
    runtime: Runtime | None
    flow: Mapping[str, Any]
    groups: Mapping[str, CompilationConfig] = field(default_factory=lambda: _NONE)
    #: Each group's target labels and host label, as the composite document wrote them.
    group_refs: Mapping[str, tuple[tuple[str, ...], str | None]] = field(
        default_factory=lambda: _NONE)


class _Entry:
    """A target of a configuration while it is being built: label, target, JSON path."""

    __slots__ = ("label", "target", "path")

    def __init__(self, label: str | None, target: Target, path: str) -> None:
        self.label = label
        self.target = target
        self.path = path


# ---- the three ways in ---------------------------------------------------------------------------

def read_given(target_host: object, targets: object, executor: object, runtime: object,
               flow_config: object, dialect: str | None,
               environment: Environment | None) -> Parts:
    """The parts of ``CompilationConfig(target_host=..., targets=..., ...)``."""
    if targets is None:
        raise ConfigError("a configuration needs at least one target", path="targets")
    if isinstance(targets, Mapping) and "kind" not in targets:
        labelled: dict[Any, object] | None = dict(targets)
        items: list[Item] = [
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
    return read_config(items, host, host_label, executor, runtime, flow_config, dialect,
                       environment, "")


def read_build_target(target: object, host: object, executor: object, runtime: object,
                      dialect: str | None, environment: Environment | None) -> Parts:
    """The parts of ``CompilationConfig.from_target``: TVM 0.21's
    ``Target.canon_multi_target_and_host`` of a build function's ``target`` and ``host``."""
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
    return read_config([(None, t, w) for t, (_, w) in zip(targets, items)], host_target, None,
                       executor, runtime, None, dialect, environment, "")


def read_config(items: Sequence[Item], host: object, host_label: str | None, executor: object,
                runtime: object, flow: object, dialect: str | None,
                environment: Environment | None, path: str) -> Parts:
    """A configuration's parts: its targets (``items``), the host (a value, or the label of
    one of the targets), executor, runtime and flow-config, read in ``dialect``; the errors'
    paths start at ``path`` (an executor group of a composite)."""
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
    return Parts(dialect, host_target, host_label, tuple(targets), MappingProxyType(labels),
                 executor_value, runtime_value, _read_flow(flow, json_path(path, "flow-config")))


def read_composite(targets: object, executors: object, dialect: str | None,
                   environment: Environment | None,
                   make_group: Callable[[Parts], CompilationConfig]) -> Parts:
    """A composite's parts: labelled targets, and executor groups referring to them, each a
    configuration made by ``make_group`` from its parts."""
    if not isinstance(targets, Mapping) or not targets:
        raise ConfigError("a composite's targets are a non-empty object of labelled "
                          "targets", path="targets")
    if not isinstance(executors, Mapping) or not executors:
        raise ConfigError("a composite's executors are a non-empty object of named "
                          "groups", path="executors")
    dialect = _reading_dialect(list(targets.values()), dialect, "")
    pool: dict[str, Target] = {}
    for label, given in targets.items():
        where = json_path("targets", str(label))
        if not isinstance(label, str) or not label:
            raise ConfigError("a target label is a non-empty string", path=where)
        pool[label] = read_target(given, where, dialect, environment)
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
        items: list[Item] = [
            (label, pool[label], json_path(json_path(where, "targets"), i))
            for i, label in enumerate(labels)]
        host: object = None
        if host_label is not None and host_label not in labels:
            host = pool[host_label]
        groups[name] = make_group(read_config(
            items, host, host_label if host_label in labels else None, group.get("executor"),
            group.get("runtime"), group.get("flow-config"), dialect, environment, where))
        refs[name] = (labels, host_label)
    return Parts(dialect, None, None, tuple(pool.values()), MappingProxyType(pool), None, None,
                 _NONE, MappingProxyType(groups), MappingProxyType(refs))


# ---- reading the parts ------------------------------------------------------------------------

def no_such(what: str, name: object, path: str) -> ConfigError:
    return ConfigError(f'no {what} named "{name}"', path=path or None)


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


def device_type_of(device: str | int) -> int:
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


def device_name(dev_type: int) -> str:
    names = [n for n, t in facts().device_types.items() if t == dev_type]
    preferred = {1: "cpu"}
    return preferred.get(dev_type, names[0] if names else str(dev_type))


def _reading_dialect(values: Sequence[object], dialect: str | None, path: str) -> str:
    """The dialect text is read in: the one given, else the newest of the Targets given."""
    if dialect is None:
        return _newest_dialect([(d, path) for v in values if (d := _dialect_of(v)) is not None],
                               DEFAULT_DIALECT)
    return check_dialect(dialect, json_path(path, "dialect"))


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
            raise no_such("target", label, where)
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
        raise no_such("target", value, where)
    return value


def _check_device_key(key: object, target: Target, path: str) -> None:
    """A key of TVM's legacy ``{device: target}`` dict must name the target's device type."""
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise ConfigError(f"a device key is a device name or a device type, not "
                          f"{type_name(key)}", path=path)
    try:
        wanted = device_type_of(key)
    except ConfigError as error:
        raise ConfigError(error.message, path=path) from None
    if device_type(target) != wanted:
        raise ConfigError(f"device {key!r} is device type {wanted}, but {target.kind} compiles "
                          f"for device type {device_type(target)}", path=path)
