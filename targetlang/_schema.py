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
class DialectRules:
    """How a release read targets, where it differs from TVM 0.21 (the default of every field).

    ``reader`` names the text reader of ``targetlang/_dialects_legacy.py`` (None: TVM 0.21's
    grammar and ``FromString``); ``target_parsers`` the kinds whose target parser runs (None:
    every kind that has one); ``own_parsers`` the kinds whose parser is the release's own
    (``_dialects_legacy.release_parser``), not TVM 0.21's; ``default_keys_always``: the kind's default keys follow the
    user's ``-keys`` too (TVM 0.6 and 0.8); ``feature_keys``: TargetJSON may carry the derived
    ``feature.*`` keys that TVM 0.27's ``export()`` writes (they are read and ignored);
    ``queried_nulls``: ``from_device`` on a CPU kind sets every attribute not given to null
    (TVM 0.21's QueryDevice; from TVM 0.24 on they simply stay unset); ``nul_ends``: where a
    NUL character cuts a string on its way into C++: ``"text"`` (the whole text, and every
    string of a config: ``std::string(char*)``), ``"word"`` (TVM 0.6's Python wrapper split
    the text into words and handed over each one), ``"never"`` (TVM 0.24+: strings keep
    their length).
    """

    reader: str | None = None
    target_parsers: frozenset[str] | None = None
    own_parsers: frozenset[str] = frozenset()
    default_keys_always: bool = False
    feature_keys: bool = False
    queried_nulls: bool = True
    nul_ends: str = "text"

    def runs_parser(self, kind: str) -> bool:
        return self.target_parsers is None or kind in self.target_parsers


@dataclass(frozen=True, slots=True)
class DialectSchema:
    """Kinds and tags of one dialect, as generated from its TVM release."""

    name: str
    source: str
    kinds: Mapping[str, KindSpec]
    tag_configs: Mapping[str, Mapping[str, Any]]
    llvm_version: int | None
    rules: DialectRules = DialectRules()


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
    ``compiler``). ``release`` is the TVM version a release dialect stands for (None for an
    extension such as ``collage``): ``detect_dialect`` tries releases newest first.
    """

    name: str
    description: str
    data_file: str | None = None
    base: str | None = None
    extra_attrs: tuple[AttrSpec, ...] = ()
    rules: DialectRules = DialectRules()
    release: tuple[int, ...] | None = None


#: Every dialect targetlang knows, newest TVM release family first within each group.
DIALECTS: Mapping[str, DialectDef] = MappingProxyType({
    d.name: d for d in (
        DialectDef("tvm-0.27", "TVM 0.24 to 0.27: TargetJSON only (also a bare kind name or a "
                   "tag), feature.* keys, kinds cuda_host and trn; what migrate() writes",
                   data_file="tvm-0.27.json",
                   rules=DialectRules(reader="tvm-0.27", feature_keys=True,
                                      own_parsers=frozenset({"webgpu"}), queried_nulls=False,
                                      nul_ends="never"),
                   release=(0, 27)),
        DialectDef("tvm-0.23", "TVM 0.23, the last release that reads legacy target strings: "
                   "tvm-0.22 plus opencl texture_depth_limit (transcribed from git)",
                   data_file="tvm-0.23.json", release=(0, 23)),
        DialectDef("tvm-0.22", "TVM 0.22: tvm-0.21 without kind hybrid, with one more CUDA tag "
                   "(transcribed from git)", data_file="tvm-0.22.json", release=(0, 22)),
        DialectDef("tvm-0.21", "TVM 0.21, the newest legacy-string release on PyPI (0.22 and "
                   "0.23 differ only as tvm-0.22/tvm-0.23 say); the default",
                   data_file="tvm-0.21.json", release=(0, 21)),
        DialectDef("tvm-0.8", "TVM 0.8 (source-transcribed): llvm/c/cuda targets carry "
                   "-executor, -runtime, -link-params, -system-lib, -interface-api, "
                   "-unpacked-api; default keys follow -keys",
                   data_file="tvm-0.8.json", release=(0, 8),
                   rules=DialectRules(reader="tvm-0.8", default_keys_always=True,
                                      target_parsers=frozenset({"nvptx", "rocm"}))),
        DialectDef("tvm-0.6", "TVM 0.6 (source-transcribed), the TopHub era: -key=value words, "
                   "-target= is LLVM's -mtriple=, no tags, hosts or quoting",
                   data_file="tvm-0.6.json", release=(0, 6),
                   rules=DialectRules(reader="tvm-0.6", default_keys_always=True,
                                      target_parsers=frozenset(), nul_ends="word")),
        DialectDef("collage", "tvm-0.21 plus the Collage proposal: every kind has a 'compiler' "
                   "string attribute naming the backend (cuda -compiler=tensorrt)",
                   base="tvm-0.21", extra_attrs=(AttrSpec("compiler", "str"),)),
    )
})


def releases() -> list[str]:
    """The release dialects, newest first (extensions such as ``collage`` left out)."""
    found = [d for d in DIALECTS.values() if d.release is not None]
    return [d.name for d in sorted(found, key=lambda d: d.release or (), reverse=True)]


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
                             llvm_version=base.llvm_version, rules=base.rules)
    assert definition.data_file is not None
    data = _read(definition.data_file)
    kinds = {name: _kind(name, spec) for name, spec in data["kinds"].items()}
    return DialectSchema(
        name=dialect,
        source=data["source"],
        kinds=MappingProxyType(kinds),
        tag_configs=MappingProxyType(data["tags"]),
        llvm_version=data.get("llvm_version"),
        rules=definition.rules,
    )
