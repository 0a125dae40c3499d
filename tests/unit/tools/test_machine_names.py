"""Device names as machines print them, read by the vendors' tables and naming schemes.

``tests/data/components/machine-names.json`` (``scripts/collect_machine_names.py``) holds real
tool output with its source and what each machine is, told apart from its name where the tool
printed more (lscpu's CPUID family and model, read as LLVM's host detection reads them). Every
name resolves to that, or is refused -- never to something else. The classes below are the
vendors' schemes, tested by rule over the tables, not by the data's strings.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTS

import targetlang as tl
from targetlang.configuration.components import (
    AmbiguousComponentError,
    UnknownComponentError,
    entries,
    find,
)
from targetlang.configuration.device_names import pci_chip, split_products, x86_microarchitecture

REPO = TESTS.parent
DATA = json.loads((TESTS / "data" / "components" / "machine-names.json").read_text("utf-8"))
ROWS: list[dict[str, Any]] = DATA["names"]
DEVICES = json.loads((REPO / "targetlang" / "_data" / "devices.json").read_text("utf-8"))
MIRRORS = Path("/work/.mirror")
ORACLE_021 = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                                 Path.home() / ".cache" / "targetlang-oracle")) / "bin" / "tvm021-python"


def _architecture(target: tl.Target) -> tuple[str, str]:
    """A target's kind and architecture (``sm_90a`` is ``sm_90`` with its own features)."""
    if target.kind == "cuda":
        return "cuda", re.sub(r"(?<=\d)[af]$", "", str(target.attrs.get("arch", "")))
    return target.kind, str(target.attrs.get("mcpu", ""))


def _outcome(row: dict[str, Any]) -> str:
    """``right``, ``refused`` or ``wrong`` (the test below fails on the last)."""
    try:
        found = tl.component(row["printed"])
    except (UnknownComponentError, AmbiguousComponentError):
        return "refused"
    truth = row["truth"]
    if truth is None:
        return "wrong"
    wanted = truth.get("arch") or truth.get("mcpu")
    return "right" if _architecture(found.target) == (truth["kind"], wanted) else "wrong"


def test_the_data_holds_at_least_300_real_names_with_their_sources() -> None:
    printed = [row["printed"] for row in ROWS]
    assert len(printed) == len(set(printed)) >= 300
    for row in ROWS:
        assert row["tool"] and row["source"].startswith("https://github.com/")
        assert row["truth"] is None or row["truth"]["kind"] in ("cuda", "rocm", "llvm")
    tools = " ".join(row["tool"] for row in ROWS)
    for tool in ("lscpu", "nvidia-smi", "torch", "rocminfo", "driver", "/proc/cpuinfo"):
        assert tool in tools


@pytest.mark.parametrize("row", ROWS, ids=[row["printed"] for row in ROWS])
def test_a_name_is_what_the_machine_is_or_is_refused(row: dict[str, Any]) -> None:
    assert _outcome(row) != "wrong", (row["printed"], row["truth"],
                                      tl.component(row["printed"]).name)


def test_the_counts_of_the_data() -> None:
    """The measure the issue asks for: how many resolve, how many are refused (and that the
    page says so)."""
    counts = {"right": 0, "refused": 0, "wrong": 0}
    for row in ROWS:
        counts[_outcome(row)] += 1
    unsaid = sum(1 for row in ROWS if row["truth"] is None)
    assert counts["wrong"] == 0 and counts["right"] >= 400
    page = (REPO / "docs" / "configuration.md").read_text("utf-8")
    assert f"{len(ROWS)} names" in page and f"{counts['right']} resolve" in page
    assert f"{counts['refused']} are refused ({unsaid} of them" in page


# ---- the vendors' tables ------------------------------------------------------------------------

def test_the_vendor_tables_are_loaded_with_their_sources() -> None:
    sources = DEVICES["sources"]
    for key in ("nvidia-driver", "pci-ids", "archspec"):
        assert re.fullmatch(r"[0-9a-f]{40}", sources[key]["commit"])
        assert sources[key]["url"].startswith(f"https://github.com/{sources[key]['repo']}/")
    assert "LLVM" in sources["llvm-amdgpu"]["recorded"]
    nvidia = DEVICES["nvidia"]
    assert nvidia["driver_rows"] >= 800 and len(nvidia["products"]) >= 100
    assert len(nvidia["chips"]) >= 40 and len(DEVICES["amd"]["chips"]) >= 20
    for row in nvidia["products"]:
        assert re.fullmatch(r"sm_\d+", row["arch"]) and row["printed"] and row["pci"]
        assert all(nvidia["chips"][chip]["arch"] == row["arch"] for chip in row["chips"])
    processors = DEVICES["amd"]["processors"]
    assert len(set(processors.values())) >= 40 and processors["tahiti"] == "gfx600"
    for key in ("util-linux", "aws-graviton"):
        assert re.fullmatch(r"[0-9a-f]{40}", sources[key]["commit"])
    assert "LLVM" in sources["llvm-arm-host"]["recorded"]
    for uarch in DEVICES["microarchitectures"].values():  # archspec's, where TVM's LLVM has it
        assert tl.component(uarch["llvm"]).target.attrs["mcpu"] == uarch["llvm"]
    arm = DEVICES["arm"]
    assert len(arm["implementers"]) >= 15 and arm["implementers"]["0x41"]["vendor"] == "ARM"
    assert sum(1 for row in arm["parts"] if row["name"]) >= 150
    assert sum(1 for row in arm["parts"] if row["llvm"]) >= 80


def test_every_driver_product_resolves_by_its_printed_names() -> None:
    for row in DEVICES["nvidia"]["products"]:
        for printed in row["printed"]:
            found = tl.component(printed)
            assert _architecture(found.target) == ("cuda", row["arch"]), printed


def test_every_amdgpu_processor_is_a_component() -> None:
    for name, gfx in DEVICES["amd"]["processors"].items():
        found = tl.component(name)
        assert found.name == gfx and found.target.attrs["mcpu"] == gfx


@pytest.mark.parametrize(("script", "mirrors"), [
    ("generate_devices.py", ("NVIDIA+open-gpu-kernel-modules", "pciutils+pciids",
                             "archspec+archspec-json", "ROCm+TheRock", "util-linux+util-linux",
                             "aws+aws-graviton-getting-started")),
    ("collect_machine_names.py", ("linuxhw+LsCPU", "the-database+mpv-AnimeJaNai",
                                  "vladmandic+sd-extension-system-info")),
])
def test_generated_data_is_up_to_date(script: str, mirrors: tuple[str, ...]) -> None:
    if not all((MIRRORS / m / "repo" / "HEAD").exists() for m in mirrors):
        pytest.skip(f"needs git mirrors of {', '.join(mirrors)} (scripts/{script})")
    if script == "generate_devices.py" and subprocess.run(
            ["sh", "-c", "command -v llc-19"], capture_output=True).returncode:
        pytest.skip("needs llc-19 (apt-get install llvm-19) for LLVM's AMDGPU processors")
    if script == "generate_devices.py" and not ORACLE_021.exists():
        pytest.skip(f"needs the TVM 0.21 oracle ({ORACLE_021}) for its LLVM's host detection")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / script), "--check"],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stdout + done.stderr


# ---- the classes, by rule -----------------------------------------------------------------------

@pytest.mark.parametrize(("printed", "arch"), [
    ("NVIDIA H800", "sm_90"), ("NVIDIA H20", "sm_90"), ("NVIDIA L20", "sm_89"),
    ("NVIDIA A800-SXM4-80GB", "sm_80"), ("NVIDIA GH200 480GB", "sm_90"),
    ("NVIDIA GeForce RTX 4090 D", "sm_89"), ("NVIDIA_A100_80GB", "sm_80"),
    ("NVIDIA GeForce RTX 3060 Laptop GPU", "sm_86"), ("NVIDIA GeForce RTX 2080 with Max-Q Design",
                                                       "sm_75"),
])
def test_the_issues_examples(printed: str, arch: str) -> None:
    assert _architecture(tl.component(printed).target) == ("cuda", arch)


def test_a_variables_and_a_labels_spelling_name_the_same_product() -> None:
    """``NVIDIA_A100_80GB`` (an environment variable) and ``NVIDIA-A100-SXM4-80GB`` (a
    Kubernetes node label, ``-SHARED`` when time-sliced) are the names with spaces."""
    for row in DEVICES["nvidia"]["products"][::7]:
        for printed in row["printed"][:1]:
            spaced = tl.component(printed)
            assert tl.component(printed.replace(" ", "_")) == spaced
            if printed.startswith("NVIDIA "):
                label = printed.replace(" ", "-")
                assert tl.component(label) == spaced
                assert tl.component(label + "-SHARED") == spaced
    assert tl.component("Tesla-V100-SXM2-16GB") == tl.component("Tesla V100-SXM2-16GB")


@pytest.mark.parametrize("suffix", [" Laptop GPU", " with Max-Q Design", " Mobile"])
def test_a_laptop_part_of_a_known_generation_is_its_architecture(suffix: str) -> None:
    """A laptop part the tables do not list is its generation's architecture (the desktop
    part's), never the desktop part itself; a data-centre part has no laptop parts."""
    for desktop in ("NVIDIA GeForce GTX 1070", "NVIDIA GeForce GTX 980", "Quadro P4000"):
        base = tl.component(desktop)
        found = tl.component(desktop + suffix)  # pci.ids may name it: "GTX 1070 Mobile"
        assert found != base
        assert found.name.startswith("sm_") or suffix.split()[-1] in found.name
        assert _architecture(found.target) == _architecture(base.target)
    with pytest.raises(UnknownComponentError):
        tl.component("NVIDIA A100" + suffix)


def test_pci_device_names_read_by_chip_and_products() -> None:
    """lspci's and rocm-smi's names (pci.ids): the products in brackets when they are one
    target, else the chip's architecture; several products of one target are that target's
    architecture component."""
    for printed, name in (
            ("Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]", "gfx1030"),
            ("Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/"
             "7900M] [1002:744c] (rev c8)", "gfx1100"),
            ("NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)", "nvidia/geforce-rtx-3090"),
            ("AD106M [GeForce RTX 4060 Max-Q / Mobile]", "sm_89"),
            ("Aldebaran/MI200 [Instinct MI250X/MI250]", "gfx90a")):
        assert tl.component(printed).name == name, printed
    assert pci_chip("GV100GL [Tesla V100 PCIe 16GB]")[0] == "GV100"
    assert split_products("Radeon RX 5500/5500M / Pro 5300") == [
        "Radeon RX 5500", "Radeon RX 5500M", "Radeon Pro 5300"]
    # RDNA4: AMD's ROCm build names gfx1201's products, pci.ids says they are Navi 48
    assert tl.component("Navi 48 [Radeon RX 9070/9070 XT]").name == "gfx1201"
    assert tl.component("AMD Radeon RX 9070 XT").target.attrs["mcpu"] == "gfx1201"


@pytest.mark.parametrize(("reading", "uarch"), [
    ("Intel Xeon Gold 6148", "skylake_avx512"), ("Intel Xeon Platinum 8259CL", "cascadelake"),
    ("Intel Xeon Gold 6348", "icelake-server"), ("Intel Xeon Platinum 8380HL", "cooperlake"),
    ("Intel Xeon Platinum 8480+", "sapphirerapids"), ("Intel Xeon Gold 6530", "emeraldrapids"),
    ("Intel Xeon 6980P", "graniterapids"), ("Intel Xeon 6780E", "sierraforest"),
    ("Intel Xeon CPU E5-2670 0", "sandybridge"), ("Intel Xeon CPU E5-2690 v2", "ivybridge"),
    ("Intel Xeon CPU E7-8890 v4", "broadwell"), ("Intel Xeon CPU E3-1230 v5", "skylake"),
    ("Intel Xeon CPU X5670", "westmere"), ("Intel Xeon W-2145", "skylake_avx512"),
    ("Intel Xeon D-1541", "broadwell"), ("Intel Xeon Phi CPU 7250", "mic_knl"),
    ("Intel Core i7-2600K", "sandybridge"), ("Intel Core i5-4590", "haswell"),
    ("Intel Core i7-8700K", "skylake"), ("Intel Core i7-1065G7", "icelake-client"),
    ("Intel Core i7-1165G7", "tigerlake"), ("Intel Core i9-11900K", "rocketlake"),
    ("Intel Core i9-12900K", "alderlake"), ("Intel Core i9-13900K", "raptorlake"),
    ("Intel Core i7-5930K", "haswell"), ("Intel Core i9-7980XE", "skylake_avx512"),
    ("Intel Core Ultra 7 155H", "meteorlake"), ("Intel Core Ultra 7 258V", "lunarlake"),
    ("Intel Core i7 CPU 920", "nehalem"), ("Intel Core 2 Duo CPU E8400", "penryn"),
    ("Intel Atom CPU C2750", "silvermont"), ("Intel Atom CPU C3758", "goldmont"),
    ("Intel Celeron CPU J1900", "silvermont"), ("Intel Celeron N4020", "goldmont-plus"),
    ("Intel Celeron N5105", "tremont"), ("Intel N100", "gracemont"),
    ("Intel Pentium CPU G4560", "skylake"),
    ("AMD EPYC 7601", "zen"), ("AMD EPYC 7742", "zen2"), ("AMD EPYC 7763", "zen3"),
    ("AMD EPYC 9654", "zen4"), ("AMD EPYC 9755", "zen5"), ("AMD EPYC 7B13", "zen3"),
    ("AMD Ryzen 7 1700X", "zen"), ("AMD Ryzen 5 3600", "zen2"), ("AMD Ryzen 5 3500U", "zen"),
    ("AMD Ryzen 7 5700U", "zen2"), ("AMD Ryzen 9 5950X", "zen3"), ("AMD Ryzen 5 7535HS", "zen3"),
    ("AMD Ryzen 9 7950X", "zen4"), ("AMD Ryzen 9 9950X", "zen5"),
    ("AMD Ryzen AI 9 HX 370", "zen5"), ("AMD Ryzen Threadripper 3990X", "zen2"),
    ("AMD Ryzen Threadripper PRO 5995WX", "zen3"), ("AMD Opteron Processor 6376", "piledriver"),
    ("AMD FX-8350 Eight-Core", "piledriver"), ("AMD A10-7850K", "steamroller"),
    ("AMD EPYC-Rome Processor", "zen2"), ("Intel Xeon Processor (Icelake)", "icelake-server"),
    ("Intel Core Processor (Broadwell, IBRS)", "broadwell"),
])
def test_x86_model_number_schemes(reading: str, uarch: str) -> None:
    assert x86_microarchitecture(reading) == uarch


@pytest.mark.parametrize(("printed", "mcpu"), [
    ("Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", "skylake-avx512"),
    ("AMD EPYC 7763 64-Core Processor", "znver3"),
    ("Intel(R) Xeon(R) Phi(TM) CPU 7210 @ 1.30GHz", "knl"),
    ("AMD Ryzen 9 7940HS w/ Radeon 780M Graphics", "znver4"),
    ("Intel(R) Core(TM) Ultra 9 285K", "arrowlake-s"),
])
def test_an_x86_cpu_is_the_llvm_cpu_tvms_mcpu_takes(printed: str, mcpu: str) -> None:
    """The scheme's microarchitecture is LLVM's CPU (archspec's name where archspec has the
    part: its clang flags say which LLVM CPU): an llvm target on the x86 Linux triple."""
    found = tl.component(printed)
    assert found.name == mcpu and found.target.kind == "llvm"
    assert found.target.attrs["mcpu"] == mcpu
    assert found.target.attrs["mtriple"] == "x86_64-linux-gnu"


def test_a_brand_that_is_also_an_llvm_cpu_is_not_read_as_it() -> None:
    """``AMD Athlon`` spans K7 to Zen, ``Intel Atom`` Bonnell to Gracemont: a printed name
    never reads as LLVM's ``athlon`` or ``atom`` (given as is, LLVM's name is that CPU)."""
    for printed in ("AMD Athlon(tm)", "Intel(R) Atom(TM) CPU", "Intel Pentium"):
        with pytest.raises(UnknownComponentError):
            tl.component(printed)
    assert tl.component("athlon").target.attrs["mcpu"] == "athlon"


def test_every_x86_scheme_answer_is_a_cpu_of_the_database() -> None:
    """What the schemes name resolves: archspec's name through its LLVM CPU, else LLVM's."""
    llvm = {name for name, entry in entries().items() if entry.origin == "cpu"}
    archspec = DEVICES["microarchitectures"]
    names = [row["printed"] for row in ROWS]
    for printed in names:
        reading = printed
        uarch = x86_microarchitecture(reading)
        if uarch is not None:
            assert archspec.get(uarch, {}).get("llvm", uarch) in llvm, (printed, uarch)


def test_same_target_picks_are_deterministic() -> None:
    first = [find(n)[0].name for n in ("GTX 1080 Ti", "MI50", "rtx 4000")]
    assert first == [find(n)[0].name for n in ("GTX 1080 Ti", "MI50", "rtx 4000")]


# ---- Arm CPUs: by MIDR, by core, by product line ----------------------------------------------

ARM = DEVICES["arm"]
VENDORS = {key: info["vendor"] for key, info in ARM["implementers"].items()}


def _cpu(found: tl.Component) -> str:
    assert found.target.kind == "llvm"
    return str(found.target.attrs["mcpu"])


def test_cpuinfo_lines_and_midr_values_read_as_llvms_host_detection_reads_them() -> None:
    """/proc/cpuinfo's ``CPU implementer`` and ``CPU part`` lines (and the MIDR as a register's
    value) are the CPU the oracle's LLVM named for that part, for every part it names."""
    cpus = {name for name, entry in entries().items() if entry.origin == "cpu"}
    rows = [row for row in ARM["parts"] if row["llvm"] in cpus]
    assert len(rows) >= 80
    for row in rows:
        implementer, part = int(row["implementer"], 16), int(row["part"], 16)
        lines = f"CPU implementer\t: {row['implementer']}\nCPU variant\t: 0x1\nCPU part\t: {row['part']}"
        assert _cpu(tl.component(lines)) == row["llvm"], lines
        midr = f"0x{implementer << 24 | 0xF << 16 | part << 4 | 1:016x}"
        assert _cpu(tl.component(midr)) == row["llvm"], midr
    for row in ARM["parts"]:  # a part LLVM names no CPU for is refused, saying so
        if row["llvm"] is None:
            with pytest.raises(UnknownComponentError, match="names no CPU"):
                tl.component(f"CPU implementer : {row['implementer']}\nCPU part : {row['part']}")


def test_a_part_number_without_its_implementer_is_read_only_where_they_agree() -> None:
    by_part: dict[str, set[str | None]] = {}
    for row in ARM["parts"]:
        by_part.setdefault(row["part"], set()).add(row["llvm"])
    disagree = [part for part, cpus in by_part.items() if len(cpus) > 1]
    agree = [part for part, cpus in by_part.items() if len(cpus) == 1 and None not in cpus]
    assert disagree and agree
    for part in disagree:
        with pytest.raises(AmbiguousComponentError, match="implementer line"):
            tl.component(f"CPU part : {part}")
    cpus = {name for name, entry in entries().items() if entry.origin == "cpu"}
    for part in agree:
        if next(iter(by_part[part])) in cpus:
            assert _cpu(tl.component(f"CPU part : {part}")) == next(iter(by_part[part]))
        else:  # an Arm CPU the database has no component of (ARMv5's arm926ej-s): said so
            with pytest.raises(UnknownComponentError, match="no CPU component"):
                tl.component(f"CPU part : {part}")


def test_big_and_little_cores_are_refused_listing_both() -> None:
    little, big = "0xd05", "0xd0b"  # as the table has them (Cortex-A55, Cortex-A76)
    cpus = {r["part"]: r["llvm"] for r in ARM["parts"] if r["implementer"] == "0x41"}
    text = "".join(f"processor : {n}\nCPU implementer : 0x41\nCPU part : {p}\n\n"
                   for n, p in enumerate((little, little, big)))
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component(text)
    assert cpus[little] in caught.value.message and cpus[big] in caught.value.message


def _one_cpu_names() -> dict[str, str]:
    """lscpu's core names whose parts LLVM reads as one CPU (parts it knows nothing of aside)."""
    cpus: dict[str, set[str]] = {}
    for row in ARM["parts"]:
        if row["name"] and row["llvm"]:
            cpus.setdefault(row["name"], set()).add(row["llvm"])
    return {name: next(iter(found)) for name, found in cpus.items() if len(found) == 1}


def test_lscpus_core_names_read_with_and_without_the_vendor() -> None:
    """Each core name lscpu prints (util-linux's table) is the CPU LLVM's host detection names
    for its parts -- as printed, after its vendor (``ARM Neoverse-N1``), and as lscpu's two
    lines ``Vendor ID:`` and ``Model name:``."""
    cpus = {name for name, entry in entries().items() if entry.origin == "cpu"}
    names = {name: cpu for name, cpu in _one_cpu_names().items() if cpu in cpus}
    assert len(names) >= 60
    for name, cpu in names.items():
        vendor = next(VENDORS[r["implementer"]] for r in ARM["parts"]
                      if r["name"] == name and r["llvm"])
        for printed in (name, f"{vendor.split('/')[0]} {name}",
                        f"Vendor ID:           {vendor}\nModel name:          {name}"):
            assert _cpu(tl.component(printed)) == cpu, printed


def test_a_core_name_with_a_model_number_reads_only_where_its_family_is_one_cpu() -> None:
    """``Cavium ThunderX2 CN9980`` is the ThunderX2 family's CPU; ``Kryo 585`` is refused:
    lscpu's names that start with ``Kryo`` are several CPUs."""
    vendors = {w.casefold() for vendor in VENDORS.values() for w in vendor.split("/")}
    cpus = {name for name, entry in entries().items() if entry.origin == "cpu"}
    families: dict[str, set[str | None]] = {}
    for row in ARM["parts"]:
        words = [w for w in re.split(r"[\s\-/]+", row["name"] or "") if w]
        if words and words[0].casefold() not in vendors:  # (Ampere-1: the vendor's word)
            families.setdefault(words[0], set()).add(row["llvm"])
    one = [f for f, found in families.items() if len(found) == 1 and found <= cpus]
    several = [f for f, cpus in families.items() if len({c for c in cpus if c}) > 1]
    assert one and several
    for family in several:
        with pytest.raises(AmbiguousComponentError):
            tl.component(f"{family} 9999")
    for family in one:  # with a model number after it, or as the name that stops there
        assert _cpu(tl.component(f"{family} 9999")) == next(iter(families[family]))
        assert _cpu(tl.component(family)) == next(iter(families[family]))
    assert _cpu(tl.component("Cavium ThunderX2")) == _cpu(tl.component("ThunderX2-99xx"))
    assert _cpu(tl.component("Marvell ThunderX2")) == _cpu(tl.component("ThunderX2-99xx"))


@pytest.mark.parametrize("around", ["{}", "AWS {}", "AWS {} Processor", "Amazon {}"])
def test_arm_server_products_are_their_vendors_core(around: str) -> None:
    """AWS's Graviton table (and archspec's first Graviton), Ampere's Altra: the CPU of the
    core their vendor names, however the firmware spells the product."""
    products = dict(ARM["products"])
    assert {"Graviton", "Graviton2", "Graviton3", "Graviton4"} <= set(products)
    for product, row in products.items():
        assert _cpu(tl.component(around.format(product))) == row["llvm"]
    altra = _cpu(tl.component("Ampere(R) Altra(R) Processor Q80-30 CPU @ 3.0GHz"))
    assert altra == _cpu(tl.component("ARM Neoverse-N1"))


@pytest.mark.parametrize("printed", [
    "QEMU Virtual CPU version 2.5+", "Common KVM processor", "Common 32-bit KVM processor",
    "Intel(R) Xeon(R) CPU @ 2.20GHz", "AMD Ryzen", "Apple processor",
    "ARMv8 Processor rev 1 (v8l)", "AArch64 Processor rev 4 (aarch64)"])
def test_names_of_no_architecture_are_refused_saying_why(printed: str) -> None:
    with pytest.raises(UnknownComponentError, match="names no architecture") as caught:
        tl.component(printed)
    assert repr(printed) in caught.value.message


# ---- Apple chips ------------------------------------------------------------------------------

def _apple_triple() -> str:
    hosts = {t.host.attrs["mtriple"] for t in tl.tags().values()
             if t.host is not None and "-apple-" in str(t.host.attrs.get("mtriple", ""))}
    assert len(hosts) == 1
    return str(hosts.pop())


@pytest.mark.parametrize("tier", ["", " Pro", " Max", " Ultra"])
def test_an_apple_brand_string_is_the_macs_cpu(tier: str) -> None:
    """``sysctl -n machdep.cpu.brand_string`` names the CPU: an llvm target on the triple of
    TVM's Apple tags' host, with the CPU LLVM lists for the chip's cores (clang's
    ``apple-m1`` is LLVM's alias of ``apple-a14``: TVM takes only the listed name). A chip's
    Pro, Max and Ultra have its generation's cores."""
    chips = {int(name[1:]): uarch for name, uarch in DEVICES["microarchitectures"].items()
             if re.fullmatch(r"m\d+", name) and uarch["vendor"] == "Apple"}
    assert {1, 2, 3, 4} <= set(chips)
    for number, uarch in chips.items():
        found = tl.component(f"Apple M{number}{tier}")
        assert found.name == f"Apple M{number}"
        assert found.target.attrs["mtriple"] == _apple_triple()
        assert found.target.attrs["mcpu"] == uarch["llvm"]
        assert found.properties["os"] == "macos"
        if "alias" in uarch:  # clang's own name of the chip's CPU reads as it too
            assert DEVICES["llvm_aliases"][uarch["alias"]] == uarch["llvm"]
            assert tl.component(uarch["alias"]) == found
    assert tl.component("Apple M1 GPU").name == "apple/m1-gpu"  # the GPU: its tag


def test_apple_cores_as_lscpu_names_them_are_the_same_cpu_on_linux() -> None:
    """Asahi Linux's lscpu names an M1's cores ``Firestorm-M1``: LLVM's CPU of the part, on the
    Linux triple of CPU names."""
    for row in ARM["parts"]:
        if row["implementer"] == "0x61" and row["name"] and row["llvm"]:
            found = tl.component(row["name"])
            assert _cpu(found) == row["llvm"]
            assert found.target.attrs["mtriple"] == "aarch64-linux-gnu"


# ---- a system-on-chip's GPU --------------------------------------------------------------------

def test_a_jetsons_gpu_named_by_its_chip_is_the_chips_gpu() -> None:
    """nvidia-smi (``Orin (nvgpu)``) and torch (``Orin``, ``Xavier``) name a Jetson's GPU by
    its system-on-chip. Every board tag that holds the chip's name is that GPU with a host
    CPU, and the boards differ only in their hosts: the name is the GPU's architecture. A
    name with the board line's word (``Jetson Orin``) names the boards, which stay apart."""
    boards: dict[str, list[tl.Target]] = {}
    for tag, target in tl.tags().items():
        if target.kind == "cuda" and target.host is not None and tag.startswith("nvidia/jetson"):
            for word in tag.split("/")[1].split("-"):
                boards.setdefault(word, []).append(target)
    for chip in ("orin", "xavier"):
        archs = {t.attrs["arch"] for t in boards[chip]}
        assert len(archs) == 1
        arch = archs.pop()
        for printed in (chip.capitalize(), f"NVIDIA {chip.capitalize()}",
                        f"{chip.capitalize()} (nvgpu)", f"NVIDIA {chip.capitalize()} (nvgpu)"):
            found = tl.component(printed)
            assert found.name == arch and found.target.attrs["arch"] == arch
            assert found.target.host is None
    with pytest.raises(AmbiguousComponentError):
        tl.component("Jetson Orin")
    with pytest.raises(AmbiguousComponentError):
        tl.component("NVIDIA Jetson AGX Orin Developer Kit")
