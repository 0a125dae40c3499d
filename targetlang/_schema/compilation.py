"""The facts of the configuration layer, loaded lazily from ``_data/compilation.json``.

Generated from TVM's sources and the TVM 0.21 oracle by ``scripts/generate_config_data.py``:
executors and runtimes with their attribute options, the legacy names of the runtimes, and
TVM's device names (``Device.DEVICE_NAME_TO_TYPE``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .resources import data_text
from .types import AttrType, parse_type

_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One attribute option of an executor or runtime: name, type and default (if any)."""

    name: str
    type: AttrType  # bool, int or str
    default: Any = _MISSING

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


@dataclass(frozen=True, slots=True)
class ComponentSpec:
    """An executor or runtime as TVM registered it, and the release it was taken from."""

    name: str
    options: Mapping[str, OptionSpec]
    source: str


@dataclass(frozen=True, slots=True)
class ConfigFacts:
    executors: Mapping[str, ComponentSpec]
    runtimes: Mapping[str, ComponentSpec]
    runtime_aliases: Mapping[str, str]
    device_types: Mapping[str, int]


def _components(data: Mapping[str, Any]) -> Mapping[str, ComponentSpec]:
    return MappingProxyType({
        name: ComponentSpec(name, MappingProxyType({
            attr: OptionSpec(attr, parse_type(spec["type"]), spec.get("default", _MISSING))
            for attr, spec in entry["attrs"].items()}), entry["source"])
        for name, entry in data.items()
    })


@functools.cache
def facts() -> ConfigFacts:
    data = json.loads(data_text("compilation.json"))
    return ConfigFacts(
        executors=_components(data["executors"]),
        runtimes=_components(data["runtimes"]),
        runtime_aliases=MappingProxyType(dict(data["runtime_aliases"])),
        device_types=MappingProxyType(dict(data["device_types"])),
    )
