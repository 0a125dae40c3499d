"""Generate the vendors' device tables: GPUs by PCI device, chips by architecture, LLVM's AMDGPU
processors, archspec's CPU microarchitectures.

    python3 scripts/generate_devices.py            # writes targetlang/_data/devices.json
    python3 scripts/generate_devices.py --check    # exit 1 if the committed file differs

Every fact names its source (repository, path, commit; or the tool and its version); nothing
is typed in here. The sources:

* NVIDIA's driver product table: the "Compatible GPUs" table of NVIDIA's open GPU kernel
  modules README (product name as ``nvidia-smi`` prints it, PCI device ID), from a git mirror
  of NVIDIA/open-gpu-kernel-modules (``$TARGETLANG_NVIDIA_DRIVER_GIT``, default
  ``/work/.mirror/NVIDIA+open-gpu-kernel-modules/repo``).
* The PCI ID repository (``pci.ids``): each NVIDIA and AMD device's chip and products, as
  ``lspci`` and ``rocm-smi`` print them (``GA102 [GeForce RTX 3090]``, ``Navi 21 [Radeon RX
  6800/6800 XT / 6900 XT]``), from a git mirror of pciutils/pciids (``$TARGETLANG_PCIIDS_GIT``).
* The products pci.ids names for an NVIDIA chip of one architecture that neither table has
  (``GV100GL [Tesla V100S PCIe 32GB]``), read as the library reads a printed name; a name
  given chips of two architectures (``GeForce GT 730``) stays out.
* AMD's products as pci.ids names them in a chip's brackets (``Navi 10 [Radeon RX 5600 OEM/5600
  XT / 5700/5700 XT]``), each with its chip's processor.
* A chip's architecture is read from the products it carries: NVIDIA's compute capability
  and AMD's LLVM processor of every product that the component database (TVM's tags, NVIDIA's
  CUDA GPUs table, AMD's ROCm specifications: ``_data/components.json``) already knows. A
  chip whose products disagree gets none (listed under ``conflicts``). An AMD chip that LLVM
  names (``tahiti``, ``hawaii``, ``polaris10``) has LLVM's processor.
* AMD's product names of each LLVM processor in TheRock, AMD's ROCm build
  (``cmake/therock_amdgpu_targets.cmake`` of ROCm/TheRock, ``$TARGETLANG_THEROCK_GIT``):
  ``therock_add_amdgpu_target(gfx1201 "AMD RX 9070 / XT" ...)`` is the RX 9070 and the RX
  9070 XT; a name that is a codename (``AMD Strix Halo iGPU``) or of another table's
  product stays out.
* LLVM's AMDGPU processors and their aliases: ``llc -mtriple=amdgcn-amd-amdhsa -mcpu=help``,
  each alias compiled to read the processor it stands for (``$TARGETLANG_LLC``, default
  ``llc-19``; TVM's own LLVM is built without the AMDGPU back end).
* archspec's microarchitectures (``cpu/microarchitectures.json`` of archspec/archspec-json,
  ``$TARGETLANG_ARCHSPEC_GIT``): each x86-64 and AArch64 microarchitecture and the CPU name
  clang takes for it, kept only where TVM 0.21's LLVM knows that name, or the CPU that name
  is LLVM's alias of (``apple-m1`` is ``apple-a14``) (``_data/components.json``'s CPU
  lists, recorded from the oracle).
* Arm CPUs by their main ID register (MIDR), as ``lscpu`` names them: util-linux's table of
  implementers and part numbers (``sys-utils/lscpu-arm.c`` of util-linux/util-linux,
  ``$TARGETLANG_UTIL_LINUX_GIT``: implementer ``0x41`` is ``ARM``, its part ``0xd0c`` is
  ``Neoverse-N1``), each part with the CPU that LLVM's host detection names for it -- the
  LLVM that TVM 0.21 links, asked through its own ``getHostCPUNameForARM`` (what
  ``-mcpu=native`` reads from ``/proc/cpuinfo``), with every part number of each
  implementer probed, so parts util-linux does not name are there too. An answer LLVM gives
  a part it does not know (``generic``, or the implementer's fallback) is no answer.
* The aliases among those CPU names, resolved by the same LLVM (``AArch64::resolveCPUAlias``):
  TVM 0.21 takes a CPU name only as LLVM lists it, not by an alias.
* Arm server products by the core their vendor says they have: AWS's table of Graviton
  processors and their ``-mcpu`` (``c-c++.md`` of aws/aws-graviton-getting-started,
  ``$TARGETLANG_GRAVITON_GIT``), and the first Graviton, which archspec named ``graviton``
  until it renamed each Graviton by its Arm core (its test targets' renames in archspec's
  history: ``linux-amazon-graviton`` became ``linux-amazon-cortex_a72``).

Product names from the driver table are stored as the library reads them
(``targetlang.configuration.components.printed_forms``: ``NVIDIA A800-SXM4-80GB`` is ``NVIDIA A800``); a
name the database without these tables already resolves is not stored again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from shelf import DATA, MIRRORS, oracle_python, write_or_check

from targetlang.configuration.components import BRAND_WORDS, find_listed, normal, printed_forms
from targetlang.configuration.device_names import pci_chip, split_products
from targetlang.errors import TargetError

OUTPUT = DATA / "devices.json"
NVIDIA_GIT = Path(os.environ.get("TARGETLANG_NVIDIA_DRIVER_GIT",
                                 MIRRORS / "NVIDIA+open-gpu-kernel-modules" / "repo"))
PCIIDS_GIT = Path(os.environ.get("TARGETLANG_PCIIDS_GIT", MIRRORS / "pciutils+pciids" / "repo"))
ARCHSPEC_GIT = Path(os.environ.get("TARGETLANG_ARCHSPEC_GIT",
                                   MIRRORS / "archspec+archspec-json" / "repo"))
THEROCK_GIT = Path(os.environ.get("TARGETLANG_THEROCK_GIT", MIRRORS / "ROCm+TheRock" / "repo"))
UTIL_LINUX_GIT = Path(os.environ.get("TARGETLANG_UTIL_LINUX_GIT",
                                     MIRRORS / "util-linux+util-linux" / "repo"))
GRAVITON_GIT = Path(os.environ.get("TARGETLANG_GRAVITON_GIT",
                                   MIRRORS / "aws+aws-graviton-getting-started" / "repo"))
LLC = os.environ.get("TARGETLANG_LLC", "llc-19")
#: PCI vendor IDs.
NVIDIA, AMD = "10de", "1002"
#: The LLVM major version whose clang flags archspec is read for (TVM 0.21's LLVM).
LLVM_MAJOR = 22


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def _source(repo: Path, github: str, path: str, what: str) -> tuple[dict[str, str], str]:
    if not (repo / "HEAD").exists():
        raise SystemExit(f"no git mirror of {github} at {repo}")
    commit = _git(repo, "rev-parse", "HEAD").strip()
    return {"what": what, "repo": github, "path": path, "commit": commit,
            "url": f"https://github.com/{github}/blob/{commit}/{path}"}, \
        _git(repo, "show", f"{commit}:{path}")


def driver_rows(text: str) -> list[tuple[str, str, int]]:
    """The README's "Compatible GPUs" table: (product name, PCI device ID, line)."""
    rows = []
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if re.match(r"\|\s*Product Name\s*\|", line))
    for number in range(start + 2, len(lines)):
        cells = [c.strip() for c in lines[number].strip().strip("|").split("|")]
        if len(cells) != 2:
            break
        rows.append((cells[0], cells[1].split()[0].lower(), number + 1))
    return rows


def pci_devices(text: str) -> dict[str, dict[str, tuple[str, int]]]:
    """``pci.ids``'s device names of NVIDIA and AMD: vendor -> device ID -> (name, line)."""
    devices: dict[str, dict[str, tuple[str, int]]] = {NVIDIA: {}, AMD: {}}
    vendor = ""
    for number, line in enumerate(text.split("\n"), 1):
        top = re.match(r"([0-9a-f]{4})  ", line)
        if top:
            vendor = top.group(1)
            continue
        device = re.match(r"\t([0-9a-f]{4})  (.+)", line)
        if device and vendor in devices:
            devices[vendor][device.group(1)] = (device.group(2).strip(), number)
    return devices


def therock_rows(text: str) -> list[dict[str, Any]]:
    """TheRock's AMDGPU targets: each product name of each target, with its line."""
    rows = []
    for number, line in enumerate(text.split("\n"), 1):
        match = re.match(r'\s*therock_add_amdgpu_target\((gfx[0-9a-f]+)\s+"([^"]*)"', line)
        if not match:
            continue
        gfx, names = match.groups()
        names = re.sub(r"\s+(?:Laptop\s+)?iGPU$|\s+CDNA$", "", names)
        if names.startswith("MI"):
            names = f"AMD Instinct {names}"
        if not names.startswith("AMD "):
            continue  # "Vega 10 / MI25": another table's products
        for product in split_products(names):
            if re.search(r"\b(?:RX|Radeon|Pro|MI\d+\w*)\b", product) and \
                    any(c.isdigit() for c in product):
                rows.append({"name": product, "mcpu": gfx, "line": number,
                             "row": line.strip()})
    return rows


def _architecture(name: str, *, printed: bool = True) -> str | None:
    """The architecture the database (without the vendors' tables) gives a name, if any:
    a CUDA ``sm_XY`` (without a feature suffix) or an AMD ``gfx...``. A product name of a
    table (not ``printed`` by a tool) counts only as given (rounds 1-2), not as read."""
    try:
        entry, round_number = find_listed(name)
    except TargetError:
        return None
    if not printed and round_number > 2:
        return None
    target = entry.target
    if target.kind == "cuda" and isinstance(target.attrs.get("arch"), str):
        return re.sub(r"[af]$", "", str(target.attrs["arch"]))
    if target.kind == "rocm" and isinstance(target.attrs.get("mcpu"), str):
        return str(target.attrs["mcpu"])
    return None


def amdgpu_processors() -> tuple[dict[str, str], str]:
    """LLVM's AMDGPU processors: each name (``gfx90a``, ``tahiti``) -> its ``gfx`` processor."""
    version = subprocess.run([LLC, "--version"], check=True, capture_output=True,
                             text=True).stdout
    major = re.search(r"LLVM version (\S+)", version)
    listing = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=help"],
                             capture_output=True, text=True)
    text = listing.stdout + listing.stderr
    block = text.split("Available CPUs for this target:")[1].split("Available features")[0]
    names = [line.split()[0] for line in block.split("\n") if line.strip()]
    processors: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.ll"
        empty.write_text("", "utf-8")
        for name in names:
            if name.startswith("generic") or name.endswith("-generic"):
                continue  # not a processor: code for several
            out = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={name}",
                                  str(empty), "-o", "-"], check=True, capture_output=True,
                                 text=True).stdout
            found = re.search(r'\.amdgcn_target "amdgcn-amd-amdhsa--(gfx[0-9a-f]+)', out)
            assert found, (name, out[:200])
            processors[name] = found.group(1)
    return processors, f"LLVM {major.group(1) if major else '?'} ({LLC})"


def _evidence(table: dict[str, dict[str, Any]], chip: str, arch: str, product: str) -> None:
    seen = table.setdefault(chip, {"archs": {}, "by": {}})
    seen["archs"][arch] = seen["archs"].get(arch, 0) + 1
    seen["by"].setdefault(arch, [])
    if product not in seen["by"][arch] and len(seen["by"][arch]) < 3:
        seen["by"][arch].append(product)


def chips(evidence: dict[str, dict[str, Any]], key: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each chip's one architecture, and the chips whose products disagree."""
    table: dict[str, Any] = {}
    conflicts: dict[str, Any] = {}
    for chip in sorted(evidence):
        archs = evidence[chip]["archs"]
        if len(archs) == 1:
            arch = next(iter(archs))
            table[chip] = {key: arch, "by": evidence[chip]["by"][arch]}
        else:
            conflicts[chip] = evidence[chip]["by"]
    return table, conflicts


def _infer_family(table: dict[str, Any], conflicts: dict[str, Any],
                  wanted: set[str | None]) -> None:
    """A chip no known product names (GB207: only laptop parts) takes the architecture of its
    family -- the chips named alike but for the last digit (GB202, GB203, GB205, GB206) --
    where every known member agrees; an integrated ``..B`` chip (GB20B, GA10B) is a family
    of its own."""
    for chip in sorted(c for c in wanted if c and c not in table and c not in conflicts):
        if chip.endswith("B"):
            continue
        family = {v["arch"] for c, v in table.items()
                  if c[:-1] == chip[:-1] and not c.endswith("B") and "inferred" not in v}
        if len(family) == 1:
            members = sorted(c for c in table if c[:-1] == chip[:-1] and not c.endswith("B"))
            table[chip] = {"arch": family.pop(), "by": [], "inferred": members}


def nvidia(driver: list[tuple[str, str, int]], pci: dict[str, tuple[str, int]]
           ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    evidence: dict[str, dict[str, Any]] = {}
    for name, _ in pci.values():
        chip, products = pci_chip(name)
        if chip:
            for product in products:
                arch = _architecture(product, printed=False)
                if arch:
                    _evidence(evidence, chip, arch, product)
    for name, device, _ in driver:
        chip = pci_chip(pci[device][0])[0] if device in pci else None
        arch = _architecture(name)
        if chip and arch:
            _evidence(evidence, chip, arch, name)
    table, conflicts = chips(evidence, "arch")
    _infer_family(table, conflicts, {pci_chip(pci[d][0])[0] for _, d, _ in driver if d in pci})
    products: dict[str, dict[str, Any]] = {}
    boards: dict[str, dict[str, Any]] = {}
    for name, device, line in driver:
        if _architecture(name) or device not in pci:
            continue  # the database has it already (a tag, a product of its tables)
        chip = pci_chip(pci[device][0])[0]
        if chip not in table:
            continue
        reading = printed_forms(name)[-1]
        if not set(reading.casefold().split()) - set(BRAND_WORDS):
            # A board's number, no product name ("NVIDIA PG506-232"): its chip's architecture.
            boards[name] = {"arch": table[chip]["arch"], "chip": chip, "device": device,
                            "line": line}
            continue
        key = normal(reading)
        row = products.setdefault(key, {"name": reading, "arch": table[chip]["arch"],
                                        "chips": [], "pci": [], "printed": [], "lines": []})
        if row["arch"] != table[chip]["arch"]:
            raise SystemExit(f"driver README line {line}: {name} is on {chip} "
                             f"({table[chip]['arch']}), but also {row['chips']} ({row['arch']})")
        for field, value in (("chips", chip), ("printed", name), ("lines", line),
                             ("pci", [device, chip, pci[device][1]])):
            if value not in row[field]:
                row[field].append(value)
    _pci_products(pci, table, products)
    return table, sorted(products.values(), key=lambda r: r["name"].casefold()), boards, \
        conflicts


def _pci_products(pci: dict[str, tuple[str, int]], table: dict[str, Any],
                  products: dict[str, dict[str, Any]]) -> None:
    """The products pci.ids names for a chip of one architecture (``GV100GL [Tesla V100S PCIe
    32GB]``, ``GP108M [GeForce MX250]``) that neither the tables nor the driver's table has:
    as a tool prints them (``NVIDIA`` and the product), each with its chip's architecture; a
    name pci.ids gives chips of two architectures (``GeForce GT 730``) stays out."""
    found: dict[str, dict[str, Any]] = {}
    clash: set[str] = set()
    for device, (name, line) in sorted(pci.items()):
        chip, listed = pci_chip(name)
        if chip not in table:
            continue
        for product in listed:
            if not re.search(r"\d", product) or re.search(
                    r"\b(?:Engineering|Sample|Series|Graphics|Switch|Bridge|Audio|USB)\b",
                    product):
                continue
            printed = product if product.startswith("NVIDIA ") else f"NVIDIA {product}"
            reading = printed_forms(printed)[-1]
            if not re.search(r"\d", reading) or "FAKE" in reading:
                continue  # "GeForce RTX 16GB" of a "/"-list: no model left once read
            key = normal(reading)
            row = found.setdefault(key, {"name": reading, "arch": table[chip]["arch"],
                                         "chips": [], "pci": [], "printed": [], "lines": []})
            if row["arch"] != table[chip]["arch"]:
                clash.add(key)
            if chip not in row["chips"]:
                row["chips"].append(chip)
            row["pci"].append([device, chip, line])
            if printed not in row["printed"]:
                row["printed"].append(printed)
    for key, row in found.items():
        if key in clash or key in products or _architecture(row["printed"][0]):
            continue
        products[key] = row


def _amd_key(name: str) -> str:
    """A product's name without its vendor and line words (``AMD Radeon RX 9070`` and ``AMD RX
    9070`` alike): how TheRock's names meet pci.ids'."""
    return normal(re.sub(r"\b(?:AMD|Radeon|Instinct)\b", "", name))


def amd(pci: dict[str, tuple[str, int]], processors: dict[str, str],
        therock: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any],
                                                list[dict[str, Any]]]:
    evidence: dict[str, dict[str, Any]] = {}
    by_key = {_amd_key(row["name"]): row["mcpu"] for row in therock}
    for name, _ in pci.values():
        chip, products = pci_chip(name)
        if not chip:
            continue
        own = processors.get(chip.casefold().replace(" ", ""))
        if own:  # LLVM names the chip itself (tahiti, hawaii, fiji)
            _evidence(evidence, chip, own, f"LLVM processor {chip.casefold()}")
        for product in products:
            arch = _architecture(product if product.startswith("AMD ") else f"AMD {product}",
                                 printed=False) or by_key.get(_amd_key(product)) \
                or processors.get(product.casefold())  # "Ellesmere [Polaris10]": LLVM's name
            if arch:
                _evidence(evidence, chip, arch, product)
    table, conflicts = chips(evidence, "mcpu")
    products = []
    named: dict[str, list[dict[str, Any]]] = {}
    for device, (name, line) in sorted(pci.items()):
        chip, listed = pci_chip(name)
        if chip not in table:
            continue
        for product in listed:
            if re.search(r"\b(?:RX|Pro|Radeon|Instinct|FirePro)\b", product) and \
                    re.search(r"\d", product) and not re.search(
                        r"\b(?:Graphics|APU|Series|Engineering|Sample|MxGPU)\b", product):
                # (not a family, an integrated part's label or a virtual function)
                full = product if product.startswith("AMD ") else f"AMD {product}"
                named.setdefault(_amd_key(full), []).append(
                    {"name": full, "mcpu": table[chip]["mcpu"], "line": line,
                     "row": f"{device}  {name}", "source": "pci-ids"})
    therock_keys = {_amd_key(row["name"]) for row in therock}
    for key, rows in sorted(named.items()):
        if len({r["mcpu"] for r in rows}) == 1 and key not in therock_keys and \
                _architecture(rows[0]["name"], printed=False) is None:
            products.append(rows[0])  # one architecture wherever pci.ids names it
    for row in therock:
        known = _architecture(row["name"])  # "AMD RX 6800" is ROCm's "AMD Radeon RX 6800"
        if known is None:
            products.append({**row, "source": "amd-therock"})
        elif known != row["mcpu"]:
            raise SystemExit(f"TheRock line {row['line']}: {row['name']} is {row['mcpu']}, "
                             f"but the component tables say {known}")
    return table, conflicts, products


# ---- Arm CPUs by MIDR ---------------------------------------------------------------------------

def util_linux_parts(text: str) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """lscpu's names of Arm implementers and parts (``lscpu-arm.c``): implementer ID ->
    vendor (``0x41``: ``ARM``), and each (implementer, part, name, line)."""
    tables: dict[str, list[tuple[str, str, int]]] = {}
    current = None
    for number, line in enumerate(text.split("\n"), 1):
        opened = re.match(r"static const struct id_part (\w+)\[\] = \{", line)
        if opened:
            current = tables.setdefault(opened.group(1), [])
            continue
        if line.startswith("};"):
            current = None
            continue
        row = re.match(r'\s*\{\s*(0x[0-9a-fA-F]+),\s*"([^"]+)"', line)
        if row and current is not None:
            current.append((f"0x{int(row.group(1), 16):03x}", row.group(2), number))
    implementers: dict[str, dict[str, Any]] = {}
    parts: list[dict[str, Any]] = []
    block = text.split("static const struct hw_impl hw_implementer[] = {")[1].split("};")[0]
    start = text[:text.index(block)].count("\n") + 1
    for offset, line in enumerate(block.split("\n")):
        row = re.match(r'\s*\{\s*(0x[0-9a-fA-F]+),\s*(\w+),\s*"([^"]+)"', line)
        if not row:
            continue
        implementer = f"0x{int(row.group(1), 16):02x}"
        implementers[implementer] = {"vendor": row.group(3), "line": start + offset}
        for part, name, number in tables.get(row.group(2), []):
            parts.append({"implementer": implementer, "part": part, "name": name,
                          "line": number})
    return implementers, parts


#: Run in the TVM 0.21 oracle: its own LLVM's host detection of Arm CPUs, for every part
#: number of each implementer and every variant of the named parts, and its CPU aliases.
_LLVM_ARM_PROBE = r"""
import ctypes, json, re, sys
import tvm
query = json.loads(sys.stdin.read())
path = next(line.split()[-1] for line in open("/proc/self/maps") if "libLLVM" in line)
lib = ctypes.CDLL(path)
class Ref(ctypes.Structure):  # llvm::StringRef, passed and returned by value
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]
def function(symbol):
    f = getattr(lib, symbol)
    f.argtypes, f.restype = [Ref], Ref
    return f
host = function("_ZN4llvm3sys6detail20getHostCPUNameForARMENS_9StringRefE")
alias = function("_ZN4llvm7AArch6415resolveCPUAliasENS_9StringRefE")
def call(f, text):
    data = text.encode()
    buf = ctypes.create_string_buffer(data, len(data))
    got = f(Ref(ctypes.cast(buf, ctypes.c_void_p), len(data)))
    return ctypes.string_at(got.data, got.size).decode()
def detect(implementer, part, variant):
    return call(host, f"CPU implementer : {implementer}\nCPU variant : 0x{variant:x}\n"
                      f"CPU part : {part}\n")
out = {"llvm": str(tvm.support.libinfo().get("LLVM_VERSION", "?")), "parts": {},
       "named": {}, "aliases": {}}
for implementer in query["implementers"]:
    out["parts"][implementer] = [detect(implementer, f"0x{p:03x}", 0) for p in range(4096)]
for implementer, part in query["named"]:
    out["named"][f"{implementer}/{part}"] = [detect(implementer, part, v) for v in range(16)]
answers = {a for found in (*out["parts"].values(), *out["named"].values()) for a in found}
for name in sorted(answers | set(query["aliases"])):
    resolved = call(alias, name)
    if resolved != name:
        out["aliases"][name] = resolved
print(json.dumps(out))
"""


def llvm_arm(implementers: list[str], named: list[tuple[str, str]], aliases: list[str]
             ) -> dict[str, Any]:
    """Ask the TVM 0.21 oracle's LLVM (``_LLVM_ARM_PROBE``)."""
    python = oracle_python("0.21")
    if not python.exists():
        raise SystemExit(f"no TVM 0.21 oracle at {python} (set TARGETLANG_ORACLE_DIR)")
    done = subprocess.run([str(python), "-c", _LLVM_ARM_PROBE], check=True, capture_output=True,
                          text=True, input=json.dumps({"implementers": implementers,
                                                       "named": named, "aliases": aliases}))
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def arm_parts(implementers: dict[str, dict[str, Any]], named: list[dict[str, Any]],
              probe: dict[str, Any], aliases: dict[str, str], llvm_cpus: set[str]
              ) -> list[dict[str, Any]]:
    """Each part lscpu names or LLVM knows, with the CPU LLVM's host detection names for it
    (its alias resolved; None where LLVM names no CPU of TVM's list). The answer LLVM gives
    most of an implementer's part numbers is its fallback (Samsung's ``exynos-m3``), not
    knowledge of the part."""
    def known(answers: list[str], fallback: str) -> list[str]:
        found = {aliases.get(a, a) for a in answers if a not in ("generic", fallback)}
        return sorted(found & llvm_cpus)

    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for implementer in implementers:
        answers = probe["parts"][implementer]
        fallback = max(set(answers), key=answers.count)
        for row in (r for r in named if r["implementer"] == implementer):
            found = known(probe["named"][f"{implementer}/{row['part']}"], fallback)
            rows[(implementer, row["part"])] = {**row, "llvm": found[0] if len(found) == 1
                                                else None}
        for number, answer in enumerate(answers):
            part = f"0x{number:03x}"
            found = known([answer], fallback)
            if (implementer, part) not in rows and found:
                rows[(implementer, part)] = {"implementer": implementer, "part": part,
                                             "name": None, "line": None, "llvm": found[0]}
    return sorted(rows.values(), key=lambda r: (r["implementer"], r["part"]))


def graviton_rows(text: str) -> list[dict[str, Any]]:
    """AWS's table of Graviton processors and the ``-mcpu`` of each (``Graviton3(E)`` is
    the Graviton3 and the Graviton3E)."""
    rows = []
    for number, line in enumerate(text.split("\n"), 1):
        match = re.match(r"(Graviton\d+)(?:\((\w+)\))?\s*\|\s*`-mcpu=([\w.-]+)`", line)
        if match:
            name, more, mcpu = match.groups()
            for product in [name, *([name + more] if more else [])]:
                rows.append({"name": product, "mcpu": mcpu, "line": number,
                             "row": line.strip()})
    return rows


def archspec_renames(repo: Path) -> list[dict[str, str]]:
    """archspec's test targets renamed from a product to its microarchitecture
    (``linux-amazon-graviton2`` -> ``linux-amazon-neoverse_n1``), with the commit."""
    log = _git(repo, "log", "--diff-filter=R", "-M", "--name-status", "--format=C %H", "HEAD",
               "--", "tests/targets")
    renames = []
    commit = ""
    for line in log.split("\n"):
        if line.startswith("C "):
            commit = line[2:]
            continue
        match = re.match(r"R\d*\ttests/targets/linux-amazon-(graviton\d*)\t"
                         r"tests/targets/linux-amazon-(\w+)$", line)
        if match:
            renames.append({"name": match.group(1), "uarch": match.group(2), "commit": commit})
    return renames


def server_products(graviton: list[dict[str, Any]], renames: list[dict[str, str]],
                    microarchitectures: dict[str, Any], aliases: dict[str, str],
                    llvm_cpus: set[str]) -> dict[str, Any]:
    """Arm server products by their core's LLVM CPU: AWS's table, then the Gravitons archspec
    renamed by their core (which must agree with AWS's where both name one)."""
    products: dict[str, Any] = {}
    for row in graviton:
        cpu = aliases.get(row["mcpu"], row["mcpu"])
        if cpu in llvm_cpus:
            products[row["name"]] = {"llvm": cpu, "source": "aws-graviton",
                                     "line": row["line"], "row": row["row"]}
    for rename in renames:
        name = rename["name"].capitalize()  # archspec's graviton2: AWS's Graviton2
        cpu = microarchitectures.get(rename["uarch"], {}).get("llvm")
        if cpu is None:
            continue
        if name in products:
            if products[name]["llvm"] != cpu:
                raise SystemExit(f"archspec says {name} is {cpu}, AWS {products[name]['llvm']}")
            continue
        products[name] = {"llvm": cpu, "source": "archspec-rename", "commit": rename["commit"],
                          "row": f"linux-amazon-{rename['name']} -> "
                                 f"linux-amazon-{rename['uarch']}"}
    return dict(sorted(products.items()))


def archspec_table(text: str) -> dict[str, Any]:
    """archspec's x86-64 and AArch64 microarchitectures with the CPU name clang takes."""
    data = json.loads(text)["microarchitectures"]
    out: dict[str, Any] = {}
    for name, info in sorted(data.items()):
        family = _family(data, name)
        if family not in ("x86_64", "aarch64") or info.get("vendor") == "generic":
            continue
        entries = info.get("compilers", {}).get("clang", [])
        entries = entries if isinstance(entries, list) else [entries]
        llvm = None
        for entry in entries:
            low, _, high = str(entry.get("versions", ":")).partition(":")
            if high and LLVM_MAJOR > float(high.split(".")[0]):
                continue
            flags = str(entry.get("flags", ""))
            mcpu = re.search(r"-m(?:cpu|arch)=(\S+)", flags)
            if mcpu and "{name}" not in mcpu.group(1):
                llvm = mcpu.group(1)
            elif mcpu:
                llvm = mcpu.group(1).replace("{name}", str(entry.get("name", name)))
        if llvm:
            out[name] = {"family": family, "vendor": info.get("vendor"), "llvm": llvm,
                         "parents": list(info.get("from", []))}
    return out


def listed_by_llvm(table: dict[str, Any], llvm_cpus: set[str], aliases: dict[str, str]
                   ) -> dict[str, Any]:
    """The microarchitectures whose clang CPU TVM 0.21's LLVM takes -- as clang names it, or
    as the CPU it is LLVM's alias of (``alias``: ``apple-m1`` is ``apple-a14``)."""
    out: dict[str, Any] = {}
    for name, info in table.items():
        listed = aliases.get(info["llvm"], info["llvm"])
        if listed in llvm_cpus:
            out[name] = {**info, "llvm": listed,
                         **({"alias": info["llvm"]} if listed != info["llvm"] else {})}
    return out


def _family(data: dict[str, Any], name: str) -> str:
    parents = data[name].get("from", [])
    return name if not parents else _family(data, parents[0])


def build() -> dict[str, Any]:
    components = json.loads((DATA / "components.json").read_text("utf-8"))
    sources: dict[str, Any] = {}
    sources["nvidia-driver"], readme = _source(
        NVIDIA_GIT, "NVIDIA/open-gpu-kernel-modules", "README.md",
        "NVIDIA's driver product names (as nvidia-smi prints them) and PCI device IDs")
    sources["pci-ids"], ids = _source(
        PCIIDS_GIT, "pciutils/pciids", "pci.ids",
        "The PCI ID repository: each device's chip and products (as lspci and rocm-smi print them)")
    sources["archspec"], uarch = _source(
        ARCHSPEC_GIT, "archspec/archspec-json", "cpu/microarchitectures.json",
        "archspec's CPU microarchitectures and the CPU names compilers take for them")
    processors, llvm = amdgpu_processors()
    sources["llvm-amdgpu"] = {"what": "LLVM's AMDGPU processors and the processor each alias "
                                      "stands for (llc -mtriple=amdgcn-amd-amdhsa -mcpu=help)",
                              "recorded": f"{llvm}, by scripts/generate_devices.py"}
    devices = pci_devices(ids)
    driver = driver_rows(readme)
    nvidia_chips, products, boards, nvidia_conflicts = nvidia(
        driver, {d: v for d, v in devices[NVIDIA].items()})
    sources["amd-therock"], targets = _source(
        THEROCK_GIT, "ROCm/TheRock", "cmake/therock_amdgpu_targets.cmake",
        "AMD's product names of each LLVM AMDGPU processor (TheRock, AMD's ROCm build)")
    amd_chips, amd_conflicts, amd_products = amd(devices[AMD], processors,
                                                 therock_rows(targets))
    llvm_cpus = {n for family in components["cpus"].values() for n in family["names"]}
    sources["util-linux"], lscpu_arm = _source(
        UTIL_LINUX_GIT, "util-linux/util-linux", "sys-utils/lscpu-arm.c",
        "lscpu's names of Arm CPU implementers and part numbers (the MIDR's fields)")
    sources["aws-graviton"], graviton = _source(
        GRAVITON_GIT, "aws/aws-graviton-getting-started", "c-c++.md",
        "AWS's Graviton processors and the -mcpu of each")
    implementers, named = util_linux_parts(lscpu_arm)
    graviton_table = graviton_rows(graviton)
    uarchs = archspec_table(uarch)
    probe = llvm_arm(sorted(implementers), [(r["implementer"], r["part"]) for r in named],
                     sorted({u["llvm"] for u in uarchs.values()}
                            | {r["mcpu"] for r in graviton_table}))
    sources["llvm-arm-host"] = {
        "what": "the CPU LLVM's host detection names for each Arm implementer and part "
                "(llvm::sys::detail::getHostCPUNameForARM, what -mcpu=native reads from "
                "/proc/cpuinfo) and LLVM's AArch64 CPU aliases (llvm::AArch64::resolveCPUAlias)",
        "recorded": f"the LLVM {probe['llvm']} that TVM 0.21 links, by "
                    "scripts/generate_devices.py"}
    aliases = {a: c for a, c in probe["aliases"].items() if c in llvm_cpus}
    microarchitectures = listed_by_llvm(uarchs, llvm_cpus, aliases)
    arm_products = server_products(graviton_table, archspec_renames(ARCHSPEC_GIT),
                                   microarchitectures, aliases, llvm_cpus)
    sources["archspec-rename"] = {
        "what": "archspec's test targets renamed from an AWS product to its microarchitecture",
        "repo": "archspec/archspec-json",
        "url": "https://github.com/archspec/archspec-json/commit/{commit}"}
    return {
        "about": "The vendors' device tables; generated by scripts/generate_devices.py "
                 "(every fact names its source)",
        "sources": sources,
        "nvidia": {"chips": nvidia_chips, "conflicts": nvidia_conflicts, "products": products,
                   "boards": boards,
                   "driver_rows": len(driver), "pci_devices": len(devices[NVIDIA])},
        "amd": {"chips": amd_chips, "conflicts": amd_conflicts, "processors": processors,
                "products": amd_products,
                "pci_devices": len(devices[AMD])},
        "microarchitectures": microarchitectures,
        "arm": {"implementers": implementers,
                "parts": arm_parts(implementers, named, probe, aliases, llvm_cpus),
                "products": arm_products},
        "llvm_aliases": dict(sorted(aliases.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="its sources")


if __name__ == "__main__":
    sys.exit(main())
