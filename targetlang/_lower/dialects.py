"""The dialect registry: every dialect is one registered :class:`Dialect`, looked up by name.

A dialect is its facts (a data file of ``targetlang/_data/``, or a base dialect plus
attributes), its rules (:class:`~targetlang._schema.DialectRules`), its reader (None: TVM
0.21's ``FromString``) and the target-parser hooks its release ran. Adding a release is one
data file, plus, where the release read text differently, one small module with its reader
or hooks, and one ``register(Dialect(...))`` below. Nothing else changes: ``parse``,
``dialects()``, the CLI, ``lint``, ``explain`` and ``migrate`` find it here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from .._schema.facts import (
    AttrSpec,
    DialectRules,
    DialectSchema,
    data_json,
    schema_extended,
    schema_from_data,
)
from .._schema.types import STR
from .arm import RELEASE_FILES
from .hooks import HOOK_CUDA_TIRX, HOOKS_027, TARGET_PARSERS, Hook, cpu_hooks, cpu_hooks_tirx

if TYPE_CHECKING:
    from ..target import Target
    from .core import Context, Place

__all__ = ["DIALECTS", "Dialect", "dialect_extends", "families", "load", "newest_release",
           "reads_like", "register", "release_of", "releases", "renamed_attribute",
           "unregister"]

if TYPE_CHECKING:  # (typing's aliases cost start-up time when built at run time)
    #: A release's text reader: the text, the read's context and where the text sits.
    Reader = Callable[[str, Context, Place], Target]


_SAME_AS_0_21 = DialectRules()


class Dialect:
    """One dialect: facts, rules, reader and hooks.

    ``data_file`` names its facts in ``targetlang/_data/`` (or a path); an extension has a
    ``base`` dialect and ``extra_attrs`` for every kind instead (the Collage proposal's
    ``compiler``). ``release`` is the TVM version a release dialect stands for (None for
    an extension): ``detect_dialect`` tries releases newest first. ``product`` is ``"tvm"``
    for TVM's own releases; another product with its own copy of TVM's target model (TVM
    TIRx) is a release too, whose ``release`` places its code after the TVM release it
    continues (TIRx 0.1 continues 0.27: ``(0, 27, 1)``), where releases compare by code
    (renamed attributes, the JSON-only era, database formats); it is tried after TVM's
    releases and is never the default :func:`newest_release`. ``hooks`` are the kinds'
    target-parser hooks the release ran (default: TVM 0.21's). ``family`` names the newest
    release of the consecutive releases that read targets alike (they may differ in tags): by
    default what ``releases/families.json`` says (read on first use), else the dialect itself.

    (A plain slotted class: a dataclass would cost ``import targetlang`` more.)
    """

    __slots__ = ("name", "description", "data_file", "base", "extra_attrs", "release", "rules",
                 "reader", "hooks", "product", "_family")

    def __init__(self, name: str, description: str, *, data_file: str | None = None,
                 base: str | None = None, extra_attrs: tuple[AttrSpec, ...] = (),
                 release: tuple[int, ...] | None = None, rules: DialectRules = _SAME_AS_0_21,
                 reader: Reader | None = None, hooks: Mapping[str, Hook] = TARGET_PARSERS,
                 family: str | None = None, product: str = "tvm") -> None:
        self.name = name
        self.description = description
        self.data_file = data_file
        self.base = base
        self.extra_attrs = extra_attrs
        self.release = release
        self.rules = rules
        self.reader = reader
        self.hooks = hooks
        self.product = product
        self._family = family

    @property
    def family(self) -> str:
        if self._family is None:
            self._family = _data_families().get(self.name, self.name)
        return self._family

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"


_REGISTRY: dict[str, Dialect] = {}

#: Every registered dialect by name (a read-only view of the registry).
DIALECTS: Mapping[str, Dialect] = MappingProxyType(_REGISTRY)


def register(dialect: Dialect) -> Dialect:
    """Add ``dialect`` to the registry (its name must be new)."""
    if dialect.name in _REGISTRY:
        raise ValueError(f"dialect {dialect.name!r} is already registered")
    if (dialect.data_file is None) == (dialect.base is None):
        raise ValueError("a dialect has either its own data file or a base dialect")
    _REGISTRY[dialect.name] = dialect
    return dialect


def unregister(name: str) -> None:
    """Remove a dialect (for tests that register one of their own)."""
    del _REGISTRY[name]
    load.cache_clear()


@functools.cache
def load(name: str) -> DialectSchema:
    """The facts of dialect ``name``, with its rules, reader and hooks (KeyError: unknown)."""
    dialect = _REGISTRY[name]
    if dialect.base is not None:
        return schema_extended(name, load(dialect.base), dialect.extra_attrs)
    assert dialect.data_file is not None
    return schema_from_data(name, dialect.data_file, dialect.rules, dialect.reader,
                            dialect.hooks)


@functools.cache
def _data_families() -> dict[str, str]:
    """Each release named in ``releases/families.json``'s reader families -> its family."""
    data = data_json("releases/families.json")
    return {release: group["family"] for group in data["reader_families"]
            for release in group["releases"]}


def releases() -> list[str]:
    """The release dialects, TVM's newest first, then other products' (TVM TIRx), newest
    first (extensions such as ``collage`` left out)."""
    found = [d for d in _REGISTRY.values() if d.release is not None]
    ordered = sorted(found, key=lambda d: d.release or (), reverse=True)
    return [d.name for d in sorted(ordered, key=lambda d: d.product != "tvm")]


def families() -> dict[str, tuple[str, ...]]:
    """Each release family (named by its newest release), newest first, with its releases."""
    found: dict[str, list[str]] = {}
    for name in releases():
        found.setdefault(_REGISTRY[name].family, []).append(name)
    return {family: tuple(reversed(names)) for family, names in found.items()}


def newest_release() -> str:
    """The newest TVM release the library knows: the default dialect ``migrate`` and the
    upgrade tools write (``tvm-0.27`` today; a newer release registered takes its place,
    another product's does not)."""
    return releases()[0]


def renamed_attribute(kind: str, name: str, source: str, target: str) -> str | None:
    """What attribute ``name`` of ``kind`` in dialect ``source`` is called in ``target``: the
    renames the releases in between record in their data (``"renamed": {KIND: {old: new}}``),
    chained; None when no release between them renamed it."""
    start, end = release_of(source), release_of(target)
    if start is None or end is None:
        return None
    renamed = None
    for dialect in reversed(releases()):  # oldest first
        definition = _REGISTRY[dialect]
        if not start < (definition.release or ()) <= end or definition.data_file is None:
            continue
        new = data_json(definition.data_file).get("renamed", {}).get(kind, {}).get(renamed or name)
        if new is not None:
            renamed = new
    return renamed


def release_of(dialect: str) -> tuple[int, ...] | None:
    """The release a dialect stands for (an extension: its base's)."""
    definition = _REGISTRY.get(dialect)
    while definition is not None and definition.release is None and definition.base:
        definition = _REGISTRY.get(definition.base)
    return definition.release if definition is not None else None


def reads_like(name: str) -> dict[str, object]:
    """How the registered dialect ``name`` reads targets (rules, reader, hooks), as keyword
    arguments of :class:`Dialect`: a new release that reads like an older one says so."""
    dialect = _REGISTRY[name]
    return {"rules": dialect.rules, "reader": dialect.reader, "hooks": dialect.hooks}


def dialect_extends(dialect: str, base: str) -> bool:
    """Whether ``dialect`` is ``base`` or is built on it (through ``Dialect.base``)."""
    current: str | None = dialect
    while current is not None:
        if current == base:
            return True
        definition = _REGISTRY.get(current)
        current = definition.base if definition is not None else None
    return False


def _release_reader(name: str) -> Reader:
    """The reader ``name`` of ``_lower/releases.py``, imported when a text of its release is
    read."""
    def read(text: str, ctx: Context, place: Place) -> Target:
        from . import releases  # on first use: most programs read only TVM 0.21 text

        reader: Reader = getattr(releases, name)
        return reader(text, ctx, place)

    return read


def _only(*kinds: str) -> Mapping[str, Hook]:
    return MappingProxyType({k: h for k, h in TARGET_PARSERS.items() if k in kinds})


# ---- the registered dialects, newest TVM release family first within each group ----------

# TVM 0.24+ hand strings to C++ with their length: a NUL no longer ends one.
_JSON_ONLY = DialectRules(feature_keys=True, tag_overrides=True, device_query_nulls=False,
                          nul_ends="never")
_HOOKS_JSON = MappingProxyType({**TARGET_PARSERS, **HOOKS_027})  # 0.24 added webgpu's


def _json_hooks(name: str) -> Mapping[str, Hook]:
    """A JSON release's hooks: 0.24's, the CPU parser asking that release's LLVM."""
    return MappingProxyType({**_HOOKS_JSON, **cpu_hooks(RELEASE_FILES[name])})


def _release(n: int, description: str, **how: object) -> None:
    """Register ``tvm-0.<n>`` with its facts in ``releases/tvm-0.<n>.json``."""
    register(Dialect(f"tvm-0.{n}", description, data_file=f"releases/tvm-0.{n}.json",
                     release=(0, n), **how))  # type: ignore[arg-type]


register(Dialect(
    "tirx-0.1", "TVM TIRx 0.1 (apache-tvm-tirx, imported as tvm_tirx): TargetJSON only as "
    "tvm-0.27, its own options (cuda backend_config; no llvm jit; no sm_50 for a cuda target "
    "without a GPU)", data_file="releases/tirx-0.1.json", release=(0, 27, 1),
    product="tirx", rules=_JSON_ONLY._replace(null_targets=False), reader=_release_reader("read_027"),
    hooks=MappingProxyType({**_HOOKS_JSON, "cuda": HOOK_CUDA_TIRX,
                            **cpu_hooks_tirx(RELEASE_FILES["tirx-0.1"],
                                             "releases/tirx-0.1.json")})))
_release(27, "TVM 0.27: TargetJSON only (also a bare kind name, a tag or {\"tag\": ..., "
         "<overrides>}), feature.* keys; the newest release, what migrate() writes",
         rules=_JSON_ONLY, reader=_release_reader("read_027"), hooks=_json_hooks("tvm-0.27"))
for _n in (26, 25):
    _release(_n, f"TVM 0.{_n}: TargetJSON only, the kinds and tags of 0.{_n} (from its oracle)",
             rules=_JSON_ONLY, reader=_release_reader("read_027"),
             hooks=_json_hooks(f"tvm-0.{_n}"))
_release(24, "TVM 0.24, the first JSON-only release (transcribed from git; not on PyPI)",
         rules=_JSON_ONLY, reader=_release_reader("read_027"), hooks=_json_hooks("tvm-0.24"))
_release(23, "TVM 0.23, the last release that reads legacy target strings: tvm-0.22 plus "
         "opencl texture_depth_limit (transcribed from git)")
_release(22, "TVM 0.22: tvm-0.21 without kind hybrid, with one more CUDA tag (transcribed "
         "from git)")
_release(21, "TVM 0.21, the newest legacy-string release on PyPI (0.22 and 0.23 differ only "
         "as tvm-0.22/tvm-0.23 say); the default")
_INT32 = DialectRules(int_bits=32, device_query_nulls=False, old_ffi=True)  # before 0.21
for _n in range(20, 9, -1):
    _release(_n, f"TVM 0.{_n}: legacy strings with 32-bit integers, the kinds and tags of "
             f"0.{_n}" + (" (checked against its oracle)" if _n == 19 else " (from git)"),
             rules=_INT32)
_release(9, "TVM 0.9 (from git): tvm-0.8's reading plus -libs=mkldnn, the cuda preprocessor, "
         "kinds of 0.9", rules=DialectRules(default_keys_always=True, int_bits=32,
                                             device_query_nulls=False, old_ffi=True),
         reader=_release_reader("read_08"), hooks=_only("cuda", "nvptx", "rocm"))
_release(8, "TVM 0.8 (source-transcribed): llvm/c/cuda targets carry -executor, -runtime, "
         "-link-params, -system-lib, -interface-api, -unpacked-api; default keys follow -keys",
         rules=DialectRules(default_keys_always=True, int_bits=32, mkldnn_to_dnnl=False,
                            device_query_nulls=False, old_ffi=True),
         reader=_release_reader("read_08"), hooks=_only("nvptx", "rocm"))
_release(7, "TVM 0.7 (from git): the first Target registry; no true/false for integers",
         rules=DialectRules(default_keys_always=True, int_bits=32, true_false_words=False,
                            mkldnn_to_dnnl=False, device_query_nulls=False, old_ffi=True),
         reader=_release_reader("read_08"), hooks=_only("nvptx", "rocm"))
_release(6, "TVM 0.6 (source-transcribed), the TopHub era: -key=value words, -target= is "
         "LLVM's -mtriple=, no tags, hosts or quoting",
         rules=DialectRules(default_keys_always=True, quoting=False, mkldnn_to_dnnl=False,
                            device_query_nulls=False, old_ffi=True, nul_ends="word"),
         reader=_release_reader("read_06"), hooks=_only())
register(Dialect(
    "collage", "tvm-0.21 plus the Collage proposal: every kind has a 'compiler' string "
    "attribute naming the backend (cuda -compiler=tensorrt)",
    base="tvm-0.21", extra_attrs=(AttrSpec("compiler", STR),)))
