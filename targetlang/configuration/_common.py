"""What the configuration tools share (config, views and architecture each read targets and
members the same way): one place for each, imported under names public to the package."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .._lower.dialects import DIALECTS
from .._lower.specialize import device_type
from ..errors import ConfigError, TargetError, did_you_mean, json_path, type_name
from ..target import Target, from_json, parse

if TYPE_CHECKING:
    from ..environment import Environment
    from .backends import Executor, Runtime

#: Kind names of configuration documents that TVM never had, and what they stand for.
#: ``mali`` (the pre-RFC's example) is what ``tvm.target.mali()`` built: OpenCL for a Mali GPU.
KIND_ALIASES: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "mali": MappingProxyType({"kind": "opencl", "device": "mali"}),
})

#: Device types that can host (TVM's CompilationConfig: kDLCPU, and kDLHexagon).
HOSTING_DEVICE_TYPES = (1, 16)


def at_path(error: TargetError, path: str) -> TargetError:
    """The same error, its JSON path now starting at ``path`` (where the target sits)."""
    if error.path:
        inner = error.path if error.path.startswith("[") else "." + error.path
        full = f"{path}{inner}" if path else inner.lstrip(".")
    else:
        full = path
    return type(error)(error.message, source=error.source, offset=error.offset,
                       path=full or None)


def json_object(obj: object, what: str) -> Mapping[str, Any]:
    """A document given as a mapping or as JSON text (``what`` names it in the error, "an
    architecture"), as a mapping; ``ConfigError`` for text that is not JSON (with its
    offset) or for anything but an object."""
    if isinstance(obj, str):
        text = obj
        try:
            obj = json.loads(text)
        except ValueError as error:
            raise ConfigError(f"not JSON: {getattr(error, 'msg', error)}", source=text,
                              offset=getattr(error, "pos", None)) from None
    if not isinstance(obj, Mapping):
        raise ConfigError(f"{what} is a JSON object, not {type_name(obj)}")
    return obj


def check_dialect(value: object, path: str) -> str:
    """``value``, a dialect's name; anything else is the ConfigError of an unknown dialect."""
    if not isinstance(value, str) or value not in DIALECTS:
        raise ConfigError(f'unknown dialect "{value}"; known: {", ".join(DIALECTS)}',
                          path=path or None)
    return value


def check_members(obj: Mapping[str, Any], allowed: Sequence[str], path: str, what: str) -> None:
    """Refuse a member of ``obj`` that is not ``allowed`` (with the closest one)."""
    for key in obj:
        if key not in allowed:
            hint = did_you_mean(str(key), allowed, '"')
            raise ConfigError(f'unknown {what} member "{key}"{hint}; the members are '
                              f"{', '.join(allowed)}", path=json_path(path, str(key)))


def read_target(value: object, path: str, dialect: str,
                environment: Environment | None = None) -> Target:
    """One target of a configuration or an architecture: a Target, target text read in
    ``dialect``, or a TargetJSON dict, which may name its own ``dialect`` and a kind alias.
    A target's own error (a TargetError) comes with its path starting at ``path``."""
    if isinstance(value, Target):
        return value
    try:
        if isinstance(value, str):
            return parse(value, dialect=dialect, environment=environment)
        if isinstance(value, Mapping):
            config = dict(value)
            own = check_dialect(config.pop("dialect", dialect), json_path(path, "dialect"))
            kind = config.get("kind")
            if isinstance(kind, str) and kind in KIND_ALIASES:
                config = _unalias(config, kind, path)
            return from_json(config, dialect=own, environment=environment)
    except ConfigError:
        raise
    except TargetError as error:
        raise at_path(error, path) from None
    raise ConfigError(f"a target is a Target, target text or a TargetJSON object, not "
                      f"{type_name(value)}", path=path or None)


def _unalias(config: dict[str, Any], kind: str, path: str) -> dict[str, Any]:
    alias = KIND_ALIASES[kind]
    for key, value in alias.items():
        if key != "kind" and config.get(key, value) != value:
            raise ConfigError(f'kind "{kind}" stands for {alias["kind"]} with {key} "{value}", '
                              f'so {key} cannot be "{config[key]}"', path=json_path(path, key))
    return {**config, **alias}


def check_aot(executor: Executor | None, runtime: Runtime | None, path: str) -> None:
    """The combinations TVM's AOT code generator refused (aot_executor_codegen.cc)."""
    if executor is None or runtime is None or executor.name != "aot":
        return
    interface = executor.attrs.get("interface-api", "packed")
    unpacked = executor.attrs.get("unpacked-api", False)
    where = json_path(json_path(path, "executor"), "attrs")
    if runtime.name == "crt" and not (unpacked or interface == "packed"):
        raise ConfigError(f'interface-api "{interface}" needs unpacked-api true with the crt '
                          "runtime", path=json_path(where, "interface-api"))
    if runtime.name == "cpp" and unpacked:
        raise ConfigError("the cpp runtime needs unpacked-api false",
                          path=json_path(where, "unpacked-api"))
    if runtime.name == "cpp" and interface != "packed":
        raise ConfigError(f'the cpp runtime needs interface-api "packed", not "{interface}"',
                          path=json_path(where, "interface-api"))


def can_host(target: Target) -> bool:
    """Whether ``target`` compiles for a device that can host others (a CPU, Hexagon)."""
    return device_type(target) in HOSTING_DEVICE_TYPES
