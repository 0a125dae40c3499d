"""``Executor`` and ``Runtime``: the deployment settings TVM moved out of ``Target``.

TVM 0.8 to 0.19 registered them in ``src/relay/backend/{executor,runtime}.cc``; the schemas
here are generated from those registrations (``scripts/generate_config_data.py``):

========  ================================================================================
executor  ``graph`` (``link-params``: bool = false), ``aot`` (``link-params``: bool = true,
          ``unpacked-api``: bool, ``interface-api``: str, ``workspace-byte-alignment``: int,
          ``constant-byte-alignment``: int), ``vm`` (no options; registered in TVM 0.8)
runtime   ``cpp`` and ``crt`` (``system-lib``: bool); the legacy ``-runtime=`` spellings
          ``c++`` and ``c`` are read as aliases of them
========  ================================================================================
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from .._equality import EqualAsJson
from .._schema.compilation import ComponentSpec, facts
from ..errors import ConfigError, did_you_mean, json_path, type_name

__all__ = ["Executor", "Runtime", "ExecutorOrRuntimeLike"]

#: A JSON scalar, the only kind of value an executor or runtime option holds.
OptionValue = bool | int | str


class _ExecutorOrRuntime(EqualAsJson):
    """What Executor and Runtime share: a registered name and typed, defaulted options."""

    __slots__ = ("_name", "_attrs", "_identity")

    _what: ClassVar[str]

    _name: str
    _attrs: Mapping[str, OptionValue]

    def __init__(self, name: str, attrs: Mapping[str, OptionValue] | None = None) -> None:
        self._init(name, attrs, "")

    def _init(self, name: object, attrs: object, path: str, name_path: str | None = None) -> None:
        spec = self._spec(name, name_path if name_path is not None else
                          (json_path(path, "name") if path else None))
        given: Mapping[Any, Any] = {} if attrs is None else attrs  # type: ignore[assignment]
        attrs_path = json_path(path, "attrs")
        if not isinstance(given, Mapping):
            raise ConfigError(f"{self._what} attributes must be an object, not "
                              f"{type_name(given)}", path=attrs_path)
        values: dict[str, OptionValue] = {}
        for key, value in given.items():
            where = json_path(attrs_path, str(key))
            option = spec.options.get(key) if isinstance(key, str) else None
            if option is None:
                hint = did_you_mean(str(key), spec.options, '"')
                known = ", ".join(spec.options) or "none"
                raise ConfigError(f'{self._what} "{spec.name}" has no attribute "{key}"{hint}; '
                                  f"its attributes: {known}", path=where)
            # TVM compared type keys exactly: a bool option takes no int, an int option no bool.
            if type_name(value) != {"bool": "bool", "int": "int", "str": "string"}[str(option.type)]:
                wanted = {"bool": "a bool", "int": "an int", "str": "a string"}[str(option.type)]
                raise ConfigError(f'attribute "{key}" of {self._what} "{spec.name}" must be '
                                  f"{wanted}, not {type_name(value)}", path=where)
            values[key] = value
        for option in spec.options.values():
            if option.has_default:
                values.setdefault(option.name, option.default)
        self._name = spec.name
        self._attrs = MappingProxyType(dict(sorted(values.items())))
        self._identity = None

    @classmethod
    def _registry(cls) -> Mapping[str, ComponentSpec]:
        raise NotImplementedError

    @classmethod
    def _aliases(cls) -> Mapping[str, str]:
        return {}

    @classmethod
    def _spec(cls, name: object, where: str | None) -> ComponentSpec:
        if not isinstance(name, str):
            raise ConfigError(f"{cls._what} name must be a string, not {type_name(name)}",
                              path=where)
        registry = cls._registry()
        name = cls._aliases().get(name, name)
        if name not in registry:
            hint = did_you_mean(name, registry, '"')
            aliases = "".join(f", {a} (= {n})" for a, n in cls._aliases().items())
            raise ConfigError(f'unknown {cls._what} "{name}"{hint}; known: '
                              f"{', '.join(registry)}{aliases}", path=where)
        return registry[name]

    # ---- members -------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The registered name (an alias is read as the name it stands for)."""
        return self._name

    @property
    def attrs(self) -> Mapping[str, OptionValue]:
        """The options, registered defaults included."""
        return self._attrs

    def __getitem__(self, key: str) -> OptionValue:
        return self._attrs[key]

    def __contains__(self, key: object) -> bool:
        return key in self._attrs

    def __iter__(self) -> Iterator[str]:
        return iter(self._attrs)

    @classmethod
    def list_registered(cls) -> list[str]:
        """Every registered name (TVM's ``list_registered``)."""
        return list(cls._registry())

    @classmethod
    def list_registered_options(cls, name: str) -> dict[str, str]:
        """The options of ``name`` with their types (TVM's ``list_registered_options``)."""
        return {o.name: str(o.type) for o in cls._spec(name, None).options.values()}

    # ---- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """``{"name": ..., "attrs": {...}}``, defaults included (a fresh dict)."""
        return {"name": self._name, "attrs": dict(self._attrs)}

    @classmethod
    def _read(cls, obj: object, path: str) -> Any:
        """A component from a name, its JSON object or itself; errors carry ``path``."""
        if isinstance(obj, cls):
            return obj
        self = object.__new__(cls)
        if isinstance(obj, str):  # a bare name sits at the path itself
            self._init(obj, None, path, name_path=path or None)
            return self
        if not isinstance(obj, Mapping):
            raise ConfigError(f"{cls._what} must be a name or an object, not {type_name(obj)}",
                              path=path or None)
        extra = sorted(set(obj) - {"name", "attrs"})
        if extra:
            raise ConfigError(f'unknown {cls._what} member "{extra[0]}" (write '
                              '{"name": ..., "attrs": {...}})',
                              path=json_path(path, str(extra[0])))
        if "name" not in obj:
            raise ConfigError(f'{cls._what} has no "name"', path=path or None)
        self._init(obj["name"], obj.get("attrs"), path)
        return self

    # ---- value semantics -------------------------------------------------------------------

    def _identity_json(self) -> Any:
        return [self._what, self._name, dict(self._attrs)]

    def __repr__(self) -> str:
        given = f", {dict(self._attrs)!r}" if self._attrs else ""
        return f"{type(self).__name__}({self._name!r}{given})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._name, dict(self._attrs)))


class Executor(_ExecutorOrRuntime):
    """How the compiled model is run: ``graph``, ``aot`` or ``vm``, with typed options.

    ``Executor("aot", {"interface-api": "c", "unpacked-api": True})``; options not given take
    their registered defaults (``link-params``), unknown names and options and wrongly typed
    values raise :class:`ConfigError`.
    """

    __slots__ = ()
    _what = "executor"

    @classmethod
    def _registry(cls) -> Mapping[str, ComponentSpec]:
        return facts().executors

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str) -> Executor:
        """An executor from ``{"name": ..., "attrs": {...}}`` or a bare name."""
        executor: Executor = cls._read(obj, "")
        return executor


class Runtime(_ExecutorOrRuntime):
    """The runtime the compiled model links against: ``cpp`` or ``crt``, with ``system-lib``.

    ``c++`` and ``c`` (the values of the legacy ``-runtime=`` target option, TVM's
    ``kTvmRuntimeCpp``/``kTvmRuntimeCrt``) are read as ``cpp`` and ``crt``.
    """

    __slots__ = ()
    _what = "runtime"

    @classmethod
    def _registry(cls) -> Mapping[str, ComponentSpec]:
        return facts().runtimes

    @classmethod
    def _aliases(cls) -> Mapping[str, str]:
        return facts().runtime_aliases

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str) -> Runtime:
        """A runtime from ``{"name": ..., "attrs": {...}}`` or a bare name."""
        runtime: Runtime = cls._read(obj, "")
        return runtime


#: What a configuration accepts for an executor or a runtime: one, its name or its JSON object.
ExecutorOrRuntimeLike = _ExecutorOrRuntime | str | Mapping[str, Any]
