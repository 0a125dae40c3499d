"""The schema of a dialect: its kinds, their attributes and defaults, and its tags.

The facts live in ``targetlang/_data/<dialect>.json``, generated from the oracle by
``scripts/generate_schema.py``; this module only loads them (lazily, once) and gives
them types.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

AttrType = Literal["int", "bool", "str", "target", "array<str>", "array<target>"]

#: Config fields that are not attributes: TVM's FromConfig takes them out first.
#: (``tag``, ``keys`` and ``host`` are also registered as options of every kind.)
FIELDS = ("kind", "tag", "keys", "host")

_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class AttrSpec:
    """One attribute of a kind: its name, type and registered default (if any)."""

    name: str
    type: AttrType
    default: Any = _MISSING

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING

    @property
    def element_type(self) -> AttrType | None:
        """For an array, the type of its items."""
        if self.type.startswith("array<"):
            return self.type[6:-1]  # type: ignore[return-value]
        return None


@dataclass(frozen=True, slots=True)
class KindSpec:
    """A target kind: its attributes, default keys and DLPack device type."""

    name: str
    device_type: int
    default_keys: tuple[str, ...]
    attrs: Mapping[str, AttrSpec]

    @property
    def defaults(self) -> dict[str, Any]:
        return {a.name: a.default for a in self.attrs.values() if a.has_default}


@dataclass(frozen=True, slots=True)
class DialectSchema:
    """Kinds and tags of one dialect, as generated from its TVM release."""

    name: str
    source: str
    kinds: Mapping[str, KindSpec]
    tag_configs: Mapping[str, Mapping[str, Any]]
    llvm_version: int | None


def _kind(name: str, data: Mapping[str, Any]) -> KindSpec:
    attrs = {
        attr: AttrSpec(attr, spec["type"], spec.get("default", _MISSING))
        for attr, spec in data["attrs"].items()
    }
    return KindSpec(name, data["device_type"], tuple(data["default_keys"]), MappingProxyType(attrs))


@functools.cache
def load(dialect: str) -> DialectSchema:
    """The schema of ``dialect`` (raises KeyError for an unknown one)."""
    try:
        raw = resources.files("targetlang").joinpath("_data").joinpath(f"{dialect}.json").read_text("utf-8")
    except FileNotFoundError:
        raise KeyError(dialect) from None
    data = json.loads(raw)
    kinds = {name: _kind(name, spec) for name, spec in data["kinds"].items()}
    return DialectSchema(
        name=data["dialect"],
        source=data["source"],
        kinds=MappingProxyType(kinds),
        tag_configs=MappingProxyType(data["tags"]),
        llvm_version=data.get("llvm_version"),
    )
