"""Generate the benchmark corpora of plain target strings (``benchmarks/corpora/*.txt``).

    python3 scripts/generate_bench_corpora.py            # writes the corpora
    python3 scripts/generate_bench_corpora.py --check    # exit 1 if a committed file differs

Two corpora, drawn with a fixed seed from TVM 0.21's schema (``targetlang/_data/releases/tvm-0.21.json``:
each kind's attributes and their types) and from values real targets use:

* ``simple.txt``: short strings of every non-Arm kind (cuda, nvptx, rocm, opencl, metal,
  vulkan, webgpu, llvm with an x86 triple, c, hexagon), the kind and up to three options;
* ``long.txt``: strings of ten or more options.

Only attributes in the kind's schema are written, each with a value of its type, so the
strings are targets TVM reads (a few are refused, as real strings are: the benchmark times
both). The seed fixes the corpora; change it only with a reason.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from shelf import REPO, write_or_check

SEED = 15
OUT = REPO / "benchmarks" / "corpora"
KINDS = ("cuda", "nvptx", "rocm", "opencl", "metal", "vulkan", "webgpu", "llvm", "c", "hexagon")

#: Values real targets use, by attribute name (else by type, below).
VALUES: dict[str, list[str]] = {
    "arch": [f"sm_{n}" for n in (50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90)],
    "model": ["v100", "a100", "t4", "rtx3090", "unknown", "xeon", "epyc", "m1", "rx6900",
              "titanx", "p100", "mi100"],
    "device": ["mali", "intel_graphics", "adreno", "gpu0", "tensorcore", "webgpu"],
    "libs": ["cudnn", "cublas", "cublaslt", "thrust", "cutlass", "cblas", "mkl", "miopen",
             "rocblas", "dnnl", "nnpack", "mps"],
    "keys": ["gpu", "cpu", "cuda", "opencl", "vulkan", "tensorcore", "rocm"],
    "mattr": ["+avx", "+avx2", "+avx512f", "+avx512bw", "+avx512vl", "+fma", "+sse4.2",
              "+popcnt", "+bmi2", "+f16c", "+lzcnt"],
    "cl-opt": ["-unroll-threshold=100", "-vectorize-loops"],
    "llvm-options": ["-hexagon-small-data-threshold=0", "-force-target-max-vector-interleave=1"],
    "device_name": ["NVIDIA-GeForce-RTX-3090", "AMD-Radeon-Pro", "Apple-M1"],
    "device_type": ["discrete", "integrated"],
    "driver_name": ["nvidia", "radv", "moltenvk"],
    "tag": ["mine", "bench", "prod"],
    "jit": ["mcjit", "orcjit"],
    "mabi": ["lp64", "ilp32"],
    "mfloat-abi": ["hard", "soft"],
    "march": ["x86-64", "x86-64-v3", "skylake"],
}
#: Per kind: the -mcpu / -mtriple values of that kind (never an Arm one).
MCPU = {
    "llvm": ["skylake", "skylake-avx512", "core-avx2", "znver2", "znver3", "cascadelake",
             "icelake-server", "haswell", "broadwell", "x86-64"],
    "c": ["skylake", "core-avx2", "znver3", "x86-64"],
    "cuda": [f"sm_{n}" for n in (70, 75, 80, 86)],
    "nvptx": [f"sm_{n}" for n in (60, 70, 75, 80, 86, 90)],
    "rocm": ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030", "gfx1100"],
    "hexagon": ["hexagonv66", "hexagonv68", "hexagonv69", "hexagonv73"],
}
MTRIPLE = {
    "llvm": ["x86_64-linux-gnu", "x86_64-pc-linux-gnu", "x86_64-apple-darwin",
             "x86_64-pc-windows-msvc", "x86_64-unknown-linux-gnu"],
    "nvptx": ["nvptx64-nvidia-cuda"],
    "rocm": ["amdgcn-amd-amdhsa"],
    "hexagon": ["hexagon"],
}
INTS = [0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 16384, 32768, 49152, 65536,
        4194304]
#: The option that names the device, which real strings of these kinds carry: without it TVM
#: asks the machine (and warns), which would time TVM's device query rather than its reading.
NAMED = {"cuda": "arch", "nvptx": "mcpu", "rocm": "mcpu"}
#: Not options a user writes (or a different kind of read: -host nests, -from_device queries).
SKIP = {"host", "from_device", "target_device_type"}


def value(rng: random.Random, kind: str, name: str, type_: str) -> str:
    if name == "mcpu":
        return rng.choice(MCPU.get(kind, MCPU["llvm"]))
    if name == "mtriple":
        return rng.choice(MTRIPLE.get(kind, MTRIPLE["llvm"]))
    if type_ == "bool":
        return rng.choice(["0", "1"])
    if type_ == "int":
        return str(rng.choice(INTS))
    if type_.startswith("array"):
        pool = VALUES.get(name, VALUES["libs"])
        return ",".join(rng.sample(pool, rng.randint(1, min(4, len(pool)))))
    return rng.choice(VALUES.get(name, VALUES["model"]))


def option(rng: random.Random, kind: str, name: str, type_: str) -> str:
    if type_ == "bool" and rng.random() < 0.3:
        return f"-{name}"  # a bare flag
    text = value(rng, kind, name, type_)
    spaced = rng.random() < 0.1 and not text.startswith("-")  # "-k -v" is two options
    return f"-{name} {text}" if spaced else f"-{name}={text}"


def target(rng: random.Random, kind: str, attrs: dict[str, str], count: int) -> str:
    names = [n for n in attrs if n not in SKIP and n not in ("mtriple",) and n != NAMED.get(kind)]
    chosen = rng.sample(names, min(count, len(names)))
    words = [kind]
    if kind == "llvm":  # an x86 triple: never the Arm parsers
        words.append(f"-mtriple={rng.choice(MTRIPLE['llvm'])}")
    if kind in NAMED:  # the device named, as real strings do (else TVM queries the machine)
        words.append(option(rng, kind, NAMED[kind], attrs[NAMED[kind]]))
    words += [option(rng, kind, n, attrs[n]) for n in chosen]
    return " ".join(words)


def corpora() -> dict[str, list[str]]:
    schema = json.loads((REPO / "targetlang" / "_data" / "releases" / "tvm-0.21.json").read_text("utf-8"))
    types = {k: {a: s["type"] for a, s in schema["kinds"][k]["attrs"].items()} for k in KINDS}
    rng = random.Random(SEED)
    simple = [target(rng, kind, types[kind], rng.randint(0, 3))
              for _ in range(30) for kind in KINDS]
    roomy = [k for k in KINDS if len(set(types[k]) - SKIP) >= 11]
    long = [target(rng, kind, types[kind], rng.randint(10, 16))
            for _ in range(30) for kind in roomy]
    return {"simple": simple, "long": long}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a committed file differs")
    args = ap.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    status = 0
    for name, texts in corpora().items():
        status |= write_or_check(OUT / f"{name}.txt", "\n".join(texts) + "\n", check=args.check,
                                 source="the generator")
    return status


if __name__ == "__main__":
    sys.exit(main())
