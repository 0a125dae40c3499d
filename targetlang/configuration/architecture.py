"""``Architecture``: components and the connections between them (the pre-RFC's proposal).

An architecture lists components -- each a :class:`~targetlang.configuration.components.Component` with its
properties (``os``) and, optionally, a label -- and connections ``(source, destination,
direction)`` between them, by index or label. The same component may stand more than once
(the seed's ``[X86_64_type1, NVIDIA_GPU_type1, NVIDIA_GPU_type1]``): its index tells it apart,
and an unlabelled component is written by its index everywhere::

    Architecture(
        components=["skylake", "A100", "A100"],
        connections=[(0, 1, "uni-directional"), (0, 2, "uni-directional")])
    Architecture(
        components=[(component("skylake"), {"os": "linux"}),
                    (component("rtx 3080"), {"os": "baremetal"}, "gpu0"),
                    (component("rtx 3080"), {"os": "baremetal"}, "gpu1")],
        connections=[(0, "gpu0", "uni-directional"), (0, "gpu1", "uni-directional")])

A ``uni-directional`` connection lets its source drive its destination; ``bi-directional``
both. A component reaches another when connections lead from it to the other.

The views of the other proposal follow: :meth:`Architecture.view` (one device, alone or with
a host that reaches it) and :meth:`Architecture.packaged` (a host and the devices it
reaches). The way back -- :meth:`Architecture.from_target`, :meth:`from_config` (a
configuration or an A1a composite), :meth:`from_view` -- loses nothing: what the
architecture does not model (executor, runtime, flow-config, executor groups, target
labels) is kept as the ``config`` member, whose targets are references to components, and
:meth:`to_config` gives the configuration back.

Errors are :class:`~targetlang.ConfigError` with the JSON path of the member at fault; a
view that cannot be built is a :class:`~targetlang.configuration.views.ViewError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Union

from .._equality import EqualAsJson
from .._lower.dialects import DIALECTS
from ..errors import ConfigError, TargetError, json_path, type_name
from ..target import DEFAULT_DIALECT, Target, from_json
from ._common import at_path, can_host, check_dialect, check_members, json_object, read_target
from .components import Component, component, read_properties
from .config import CompilationConfig
from .views import DeviceOnlyView, DeviceWithHostView, PackagedView, ViewError

__all__ = ["Architecture", "DIRECTIONS"]

#: The directions of a connection.
DIRECTIONS = ("uni-directional", "bi-directional")

#: A component by its index in ``components`` or by its label.
Ref = Union[int, str]

_UNSET = object()
_MEMBERS = ("dialect", "components", "connections", "config")
_ENTRY_MEMBERS = ("label", "name", "dialect", "target", "properties")
_CONNECTION_MEMBERS = ("source", "destination", "direction")


# ---- reading the parts -------------------------------------------------------------------------

def _as_config_error(error: TargetError) -> ConfigError:
    """Every refusal of an architecture is a ConfigError (the target's message and path)."""
    if isinstance(error, ConfigError):
        return error
    return ConfigError(error.message, source=error.source, offset=error.offset, path=error.path)


def _lookup(name: object, dialect: str, path: str) -> Component:
    if not isinstance(name, str) or not name:
        raise ConfigError(f"a component's name is a non-empty string, not {type_name(name)}",
                          path=path)
    try:
        return component(name, dialect=dialect)
    except TargetError as error:
        raise ConfigError(error.message, path=path) from None


def _read_entry(value: object, dialect: str, path: str) -> tuple[str | None, Component]:
    """One member of ``components``: its label and component.

    A ``label`` among the properties is the label (``(gpu, {"os": "baremetal", "label":
    "gpu0"})``), as the API's ``(component, properties)`` pairs have no other place for it.
    """
    label, entry = _read_entry_parts(value, dialect, path)
    if "label" not in entry.properties:
        return label, entry
    where = path
    if isinstance(value, Mapping):
        where = json_path(json_path(path, "properties"), "label")
    elif isinstance(value, (list, tuple)):
        where = json_path(path, 1)
    own = _label(entry.properties["label"], where)
    if label is not None and label != own:
        raise ConfigError(f'two labels, "{label}" and "{own}"', path=where)
    return own, entry.with_properties(label=None)


def _read_entry_parts(value: object, dialect: str, path: str) -> tuple[str | None, Component]:
    """Python's forms of a component and the JSON object form."""
    if isinstance(value, Component):
        return None, value
    if isinstance(value, str):
        return None, _lookup(value, dialect, path)
    if isinstance(value, tuple) or (isinstance(value, list) and value
                                    and not isinstance(value[0], (Mapping, list))):
        if not 1 <= len(value) <= 3:
            raise ConfigError("a component is (component, properties) or (component, "
                              "properties, label)", path=path)
        first = value[0]
        base = first if isinstance(first, Component) else _lookup(first, dialect, json_path(path, 0))
        props = value[1] if len(value) > 1 else None
        label = value[2] if len(value) > 2 else None
        entry = base.with_properties(read_properties(props, json_path(path, 1)))
        return _label(label, json_path(path, 2)), entry
    if not isinstance(value, Mapping):
        raise ConfigError(f"a component is a Component, a name, (component, properties) or an "
                          f"object, not {type_name(value)}", path=path)
    check_members(value, _ENTRY_MEMBERS, path, "component")
    own = value.get("dialect", dialect)
    if not isinstance(own, str) or own not in DIALECTS:
        raise ConfigError(f'unknown dialect {json.dumps(own)}; known: {", ".join(DIALECTS)}',
                          path=json_path(path, "dialect"))
    label = _label(value.get("label"), json_path(path, "label"))
    props = read_properties(value.get("properties"), json_path(path, "properties"))
    if "target" not in value:
        base = _lookup(value.get("name"), own, json_path(path, "name"))
        return label, base.with_properties(props)
    try:
        target = read_target(value["target"], json_path(path, "target"), own)
    except TargetError as error:  # every refusal of an architecture is a ConfigError
        raise _as_config_error(error) from None
    name = value.get("name")
    if name is not None and (not isinstance(name, str) or not name):
        raise ConfigError("a component's name is a non-empty string", path=json_path(path, "name"))
    return label, Component(name, target, props)


def _label(value: object, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ConfigError(f"a label is a non-empty string, not {type_name(value)}", path=path)
    return value


def _read_connection(value: object, path: str) -> tuple[tuple[object, str], tuple[object, str],
                                                         tuple[object, str]]:
    """(source, destination, direction), each with its JSON path."""
    if isinstance(value, Mapping):
        check_members(value, _CONNECTION_MEMBERS, path, "connection")
        for key in _CONNECTION_MEMBERS:
            if key not in value:
                raise ConfigError(f"a connection needs a {key}", path=json_path(path, key))
        return tuple((value[key], json_path(path, key)) for key in _CONNECTION_MEMBERS)  # type: ignore[return-value]
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return tuple((item, json_path(path, i)) for i, item in enumerate(value))  # type: ignore[return-value]
    raise ConfigError(f"a connection is [source, destination, direction], not "
                      f"{type_name(value)}", path=path)


# ---- the value ---------------------------------------------------------------------------------

class Architecture(EqualAsJson):
    """Components and connections (see the module docstring); immutable, equal by JSON.

    ``components``: Components, database names (``"rtx 3080"``), ``(component, properties)``
    or ``(component, properties, label)``, or the JSON objects :meth:`to_json` writes.
    ``connections``: ``(source, destination, direction)`` with an index or a label for each
    end. ``config`` (normally left out; :meth:`from_config` sets it) is a configuration whose
    targets are ``{"component": index or label}``.
    """

    __slots__ = ("_labels", "_components", "_connections", "_config", "_identity")
    _SORT_KEYS = False  # the order of components is their index: connections refer to it

    _labels: tuple[str | None, ...]
    _components: tuple[Component, ...]
    _connections: tuple[tuple[int, int, str], ...]
    _config: dict[str, Any] | None

    def __init__(self, components: Sequence[Any], connections: Sequence[Any] = (), *,
                 config: Mapping[str, Any] | None = None,
                 dialect: str = DEFAULT_DIALECT) -> None:
        self._build(components, connections, config, dialect)

    def _build(self, components: object, connections: object, config: object,
               dialect: str) -> None:
        if not isinstance(components, (list, tuple)) or not components:
            raise ConfigError("an architecture needs a non-empty array of components",
                              path="components")
        labels: list[str | None] = []
        entries: list[Component] = []
        for index, value in enumerate(components):
            where = json_path("components", index)
            label, entry = _read_entry(value, dialect, where)
            if label is not None and label in labels:
                raise ConfigError(f'the label "{label}" is given twice '
                                  f"({json_path('components', labels.index(label))})", path=json_path(where, "label")
                                  if isinstance(value, Mapping) else where)
            labels.append(label)
            entries.append(entry)
        self._labels = tuple(labels)
        self._components = tuple(entries)
        if not isinstance(connections, (list, tuple)):
            raise ConfigError(f"connections are an array, not {type_name(connections)}",
                              path="connections")
        links: list[tuple[int, int, str]] = []
        for index, value in enumerate(connections):
            where = json_path("connections", index)
            (source, source_at), (destination, destination_at), (direction, direction_at) = \
                _read_connection(value, where)
            a = self._resolve(source, source_at)
            b = self._resolve(destination, destination_at)
            if direction not in DIRECTIONS:
                raise ConfigError(f"a direction is {' or '.join(repr(d) for d in DIRECTIONS)}, "
                                  f"not {json.dumps(direction)}", path=direction_at)
            if a == b:
                raise ConfigError("a component is not connected to itself", path=destination_at)
            for seen, (x, y, d) in enumerate(links):
                same = (x, y, d) == (a, b, direction)
                same = same or ("bi-directional" in (d, direction) and {x, y} == {a, b})
                if same:
                    raise ConfigError(f"{json_path('connections', seen)} already connects these components",
                                      path=where)
            links.append((a, b, str(direction)))
        self._connections = tuple(links)
        self._config = None if config is None else self._read_config(config)
        self._identity = None

    def _resolve(self, ref: object, path: str) -> int:
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            raise ConfigError(f"a component is named by its index or its label, not "
                              f"{type_name(ref)}", path=path)
        if isinstance(ref, int):
            if not 0 <= ref < len(self._components):
                raise ConfigError(f"no component {ref}: there are {len(self._components)}",
                                  path=path)
            return ref
        if ref not in self._labels:
            known = ", ".join(label for label in self._labels if label) or "none"
            raise ConfigError(f'no component labelled "{ref}" (labels: {known})', path=path)
        return self._labels.index(ref)

    def _ref(self, index: int) -> Ref:
        label = self._labels[index]
        return index if label is None else label

    # ---- the configuration member --------------------------------------------------------------

    def _read_config(self, config: object) -> dict[str, Any]:
        """The config member, checked: it reads as a configuration whose hosts reach."""
        if not isinstance(config, Mapping):
            raise ConfigError(f"config is an object, not {type_name(config)}", path="config")
        canonical = json.loads(json.dumps(config))
        refs: dict[str, int] = {}
        document = self._substitute(canonical, refs)
        try:
            value = CompilationConfig.from_json(document)
        except TargetError as error:
            raise _as_config_error(at_path(error, "config")) from None
        self._check_hosts(canonical, refs)
        leftover = _targets_in(canonical)
        if leftover:
            raise ConfigError("a configuration's targets are components: "
                              '{"component": index or label}', path=leftover[0])
        # The canonical form: what the configuration writes, targets back to references.
        return self._references(value.to_json(), refs)

    def _substitute(self, config: Mapping[str, Any], refs: dict[str, int]) -> dict[str, Any]:
        """A copy with each ``{"component": ref}`` replaced by the component's target JSON
        (``refs`` records where each stood)."""
        def substitute(path: str, value: Any) -> Any:
            if isinstance(value, Mapping) and set(value) == {"component"}:
                index = self._resolve(value["component"], json_path(path, "component"))
                refs[path] = index
                return self._target_json(index)
            return value
        return _map_places(config, substitute)

    def _target_json(self, index: int) -> dict[str, Any]:
        target = self._components[index].target
        out = target.to_json()
        if target.dialect != DEFAULT_DIALECT:
            out = {"dialect": target.dialect, **out}
        return out

    def _references(self, written: dict[str, Any], refs: dict[str, int]) -> dict[str, Any]:
        """``written`` with each target replaced by a reference to its component.

        A target at a place the given document referred to keeps that reference, also where
        the configuration moved it (``target_host: [{...}]`` is written ``target_host:
        {...}``: two identical CPUs are told apart by the reference); any other refers to the
        first component with that target.
        """
        dialect = written["dialect"]

        def reference(path: str, item: Any) -> Any:
            for given in (path, json_path(path, 0)):
                if given in refs:
                    return {"component": self._ref(refs[given])}
            if not isinstance(item, dict):
                return item  # a label
            own = item.get("dialect", dialect)
            target = from_json({k: v for k, v in item.items() if k != "dialect"}, dialect=own)
            index = next(i for i, c in enumerate(self._components) if c.target == target)
            return {"component": self._ref(index)}

        return _map_places(written, reference)

    def _check_hosts(self, config: dict[str, Any], refs: dict[str, int]) -> None:
        """Each group's host reaches each of its targets (``refs``: where each target is)."""
        targets = config.get("targets")
        by_label: dict[str, int] = {}
        if isinstance(targets, Mapping):
            for label in targets:
                if json_path("config.targets", label) in refs:
                    by_label[label] = refs[json_path("config.targets", label)]

        def host_of(value: Any, path: str) -> int | None:
            if isinstance(value, list) and len(value) == 1:
                value, path = value[0], json_path(path, 0)
            if isinstance(value, str):
                return by_label.get(value)
            return refs.get(path)

        groups: list[tuple[int | None, list[tuple[int | None, str]]]] = []
        executors = config.get("executors")
        if isinstance(executors, Mapping):
            for name, group in executors.items():
                where = json_path("config.executors", name)
                if not isinstance(group, Mapping) or not isinstance(group.get("targets"), list):
                    continue
                members = [(by_label.get(m) if isinstance(m, str) else None,
                            json_path(json_path(where, "targets"), i))
                           for i, m in enumerate(group["targets"])]
                groups.append((host_of(group.get("target_host"), json_path(where, "target_host")),
                               members))
        else:
            paths = [p for p in refs if p.startswith("config.targets")]
            groups.append((host_of(config.get("target_host"), "config.target_host"),
                           [(refs[p], p) for p in paths]))
        for host, members in groups:
            if host is None:
                continue
            for member, at in members:
                if member is not None and not self.reaches(host, member):
                    raise ConfigError(f"the host {self._describe(host)} does not reach "
                                      f"{self._describe(member)}: no connection leads there",
                                      path=at)

    def _describe(self, index: int) -> str:
        label = self._labels[index]
        name = self._components[index].name
        return f"{json_path('components', index)} ({name})" if label is None else f'"{label}" ({name})'

    # ---- members ---------------------------------------------------------------------------------

    @property
    def components(self) -> tuple[Component, ...]:
        """The components, in the order given (a connection's index counts in it)."""
        return self._components

    @property
    def labels(self) -> tuple[str | None, ...]:
        """Each component's label (None: unlabelled), in the order of ``components``."""
        return self._labels

    @property
    def connections(self) -> tuple[tuple[Ref, Ref, str], ...]:
        """``(source, destination, direction)``, each end its label or else its index."""
        return tuple((self._ref(a), self._ref(b), d) for a, b, d in self._connections)

    def index(self, ref: Ref) -> int:
        """The index of a component given by index or label (a ConfigError if there is none)."""
        return self._resolve(ref, "component")

    def reaches(self, source: Ref, destination: Ref) -> bool:
        """Whether connections lead from ``source`` to ``destination`` (each reaches itself)."""
        start, goal = self.index(source), self.index(destination)
        seen = {start}
        todo = [start]
        while todo:
            here = todo.pop()
            for a, b, direction in self._connections:
                for x, y in ((a, b), (b, a)) if direction == "bi-directional" else ((a, b),):
                    if x == here and y not in seen:
                        seen.add(y)
                        todo.append(y)
        return goal in seen

    # ---- views -----------------------------------------------------------------------------------

    def _view_index(self, ref: object, what: str) -> int:
        try:
            return self._resolve(ref, what)
        except ConfigError as error:
            raise ViewError(error.message, path=what) from None

    def view(self, device: Ref, host: Ref | None = None) -> DeviceOnlyView | DeviceWithHostView:
        """The device alone (no host given), or with a host that reaches it and can host."""
        index = self._view_index(device, "device")
        target = self._components[index].target
        if host is None:
            if target.host is not None:
                return DeviceWithHostView(target)  # a board: the tag brings its own host
            return DeviceOnlyView(target)
        host_index = self._host(host, [index])
        return DeviceWithHostView(target, self._components[host_index].target)

    def _host(self, host: Ref, devices: Sequence[int]) -> int:
        index = self._view_index(host, "host")
        target = self._components[index].target
        if not can_host(target):
            raise ViewError(f"{self._describe(index)} cannot host: a host is a CPU",
                            path="host")
        for device in devices:
            if not self.reaches(index, device):
                raise ViewError(f"the host {self._describe(index)} does not reach "
                                f"{self._describe(device)}: no connection leads there",
                                path="host")
        return index

    def packaged(self, host: Ref | None = None, *, group: str | None = None,
                 executor: Any = None, runtime: Any = None) -> PackagedView:
        """The host and every other component it reaches, packaged (``PackagedArch``).

        With no ``host``: the configuration's (``group`` names an executor group of a
        composite), else the one component that can host and reaches all the others.
        """
        if host is None and self._config is not None:
            config = self.to_config()
            if config.is_composite:
                if group is None or group not in config.executors:
                    raise ViewError(f"a composite: name an executor group (one of "
                                    f"{', '.join(config.executors)})", path="group")
                config = config.executors[group]
            view = PackagedView.from_config(config)
            if executor is None and runtime is None:
                return view
            return PackagedView(view.devices, view.host, executor or view.executor,
                                runtime or view.runtime, view.labels)
        everything = range(len(self._components))
        if host is None:
            found = [i for i in everything if can_host(self._components[i].target)
                     and all(self.reaches(i, j) for j in everything)]
            if len(found) != 1:
                raise ViewError("name the host: " + ("no component that can host reaches "
                                "all the others" if not found else "several can host"),
                                path="host")
            host = found[0]
        index = self._view_index(host, "host")
        devices = [i for i in everything if i != index and self.reaches(index, i)]
        self._host(index, devices)
        if not devices:
            devices = [index]
        labels: tuple[str, ...] = ()
        if all(self._labels[i] is not None for i in devices):
            labels = tuple(str(self._labels[i]) for i in devices)
        return PackagedView(tuple(self._components[i].target for i in devices),
                            self._components[index].target, executor, runtime, labels)

    # ---- the way back ----------------------------------------------------------------------------

    @classmethod
    def from_config(cls, config: CompilationConfig) -> Architecture:
        """A configuration or A1a composite: its targets as components, each host connected
        to its targets (``uni-directional``), the rest kept as the ``config`` member.

        Each target is a component of its own (two identical GPUs are two components); a
        host that is also a target is that target's component."""
        document = config.to_json()
        components: list[tuple[str | None, Component]] = []

        def add(target_json: dict[str, Any], label: str | None, dialect: str,
                share: range = range(0)) -> Ref:
            """The component of a target: a new one, or the one among ``share`` it equals."""
            own = target_json.get("dialect", dialect)
            body = {k: v for k, v in target_json.items() if k != "dialect"}
            entry = Component.from_target(from_json(body, dialect=own))
            if label is None:
                for index in share:
                    if components[index][1] == entry:
                        return index if components[index][0] is None else \
                            str(components[index][0])
            components.append((label, entry))
            return len(components) - 1 if label is None else label

        dialect = document["dialect"]
        referenced = json.loads(json.dumps(document))
        targets = document["targets"]
        if isinstance(targets, dict):
            referenced["targets"] = {label: {"component": add(t, label, dialect)}
                                     for label, t in targets.items()}
        host = document.get("target_host")
        if isinstance(host, dict):
            referenced["target_host"] = {"component": add(host, None, dialect,
                                                          range(len(components)))}
        hosts = range(len(components))  # the host, if there is one: a target may be it
        if isinstance(targets, list):
            referenced["targets"] = [{"component": add(t, None, dialect, hosts)}
                                     for t in targets]
        links: list[tuple[Ref, Ref, str]] = []

        def connect(host_ref: Ref | None, members: list[Ref]) -> None:
            for member in members:
                link = (host_ref, member, "uni-directional")
                if host_ref is not None and member != host_ref and link not in links:
                    links.append(link)  # type: ignore[arg-type]

        def ref_of(value: Any) -> Ref | None:
            if isinstance(value, dict):
                return value["component"]  # type: ignore[no-any-return]
            if isinstance(value, str):
                return value  # a target label: the component has that label
            return None

        if config.is_composite:
            for group in document["executors"].values():
                connect(group.get("target_host"), list(group["targets"]))
        else:
            members = referenced["targets"]
            refs = list(members.values()) if isinstance(members, dict) else members
            connect(ref_of(referenced.get("target_host")), [r["component"] for r in refs])
        arch = cls([(c, None, label) if label else c for label, c in components], links,
                   config=referenced)
        if arch.to_config() != config:  # pragma: no cover - a bug, not a user's error
            raise ConfigError("this configuration does not survive the architecture")
        return arch

    @classmethod
    def from_target(cls, target: Target) -> Architecture:
        """A target and its host: two components (one, if they are the same), connected."""
        return cls.from_config(CompilationConfig(target_host=target.host,
                                                 targets=[target.with_host(None)]))

    @classmethod
    def from_view(cls, view: DeviceOnlyView | DeviceWithHostView | PackagedView) -> Architecture:
        """The architecture of a view; its ``config`` member gives the view back."""
        return cls.from_config(view.to_config())

    def to_config(self) -> CompilationConfig:
        """The configuration: the ``config`` member's, else the host and what it reaches."""
        if self._config is None:
            return self.packaged().to_config()
        return CompilationConfig.from_json(self._substitute(self._config, {}))

    def as_view(self) -> DeviceOnlyView | DeviceWithHostView | PackagedView:
        """The view this architecture was made from (:meth:`from_view`), read back."""
        config = self.to_config()
        if config.executor is None and config.runtime is None and not config.labels \
                and len(config.targets) == 1 and not config.is_composite \
                and not config.flow_config:
            view = DeviceWithHostView.from_config(config)
            return view if view.host is not None else view.to_device_only()
        return PackagedView.from_config(config)

    # ---- JSON ------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str, *,
                  dialect: str = DEFAULT_DIALECT) -> Architecture:
        """An architecture from :meth:`to_json`'s form (or JSON text); components may be
        written as database names (``"rtx 3080"``, ``{"name": "A100", "label": "gpu0"}``).

        Components are read in the document's ``dialect`` member, else in ``dialect``; each
        may name its own."""
        obj = json_object(obj, "an architecture")
        check_members(obj, _MEMBERS, "", "architecture")
        dialect = check_dialect(obj.get("dialect", dialect), "dialect")
        components = obj.get("components")
        if isinstance(components, list):
            components = [dict(c) if isinstance(c, Mapping) else c for c in components]
            for index, item in enumerate(components):
                if isinstance(item, list):
                    raise ConfigError("a component is a name or an object",
                                      path=json_path("components", index))
        self = object.__new__(cls)
        self._build(components, obj.get("connections", []), obj.get("config"), dialect)
        return self

    def to_json(self) -> dict[str, Any]:
        """``components`` (label, name, dialect, target, properties), ``connections``
        (``[source, destination, direction]``) and ``config`` when set. A fresh dict."""
        components = []
        for label, entry in zip(self._labels, self._components):
            item = entry.to_json()
            components.append({"label": label, **item} if label is not None else item)
        out: dict[str, Any] = {"components": components,
                               "connections": [list(c) for c in self.connections]}
        if self._config is not None:
            out["config"] = json.loads(json.dumps(self._config))
        return out

    def to_string(self) -> str:
        """The canonical text: :meth:`to_json` as one line of JSON (``str(arch)`` too).

        ``Architecture.from_json(text)`` reads it back, and writing that again gives the same
        text.
        """
        return json.dumps(self.to_json(), ensure_ascii=False)

    def __str__(self) -> str:
        return self.to_string()

    # ---- value semantics --------------------------------------------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_identity", _UNSET) is not _UNSET and name != "_identity":
            raise AttributeError(f"Architecture is immutable; cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Architecture.from_json, (self.to_json(),))

    def __repr__(self) -> str:
        names = [e.name if label is None else f"{label}: {e.name}"
                 for label, e in zip(self._labels, self._components)]
        return f"Architecture(components={names!r}, connections={list(self.connections)!r})"


def _target_places(config: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """``(path, value)`` of every place of a config member that holds a target."""
    places: list[tuple[str, Any]] = []
    targets = config.get("targets")
    if isinstance(targets, list):
        places += [(json_path("config.targets", i), t) for i, t in enumerate(targets)]
    elif isinstance(targets, Mapping):
        places += [(json_path("config.targets", k), t) for k, t in targets.items()]
    host = config.get("target_host")
    if isinstance(host, list):
        places += [(json_path("config.target_host", i), t) for i, t in enumerate(host)]
    elif host is not None:
        places.append(("config.target_host", host))
    return places


def _map_places(config: Mapping[str, Any], change: Any) -> dict[str, Any]:
    """A copy of a config member with ``change(path, value)`` at each place of a target."""
    out: dict[str, Any] = json.loads(json.dumps(config))
    targets = out.get("targets")
    if isinstance(targets, list):
        out["targets"] = [change(json_path("config.targets", i), t) for i, t in enumerate(targets)]
    elif isinstance(targets, dict):
        out["targets"] = {k: change(json_path("config.targets", k), t) for k, t in targets.items()}
    host = out.get("target_host")
    if isinstance(host, list):
        out["target_host"] = [change(json_path("config.target_host", i), t)
                              for i, t in enumerate(host)]
    elif host is not None:
        out["target_host"] = change("config.target_host", host)
    return out


def _targets_in(config: Mapping[str, Any]) -> list[str]:
    """Paths of TargetJSON objects or target text where a config member needs references."""
    targets = config.get("targets")
    labels: Mapping[str, Any] = targets if isinstance(targets, Mapping) else {}
    return [path for path, value in _target_places(config)
            if not (isinstance(value, Mapping) and set(value) == {"component"})
            and not (isinstance(value, str) and value in labels)]
