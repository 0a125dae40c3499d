"""Collect device names as machines print them, each with its source and what the machine is.

    python3 scripts/collect_machine_names.py            # writes tests/data/components/machine-names.json
    python3 scripts/collect_machine_names.py --check    # exit 1 if the committed file differs

The rows come from public tool output, each named by its URL at a commit:

* ``lscpu``: the Linux Hardware Database's probes (linuxhw/LsCPU, ``$TARGETLANG_LSCPU_GIT``,
  default ``/work/.mirror/linuxhw+LsCPU/repo``): one probe of every distinct "Model name", a
  deterministic tenth of them (by the name's SHA-1). What the machine is comes from the same
  probe, not from its name: the CPUID vendor, family, model, stepping and flags lscpu prints,
  read as LLVM's host detection reads them (``llvm/lib/TargetParser/Host.cpp``,
  getIntelProcessorTypeAndSubtype and getAMDProcessorTypeAndSubtype: the CPU name LLVM's
  ``-mcpu=native`` would pick). Family 6 model 0x55 is told apart by its stepping (4:
  Skylake-SP, 5-7: Cascade Lake, 10-11: Cooper Lake), as virtual machines hide the flags LLVM
  tests. A row whose probe says nothing LLVM can read (no flags where the flags decide) has
  ``truth`` null.
* A GPU benchmark's automated submissions (the-database/mpv-AnimeJaNai,
  ``data/benchmarks/submissions/*.json``, ``$TARGETLANG_ANIMEJANAI_GIT``): the GPU and CPU
  names the app read from the driver and the OS. What each product is was decided by hand
  (:data:`PRODUCTS`) from the vendors' tables (NVIDIA's CUDA GPUs list, AMD's ROCm and LLVM
  processor tables, Intel's and AMD's product pages).
* A Stable Diffusion benchmark's submissions (vladmandic/sd-extension-system-info,
  ``pages/benchmark-data.json`` before it left the repository, ``$TARGETLANG_SDINFO_GIT``):
  each machine's ``torch.cuda.get_device_name()`` printed with the device's own compute
  capability (``device:NVIDIA GeForce RTX 4090 (1) (compute_37) (8, 9)``) -- what the GPU is
  comes from the same machine, not from its name. A name its submissions print with two
  capabilities (a machine with two GPUs names one and measures the other) is left out, as
  are the names in :data:`SD_CONFLICTS`. ROCm's submissions print the HIP device's name
  without a capability: what each is was decided by hand (:data:`AMD_PRODUCTS`).
* Rows collected by hand from public issue threads (:data:`HAND`), each with the URL and, where
  the tool printed it, the compute capability or gfx processor as evidence.

A row's ``truth`` is the target's kind and architecture (``{"kind": "cuda", "arch": "sm_89"}``,
``{"kind": "rocm", "mcpu": "gfx1100"}``, ``{"kind": "llvm", "mcpu": "znver3"}``) or null where
the printed name does not say one (``AMD Radeon(TM) Graphics``, an Intel GPU).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from shelf import MIRRORS, TESTS_DATA, write_or_check

OUTPUT = TESTS_DATA / "components" / "machine-names.json"
LSCPU_GIT = Path(os.environ.get("TARGETLANG_LSCPU_GIT", MIRRORS / "linuxhw+LsCPU" / "repo"))
SDINFO_GIT = Path(os.environ.get("TARGETLANG_SDINFO_GIT",
                                 MIRRORS / "vladmandic+sd-extension-system-info" / "repo"))
SDINFO_PATH = "pages/benchmark-data.json"
ANIMEJANAI_GIT = Path(os.environ.get("TARGETLANG_ANIMEJANAI_GIT",
                                     MIRRORS / "the-database+mpv-AnimeJaNai" / "repo"))

# ---- LLVM's host detection (facts of llvm/lib/TargetParser/Host.cpp) ----------------------------

#: Intel family 6: model -> the CPU LLVM names (0x55 is decided by stepping, below).
INTEL_FAMILY_6: dict[str, tuple[int, ...]] = {
    "core2": (0x0f, 0x16), "penryn": (0x17, 0x1d), "nehalem": (0x1a, 0x1e, 0x1f, 0x2e),
    "westmere": (0x25, 0x2c, 0x2f), "sandybridge": (0x2a, 0x2d), "ivybridge": (0x3a, 0x3e),
    "haswell": (0x3c, 0x3f, 0x45, 0x46), "broadwell": (0x3d, 0x47, 0x4f, 0x56),
    "skylake": (0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6), "rocketlake": (0xa7,),
    "cannonlake": (0x66,), "icelake-client": (0x7d, 0x7e), "tigerlake": (0x8c, 0x8d),
    "alderlake": (0x97, 0x9a), "gracemont": (0xbe,), "raptorlake": (0xb7, 0xba, 0xbf),
    "meteorlake": (0xaa, 0xac), "arrowlake": (0xc5, 0xb5), "arrowlake-s": (0xc6,),
    "lunarlake": (0xbd,), "pantherlake": (0xcc,), "graniterapids": (0xad,),
    "graniterapids-d": (0xae,), "icelake-server": (0x6a, 0x6c), "emeraldrapids": (0xcf,),
    "sapphirerapids": (0x8f,), "bonnell": (0x1c, 0x26, 0x27, 0x35, 0x36),
    "silvermont": (0x37, 0x4a, 0x4d, 0x5a, 0x5d, 0x4c), "goldmont": (0x5c, 0x5f),
    "goldmont-plus": (0x7a,), "tremont": (0x86, 0x8a, 0x96, 0x9c), "sierraforest": (0xaf,),
    "grandridge": (0xb6,), "clearwaterforest": (0xdd,), "knl": (0x57,), "knm": (0x85,),
}
_INTEL_MODELS = {model: cpu for cpu, models in INTEL_FAMILY_6.items() for model in models}


def _amd_cpu(family: int, model: int, flags: set[str]) -> str | None:
    if family == 15:
        return ("k8-sse3" if "pni" in flags else "k8") if flags else None
    if family in (16, 18):
        return "amdfam10"
    if family == 21:
        if 0x60 <= model <= 0x7f:
            return "bdver4"
        if 0x30 <= model <= 0x3f:
            return "bdver3"
        if 0x10 <= model <= 0x1f or model == 0x02:
            return "bdver2"
        return "bdver1" if model <= 0x0f else None
    zen2 = ((0x30, 0x3f), (0x47, 0x47), (0x60, 0x7f), (0x84, 0x87), (0x90, 0xaf))
    return {20: "btver1", 22: "btver2",
            23: "znver2" if any(a <= model <= b for a, b in zen2) else "znver1",
            25: "znver4" if 0x10 <= model <= 0x1f or 0x60 <= model <= 0x7f
            or 0xa0 <= model <= 0xaf else "znver3",
            26: "znver5"}.get(family)


def _intel_by_features(flags: set[str]) -> str | None:
    """LLVM's guess for a family-6 model it does not list, by features (the older ones)."""
    if not flags or "avx" in flags:
        return None  # no flags printed; or a newer core than this table reads
    for feature, cpu in (("sse4_2", "nehalem"), ("sse4_1", "penryn"), ("ssse3", "core2"),
                         ("lm", "core2"), ("pni", "yonah"), ("sse2", "pentium-m"),
                         ("sse", "pentium3"), ("mmx", "pentium2")):
        if feature in flags:
            if feature in ("sse4_2", "ssse3") and "movbe" in flags:
                return "silvermont" if feature == "sse4_2" else "bonnell"
            return cpu
    return "pentiumpro"


def host_cpu(vendor: str, family: str, model: str, stepping: str, flags: str) -> str | None:
    """The CPU LLVM's host detection names for what lscpu printed, or None."""
    try:
        fam, mod = int(family), int(model)
    except (TypeError, ValueError):
        return None
    present = set(flags.split())
    if vendor == "GenuineIntel" and fam == 6:
        if mod == 0x55:
            step = int(stepping) if stepping.isdigit() else -1
            return None if step < 0 else "cooperlake" if step >= 10 else \
                "cascadelake" if step >= 5 else "skylake-avx512"
        return _INTEL_MODELS.get(mod) or _intel_by_features(present)
    if vendor == "AuthenticAMD":
        return _amd_cpu(fam, mod, present)
    return None


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def _fields(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.split("\n"):
        match = re.match(r"([^:]+):\s*(.*)", line)
        if match:
            out.setdefault(match.group(1).strip(), match.group(2).strip())
    return out


def _blobs(repo: Path, specs: list[str]) -> list[str]:
    """The text of each ``commit:path`` (one ``git cat-file --batch``)."""
    done = subprocess.run(["git", "--git-dir", str(repo), "cat-file", "--batch"],
                          input="".join(f"{s}\n" for s in specs).encode(), check=True,
                          capture_output=True).stdout
    out = []
    at = 0
    for _ in specs:
        header_end = done.index(b"\n", at)
        size = int(done[at:header_end].split()[2])
        out.append(done[header_end + 1:header_end + 1 + size].decode("utf-8", "replace"))
        at = header_end + 1 + size + 1
    return out


#: lscpu's vendors of Arm CPUs: it names the core from its part number (util-linux's table).
ARM_VENDORS = ("ARM", "Qualcomm", "HiSilicon", "Marvell", "Nvidia")


def lscpu_rows(every: bool = False) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """One row per distinct lscpu "Model name": a tenth of them (``every``: all)."""
    commit = _git(LSCPU_GIT, "rev-parse", "HEAD").strip()
    paths = sorted(p for p in _git(LSCPU_GIT, "ls-tree", "-r", "--name-only", commit).split("\n")
                   if p.count("/") >= 4)
    first: dict[tuple[str, str], str] = {}
    for path in paths:
        parts = path.split("/")
        first.setdefault((parts[0], parts[2]), path)
    rows = []
    seen = set()
    chosen = sorted(first.values())
    for path, text in zip(chosen, _blobs(LSCPU_GIT, [f"{commit}:{p}" for p in chosen])):
        fields = _fields(text)
        name = fields.get("Model name", "")
        if not name or name in seen or \
                (not every and int(hashlib.sha1(name.encode()).hexdigest(), 16) % 10):
            continue
        seen.add(name)
        truth = host_cpu(fields.get("Vendor ID", ""), fields.get("CPU family", ""),
                         fields.get("Model", ""), fields.get("Stepping", ""),
                         fields.get("Flags", ""))
        if fields.get("Vendor ID") in ARM_VENDORS:
            truth = None  # lscpu names the core from its part number: no second opinion here
        rows.append({
            "printed": name, "tool": "lscpu (Model name)",
            "source": f"https://github.com/linuxhw/LsCPU/blob/{commit}/{path}",
            "evidence": {k: fields.get(k, "") for k in ("Vendor ID", "CPU family", "Model",
                                                         "Stepping")},
            "truth": {"kind": "llvm", "mcpu": truth} if truth else None})
    return rows, {"repo": "linuxhw/LsCPU", "commit": commit}


# ---- hand-decided products ----------------------------------------------------------------------

def _cuda(arch: str) -> dict[str, str]:
    return {"kind": "cuda", "arch": arch}


def _rocm(mcpu: str) -> dict[str, str]:
    return {"kind": "rocm", "mcpu": mcpu}


def _llvm(mcpu: str) -> dict[str, str]:
    return {"kind": "llvm", "mcpu": mcpu}


#: What each product named in the benchmark's submissions is (by the vendors' tables); None:
#: the name says no architecture (an integrated "Radeon Graphics", an Intel GPU).
PRODUCTS: dict[str, dict[str, str] | None] = {
    **{n: _cuda("sm_120") for n in (
        "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5080", "NVIDIA GeForce RTX 5070",
        "NVIDIA GeForce RTX 5070 Ti", "NVIDIA GeForce RTX 5060 Ti",
        "NVIDIA GeForce RTX 5090 Laptop GPU", "NVIDIA GeForce RTX 5050 Laptop GPU")},
    **{n: _cuda("sm_89") for n in (
        "NVIDIA GeForce RTX 4090", "RTX 4090", "NVIDIA GeForce RTX 4080 SUPER",
        "NVIDIA GeForce RTX 4070", "NVIDIA GeForce RTX 4070 Ti",
        "NVIDIA GeForce RTX 4070 Ti SUPER", "NVIDIA GeForce RTX 4080 Laptop GPU",
        "NVIDIA GeForce RTX 4070 Laptop GPU", "NVIDIA GeForce RTX 4060 Laptop GPU",
        "NVIDIA GeForce RTX 4050 Laptop GPU")},
    **{n: _cuda("sm_86") for n in (
        "NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 3080 Ti",
        "NVIDIA GeForce RTX 3070", "NVIDIA GeForce RTX 3050",
        "NVIDIA GeForce RTX 3050 6GB Laptop GPU")},
    **{n: _cuda("sm_75") for n in (
        "NVIDIA GeForce RTX 2080", "NVIDIA GeForce GTX 1660 Ti", "NVIDIA GeForce GTX 1660 SUPER")},
    "AMD Radeon RX 9070 XT": _rocm("gfx1201"), "AMD Radeon RX 7900 XTX": _rocm("gfx1100"),
    "AMD Radeon RX 7800 XT": _rocm("gfx1101"), "AMD Radeon(TM) 860M Graphics": _rocm("gfx1152"),
    "AMD Radeon(TM) Graphics": None, "Intel(R) Iris(R) Xe Graphics": None,
    "Intel(R) Arc(TM) B580 Graphics": None,
    **{n: _llvm("raptorlake") for n in (
        "13th Gen Intel(R) Core(TM) i9-13900K", "13th Gen Intel(R) Core(TM) i9-13900KF",
        "13th Gen Intel(R) Core(TM) i5-13400F", "13th Gen Intel(R) Core(TM) i5-13450HX",
        "Intel(R) Core(TM) i5-14600KF", "Intel(R) Core(TM) i9-14900HX")},
    **{n: _llvm("alderlake") for n in (
        "12th Gen Intel(R) Core(TM) i5-12600KF", "12th Gen Intel(R) Core(TM) i9-12900K",
        "12th Gen Intel(R) Core(TM) i7-12700KF", "12th Gen Intel(R) Core(TM) i5-1235U")},
    **{n: _llvm("skylake") for n in (
        "Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz", "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz",
        "Intel(R) Core(TM) i7-10700K CPU @ 3.80GHz", "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz",
        "Intel(R) Core(TM) i5-8400 CPU @ 2.80GHz")},
    "Intel(R) Core(TM) Ultra 9 275HX": _llvm("arrowlake-s"),
    "Intel(R) Core(TM) Ultra 7 265K": _llvm("arrowlake-s"),
    **{n: _llvm("znver5") for n in (
        "AMD Ryzen 7 9800X3D 8-Core Processor", "AMD Ryzen 7 9700X 8-Core Processor",
        "AMD Ryzen 9 9950X3D 16-Core Processor", "AMD Ryzen 5 9600X 6-Core Processor",
        "AMD Ryzen AI 7 350 w/ Radeon 860M")},
    **{n: _llvm("znver4") for n in (
        "AMD Ryzen 7 7800X3D 8-Core Processor", "AMD Ryzen 9 7950X3D 16-Core Processor",
        "AMD Ryzen 9 7900 12-Core Processor", "AMD Ryzen 5 7600 6-Core Processor",
        "AMD Ryzen 5 7600X 6-Core Processor", "AMD Ryzen 7 7700 8-Core Processor",
        "AMD Ryzen 5 7500F 6-Core Processor", "AMD Ryzen 7 8700F 8-Core Processor",
        "AMD Ryzen 9 7940HS w/ Radeon 780M Graphics",
        "AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", "AMD Ryzen 7 250 w/ Radeon 780M Graphics")},
    **{n: _llvm("znver3") for n in (
        "AMD Ryzen 7 5700X 8-Core Processor", "AMD Ryzen 9 5900X 12-Core Processor",
        "AMD Ryzen 5 5600X 6-Core Processor", "AMD Ryzen 7 5800X 8-Core Processor",
        "AMD Ryzen 7 5700X3D 8-Core Processor", "AMD Ryzen 7 5800X3D 8-Core Processor",
        "AMD Ryzen 9 5950X 16-Core Processor", "AMD Ryzen 7 7435HS")},
}


def benchmark_rows() -> tuple[list[dict[str, Any]], dict[str, str]]:
    log = _git(ANIMEJANAI_GIT, "log", "--all", "--format=C %H", "--name-only",
               "--diff-filter=A", "--", "data/benchmarks/submissions/*")
    added: list[tuple[str, str]] = []
    commit = ""
    for line in log.split("\n"):
        if line.startswith("C "):
            commit = line[2:]
        elif line.strip():
            added.append((commit, line.strip()))
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for commit, path in sorted(added, key=lambda item: item[1]):
        text = _git(ANIMEJANAI_GIT, "show", f"{commit}:{path}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            continue
        for field, tool in (("gpu", "benchmark app (the driver's adapter name)"),
                            ("cpu", "benchmark app (the OS's processor name)")):
            name = str(data.get(field) or "")
            if not name or name in seen:
                continue
            if name not in PRODUCTS:
                raise SystemExit(f"{path}: {name!r} is not in PRODUCTS: decide what it is")
            seen.add(name)
            rows.append({"printed": name, "tool": tool,
                         "source": f"https://github.com/the-database/mpv-AnimeJaNai/blob/"
                                   f"{commit}/{path}",
                         "evidence": {"decided": "by hand, from the vendors' tables"},
                         "truth": PRODUCTS[name]})
    return rows, {"repo": "the-database/mpv-AnimeJaNai"}


#: The benchmark's names whose submissions agree on a capability that NVIDIA's CUDA GPUs list
#: contradicts: a second GPU's capability, not the named one's.
SD_CONFLICTS = {
    "Quadro RTX 4000": "NVIDIA's CUDA GPUs list: 7.5 (TU104); both submissions printed (6, 1)",
}

#: What each HIP device the benchmark names is (AMD's ROCm specifications and LLVM's AMDGPU
#: processors: Navi 21 is gfx1030, Navi 22 gfx1031, Navi 23 gfx1032, Navi 31 gfx1100, Navi 10
#: gfx1010, Vega 10 gfx900, Polaris 10/20 gfx803); None: the name says none.
AMD_PRODUCTS: dict[str, dict[str, str] | None] = {
    "Radeon RX 7900 XTX": _rocm("gfx1100"), "Radeon RX 7900 XT": _rocm("gfx1100"),
    "AMD Radeon RX 6900 XT": _rocm("gfx1030"), "AMD Radeon RX 6800 XT": _rocm("gfx1030"),
    "AMD Radeon RX 6800": _rocm("gfx1030"), "AMD Radeon RX 6750 XT": _rocm("gfx1031"),
    "AMD Radeon RX 6700 XT": _rocm("gfx1031"), "AMD Radeon RX 6600 XT": _rocm("gfx1032"),
    "AMD Radeon RX 5700 XT": _rocm("gfx1010"), "AMD Radeon Pro WX 9100": _rocm("gfx900"),
    "Radeon RX Vega": _rocm("gfx900"), "AMD Radeon RX Vega": _rocm("gfx900"),
    "AMD Radeon RX 580 Series": _rocm("gfx803"),
    "AMD Radeon Graphics": None,
}


def sd_benchmark_rows() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The SD benchmark's device names: CUDA devices with their printed capability, ROCm
    devices decided by hand."""
    commit = next(c for c in _git(SDINFO_GIT, "log", "--all", "--format=%H", "--",
                                  SDINFO_PATH).split()
                  if subprocess.run(["git", "--git-dir", str(SDINFO_GIT), "cat-file", "-e",
                                     f"{c}:{SDINFO_PATH}"], capture_output=True).returncode == 0)
    data = json.loads(_git(SDINFO_GIT, "show", f"{commit}:{SDINFO_PATH}"))
    url = f"https://github.com/vladmandic/sd-extension-system-info/blob/{commit}/{SDINFO_PATH}"
    cuda: dict[str, set[str]] = {}
    submissions: dict[str, list[int]] = {}
    hip: dict[str, list[int]] = {}
    for row in data:
        text = str(row[6])
        found = re.match(r"device:(.+?) \(\d+\) \([^)]*\) \((\d+), (\d+)\)", text)
        if found:
            cuda.setdefault(found.group(1), set()).add(f"sm_{found.group(2)}{found.group(3)}")
            submissions.setdefault(found.group(1), []).append(int(row[0]))
            continue
        found = re.match(r"device:(.+?) \(\d+\) hip:", text)
        if found:
            hip.setdefault(found.group(1), []).append(int(row[0]))
    rows = []
    tool = ("torch.cuda.get_device_name() (a benchmark's submissions: the name, the count, "
            "the arch list, the device's capability)")
    for name in sorted(cuda):
        if len(cuda[name]) != 1 or name in SD_CONFLICTS:
            continue
        arch = next(iter(cuda[name]))
        rows.append({"printed": name, "tool": tool, "source": url,
                     "evidence": {"capability": f"{arch} (submissions "
                                  f"{', '.join(map(str, sorted(submissions[name])[:3]))})"},
                     "truth": _cuda(arch)})
    for name in sorted(hip):
        if name not in AMD_PRODUCTS:
            raise SystemExit(f"{SDINFO_PATH}: {name!r} is not in AMD_PRODUCTS: decide what it is")
        rows.append({"printed": name, "tool": "torch.cuda.get_device_name() on ROCm (a "
                     "benchmark's submissions)", "source": url,
                     "evidence": {"decided": "by hand, from AMD's tables", "submissions":
                                  ", ".join(map(str, sorted(hip[name])[:3]))},
                     "truth": AMD_PRODUCTS[name]})
    return rows, {"repo": "vladmandic/sd-extension-system-info", "commit": commit}


#: Rows seen in public issue threads: (printed, tool, URL, truth, evidence).
HAND: tuple[tuple[str, str, str, dict[str, str] | None, str], ...] = (
    ("NVIDIA H20", "nvidia-smi", "https://github.com/NVIDIA/nvtrust/issues/128",
     _cuda("sm_90"), "Hopper (NVIDIA's H20 datasheet; GH100 in pci.ids)"),
    ("NVIDIA H800", "torch.utils.collect_env (GPU 0)",
     "https://github.com/AeroScripts/leapfusion-hunyuan-image2video/issues/12",
     _cuda("sm_90"), "torch printed 'NVIDIA H800 with CUDA capability sm_90' in "
                     "https://github.com/ml4bio/Dense-Homolog-Retrieval/issues/28"),
    ("NVIDIA H100 80GB HBM3", "torch.utils.collect_env (GPU 0)",
     "https://github.com/vllm-project/vllm/issues/6746", _cuda("sm_90"), "NVIDIA's CUDA GPUs list"),
    ("GeForce GTX 780", "nvidia-smi -q (Product Name)",
     "https://github.com/MatthiasSchinzel/sysmon/issues/12", _cuda("sm_35"),
     "NVIDIA's CUDA GPUs list: 3.5"),
    ("GeForce 920M", "nvidia-smi -q (Product Name)",
     "https://github.com/NVIDIA/nvidia-docker/issues/895", _cuda("sm_35"),
     "NVIDIA's CUDA GPUs list: 3.5"),
    ("Quadro P1000", "LM Studio hardware survey (the driver's name)",
     "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/334", _cuda("sm_61"),
     "NVIDIA's CUDA GPUs list: 6.1"),
    ("NVIDIA GeForce RTX 3060", "nvidia-smi",
     "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/790", _cuda("sm_86"),
     "NVIDIA's CUDA GPUs list: 8.6"),
    ("AMD Ryzen Threadripper 2920X 12-Core Processor", "rocminfo (Agent 1 Name)",
     "https://github.com/vladmandic/sdnext/issues/1973", _llvm("znver1"),
     "Zen+ (family 17h model 08h: LLVM's znver1)"),
    ("AMD Ryzen 9 5900HX with Radeon Graphics", "rocminfo (Agent 1 Name)",
     "https://github.com/lamikr/rocm_sdk_builder/issues/185", _llvm("znver3"), "Cezanne: Zen 3"),
    ("AMD Ryzen 7 1700X Eight-Core Processor", "rocminfo (Agent 1 Name)",
     "https://github.com/ROCm/rocm-install-on-linux/issues/247", _llvm("znver1"), "Zen"),
    ("AMD Ryzen 5 3600 6-Core Processor", "rocminfo (Agent 1 Name)",
     "https://github.com/ROCm/pytorch/issues/2730", _llvm("znver2"), "Matisse: Zen 2"),
    ("AMD Eng Sample: 100-000001243-50_Y", "rocminfo (Agent 1 Name)",
     "https://github.com/ROCm/legacy-rocm-build/issues/4499", None,
     "an engineering sample's OPN: the name says no core"),
    ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "rocminfo (ISA Name)",
     "https://github.com/ROCm/legacy-rocm-build/issues/5480", _rocm("gfx90a"),
     "the ISA name is the processor"),
    ("gfx1102", "rocminfo (Agent 2 Name)", "https://github.com/Dr-Noob/gpufetch/issues/69",
     _rocm("gfx1102"), "the agent's name is the processor"),
    ("AMD Radeon RX 7700S", "rocminfo (Marketing Name)",
     "https://github.com/Dr-Noob/gpufetch/issues/69", _rocm("gfx1102"),
     "rocminfo printed Name: gfx1102 for it"),
    ("Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz", "/proc/cpuinfo (as quoted)",
     "https://github.com/TristanBilot/mlx-benchmark/pull/12", _llvm("icelake-server"),
     "3rd generation Xeon Scalable (Ice Lake-SP)"),
    # GPUs as tools print them, most with the device's own compute capability or gfx
    # processor in the same output
    ('NVIDIA GeForce RTX 5080 Laptop GPU', 'torch (UserWarning: ... with CUDA capability sm_XY ...)',
     'https://github.com/RetroUpgrade-YouTube/Hi3DGen_1Click_installer/issues/5', _cuda("sm_120"),
     'torch printed sm_120 for it'),
    ('NVIDIA GeForce RTX 5070 Laptop GPU', 'torch (UserWarning: ... with CUDA capability sm_XY ...)',
     'https://github.com/coendevente/SlicerNNInteractive/issues/58', _cuda("sm_120"),
     'torch printed sm_120 for it'),
    ('GeForce GTX 960M', 'torch (UserWarning: Found GPU0 ... which is of cuda capability X.Y)',
     'https://github.com/peterjc123/pytorch-scripts/issues/13', _cuda("sm_50"),
     'torch printed cuda capability 5.0'),
    ('GeForce GTX 670M', 'torch (UserWarning: Found GPU0 ... which is of cuda capability X.Y)',
     'https://github.com/pytorch/pytorch/issues/16712', _cuda("sm_21"),
     'torch printed cuda capability 2.1'),
    ('GeForce GTX 660 Ti', 'torch (UserWarning: Found GPU0 ... which is of cuda capability X.Y)',
     'https://github.com/alievk/avatarify-python/issues/58', _cuda("sm_30"),
     'torch printed cuda capability 3.0'),
    ('NVIDIA GTX TITAN Black', 'torch (UserWarning: Found GPU0 ... which is of cuda capability X.Y)',
     'https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/3003', _cuda("sm_35"),
     'torch printed cuda capability 3.5'),
    ('Ellesmere [Radeon RX 470/480/570/570X/580/580X]', "torch on ROCm (Found GPU0 ...: the HIP device's name)",
     'https://github.com/ROCm/pytorch/issues/627', _rocm("gfx803"),
     "the reporter names it gfx803 (Polaris 10: LLVM's polaris10 is gfx803)"),
    ('GeForce GT 720', 'torch (UserWarning: Found GPU0 ... which is of cuda capability X.Y)',
     'https://github.com/w-okada/voice-changer/issues/447', _cuda("sm_35"),
     'torch printed cuda capability 3.5'),
    ('GeForce RTX 3080', 'torch (UserWarning: GeForce RTX 3080 with CUDA capability sm_86 ...)',
     'https://github.com/pytorch/pytorch/issues/45028', _cuda("sm_86"),
     'torch printed sm_86 for it'),
    ('GeForce RTX 3090', 'torch (UserWarning: ... with CUDA capability sm_XY ...)',
     'https://github.com/ml-struct-bio/cryodrgn/issues/91', _cuda("sm_86"),
     'torch printed sm_86 for it'),
    ('NVIDIA GeForce RTX 5090 Laptop GPU', 'torch (UserWarning: ... with CUDA capability sm_XY ...)',
     'https://github.com/Lex-au/Orpheus-FastAPI/issues/84', _cuda("sm_120"),
     'dup'),
    ('AMD Radeon RX 6600 XT', "rocminfo (Marketing Name; the same agent's Name: gfxNNN)",
     'https://github.com/ROCm/legacy-rocm-build/issues/1698', _rocm("gfx1032"),
     'rocminfo printed Name: gfx1032 for it'),
    ('Arcturus GL-XL [AMD Instinct MI100]', 'rocm-smi --showproductname (Card series)',
     'https://github.com/easybuilders/easybuild-framework/pull/3978', _rocm("gfx908"),
     "AMD's ROCm table: MI100 is gfx908"),
    ('Fiji [Radeon R9 FURY / NANO Series]', 'rocm-smi --showproductname (Card series)',
     'https://github.com/easybuilders/easybuild-framework/pull/3978', _rocm("gfx803"),
     "Fiji: LLVM's processor fiji is gfx803"),
    ('Radeon R9 FURY X', 'rocm-smi --showproductname (Card model)',
     'https://github.com/easybuilders/easybuild-framework/pull/3978', _rocm("gfx803"),
     "Fiji: LLVM's processor fiji is gfx803"),
    ('AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2', 'rocm-smi --showproductname --json (Card Series)',
     'https://github.com/ROCm/rocm_smi_lib/issues/159', _rocm("gfx90a"),
     "the same output's GFX Version (gfx9010) and the card model 0x7408 (MI250X): gfx90a"),
    ('Radeon RX 7900 XTX', "rocminfo (Marketing Name; the same agent's Name: gfxNNN)",
     'https://github.com/PTFOPlayer/rocm_smi_lib_rs/issues/2', _rocm("gfx1100"),
     'rocminfo printed Name: gfx1100 for it'),
    ('AMD Instinct MI210', "amd-smi / omnistat (the card's type)",
     'https://github.com/ROCm/omnistat/pull/315', _rocm("gfx90a"),
     "AMD's ROCm table: MI210 is gfx90a"),
    ('Phoenix3', 'rocm-smi --json (Device Name)',
     'https://github.com/sebhildebrandt/systeminformation/pull/960', _rocm("gfx1103"),
     "the reporter's Radeon 780M (Phoenix): gfx1103"),
    ('GeForce GT 750M', 'tensorflow (Found device 0 with properties: name ... major/minor, or compute capability)',
     'https://github.com/pbhogale/gpu-keras-rstudio/issues/5', _cuda("sm_30"),
     'tensorflow printed major: 3 minor: 0'),
    ('GeForce GTX 970', 'deviceQuery (Device 0: "..."; CUDA Capability Major/Minor version number)',
     'https://github.com/AlexeyAB/darknet/issues/3334', _cuda("sm_52"),
     'deviceQuery printed 5.2'),
    ('Tesla T4', 'tensorflow (Created TensorFlow device ... physical GPU (device: 0, name: ..., compute capability: X.Y))',
     'https://github.com/tensorflow/tensorflow/issues/62170', _cuda("sm_75"),
     'tensorflow printed compute capability 7.5'),
    ('Tesla M40 24GB', 'tensorflow (Created TensorFlow device ... physical GPU (device: 0, name: ..., compute capability: X.Y))',
     'https://github.com/tensorflow/tensorflow/issues/31969', _cuda("sm_52"),
     'tensorflow printed compute capability 5.2'),
    ('GeForce 820M', 'tensorflow (Found device 0 with properties: name ... major/minor, or compute capability)',
     'https://github.com/tensorflow/tensorflow/issues/24227', _cuda("sm_21"),
     'tensorflow printed major: 2 minor: 1'),
    ('Tesla V100-SXM2-32GB', 'tensorflow (Created TensorFlow device ... physical GPU (device: 0, name: ..., compute capability: X.Y))',
     'https://github.com/apple/turicreate/issues/2777', _cuda("sm_70"),
     'tensorflow printed compute capability 7.0'),
    ('Quadro M1200', 'tensorflow (Found device 0 with properties: name ... major/minor, or compute capability)',
     'https://github.com/tensorflow/tensorflow/issues/10656', _cuda("sm_50"),
     'tensorflow printed major: 5 minor: 0'),
    ('NVIDIA A10G', 'torch.utils.collect_env (GPU models and configuration)',
     'https://github.com/NVIDIA/apex/issues/1545', _cuda("sm_86"),
     "NVIDIA's CUDA GPUs list: A10 (GA102) 8.6"),
    ('NVIDIA A100-PCIE-40GB', 'torch.utils.collect_env (GPU models and configuration)',
     'https://github.com/siliconflow/onediff/pull/1044', _cuda("sm_80"),
     "NVIDIA's CUDA GPUs list: A100 8.0"),
    ('RTX A6000', 'torch (UserWarning: RTX A6000 with CUDA capability sm_86 ...)',
     'https://github.com/nerfstudio-project/nerfacc/issues/80', _cuda("sm_86"),
     'torch printed sm_86 for it'),
    ('GeForce GTX 1070 Ti', 'torch (UserWarning: GeForce GTX 1070 Ti with CUDA capability sm_61 ...)',
     'https://github.com/pytorch/pytorch/issues/53164', _cuda("sm_61"),
     'torch printed sm_61 for it'),
    ('NVIDIA GeForce GTX 1650', 'lc0 (GPU: ...; GPU compute capability: X.Y)',
     'https://github.com/LeelaChessZero/lc0/issues/1670', _cuda("sm_75"),
     'lc0 printed compute capability 7.5'),
    ('GeForce GTX 1060 6GB', 'xmrig-cuda (CUDA GPU #0 ... arch:XY)',
     'https://github.com/xmrig/xmrig-cuda/issues/67', _cuda("sm_61"),
     'xmrig-cuda printed arch:61'),
    ('GeForce 610M', 'xmrig-nvidia (GPU #0 ... arch:XY)',
     'https://github.com/xmrig/xmrig-nvidia/issues/245', _cuda("sm_21"),
     'xmrig-nvidia printed arch:21'),
    ('GeForce GT 710', 'xmrig (nvidia devices table: NAME)',
     'https://github.com/xmrig/xmrig/issues/2166', _cuda("sm_35"),
     "NVIDIA's CUDA GPUs list: GT 710 3.5"),
    ('GeForce GTX 1060 3GB', 'KataGo (Cuda backend: Found GPU ... compute capability major M minor N)',
     'https://github.com/lightvector/KataGo/issues/118', _cuda("sm_61"),
     'KataGo printed major 6 minor 1'),
    ('GeForce GTX 1070', 'KataGo (Found OpenCL Device 0: ... (NVIDIA Corporation))',
     'https://github.com/lightvector/KataGo/issues/134', _cuda("sm_61"),
     "NVIDIA's CUDA GPUs list: GTX 1070 6.1"),
    ('NVIDIA RTX A5000', "gpufetch (Name; Microarchitecture: ... (X.Y), the device's compute capability)",
     'https://github.com/Dr-Noob/gpufetch/issues/61', _cuda("sm_86"),
     'gpufetch printed Ampere (8.6)'),
    ('NVIDIA RTX PRO 6000 Blackwell Workstation Edition', "gpufetch (Name; Microarchitecture: ... (X.Y), the device's compute capability)",
     'https://github.com/Dr-Noob/gpufetch/issues/62', _cuda("sm_120"),
     'gpufetch printed SM 12.0'),
    ('NVIDIA GeForce RTX 3070 Ti Laptop GPU', "gpufetch (Name; Microarchitecture: ... (X.Y), the device's compute capability)",
     'https://github.com/Dr-Noob/gpufetch/issues/29', _cuda("sm_86"),
     'gpufetch printed (8.6)'),
    ('NVIDIA Graphics Device', "gpufetch (Name; Microarchitecture: ... (X.Y), the device's compute capability)",
     'https://github.com/Dr-Noob/gpufetch/issues/34', _cuda("sm_89"),
     'gpufetch printed Ada Lovelace (8.9), AD102; the name says none'),
    ('NVIDIA GeForce RTX 4060 Ti', "gpufetch (Name; Microarchitecture: ... (X.Y), the device's compute capability)",
     'https://github.com/Dr-Noob/gpufetch/issues/60', _cuda("sm_89"),
     'gpufetch printed (8.9)'),
    ('NVIDIA Corporation GA104 [GeForce RTX 3060] [10de:2487] (rev a1)', 'lspci -nn (VGA compatible controller)',
     'https://github.com/Dr-Noob/gpufetch/issues/28', _cuda("sm_86"),
     "GA104: NVIDIA's CUDA GPUs list, RTX 3060 8.6"),
    ('Orin (nvgpu)', 'nvidia-smi -L (Jetson AGX Orin)',
     'https://github.com/anduril/jetpack-nixos/pull/371', _cuda("sm_87"),
     "NVIDIA's CUDA GPUs list: Jetson AGX Orin 8.7"),
    ('Orin', "torch (sglang's environment: GPU 0 and its Compute Capability)",
     'https://github.com/sgl-project/sglang/issues/3331', _cuda("sm_87"),
     'the same output printed Compute Capability: 8.7'),
    ('AWS Graviton2', 'lscpu (BIOS Model name)',
     'https://github.com/workhorsy/py-cpuinfo/issues/199', _llvm("neoverse-n1"),
     "the same lscpu printed Model name: Neoverse-N1 (ARM's part 0xd0c)"),
    ('Neoverse-N1', 'lscpu (Model name; an Ampere Altra at Azure)',
     'https://github.com/archspec/archspec-json/issues/41', _llvm("neoverse-n1"),
     "ARM's part 0xd0c: LLVM's host detection names neoverse-n1"),
    ('CPU implementer : 0x41\nCPU architecture: 8\nCPU variant     : 0x3\nCPU part        : 0xd0c\nCPU revision    : 1', '/proc/cpuinfo (an AWS Graviton2)',
     'https://github.com/archspec/archspec-json/issues/41', _llvm("neoverse-n1"),
     "LLVM's host detection of these lines: neoverse-n1 (AWS: Graviton2, -mcpu=neoverse-n1)"),
    ('0x413FD0C1', "cpufetch --debug (each core's MIDR; an Ampere Altra)",
     'https://github.com/Dr-Noob/cpufetch/issues/262', _llvm("neoverse-n1"),
     "MIDR: implementer 0x41, part 0xd0c: LLVM's host detection names neoverse-n1"),
    ('Neoverse-V2', "lscpu (Model name; an NVIDIA GH200's Grace)",
     'https://github.com/archspec/archspec-json/issues/83', _llvm("neoverse-v2"),
     'Grace: Neoverse V2 cores'),
    ('Cavium ThunderX2(R) CPU CN9980 v2.1 @ 2.10GHz', 'dmidecode (Processor Version)',
     'https://github.com/hrw/arm-socs-table/issues/22', _llvm("thunderx2t99"),
     "its /proc/cpuinfo: implementer 0x43, part 0x0af: LLVM's host detection names thunderx2t99"),
    ('CPU implementer\t: 0x43\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0x0af\nCPU revision\t: 1', '/proc/cpuinfo (a ThunderX2 CN9980)',
     'https://github.com/hrw/arm-socs-table/issues/22', _llvm("thunderx2t99"),
     "LLVM's host detection of these lines: thunderx2t99"),
    ('CPU implementer\t: 0x48\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd01\nCPU revision\t: 0', '/proc/cpuinfo (a Huawei TaiShan 2280, Kunpeng 920)',
     'https://github.com/hrw/arm-socs-table/issues/86', _llvm("tsv110"),
     "LLVM's host detection of these lines: tsv110"),
    ('Apple M1', 'sysctl machdep.cpu.brand_string',
     'https://github.com/GuillaumeGomez/sysinfo/pull/497', _llvm("apple-a14"),
     "an M1: clang's apple-m1 is LLVM's alias of apple-a14"),
    ('Apple M1 Max', 'sysctl machdep.cpu.brand_string',
     'https://github.com/Jinjinov/Hardware.Info/issues/32', _llvm("apple-a14"),
     "the M1's cores (lscpu names them Firestorm-M1-Max, Icestorm-M1-Max)"),
    ('Apple M2', 'sysctlbyname("machdep.cpu.brand_string")',
     'https://github.com/aristocratos/btop/pull/679', _llvm("apple-a15"),
     "an M2: clang's apple-m2 is LLVM's alias of apple-a15"),
    ('Apple processor', 'sysctl machdep.cpu.brand_string',
     'https://github.com/archspec/archspec/issues/38', None,
     'an M1 whose macOS printed no chip name'),
    ('QEMU Virtual CPU version 1.5.3', '/proc/cpuinfo (model name)',
     'https://github.com/xcat2/xcat-core/issues/4182', None,
     "QEMU's generic model (family 6 model 13): no microarchitecture"),
    ('Intel Xeon E312xx (Sandy Bridge)', '/proc/cpuinfo (model name; a QEMU guest)',
     'https://github.com/workhorsy/py-cpuinfo/issues/13', _llvm("sandybridge"),
     "family 6 model 42: LLVM's host detection names sandybridge"),
    ('Intel(R) Xeon(R) CPU @ 2.20GHz', '/proc/cpuinfo (model name; Colab)',
     'https://github.com/googlecolab/colabtools/issues/1937', _llvm("broadwell"),
     "family 6 model 79: LLVM's host detection names broadwell; the name says no generation"),
    ('Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz', '/proc/cpuinfo (model name)',
     'https://github.com/intel/perfmon/issues/125', _llvm("cascadelake"),
     'family 6 model 85 stepping 7: cascadelake'),
    ('0b/01', '/proc/cpuinfo (model name; a Xeon Phi coprocessor)',
     'https://github.com/mesonbuild/meson/issues/9067', None,
     'family 11 (k1om): no x86-64 CPU of LLVM'),
)


def hand_rows() -> list[dict[str, Any]]:
    return [{"printed": printed, "tool": tool, "source": url, "evidence": {"note": note},
             "truth": truth} for printed, tool, url, truth, note in HAND]


def build() -> dict[str, Any]:
    cpus, lscpu_source = lscpu_rows()
    benchmark, benchmark_source = benchmark_rows()
    sd_benchmark, sd_source = sd_benchmark_rows()
    seen: set[str] = set()
    rows = []
    for row in [*cpus, *benchmark, *hand_rows(), *sd_benchmark]:  # a name once: its first
        if row["printed"] not in seen:
            seen.add(row["printed"])
            rows.append(row)
    return {"about": "Device names exactly as machines print them (lscpu; two benchmarks' "
                     "submissions: a GPU app's driver and OS names, torch's device names with "
                     "each device's compute capability; nvidia-smi, torch, rocminfo, "
                     "rocm-smi, /proc/cpuinfo, sysctl and other tools in issue threads), "
                     "each with its source at a commit and what the device is, decided "
                     "independently of the name where the tool printed more (lscpu's CPUID "
                     "family, model and stepping, read as LLVM's host detection reads them; "
                     "the compute capability or gfx processor the same output printed) "
                     "and by hand from the vendors' tables otherwise; written by "
                     "scripts/collect_machine_names.py",
            "truth": "the target's kind and architecture, or null where the printed name "
                     "says none; targetlang.component(printed) must give that or refuse",
            "sources": {"lscpu": lscpu_source, "benchmark": benchmark_source,
                        "sd-benchmark": sd_source},
            "names": rows}


def measure_lscpu() -> dict[str, int]:
    """Every distinct lscpu name of the database, looked up: x86 names by what their probe
    says LLVM detects (right, wrong, refused) or, where it says nothing, resolved or refused;
    Arm names (no second opinion) resolved or refused."""
    import targetlang as tl

    counts: dict[str, int] = {}
    for row in lscpu_rows(every=True)[0]:
        arm = row["evidence"]["Vendor ID"] in ARM_VENDORS
        try:
            found = tl.component(row["printed"]).target
        except tl.TargetError:
            outcome = "refused"
        else:
            mcpu = found.attrs.get("mcpu") if found.kind == "llvm" else None
            outcome = "resolved" if arm or row["truth"] is None else \
                "right" if mcpu == row["truth"]["mcpu"] else "wrong"
        group = "arm" if arm else "x86, probe says" if row["truth"] else "x86, probe silent"
        counts[f"{group}: {outcome}"] = counts.get(f"{group}: {outcome}", 0) + 1
    return dict(sorted(counts.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--measure-lscpu", action="store_true",
                        help="look up every distinct lscpu name of the database and count")
    args = parser.parse_args()
    if args.measure_lscpu:
        counts = measure_lscpu()
        print(json.dumps({"names": sum(counts.values()), **counts}, indent=1))
        return 1 if any(key.endswith(": wrong") for key in counts) else 0
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="its sources")


if __name__ == "__main__":
    sys.exit(main())
