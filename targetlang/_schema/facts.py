"""The schema of a dialect: its kinds, their attributes and defaults, and its tags.

The facts of a release live in one file, ``targetlang/_data/releases/tvm-0.N.json``,
generated from the oracle or TVM's git history by ``scripts/generate_releases.py``; this module
only loads them (lazily, once) and gives them types. Which dialects exist, and how each reads text, is the registry's business
(``targetlang/_lower/dialects.py``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from .resources import data_text
from .types import AttrType, parse_type

#: Config fields that are not attributes: TVM's FromConfig takes them out first.
#: (``tag``, ``keys`` and ``host`` are also registered as options of every kind.)
FIELDS = ("kind", "tag", "keys", "host")

_MISSING: Any = object()


# (The specs are named tuples: a dataclass costs ``import targetlang`` ten times as much to
# define, and the package defines them on import.)
class AttrSpec(NamedTuple):
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
        return self.type.element if self.type.is_array else None


class KindSpec(NamedTuple):
    """A target kind: its attributes, default keys and DLPack device type, and the
    defaults of its attributes (made by ``of``)."""

    name: str
    device_type: int
    default_keys: tuple[str, ...]
    attrs: Mapping[str, AttrSpec]
    defaults: Mapping[str, Any]

    @classmethod
    def of(cls, name: str, device_type: int, default_keys: tuple[str, ...],
           attrs: Mapping[str, AttrSpec]) -> KindSpec:
        """The kind with these attributes, their registered defaults taken from them."""
        defaults = {a.name: a.default for a in attrs.values() if a.has_default}
        return cls(name, device_type, default_keys, attrs, MappingProxyType(defaults))


class DialectRules(NamedTuple):
    """How a release read targets, where it differs from TVM 0.21 (the default of every field).

    ``default_keys_always``: the kind's default keys follow the user's ``-keys`` too (TVM
    0.6 and 0.8); ``feature_keys``: TargetJSON may carry the derived ``feature.*`` keys that
    TVM 0.27's ``export()`` writes (they are read and ignored); ``quoting``: legacy text has
    quotes and escapes (TVM 0.6's words are taken literally); ``tag_overrides``: a config
    without ``kind`` may name a tag and override its members (``{"tag":
    "nvidia/jetson-orin-nano", "max_num_threads": 512}``, TVM 0.24 and later); ``int_bits``:
    integers in text are C++ ``int`` (32) before 0.21; ``true_false_words``: an integer
    attribute reads ``true``/``false`` (not in 0.7); ``mkldnn_to_dnnl``: the Python wrapper
    rewrites ``-libs=mkldnn`` (0.9 and later); ``device_query_nulls``: ``-from_device`` on
    a CPU kind sets every unset attribute to null (0.21 to 0.23; before and after, the query
    kept only non-null answers, so the CPU's none leave the target as it was); ``old_ffi``:
    TargetJSON values went through the FFI before 0.21's rewrite (an int attribute refuses a
    bool and a bool one an int, a null target is refused, 2**63 to 2**64-1 wrap to int64);
    ``nul_ends``: where a NUL character cuts a string on its way into C++: ``"text"`` (the
    whole text, and every string of a config: ``std::string(char*)``), ``"word"`` (TVM 0.6's
    Python wrapper split the text into words and handed over each one), ``"never"`` (TVM
    0.24+: strings keep their length); ``null_targets``: a target value (a host, a composite
    device) may be null, as TVM 0.21 to 0.27 keep it (TVM TIRx refuses it).
    """

    default_keys_always: bool = False
    feature_keys: bool = False
    quoting: bool = True
    tag_overrides: bool = False
    int_bits: int = 64
    true_false_words: bool = True
    mkldnn_to_dnnl: bool = True
    device_query_nulls: bool = True
    old_ffi: bool = False
    nul_ends: str = "text"
    null_targets: bool = True


class DialectSchema(NamedTuple):
    """The facts of one dialect (kinds and tags, as generated from its TVM release), with
    what the lowering needs of its registered dialect: rules, reader and hooks.

    ``reader`` reads a text as the release did (None: TVM 0.21's ``FromString``); ``hooks``
    are the kinds' target-parser hooks the release ran (``_lower.hooks.Hook``).
    """

    name: str
    source: str
    kinds: Mapping[str, KindSpec]
    tag_configs: Mapping[str, Mapping[str, Any]]
    llvm_version: int | None
    rules: DialectRules
    reader: Any
    hooks: Mapping[str, Any]
    #: the one-pass plans by kind (``_lower/plan.py`` makes them on first use; a dict of
    #: the schema's own, given empty); not a fact
    plans: dict[str, Any]


def _kind(name: str, data: Mapping[str, Any]) -> KindSpec:
    attrs = {
        attr: AttrSpec(attr, parse_type(spec["type"]), spec.get("default", _MISSING))
        for attr, spec in data["attrs"].items()
    }
    return KindSpec.of(name, data["device_type"], tuple(data["default_keys"]),
                       MappingProxyType(attrs))


@functools.cache
def data_json(file_name: str) -> dict[str, Any]:
    """A data file of ``targetlang/_data/`` as JSON, read once (a path: that file)."""
    if ("/" in file_name or "\\" in file_name) and not file_name.startswith("releases/"):
        from pathlib import Path  # on first use: a dialect registered from outside the package

        data: dict[str, Any] = json.loads(Path(file_name).read_text("utf-8"))
        return data
    loaded: dict[str, Any] = json.loads(data_text(file_name))
    return loaded


def schema_from_data(name: str, file_name: str, rules: DialectRules, reader: Any,
                     hooks: Mapping[str, Any]) -> DialectSchema:
    """The facts of the dialect ``name`` from its data file."""
    data = data_json(file_name)
    kinds = {kind: _kind(kind, spec) for kind, spec in data["kinds"].items()}
    # The release files (releases/tvm-0.N.json) cite each tag's source beside its config.
    tags = {tag: spec["config"] if "config" in spec else spec for tag, spec in data["tags"].items()}
    return DialectSchema(name=name, source=data["source"], kinds=MappingProxyType(kinds),
                         tag_configs=MappingProxyType(tags),
                         llvm_version=data.get("llvm_version"), rules=rules, reader=reader,
                         hooks=MappingProxyType(dict(hooks)), plans={})


def schema_extended(name: str, base: DialectSchema, extra_attrs: tuple[AttrSpec, ...]
                    ) -> DialectSchema:
    """The facts of ``base`` with ``extra_attrs`` added to every kind (an extension)."""
    kinds = {
        kind_name: KindSpec.of(kind.name, kind.device_type, kind.default_keys, MappingProxyType(
            {**kind.attrs, **{a.name: a for a in extra_attrs}}))
        for kind_name, kind in base.kinds.items()
    }
    return DialectSchema(name=name, source=f"{base.source}; extended as {name}",
                         kinds=MappingProxyType(kinds), tag_configs=base.tag_configs,
                         llvm_version=base.llvm_version, rules=base.rules, reader=base.reader,
                         hooks=base.hooks, plans={})
