"""Components: known processors and accelerators, each a target plus what is said of it.

``component(name)`` looks a name up in the component database of a dialect:

* every registered tag of the dialect (``nvidia/geforce-rtx-3080``, ``raspberry-pi/4b-aarch64``);
* the boards and phones of TVM's ``arm_cpu(model)`` as ``arm_cpu/<model>`` (``arm_cpu/rasp3b``,
  ``arm_cpu/pixel2``): the target ``tvm.target.arm_cpu(model)`` built;
* GPU products with their architecture, from NVIDIA's tables (CUTLASS's hardware list, and
  NVIDIA's CUDA GPUs list as Ollama's documentation transcribes it) and AMD's ROCm
  specifications (``NVIDIA H200`` is ``cuda -arch=sm_90``, ``AMD Instinct MI250X`` is
  ``rocm -mcpu=gfx90a``); a product that is also a tag of the dialect is that tag;
* the products of NVIDIA's driver table (the names ``nvidia-smi`` prints: ``NVIDIA H800``,
  ``NVIDIA GeForce RTX 3060 Laptop GPU``) no tag or product above names, with the
  architecture of their chip (``pci.ids``); AMD's product names of each processor in TheRock
  and the AMD products ``pci.ids`` names for a chip of one processor;
* every AMDGPU processor LLVM knows (``gfx90a``; its aliases, ``tahiti``, are names of it) and
  every CUDA compute capability of the tables (``sm_86``): a GPU known by its architecture
  only is that architecture's component;
* CPU names LLVM knows: an AArch64 CPU (``cortex-a72``) is ``llvm -mtriple=aarch64-linux-gnu
  -mcpu=...``, an x86 CPU (``skylake``) ``llvm -mtriple=x86_64-linux-gnu -mcpu=...``, an
  AArch32-only A-profile CPU (``cortex-a9``) ``llvm -mtriple=armv7l-linux-gnueabihf
  -mcpu=...`` -- the triples of TVM's own Linux board presets. A CPU LLVM knows for both
  AArch64 and Arm reads as AArch64; ``generic`` names no CPU. Give ``-mtriple`` yourself
  (``parse``) for another OS. Apple's chips are Macs' CPUs (``Apple M1``, and LLVM's
  ``apple-m1``, the same name): the CPU LLVM lists for them on the triple of TVM's Apple
  tags' host.

The facts come from ``_data/components.json`` (``scripts/generate_components.py``) and
``_data/devices.json`` (``scripts/generate_devices.py``), each row with its source, and the
dialect's tags.

Names are matched without regard to case, spaces, ``-`` and ``_``, in three rounds; the first
round that finds something decides, and finding two components there is an ambiguity:

1. the full name: a tag (``nvidia/nvidia-a100``), a product (``NVIDIA H200``), a CPU;
2. shorter names: a tag without its namespace (``jetson orin nano``) or with only its
   vendor (``AWS c5.xlarge``), a name without its leading brand words
   (:data:`BRAND_WORDS`: ``A100``, ``rtx 3080``, ``MI250X``), a product without the variant
   in parentheses (``MI50`` for both ``MI50 (16GB)`` and ``MI50 (32GB)``), a board without
   the instruction set its tag ends with (``raspberry pi 4b``);
3. a board's model without its revision letter (``raspberry pi 4`` for ``4b``);
4. a name as a machine prints it (``nvidia-smi``, ``torch.cuda.get_device_name()``,
   ``rocminfo``, ``/proc/cpuinfo``, ``sysctl machdep.cpu.brand_string``,
   ``/proc/device-tree/model``): read by :data:`PRINTED_NAME_RULES` -- trademarks, what the
   tool adds, form factor and memory -- and without its leading brand words (``Tesla
   V100-SXM2-16GB`` is ``nvidia/nvidia-v100``); then a product named without the variant
   words of its tags (``NVIDIA Jetson AGX Orin`` lists its 32GB and 64GB tags), words held in
   several names (``Orin``: refused, listing them), one of rocminfo's ``A/B`` names, or an AMD
   architecture unknown to LLVM (refused, listing the products that have it), or a
   system-on-chip's GPU named by the chip (``Orin``: the GPU of every Jetson board of it,
   whose boards differ only in their hosts); then, for a name no table lists, the vendors'
   naming schemes (``targetlang.configuration.device_names``): a PCI device name (``Navi 21
   [Radeon RX 6800/6800 XT / 6900 XT]``), an NVIDIA laptop part, an x86 CPU by its model
   number (``Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz`` is ``skylake-avx512``), an Apple
   chip's CPU (``Apple M1 Max``), an Arm CPU by its MIDR (``CPU part : 0xd0c``), by its core
   as lscpu names it (``Kunpeng-920``) or by its product line (``AWS Graviton2``).

Names that denote the same target are not ambiguous (``one_target`` says which one is
the answer); a name that could be two targets is refused, never guessed.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Union

from .._equality import EqualAsJson
from .._schema.resources import data_text
from ..errors import ConfigError, TargetError, json_path, type_name
from ..target import DEFAULT_DIALECT, Target, from_json, parse, tags
from .device_names import (
    ARM_PRODUCTS,
    ARM_VENDOR_WORDS,
    apple_chip,
    arm_words,
    cpu_fields,
    laptop_base,
    midr_fields,
    pci_chip,
    pci_device_name,
    why_no_architecture,
    x86_microarchitecture,
)

__all__ = ["AmbiguousComponentError", "BRAND_WORDS", "Component", "ComponentLike",
           "UnknownComponentError", "component", "component_names"]

#: Words that lead product names without naming the product: vendors and product lines.
BRAND_WORDS = ("nvidia", "amd", "apple", "aws", "geforce", "quadro", "tesla", "radeon", "pro",
               "instinct", "jetson")
#: The brand words that are vendors; the others are product lines (``GeForce``, ``Quadro``):
#: a name without its product line may name a product of no line, never one of another
#: (``GeForce 410`` is not the ``Quadro 410``).
_VENDOR_WORDS = ("nvidia", "amd", "apple", "aws")
#: Instruction-set words a board's tag may end with (``raspberry-pi/4b-aarch64``).
_ISA_WORDS = ("aarch64", "arm64", "armv7l", "x86_64", "riscv64")
#: CPU families of the database, in the order that decides a CPU both know.
_CPU_FAMILIES = ("aarch64", "x86_64", "arm")

#: What machines print around a product's name, in stages: ``nvidia-smi`` and
#: ``torch.cuda.get_device_name()`` (``Tesla V100-SXM2-16GB``, ``NVIDIA H100 80GB HBM3``),
#: ``rocminfo`` (``AMD Instinct MI250X/MI250``, ``gfx90a:sramecc+:xnack-``), ``/proc/cpuinfo``
#: and ``lscpu`` (``Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz``), ``sysctl
#: machdep.cpu.brand_string`` (``Apple M2``), ``/proc/device-tree/model`` (``Raspberry Pi 4
#: Model B Rev 1.4``, ``NVIDIA Jetson Nano Developer Kit``). Each stage's patterns are removed
#: (or rewritten) in order, case aside; a name is looked up after each stage in turn, so a
#: stage only matters where the name without it named nothing (``Quadro M6000 24GB`` is a tag
#: of its own before its memory is dropped). What tells products apart -- ``Ti``, ``SUPER``,
#: ``Laptop GPU``, ``with Max-Q Design``, ``Ada Generation``, ``Pro``, ``Max`` -- is no rule.
PRINTED_NAME_RULES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("trademarks", (
        (r"\((?:R|TM)\)|®|™", " "),                     # Intel(R) Core(TM)
    )),
    ("what the tool adds", (
        (r"_", " "),                                     # NVIDIA_A100_80GB: a variable's name
        (r"^(NVIDIA|Tesla|Quadro|GeForce|AMD)-(?=\S+$)", r"\1 "),  # a label: Tesla-V100-SXM2-16GB
        (r"^\d+(?:st|nd|rd|th) Gen\s+", ""),             # 13th Gen Intel Core i9-13950HX
        (r"\s*\bCPU\s*@\s*[\d.]+\s*[GM]Hz$", ""),        # ... CPU @ 2.50GHz
        (r"\s*@\s*[\d.]+\s*[GM]Hz$", ""),                # ... i7-1165G7 @ 2.80GHz
        (r"\s+\d+-Core Processor$", ""),                 # AMD EPYC 7742 64-Core Processor
        (r"\s+(?:CPU|Processor)$", ""),
        (r"\s+Developer Kit$", ""),                      # NVIDIA Jetson Nano Developer Kit
        (r"\s+\(nvgpu\)$", ""),                          # nvidia-smi on a Jetson: its driver
        (r"(?<=\d\w)\s+Graphics$", ""),                  # AMD Radeon(TM) 780M Graphics
        (r"(?<=\d)\s+Series$", ""),                      # Radeon RX 590 Series
        (r"\s+Rev\s+\d+(?:\.\d+)*$", ""),                # Raspberry Pi 4 Model B Rev 1.4
        (r"\bModel\s+(?=[A-Z]\b)", ""),                  # Raspberry Pi 4 Model B
        (r"^amdgcn-amd-amdhsa--", ""),                   # rocminfo's ISA name
        (r"^(gfx[0-9a-f]+)(?::[a-z0-9_]+[+-])+$", r"\1"),  # gfx90a:sramecc+:xnack-
    )),
    ("form factor and memory", (
        (r"\s+MIG\s+\d+g\.\d+gb$", ""),                    # a MIG slice: ... MIG 1g.10gb
        (r"\s+VF$", ""),                                 # an SR-IOV virtual function
        (r"^(?:GRID\s+|(NVIDIA\s+|Tesla\s+))(\S+)-\d+[ABCQ]$", r"\1\2"),  # a vGPU: A10-24Q
        (r"-SHARED$", ""),                               # a GPU shared by time-slicing (GFD)
        (r"^((?:NVIDIA\s+)?Tesla\s+K\d+X?)[mc]$", r"\1"),  # Tesla K40m, K40c: module, card
        (r"[-\s](?:SXM\d*|PCIe|DGXS|FHHL|NVL|PG\d{3}-\d{3})(?=[-\s]|$)", " "),  # -SXM4, PCIe
        (r"[-\s]\d+\s?GB(?=[-\s]|$)", " "),              # -80GB, 80GB
        (r"[-\s]HBM\d?e?(?=[-\s]|$)", " "),              # HBM3
    )),
    ("TVM's spelling", (
        (r"^Raspberry Pi\s*", "rasp"),                   # Raspberry Pi 3 Model B: rasp3b
    )),
)
#: Words a registered variant adds to its product's name (``jetson-agx-orin-32gb``,
#: ``apple/m1-gpu-restricted``, ``geforce-gt-640-gddr5``): a name that stops before them
#: names the product, and its variants are listed.
_VARIANT_WORD = re.compile(r"\d+gb|g?ddr\d|gpu|restricted")
#: A name that is an AMD GPU architecture (``gfx90a``), as rocminfo prints it.
_GFX_NAME = re.compile(r"gfx[0-9a-f]+")


class UnknownComponentError(TargetError):
    """No component of the database has that name (the message lists the closest)."""


class AmbiguousComponentError(TargetError):
    """More than one component has that name (the message lists them)."""


# ---- the value -------------------------------------------------------------------------------

def _plain(value: object, path: str) -> Any:
    """A private, plain-JSON copy of a property value (tuples read as arrays)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ConfigError("a property is plain JSON; not a number is not", path=path)
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, json_path(path, i)) for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ConfigError(f"a property's keys are strings, not {type_name(key)}",
                                  path=path)
            out[key] = _plain(item, json_path(path, key))
        return out
    raise ConfigError(f"a property is plain JSON, not {type_name(value)}", path=path)


def read_properties(value: object, path: str) -> Mapping[str, Any]:
    """Properties as given (a mapping; a string is the OS, as the seed writes ``Linux``)."""
    if value is None:
        return MappingProxyType({})
    if isinstance(value, str):
        value = {"os": value}
    if not isinstance(value, Mapping):
        raise ConfigError(f"properties are an object (or a string: the OS), not "
                          f"{type_name(value)}", path=path)
    out: dict[str, Any] = {}
    for key in sorted(value, key=str):
        where = json_path(path, str(key))
        if not isinstance(key, str) or not key:
            raise ConfigError("a property's name is a non-empty string", path=where)
        out[key] = _plain(value[key], where)
    if "os" in out and not isinstance(out["os"], str):
        raise ConfigError(f"the os property is a string, not {type_name(out['os'])}",
                          path=json_path(path, "os"))
    return MappingProxyType(out)


def _target_text(target: Target) -> str:
    try:
        return target.to_string()
    except TargetError:  # pragma: no cover - canonical text never fails; JSON is its fallback
        return json.dumps(target.to_json(), separators=(",", ":"))


class Component(EqualAsJson):
    """A known processor or accelerator: a name, a :class:`Target`, properties (``os``, ...).

    ``Component(name, target, properties)``: ``target`` is a Target, target text or a
    TargetJSON dict (read in ``dialect``); ``name`` may be None for the target's own text.
    Immutable; ``==`` and ``hash`` follow :meth:`to_json`.
    """

    __slots__ = ("_name", "_target", "_properties", "_identity")

    _name: str
    _target: Target
    _properties: Mapping[str, Any]

    def __init__(self, name: str | None, target: Target | str | Mapping[str, Any],
                 properties: Mapping[str, Any] | str | None = None, *,
                 dialect: str = DEFAULT_DIALECT) -> None:
        if isinstance(target, str):
            target = parse(target, dialect=dialect)
        elif isinstance(target, Mapping):
            target = from_json(target, dialect=dialect)
        elif not isinstance(target, Target):
            raise ConfigError(f"a component's target is a Target, target text or a "
                              f"TargetJSON object, not {type_name(target)}", path="target")
        if name is None:
            name = _target_text(target)
        if not isinstance(name, str) or not name:
            raise ConfigError("a component's name is a non-empty string", path="name")
        self._name = name
        self._target = target
        self._properties = read_properties(properties, "properties")
        self._identity = None

    @property
    def name(self) -> str:
        """The canonical name (a tag, a product as its source writes it, a CPU)."""
        return self._name

    @property
    def target(self) -> Target:
        """The component's target, read in the component's dialect."""
        return self._target

    @property
    def properties(self) -> Mapping[str, Any]:
        """What the architecture says of it besides the target (``{"os": "linux"}``)."""
        return self._properties

    def with_properties(self, properties: Mapping[str, Any] | str | None = None,
                        **more: Any) -> Component:
        """A copy with properties added (a value None removes one)."""
        merged = dict(self._properties)
        for key, value in {**dict(read_properties(properties, "properties")), **more}.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return Component(self._name, self._target, merged)

    @classmethod
    def from_target(cls, target: Target, properties: Mapping[str, Any] | None = None
                    ) -> Component:
        """A component named by its target's canonical text."""
        return cls(None, target, properties)

    def to_json(self) -> dict[str, Any]:
        """``name``, ``dialect`` (when not tvm-0.21), ``target`` and ``properties`` (when set)."""
        out: dict[str, Any] = {"name": self._name}
        if self._target.dialect != DEFAULT_DIALECT:
            out["dialect"] = self._target.dialect
        out["target"] = self._target.to_json()
        if self._properties:
            out["properties"] = json.loads(json.dumps(dict(self._properties)))
        return out

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_identity") and name != "_identity":
            raise AttributeError(f"Component is immutable; cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._name, self._target.to_json(), self._target.dialect,
                           dict(self._properties)))

    def __repr__(self) -> str:
        props = f", {dict(self._properties)!r}" if self._properties else ""
        return f"Component({self._name!r}, {_target_text(self._target)!r}{props})"


def _rebuild(name: str, target: dict[str, Any], dialect: str,
             properties: dict[str, Any]) -> Component:
    return Component(name, from_json(target, dialect=dialect), properties)


#: What reads as a component: a Component, or a name of the database.
ComponentLike = Union[Component, str]


# ---- the database ------------------------------------------------------------------------------

def normal(name: str) -> str:
    """A name without case, spaces, ``-``, ``_`` (and a tag's ``/``): what lookups compare."""
    return re.sub(r"[\s_\-/]+", "", name).casefold()


@dataclass(frozen=True)
class Entry:
    """One component of the database: its name, how it is built, and where it comes from."""

    name: str
    origin: str  # "tag", "product" or "cpu"
    target: Target
    sources: tuple[Mapping[str, Any], ...]
    names: tuple[str, ...]  # round 1
    short_names: tuple[str, ...]  # round 2

    def component(self) -> Component:
        return Component(self.name, self.target, _os_properties(self.target))


def _os_properties(target: Target) -> dict[str, Any]:
    """``{"os": ...}`` where the target's (or its host's) triple names an OS."""
    for t in (target, target.host):
        triple = t.attrs.get("mtriple") if t is not None else None
        if isinstance(triple, str):
            parts = triple.split("-")[1:]
            for word, os_name in (("android", "android"), ("linux", "linux"), ("macos", "macos"),
                                  ("darwin", "macos"), ("windows", "windows")):
                if any(p.startswith(word) for p in parts):
                    return {"os": os_name}
    return {}


def _without_brands(words: list[str]) -> Iterator[str]:
    """Each name left after dropping one or more leading brand words (never all words)."""
    index = 0
    while index < len(words) - 1 and words[index].casefold() in BRAND_WORDS:
        index += 1
        yield normal("".join(words[index:]))


def _tag_short_names(tag: str, target: Target) -> list[str]:
    namespace, _, leaf = tag.rpartition("/")
    words = leaf.split("-")
    found = [normal(leaf), normal(namespace.split("/")[0] + leaf), *_without_brands(words)]
    triple = next((t.attrs.get("mtriple") for t in (target, target.host)
                   if t is not None and isinstance(t.attrs.get("mtriple"), str)), None)
    if len(words) > 1 and words[-1] in _ISA_WORDS and isinstance(triple, str) \
            and triple.startswith(words[-1]):
        found.append(normal(namespace.split("/")[0] + "".join(words[:-1])))
        found.append(normal("".join(words[:-1])))
    return found


def tag_names_index(tag_names: Iterable[str]) -> dict[str, list[str]]:
    """Tags by the names a product table may give them: the tag's last part, alone or after
    its vendor (``geforce-rtx-3080``, ``nvidia geforce rtx 3080``)."""
    index: dict[str, list[str]] = {}
    for tag in tag_names:
        vendor, _, leaf = tag.rpartition("/")
        for key in dict.fromkeys((normal(leaf), normal(vendor.split("/")[0] + leaf))):
            index.setdefault(key, []).append(tag)
    return index


def product_tags(name: str, index: Mapping[str, list[str]]) -> list[str]:
    """The tags a product name names: as written, else without its leading brand words
    (``NVIDIA Quadro P520`` is ``nvidia/p520``)."""
    words = name.split()
    found = index.get(normal(name), [])
    for start in range(1, len(words)):
        if found or words[start - 1].casefold() not in BRAND_WORDS:
            break
        found = index.get(normal("".join(words[start:])), [])
    return list(found)


@functools.cache
def _facts() -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads(data_text("components.json"))
    return data


@functools.cache
def _devices() -> Mapping[str, Any]:
    """The vendors' device tables (``_data/devices.json``, ``scripts/generate_devices.py``)."""
    data: Mapping[str, Any] = json.loads(data_text("devices.json"))
    return data


@dataclass(frozen=True)
class _Database:
    entries: Mapping[str, Entry]
    rounds: tuple[Mapping[str, tuple[str, ...]], Mapping[str, tuple[str, ...]]]
    #: Each tag's and product's names as words (with and without brand words): the variants.
    words: tuple[tuple[tuple[str, ...], str], ...]
    #: AMD products by their architecture (``gfx90a``).
    by_arch: Mapping[str, tuple[str, ...]]
    #: The product-line words of each tag's and product's names (``quadro``).
    lines: Mapping[str, frozenset[str]]

    def fits(self, name: str, dropped: Iterable[str]) -> bool:
        """Whether an entry may be named without the brand words ``dropped``: its names have
        every product line dropped, or none."""
        own = self.lines.get(name, frozenset())
        wanted = {w.casefold() for w in dropped} - set(_VENDOR_WORDS)
        return not own or wanted <= own


def _words(name: str) -> tuple[str, ...]:
    """A name as lower-case words (``-``, ``_``, ``/``, spaces and parentheses part them)."""
    return tuple(w for w in re.split(r"[\s\-_/()]+", name.casefold()) if w)


def _brandless(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The words, then the words without one, two, ... leading brand words (never all)."""
    out = [words]
    while len(words) > 1 and words[0].casefold() in BRAND_WORDS:
        words = words[1:]
        out.append(words)
    return out


def _index(entries: Mapping[str, Entry], attr: str) -> Mapping[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for entry in entries.values():
        for key in getattr(entry, attr):
            if entry.name not in table.setdefault(key, []):
                table[key].append(entry.name)
    return {key: tuple(names) for key, names in table.items()}


@functools.cache
def _database(dialect: str, vendor_tables: bool = True) -> _Database:
    """The database of ``dialect``; ``vendor_tables=False`` leaves out what
    ``_data/devices.json`` adds (its generator reads the database without it)."""
    facts = _facts()
    sources = facts["sources"]
    registered = tags(dialect)
    entries: dict[str, Entry] = {}
    aliases: dict[str, list[tuple[str, tuple[Mapping[str, Any], ...]]]] = {}

    def cites(row: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
        return tuple({**sources[c["source"]], "line": c["line"], "row": c["row"]}
                     for c in row["sources"])

    index = tag_names_index(list(registered))
    own_tag: dict[str, str] = {}  # product name -> the tag of this dialect it names
    for row in facts["products"]:
        found = [row["tag"]] if row.get("tag") in registered else product_tags(row["name"], index)
        if len(found) == 1:
            own_tag[row["name"]] = found[0]
            aliases.setdefault(found[0], []).append((row["name"], cites(row)))
    for tag, target in registered.items():
        extra = aliases.get(tag, [])
        short = _tag_short_names(tag, target)
        for name, _ in extra:
            short += [normal(name), *_without_brands(name.split())]
        entries[tag] = Entry(tag, "tag", target,
                             ({**sources["tvm-tags"], "tag": tag},
                              *(c for _, more in extra for c in more)),
                             (normal(tag),), tuple(dict.fromkeys(short)))
    from .presets import arm_cpu, arm_cpu_models  # on first use: the database is built lazily

    for model in arm_cpu_models():
        try:
            target = arm_cpu(model, dialect=dialect)
        except TargetError:
            continue  # a dialect that reads no text
        name = f"arm_cpu/{model}"
        entries[name] = Entry(name, "preset", target, ({**sources["tvm-presets"],
                                                        "model": model},),
                              (normal(name),), (normal(model),))
    for row in facts["products"]:
        if row["name"] in own_tag:
            continue
        try:
            target = from_json(row["target"], dialect=dialect)
        except TargetError:
            continue  # a dialect without that kind
        words = row["name"].split()
        short = [*_without_brands(words)]
        plain = re.fullmatch(r"(.+?)\s*\([^()]*\)", row["name"])
        if plain:  # "MI50 (32GB)" is a variant of the MI50, "GB10 (DGX Spark)" the GB10
            stem = plain.group(1).split()
            short += [normal("".join(stem)), *_without_brands(stem)]
        entries[row["name"]] = Entry(row["name"], "product", target, cites(row),
                                     (normal(row["name"]),), tuple(dict.fromkeys(short)))
    if vendor_tables:
        _add_vendor_tables(entries, dialect)
    seen: set[str] = {normal(name) for name in entries}
    for family in _CPU_FAMILIES:
        info = facts["cpus"][family]
        names = sorted(info["names"], key=lambda n: ("_" in n, n))  # '-' spellings first
        for cpu in names:
            if cpu == "generic" or normal(cpu) in seen:
                continue
            if family == "arm" and not cpu.startswith("cortex-a"):
                continue  # M- and R-profile CPUs are not Linux hosts
            try:
                target = from_json({"kind": "llvm", "mtriple": info["triple"], "mcpu": cpu},
                                   dialect=dialect)
            except TargetError:
                continue
            seen.add(normal(cpu))
            entries[cpu] = Entry(cpu, "cpu", target, ({**sources[info["source"]],
                                                      "family": family},), (normal(cpu),), ())
    if vendor_tables:
        _add_cpu_names(entries, dialect, registered)
    spelled, by_arch, lines = _name_tables(entries, {
        tag: [name for name, _ in names] for tag, names in aliases.items()})
    return _Database(MappingProxyType(entries), (_index(entries, "names"),
                                                 _index(entries, "short_names")),
                     spelled, by_arch, lines)


def _add_cpu_names(entries: dict[str, Entry], dialect: str, registered: Mapping[str, Target]
                   ) -> None:
    """Apple's chips as macOS names their CPU (``Apple M1``: ``-mcpu`` the CPU LLVM lists
    for clang's ``apple-m1``, ``apple-a14``, on the triple TVM's Apple tags give their
    host), and the CPU names LLVM takes as aliases of the CPUs it lists (TVM takes only the
    listed name). LLVM's own ``apple-mN`` is the same name as Apple's ``Apple MN`` (case,
    spaces and ``-`` aside): both are the Mac's CPU."""
    devices = _devices()
    sources = devices["sources"]
    triples = {t.host.attrs["mtriple"] for t in registered.values()
               if t.host is not None and "-apple-" in str(t.host.attrs.get("mtriple", ""))}
    chips: dict[int, tuple[str, Mapping[str, Any]]] = {}
    for name, uarch in devices["microarchitectures"].items():
        number = re.fullmatch(r"m(\d+)", name)
        if number and uarch["vendor"] == "Apple":
            chips[int(number.group(1))] = (uarch["llvm"], {
                **sources["archspec"], "row": f"{name}: clang -mcpu="
                f"{uarch.get('alias', uarch['llvm'])}"})
    for name, entry in list(entries.items()):
        number = re.fullmatch(r"apple-m(\d+)", name)
        if number and entry.origin == "cpu" and int(number.group(1)) not in chips:
            chips[int(number.group(1))] = (str(entry.target.attrs["mcpu"]), entry.sources[0])
    if len(triples) == 1:  # (a dialect without Apple's tags has no triple for a Mac's CPU)
        triple = str(triples.pop())
        for generation, (cpu, cite) in sorted(chips.items()):
            try:
                target = from_json({"kind": "llvm", "mtriple": triple, "mcpu": cpu},
                                   dialect=dialect)
            except TargetError:
                continue
            entries.pop(f"apple-m{generation}", None)
            name = f"Apple M{generation}"
            entries[name] = Entry(name, "cpu", target, (
                cite, {"what": "the triple of a Mac's CPU: the host of TVM's Apple GPU tags",
                       "row": triple}), (normal(name),), (normal(f"M{generation}"),))
    taken = {normal(name) for name in entries}
    for alias, cpu in devices["llvm_aliases"].items():
        listed = entries.get(cpu)
        if listed is None or listed.origin != "cpu" or normal(alias) in taken:
            continue
        target = from_json({**listed.target.to_json(), "mcpu": cpu}, dialect=dialect)
        entries[alias] = Entry(alias, "cpu", target, (
            {**sources["llvm-arm-host"], "row": f"{alias} is LLVM's alias of {cpu}"},),
            (normal(alias),), ())


def _chip_reason(chip: Mapping[str, Any]) -> str:
    """Why a chip has its architecture: the products of it the tables know, or its family."""
    if chip.get("inferred"):
        return f"as its family {', '.join(chip['inferred'])}"
    return f"as {', '.join(chip['by'])}"


def _add_vendor_tables(entries: dict[str, Entry], dialect: str) -> None:
    """The products of NVIDIA's driver table that no tag or product table has, each AMDGPU
    processor LLVM knows (``gfx90a``, with its aliases: ``tahiti`` is ``gfx600``), and each
    CUDA compute capability the tables give (``sm_86``): a GPU known only by its
    architecture is that architecture's component."""
    devices = _devices()
    sources = devices["sources"]
    nvidia = devices["nvidia"]
    for row in nvidia["products"]:
        try:
            target = from_json({"kind": "cuda", "arch": row["arch"]}, dialect=dialect)
        except TargetError:
            break  # a dialect without the kind
        cites = tuple({**sources["nvidia-driver"], "line": line, "row": printed}
                      for line, printed in zip(row["lines"], row["printed"]))  # none: pci.ids
        cites += tuple({**sources["pci-ids"], "line": line, "row": f"{device} ({chip}: "
                        f"{row['arch']}, {_chip_reason(nvidia['chips'][chip])})"}
                       for device, chip, line in row["pci"])
        entries[row["name"]] = Entry(row["name"], "product", target, cites,
                                     (normal(row["name"]),),
                                     tuple(dict.fromkeys(_without_brands(row["name"].split()))))
    for row in devices["amd"]["products"]:
        try:
            target = from_json({"kind": "rocm", "mcpu": row["mcpu"]}, dialect=dialect)
        except TargetError:
            break
        entries[row["name"]] = Entry(row["name"], "product", target, (
            {**sources[row["source"]], "line": row["line"], "row": row["row"]},),
            (normal(row["name"]),), tuple(dict.fromkeys(_without_brands(row["name"].split()))))
    archs = {str(e.target.attrs["arch"]) for e in entries.values()
             if e.target.kind == "cuda" and isinstance(e.target.attrs.get("arch"), str)}
    archs |= {chip["arch"] for chip in nvidia["chips"].values()}
    for arch in sorted(archs, key=lambda a: (len(a), a)):
        if not re.fullmatch(r"sm_\d+", arch):
            continue  # sm_90a: a feature set of sm_90, not an architecture of its own
        try:
            target = from_json({"kind": "cuda", "arch": arch}, dialect=dialect)
        except TargetError:
            break
        major, minor = arch[3:-1], arch[-1]
        entries[arch] = Entry(arch, "architecture", target, (
            {"what": f"CUDA compute capability {major}.{minor} (nvcc's {arch})",
             "recorded": "the compute capabilities of NVIDIA's tables (_data/components.json, "
                         "_data/devices.json)"},), (normal(arch),), ())
    aliases: dict[str, list[str]] = {}
    for name, gfx in devices["amd"]["processors"].items():
        aliases.setdefault(gfx, []).append(name)
    for gfx in sorted(aliases, key=lambda g: (len(g), g)):
        try:
            target = from_json({"kind": "rocm", "mcpu": gfx}, dialect=dialect)
        except TargetError:
            break
        names = sorted(aliases[gfx], key=lambda n: (n != gfx, n))
        entries[gfx] = Entry(gfx, "processor", target, (
            {**sources["llvm-amdgpu"], "processor": gfx, "aliases": names[1:]},),
            tuple(normal(n) for n in names), ())


def _name_tables(entries: Mapping[str, Entry], aliases: Mapping[str, list[str]]
                 ) -> tuple[tuple[tuple[tuple[str, ...], str], ...],
                            Mapping[str, tuple[str, ...]], Mapping[str, frozenset[str]]]:
    """The database's tables for printed names: each tag's and product's names as words
    (with and without brand words), AMD products by architecture, product lines by name."""
    spelled: list[tuple[tuple[str, ...], str]] = []
    by_arch: dict[str, list[str]] = {}
    lines: dict[str, frozenset[str]] = {}
    for entry in entries.values():
        if entry.origin not in ("tag", "product"):
            continue  # a CPU's or preset's name has no variants
        own: set[str] = set()
        for spelling in dict.fromkeys([entry.name, *aliases.get(entry.name, [])]):
            for listed in _brandless(_words(spelling)):
                spelled.append((listed, entry.name))
            own.update(w for w in _words(spelling) if w in BRAND_WORDS)
        lines[entry.name] = frozenset(own - set(_VENDOR_WORDS))
        mcpu = entry.target.attrs.get("mcpu")
        if entry.target.kind == "rocm" and isinstance(mcpu, str):
            by_arch.setdefault(mcpu, []).append(entry.name)
    return (tuple(spelled), MappingProxyType({k: tuple(v) for k, v in by_arch.items()}),
            MappingProxyType(lines))


def _is_board(entry: Entry) -> bool:
    """A tag of a CPU board: only there a trailing letter is a revision (a GPU's ``M`` is a
    mobile part: ``GT 640`` is not the ``GT 640M``)."""
    from .._lower.specialize import device_type  # on first use: kept out of start-up

    return entry.origin == "tag" and device_type(entry.target) == 1


def component_names(dialect: str = DEFAULT_DIALECT) -> tuple[str, ...]:
    """The canonical names of the database: tags, presets, products, then CPUs."""
    return tuple(entries(dialect))


def entries(dialect: str = DEFAULT_DIALECT) -> Mapping[str, Entry]:
    """The database of ``dialect``: each component's entry by name (``targetlang component
    --list``)."""
    return _database(dialect).entries


def printed_forms(name: str) -> list[str]:
    """The name, then what it reads as after each stage of :data:`PRINTED_NAME_RULES`."""
    forms = [name]
    text = name
    for _, rules in PRINTED_NAME_RULES:
        for pattern, replacement in rules:
            text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)
        text = " ".join(text.split())
        if text and text not in forms:
            forms.append(text)
    return forms


def _rounds(db: _Database, name: str) -> tuple[tuple[str, ...], int]:
    """What rounds 1-3 find for one spelling (the first round that finds something)."""
    key = normal(name)
    for round_number, table in enumerate(db.rounds, 1):
        found = table.get(key, ())
        if found:
            return found, round_number
    if key and key[-1].isdigit():
        return tuple(dict.fromkeys(
            n for table in db.rounds for letter in "abcdefghijklmnopqrstuvwxyz"
            for n in table.get(key + letter, ()) if _is_board(db.entries[n]))), 3
    return (), 0


def _x86_cpu(entry: Entry) -> bool:
    return entry.origin == "cpu" and str(entry.target.attrs.get("mtriple", "")).startswith("x86")


def _read(db: _Database, name: str) -> tuple[tuple[str, ...], int]:
    """What a name, or a printed name read by the rules, finds; round 4: a reading. A reading
    never finds an x86 CPU by LLVM's name: the brands that are also LLVM's names (``AMD
    Athlon``, ``Intel Pentium``, ``Intel Atom``) span many cores -- the model number says
    which (``targetlang.configuration.device_names``)."""
    for number, form in enumerate(printed_forms(name)):
        given = tuple(form.split())
        for words in _brandless(given):
            dropped = given[:len(given) - len(words)]
            found, round_number = _rounds(db, " ".join(words))
            found = tuple(n for n in found if db.fits(n, dropped))
            if number or dropped:
                found = tuple(n for n in found if not _x86_cpu(db.entries[n]))
            if found:
                return found, round_number if number == 0 and not dropped else 4
    return (), 0


def _variants(db: _Database, form: str) -> tuple[list[str], list[str]]:
    """Tags and products whose names hold the name's words with more around them: those that
    only go on by variant words (memory, ``gpu``, ...), and all of them (``Orin`` is in three
    Jetson tags)."""
    given = _words(form)
    # a query of brand words alone ("Apple processor" reads as "Apple") names no product
    queries = {q for q in _brandless(given) if not set(q) <= set(BRAND_WORDS)}
    variants: list[str] = []
    others: list[str] = []
    for listed, name in db.words:
        for query in queries:
            size = len(query)
            starts = [i for i in range(len(listed) - size + 1) if listed[i:i + size] == query]
            if not starts or len(listed) == size \
                    or not db.fits(name, given[:len(given) - size]):
                continue
            extra = listed[size:] if starts[0] == 0 else ("",)  # words before: another product
            group = variants if all(_VARIANT_WORD.fullmatch(w) for w in extra) else others
            if name not in group:
                group.append(name)
    return variants, [*variants, *(n for n in others if n not in variants)]


def _chip_gpu(db: _Database, reading: str, boards: list[str]) -> Entry | None:
    """The GPU of a system-on-chip named by the chip alone, as nvidia-smi and torch name a
    Jetson's GPU (``Orin``, ``NVIDIA Orin (nvgpu)``, ``Xavier``): where every board whose tag
    holds the name is that chip's GPU with a host (``nvidia/jetson-agx-orin-32gb``, ...) and
    the boards' GPUs are one target -- they differ only in their host CPUs -- the name is
    that GPU's architecture (``sm_87``). A name with a board line's word (``Jetson Orin``)
    names the boards, which stay apart."""
    given = set(_words(reading))
    if not boards or given & (set(BRAND_WORDS) - set(_VENDOR_WORDS)):
        return None
    targets = [db.entries[n].target for n in boards]
    if not all(db.entries[n].origin == "tag" and t.host is not None and t.kind == "cuda"
               for n, t in zip(boards, targets)):
        return None
    if not all(a.kind == b.kind and all(a.attrs[k] == b.attrs[k]
                                        for k in a.attrs.keys() & b.attrs.keys())
               for i, a in enumerate(targets) for b in targets[i + 1:]):
        return None  # (the GPUs themselves, hosts aside)
    return _architecture_entry(db, targets[0])


def _compatible(one: Target, other: Target) -> bool:
    """Whether two targets denote the same target: one kind, and every attribute both state
    (their hosts' too) the same (``nvidia/gtx1080ti`` states less of the GTX 1080 Ti than
    ``nvidia/geforce-gtx-1080-ti``, and nothing else)."""
    if one.kind != other.kind:
        return False
    if any(one.attrs[key] != other.attrs[key] for key in one.attrs.keys() & other.attrs.keys()):
        return False
    return one.host is None or other.host is None or _compatible(one.host, other.host)


def _facts_stated(target: Target) -> int:
    return len(target.attrs) + (_facts_stated(target.host) if target.host is not None else 0)


def one_target(db: _Database, found: tuple[str, ...]) -> tuple[str, ...]:
    """Names that denote the same target are not ambiguous: of such names, the one that
    states the most of the target (``nvidia/geforce-gtx-1080-ti`` over ``nvidia/gtx1080ti``);
    among equals, their architecture's component where it states as much (``MI50`` is an
    MI50 of 16 or 32 GB: ``gfx906``), else the first found (the database's order: tags,
    presets, products, ...). Names of different targets are returned as found."""
    if len(found) < 2:
        return found
    targets = [db.entries[n].target for n in found]
    if not all(_compatible(a, b) for i, a in enumerate(targets) for b in targets[i + 1:]):
        return found
    most = max(_facts_stated(t) for t in targets)
    best = next(i for i, t in enumerate(targets) if _facts_stated(t) == most)
    arch = _architecture_entry(db, targets[best])
    if arch is not None and _facts_stated(arch.target) == most \
            and all(_compatible(arch.target, t) for t in targets):
        return (arch.name,)
    return (found[best],)


def find(name: str, dialect: str = DEFAULT_DIALECT) -> tuple[Entry, int]:
    """The database entry a name stands for, and the round that found it.

    Rounds 1-3 (the module docstring) read the name as given; round 4 a name as a machine
    prints it, read by :data:`PRINTED_NAME_RULES`, or a product named without its variant
    word, or -- where the database has no such name -- by the vendors' naming schemes
    (``targetlang.configuration.device_names``). A name that could be two targets is
    refused, never guessed; names of one target are that target.
    """
    if not isinstance(name, str):
        raise UnknownComponentError(f"a component name is a string, not {type_name(name)}")
    db = _database(dialect)
    try:
        return _find(db, name, dialect)
    except _NotFound as missing:
        found = _by_scheme(db, name, dialect)
        if found is None:
            raise missing.error(db, dialect) from None
        return found, 4


def find_listed(name: str, dialect: str = DEFAULT_DIALECT) -> tuple[Entry, int]:
    """What :func:`find` finds in the database without the vendors' device tables and
    schemes (``scripts/generate_devices.py`` reads a product's architecture off it)."""
    db = _database(dialect, False)
    try:
        return _find(db, name, dialect)
    except _NotFound as missing:
        raise missing.error(db, dialect) from None


def _find(db: _Database, name: str, dialect: str) -> tuple[Entry, int]:
    found, round_number = _read(db, name)
    reading = printed_forms(name)[-1]
    read_as = f" (read as {reading!r})" if reading != name else ""
    hints: list[str] = []
    if not found and "/" in reading:  # rocminfo's "AMD Instinct MI250X/MI250": one of those
        parts = [_read(db, part)[0] for part in reading.split("/")]
        named = list(dict.fromkeys(n for part in parts for n in part))
        if all(parts) and len(named) == 1:
            return db.entries[named[0]], 4
        if all(parts) and len(one_target(db, tuple(named))) == 1:
            return db.entries[one_target(db, tuple(named))[0]], 4
        if len(named) > 1:
            found, round_number = tuple(named), 4
    if not found and _GFX_NAME.fullmatch(normal(reading)):
        products = db.by_arch.get(normal(reading), ())
        listed = ", ".join(products)
        if len(products) > 1:
            raise AmbiguousComponentError(
                f"component name {name!r}{read_as} is an architecture, not a product: it is "
                f"{listed}; give one of those names (or the target "
                f"`rocm -mcpu={normal(reading)}`)")
        raise UnknownComponentError(
            f"component name {name!r}{read_as} is an architecture, not a product"
            + (f" (the database's product with it: {listed})" if listed else "")
            + f"; give a product's name, or the target `rocm -mcpu={normal(reading)}`")
    if not found:
        variants, extended = _variants(db, reading)
        round_number = 4
        if len(variants) == 1:
            return db.entries[variants[0]], 4
        chip = None if variants else _chip_gpu(db, reading, extended)
        if chip is not None:
            return chip, 4
        if variants:
            found = tuple(variants)
        elif 1 < len(extended) <= 8:
            found = tuple(extended)
        else:
            hints = extended[:5]
    found = one_target(db, found)
    if len(found) == 1:
        return db.entries[found[0]], round_number
    if found:
        listed = ", ".join(found)
        raise AmbiguousComponentError(
            f"component name {name!r}{read_as} is ambiguous: it names {listed}; give one of "
            "those names")
    raise _NotFound(name, reading, tuple(hints))


class _NotFound(Exception):
    """No entry has that name; the refusal's closest candidates are worked out only where it
    is raised to the caller (the vendors' schemes may still read the name)."""

    def __init__(self, name: str, reading: str, hints: tuple[str, ...]) -> None:
        super().__init__(name)
        self.name, self.reading, self.hints = name, reading, hints

    def error(self, db: _Database, dialect: str) -> UnknownComponentError:
        read_as = f" (read as {self.reading!r})" if self.reading != self.name else ""
        key = normal(self.reading)
        close = difflib.get_close_matches(key, [*db.rounds[0], *db.rounds[1]], n=12,
                                          cutoff=0.6)
        names = list(dict.fromkeys([*self.hints, *(n for k in close for table in db.rounds
                                                   for n in table.get(k, ()))]))[:5]
        hint = f"; did you mean {', '.join(repr(n) for n in names)}?" if names else ""
        reason = why_no_architecture(self.reading)
        if reason is not None:
            return UnknownComponentError(
                f"component name {self.name!r}{read_as} names no architecture: {reason}")
        return UnknownComponentError(
            f"unknown component {self.name!r}{read_as} in dialect {dialect}{hint} (the "
            "database: every registered tag, GPU products, CPU names; `targetlang component "
            "--list`)")


def _listed(db: _Database, name: str) -> Entry | None:
    try:
        return _find(db, name, DEFAULT_DIALECT)[0]
    except (_NotFound, TargetError):
        return None


def _architecture_entry(db: _Database, target: Target) -> Entry | None:
    """The architecture component of a GPU's target (``sm_86``, ``gfx90a``), if any."""
    value = target.attrs.get("arch" if target.kind == "cuda" else "mcpu")
    if target.kind not in ("cuda", "rocm") or not isinstance(value, str):
        return None
    if target.kind == "cuda":
        value = re.sub(r"(?<=\d)[af]$", "", value)  # sm_90a: sm_90 with its own features
    entry = db.entries.get(value)
    return entry if entry is not None and entry.origin in ("architecture", "processor") \
        else None


def _by_scheme(db: _Database, name: str, dialect: str) -> Entry | None:
    """A name no table lists, read by the vendors' naming schemes: a PCI device (its
    products, else its chip's architecture), an NVIDIA laptop part (its generation's
    architecture), an x86 CPU by model number or codename (its LLVM CPU), an Apple chip (its
    CPU), an Arm CPU by its MIDR, its core's name or its product line. A scheme that reads
    the name but finds two targets or none that LLVM knows refuses it, saying so."""
    fields = cpu_fields(name)
    if fields is not None:
        return _by_cpu_fields(db, name, fields, dialect)
    midr = midr_fields(name)
    if midr is not None:
        return _by_midr(db, name, midr)
    reading = printed_forms(name)[-1]
    board = _devices()["nvidia"]["boards"].get(" ".join(name.split()))
    if board is not None:  # nvidia-smi's name of a board: "NVIDIA PG509-210"
        return db.entries.get(board["arch"])
    chip, products = pci_chip(pci_device_name(name))
    if products:
        found = [_listed(db, product) for product in products]
        names = tuple(dict.fromkeys(e.name for e in found if e is not None))
        if all(found) and len(one_target(db, names)) == 1:
            return db.entries[one_target(db, names)[0]]
        chips = {**_devices()["nvidia"]["chips"], **_devices()["amd"]["chips"]}
        if chip in chips:
            arch = chips[chip].get("arch") or chips[chip].get("mcpu")
            if arch in db.entries:
                return db.entries[arch]
        return None
    base = laptop_base(reading)
    if base is not None:
        entry = _listed(db, base)
        return _architecture_entry(db, entry.target) if entry is not None else None
    uarch = x86_microarchitecture(reading)
    if uarch is not None:
        llvm = _devices()["microarchitectures"].get(uarch, {}).get("llvm", uarch)
        entry = db.entries.get(llvm)
        if entry is not None and entry.origin == "cpu" and \
                str(entry.target.attrs.get("mtriple", "")).startswith("x86_64"):
            return entry
    generation = apple_chip(reading)
    if generation is not None:
        return db.entries.get(f"Apple M{generation}")
    return _by_arm_name(db, name, reading)


# ---- Arm CPUs: by MIDR, by core, by product line ----------------------------------------------

@dataclass(frozen=True)
class _ArmTables:
    #: implementer ID -> vendor as lscpu names it (``0x41``: ``ARM``)
    vendors: Mapping[str, str]
    #: a core's name as lscpu prints it, normalized -> its parts
    by_name: Mapping[str, tuple[Mapping[str, Any], ...]]
    #: part number -> its rows (one per implementer that has it)
    by_part: Mapping[str, tuple[Mapping[str, Any], ...]]
    #: a product line, normalized -> (its name, the LLVM CPU of its core)
    products: Mapping[str, tuple[str, str]]


@functools.cache
def _arm_tables() -> _ArmTables:
    arm = _devices()["arm"]
    by_name: dict[str, list[Mapping[str, Any]]] = {}
    by_part: dict[str, list[Mapping[str, Any]]] = {}
    for row in arm["parts"]:
        by_part.setdefault(row["part"], []).append(row)
        if row["name"]:  # as lscpu prints it: "Falkor-V1/Kryo" whole
            by_name.setdefault(normal(row["name"]), []).append(row)
    products = {normal(n): (n, row["llvm"]) for n, row in arm["products"].items()}
    for product, core in ARM_PRODUCTS.items():
        cpus = {r["llvm"] for r in by_name.get(normal(core), ()) if r["llvm"]}
        if len(cpus) == 1:
            products[normal(product)] = (product, cpus.pop())
    return _ArmTables(MappingProxyType({k: v["vendor"] for k, v in arm["implementers"].items()}),
                      MappingProxyType({k: tuple(v) for k, v in by_name.items()}),
                      MappingProxyType({k: tuple(v) for k, v in by_part.items()}),
                      MappingProxyType(products))


def _core_rows(tables: _ArmTables, key: str, implementers: set[str] | None, *,
               family: bool) -> list[Mapping[str, Any]]:
    """The parts lscpu names ``key`` (of ``implementers``, if given); with ``family``, also
    those whose names' first words are the key (``ThunderX2-99xx`` is of ``ThunderX2``, not
    of ``ThunderX``)."""
    return [r for k, found in tables.by_name.items() for r in found
            if (implementers is None or r["implementer"] in implementers)
            and (k == key or family and key in _word_prefixes(r["name"]))]


def _word_prefixes(core: str) -> set[str]:
    """A core's name's first word, first two words, ... (normalized): its families."""
    words = [w for w in re.split(r"[\s\-/]+", core) if w]
    return {normal("".join(words[:size])) for size in range(1, len(words) + 1)}


def _arm_vendor_words(tables: _ArmTables) -> tuple[str, ...]:
    words = [w for vendor in tables.vendors.values() for w in vendor.split("/")]
    return tuple(dict.fromkeys([*words, *ARM_VENDOR_WORDS]))


def _part_label(tables: _ArmTables, row: Mapping[str, Any]) -> str:
    vendor = tables.vendors.get(row["implementer"], row["implementer"])
    named = f" ({row['name']})" if row["name"] else ""
    return f"{vendor}'s part {row['part']}{named}"


def _one_cpu(db: _Database, name: str, rows: Iterable[Mapping[str, Any]],
             tables: _ArmTables, what: str) -> Entry:
    """The CPU component of the parts a name reads as: the one CPU LLVM's host detection
    names for them, else a refusal saying why. Parts of one name are one core (util-linux
    names four parts ``Kunpeng-920``): one that LLVM knows no CPU for is left aside where
    another of the name has one; parts of different names (a family) must agree."""
    by_core: dict[str, set[str | None]] = {}
    for row in rows:
        core = row["name"] or f"{row['implementer']}/{row['part']}"
        by_core.setdefault(core, set()).add(row["llvm"])
    answers: dict[str, set[str | None]] = {}
    for core, found in by_core.items():
        answers[core] = {c for c in found if c} or {None}
    cpus = {c for found in answers.values() for c in found}
    listed = "; ".join(f"{core}: {', '.join(sorted(c or 'no CPU of LLVM' for c in found))}"
                       for core, found in list(answers.items())[:8])
    if len(cpus) == 1 and None not in cpus:
        cpu = str(next(iter(cpus)))
        entry = db.entries.get(cpu)
        if entry is not None and entry.origin == "cpu":
            return entry
        raise UnknownComponentError(
            f"component name {name!r} is {what}, whose CPU LLVM names {cpu}: no CPU component "
            "of the database (which holds A-profile Arm CPUs, not older or M- and R-profile "
            f"ones); give the target `llvm -mcpu={cpu}` with its -mtriple yourself")
    if cpus == {None}:
        raise UnknownComponentError(
            f"component name {name!r} is {what}, and LLVM's host detection names no CPU "
            f"for it ({listed}); give -mcpu yourself")
    raise AmbiguousComponentError(
        f"component name {name!r} is {what}, which is more than one CPU ({listed}); give "
        f"one of {', '.join(sorted(c for c in cpus if c))}")


def _by_midr(db: _Database, name: str,
             cpus: list[tuple[str | None, int | None, str]]) -> Entry:
    """/proc/cpuinfo's ``CPU implementer`` and ``CPU part`` lines (or a MIDR value): the CPU
    LLVM's host detection names for that part. A part number without its implementer is
    read only where every implementer that has it is the same CPU; CPUs of two kinds (big
    and little cores) are refused, listing both."""
    tables = _arm_tables()
    rows: list[Mapping[str, Any]] = []
    unsure = False
    for implementer, _, part in cpus:
        found = [r for r in tables.by_part.get(part, ())
                 if implementer is None or r["implementer"] == implementer]
        if not found:
            vendor = tables.vendors.get(implementer or "", implementer or "any implementer")
            raise UnknownComponentError(
                f"component name {name!r} names part {part} of {vendor}, which neither "
                "lscpu's table nor LLVM's host detection knows")
        unsure = unsure or (implementer is None and len({r["llvm"] for r in found}) > 1)
        rows.extend(r for r in found if r not in rows)
    answers = list(dict.fromkeys(r["llvm"] for r in rows))
    if unsure or len(answers) > 1:
        what = ("a part number of several implementers (the CPU implementer line says which)"
                if unsure else "Arm CPUs of more than one kind")
        named = [a for a in answers if a]
        raise AmbiguousComponentError(
            f"component name {name!r} is {what}: "
            + ", ".join(f"{_part_label(tables, r)}: {r['llvm'] or 'no CPU of LLVM'}"
                        for r in rows)
            + (f"; give one of {', '.join(named)}" if named else ""))
    return _one_cpu(db, name, rows, tables, "an Arm CPU by its main ID register")


def _by_cpu_fields(db: _Database, name: str, fields: Mapping[str, str], dialect: str
                   ) -> Entry | None:
    """What lscpu or /proc/cpuinfo prints: the model name (an Arm core with its vendor: ``Vendor
    ID: ARM``, ``Model name: Cortex-A76``), else the firmware's (``BIOS Model name``)."""
    tables = _arm_tables()
    vendors = {v.casefold() for vendor in tables.vendors.values() for v in vendor.split("/")}
    refusal: TargetError | None = None
    for vendor_key, model_key in (("vendor", "model"), ("bios vendor", "bios model")):
        model = fields.get(model_key)
        if not model:
            continue
        vendor = fields.get(vendor_key, "")
        given = f"{vendor} {model}" if vendor.casefold() in vendors else model
        try:
            return find(given, dialect)[0]
        except TargetError as error:
            refusal = refusal or error
    if refusal is not None:
        raise refusal
    return None


def _by_arm_name(db: _Database, name: str, reading: str) -> Entry | None:
    """An Arm CPU named by its core as lscpu names it (``Neoverse-N1``, ``Kunpeng-920``), with
    its vendor's words around it (``Cavium ThunderX2 CPU CN9980 v2.2``), or by a product line
    whose core its vendor names (``AWS Graviton2``, ``Ampere Altra``). A name that goes on
    after a core's name (a model number: ``CN9980``) names a core of that name's family: it
    is read only where the whole family is one CPU (``Kryo 585`` is not: Qualcomm's Kryo
    names cores from its own to Cortex-A76s)."""
    tables = _arm_tables()
    for vendor, words in arm_words(reading, _arm_vendor_words(tables)):
        named = {i for i, v in tables.vendors.items()
                 if vendor is not None and vendor.casefold() in
                 (w.casefold() for w in v.split("/"))} or None
        # the vendor's own parts first; then any implementer's (Marvell sells Cavium's)
        for implementers in [named, *([None] if named else [])]:
            found = _arm_core(db, name, words, tables, implementers)
            if found is not None:
                return found
    return None


def _arm_core(db: _Database, name: str, words: list[str], tables: _ArmTables,
              implementers: set[str] | None) -> Entry | None:
    """The product line or core that ``words`` start with (the longest that names one)."""
    for size in range(len(words), 0, -1):
        key = normal("".join(words[:size]))
        whole = size == len(words)
        products = [v for k, v in tables.products.items()
                    if k == key or (not whole and k.startswith(key))]
        if key in tables.products and (whole or len({c for _, c in products}) == 1):
            entry = db.entries.get(products[0][1])
            if entry is not None:
                return entry
        exact = _core_rows(tables, key, implementers, family=False)
        if whole and exact:
            return _one_cpu(db, name, exact, tables,
                            f"the Arm core {' '.join(words)!r} as lscpu names it")
        # a name that goes on after a core's name, or stops before its later words
        # ("Cavium ThunderX2" of Cavium's "ThunderX2-99xx"): a core of that family
        family = _core_rows(tables, key, implementers, family=True)
        if family:
            return _one_cpu(db, name, family, tables,
                            f"a core of the {' '.join(words[:size])!r} family (lscpu's names "
                            "whose first words those are)")
    return None


def component(name: str, *, dialect: str = DEFAULT_DIALECT) -> Component:
    """The component a tag, product or CPU name stands for (see the module docstring).

    >>> component("rtx 3080").target.attrs["arch"]
    'sm_86'
    """
    entry, _ = find(name, dialect)
    return entry.component()
