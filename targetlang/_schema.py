"""The schema of a dialect: its kinds, their attributes and defaults, and its tags.

The facts live in ``targetlang/_data/<dialect>.json``, generated from the oracle by
``scripts/generate_schema.py``; this module only loads them (lazily, once) and gives
them types.
"""

from __future__ import annotations

from ._resources import data_text

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    defaults: Mapping[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        defaults = {a.name: a.default for a in self.attrs.values() if a.has_default}
        object.__setattr__(self, "defaults", MappingProxyType(defaults))


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


@dataclass(frozen=True, slots=True)
class DialectDef:
    """How a dialect is made: from its own data file, or from a base dialect plus additions.

    ``extra_attrs`` adds attributes to every kind of the base (the Collage proposal's
    ``compiler``).
    """

    name: str
    description: str
    data_file: str | None = None
    base: str | None = None
    extra_attrs: tuple[AttrSpec, ...] = ()


#: Every dialect targetlang knows, newest TVM release family first within each group.
DIALECTS: Mapping[str, DialectDef] = MappingProxyType({
    d.name: d for d in (
        DialectDef("tvm-0.21", "TVM 0.21 (also 0.22, 0.23): the last releases that read legacy "
                   "target strings; the default", data_file="tvm-0.21.json"),
        DialectDef("collage", "tvm-0.21 plus the Collage proposal: every kind has a 'compiler' "
                   "string attribute naming the backend (cuda -compiler=tensorrt)",
                   base="tvm-0.21", extra_attrs=(AttrSpec("compiler", "str"),)),
    )
})


def _read(file_name: str) -> dict[str, Any]:
    raw = data_text(file_name)
    data: dict[str, Any] = json.loads(raw)
    return data


@functools.cache
def load(dialect: str) -> DialectSchema:
    """The schema of ``dialect`` (raises KeyError for an unknown one)."""
    definition = DIALECTS[dialect]
    if definition.base is not None:
        base = load(definition.base)
        kinds = {
            name: KindSpec(kind.name, kind.device_type, kind.default_keys, MappingProxyType(
                {**kind.attrs, **{a.name: a for a in definition.extra_attrs}}))
            for name, kind in base.kinds.items()
        }
        return DialectSchema(name=dialect, source=f"{base.source}; extended as {dialect}",
                             kinds=MappingProxyType(kinds), tag_configs=base.tag_configs,
                             llvm_version=base.llvm_version)
    assert definition.data_file is not None
    data = _read(definition.data_file)
    kinds = {name: _kind(name, spec) for name, spec in data["kinds"].items()}
    return DialectSchema(
        name=dialect,
        source=data["source"],
        kinds=MappingProxyType(kinds),
        tag_configs=MappingProxyType(data["tags"]),
        llvm_version=data.get("llvm_version"),
    )
