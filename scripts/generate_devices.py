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
  clang takes for it, kept only where TVM 0.21's LLVM knows that name
  (``_data/components.json``'s CPU lists, recorded from the oracle).

Product names from the driver table are stored as the library reads them
(``targetlang.components.printed_forms``: ``NVIDIA A800-SXM4-80GB`` is ``NVIDIA A800``); a
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

from shelf import DATA, write_or_check

from targetlang.configuration.components import BRAND_WORDS, find_listed, normal, printed_forms
from targetlang.configuration.device_names import pci_chip, split_products
from targetlang.errors import TargetError

OUTPUT = DATA / "devices.json"
MIRRORS = Path("/work/.mirror")
NVIDIA_GIT = Path(os.environ.get("TARGETLANG_NVIDIA_DRIVER_GIT",
                                 MIRRORS / "NVIDIA+open-gpu-kernel-modules" / "repo"))
PCIIDS_GIT = Path(os.environ.get("TARGETLANG_PCIIDS_GIT", MIRRORS / "pciutils+pciids" / "repo"))
ARCHSPEC_GIT = Path(os.environ.get("TARGETLANG_ARCHSPEC_GIT",
                                   MIRRORS / "archspec+archspec-json" / "repo"))
THEROCK_GIT = Path(os.environ.get("TARGETLANG_THEROCK_GIT", MIRRORS / "ROCm+TheRock" / "repo"))
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


def archspec_table(text: str, llvm_cpus: set[str]) -> dict[str, Any]:
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
        if llvm and llvm in llvm_cpus:
            out[name] = {"family": family, "vendor": info.get("vendor"), "llvm": llvm,
                         "parents": list(info.get("from", []))}
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
        "microarchitectures": archspec_table(uarch, llvm_cpus),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="its sources")


if __name__ == "__main__":
    sys.exit(main())
