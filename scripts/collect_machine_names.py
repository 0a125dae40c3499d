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
* Rows collected by hand from public issue threads (:data:`HAND`), each with the URL and, where
  the tool printed it, the compute capability as evidence.

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

from shelf import TESTS_DATA, write_or_check

OUTPUT = TESTS_DATA / "components" / "machine-names.json"
MIRRORS = Path("/work/.mirror")
LSCPU_GIT = Path(os.environ.get("TARGETLANG_LSCPU_GIT", MIRRORS / "linuxhw+LsCPU" / "repo"))
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


def lscpu_rows() -> tuple[list[dict[str, Any]], dict[str, str]]:
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
                int(hashlib.sha1(name.encode()).hexdigest(), 16) % 10:
            continue
        seen.add(name)
        truth = host_cpu(fields.get("Vendor ID", ""), fields.get("CPU family", ""),
                         fields.get("Model", ""), fields.get("Stepping", ""),
                         fields.get("Flags", ""))
        if fields.get("Vendor ID") in ("ARM", "Qualcomm", "HiSilicon", "Marvell", "Nvidia"):
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
)


def hand_rows() -> list[dict[str, Any]]:
    return [{"printed": printed, "tool": tool, "source": url, "evidence": {"note": note},
             "truth": truth} for printed, tool, url, truth, note in HAND]


def build() -> dict[str, Any]:
    cpus, lscpu_source = lscpu_rows()
    benchmark, benchmark_source = benchmark_rows()
    rows = [*cpus, *benchmark, *hand_rows()]
    printed = [row["printed"] for row in rows]
    duplicates = {p for p in printed if printed.count(p) > 1}
    rows = [row for row in rows if row["printed"] not in duplicates or row in cpus]
    return {"about": "Device names exactly as machines print them (lscpu; a GPU benchmark app's "
                     "driver and OS names; nvidia-smi, torch and other tools in issue threads), "
                     "each with its source at a commit and what the device is, decided "
                     "independently of the name where the tool printed more (lscpu's CPUID "
                     "family, model and stepping, read as LLVM's host detection reads them) "
                     "and by hand from the vendors' tables otherwise; written by "
                     "scripts/collect_machine_names.py",
            "truth": "the target's kind and architecture, or null where the printed name "
                     "says none; targetlang.component(printed) must give that or refuse",
            "sources": {"lscpu": lscpu_source, "benchmark": benchmark_source},
            "names": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="its sources")


if __name__ == "__main__":
    sys.exit(main())
