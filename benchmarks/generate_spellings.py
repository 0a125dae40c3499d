"""Generate the any-spelling benchmark corpus (``benchmarks/corpora/spellings.txt``).

    python3 benchmarks/generate_spellings.py            # writes the corpus
    python3 benchmarks/generate_spellings.py --check    # exit 1 if the committed file differs
    python3 benchmarks/generate_spellings.py --oracle   # also check each string with TVM 0.21

The language writes an option in several spellings: ``-k=v`` (the plain corpora's),
``-k v``, ``--k=v``, ``--k v``, a quoted value (``-k='v'``, ``-model='a b'``) and any mix.
This corpus has each of them on its own and mixed, so ``bench.py`` can time each spelling.
Each line is ``SPELLING<TAB>TEXT``. The strings are drawn with a fixed seed from TVM 0.21's
schema (``targetlang.kinds("tvm-0.21")``) and values real targets use, of the kinds of the
plain corpora (``scripts/generate_bench_corpora.py``; no Arm triples), so what differs from
those is the spelling. ``--oracle`` runs every string through TVM 0.21 and fails if TVM
refuses one.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "corpora" / "spellings.txt"
TVM021 = Path.home() / ".cache" / "targetlang-oracle" / "bin" / "tvm021-python"
SEED = 23
PER_SPELLING = 70

sys.path.insert(0, str(REPO))
import targetlang  # noqa: E402

#: The kinds of the plain corpora (never an Arm triple: those time LLVM's parsers, not reading).
KINDS = ("cuda", "nvptx", "rocm", "opencl", "metal", "vulkan", "webgpu", "llvm", "c", "hexagon")
#: Values real targets use, by attribute name (else by type, below).
VALUES: dict[str, list[str]] = {
    "arch": ["sm_53", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"],
    "mcpu": ["skylake", "core-avx2", "znver3", "x86-64", "cascadelake"],
    "model": ["v100", "a100", "t4", "rtx3090", "unknown", "xeon", "m1", "titanx", "p100"],
    "device": ["mali", "intel_graphics", "adreno", "gpu0", "tensorcore", "webgpu"],
    "libs": ["cudnn", "cublas", "cublaslt", "thrust", "cutlass", "cblas", "mkl", "miopen",
             "rocblas", "dnnl", "nnpack"],
    "keys": ["gpu", "cpu", "cuda", "opencl", "vulkan", "tensorcore", "rocm"],
    "mattr": ["+avx", "+avx2", "+avx512f", "+avx512bw", "+fma", "+sse4.2", "+popcnt", "+f16c"],
    "cl-opt": ["-unroll-threshold=100", "-vectorize-loops"],
    "llvm-options": ["-hexagon-small-data-threshold=0", "-force-target-max-vector-interleave=1"],
    "device_name": ["NVIDIA-GeForce-RTX-3090", "AMD-Radeon-Pro", "Apple-M1"],
    "tag": ["mine", "bench", "prod"],
    "jit": ["mcjit", "orcjit"],
    "mabi": ["lp64", "ilp32"],
    "mfloat-abi": ["hard", "soft"],
    "march": ["x86-64", "x86-64-v3", "skylake"],
}
#: Per kind: its -mcpu and -mtriple values (never an Arm one).
MCPU = {"cuda": ["sm_70", "sm_75", "sm_80", "sm_86"], "nvptx": ["sm_60", "sm_75", "sm_86", "sm_90"],
        "rocm": ["gfx900", "gfx908", "gfx90a", "gfx1030"],
        "hexagon": ["hexagonv66", "hexagonv68", "hexagonv73"]}
MTRIPLE = {"llvm": ["x86_64-linux-gnu", "x86_64-pc-linux-gnu", "x86_64-apple-darwin"],
           "nvptx": ["nvptx64-nvidia-cuda"], "rocm": ["amdgcn-amd-amdhsa"], "hexagon": ["hexagon"]}
INTS = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 2048, 16384, 49152, 65536]
#: The option that names the device, which real strings of these kinds carry: without it TVM
#: asks the machine (and warns), which would time TVM's device query rather than its reading.
NAMED = {"cuda": "arch", "nvptx": "mcpu", "rocm": "mcpu"}
#: Not options a user writes (or a different kind of read: -host nests, -from_device queries).
SKIP = {"host", "from_device", "target_device_type", "mtriple"}


def value(rng: random.Random, kind: str, name: str, type_: str) -> str:
    if name == "mcpu":
        return rng.choice(MCPU.get(kind, VALUES["mcpu"]))
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


#: The spellings, in the order bench.py reports them.
SPELLINGS = ("k-space", "dd-assign", "dd-space", "quoted", "mixed")


def spell(rng: random.Random, spelling: str, name: str, text: str, type_: str) -> str:
    """One option in one spelling (a value that starts with "-" cannot follow a space: it
    would be an option of its own, so such values keep "=")."""
    if spelling == "mixed":
        spelling = rng.choice(("assign", *SPELLINGS[:-1]))
    if type_ == "bool" and spelling != "quoted" and rng.random() < 0.2:
        return ("--" if spelling.startswith("dd") else "-") + name  # a bare flag
    dashes = "--" if spelling.startswith("dd") else "-"
    if spelling == "quoted":
        if type_ == "str" and rng.random() < 0.3:
            text = f"{text} {rng.choice(('x', 'v2', 'rev b'))}"  # spaces inside the quotes
        text = f"'{text}'"
        return f"-{name} {text}" if rng.random() < 0.3 and not text.startswith("-") \
            else f"-{name}={text}"
    if spelling.endswith("space") and not text.startswith("-"):
        return f"{dashes}{name} {text}"
    return f"{dashes}{name}={text}"


def target(rng: random.Random, spelling: str, kind: str, types: dict[str, str]) -> str:
    names = [n for n in types if n not in SKIP and n != NAMED.get(kind)]
    chosen = rng.sample(names, min(rng.randint(1, 8), len(names)))
    words = [kind]
    if kind == "llvm":  # an x86 triple: never the Arm parsers
        chosen.insert(0, "mtriple")
    if kind in NAMED:  # the device named, as real strings do (else TVM queries the machine)
        chosen.insert(0, NAMED[kind])
    for name in chosen:
        words.append(spell(rng, spelling, name, value(rng, kind, name, types[name]), types[name]))
    return " ".join(words)


def corpus() -> list[tuple[str, str]]:
    schema = targetlang.kinds("tvm-0.21")
    types = {k: {a: str(spec.type) for a, spec in schema[k].attrs.items()} for k in KINDS}
    rng = random.Random(SEED)
    return [(spelling, target(rng, spelling, KINDS[i % len(KINDS)], types[KINDS[i % len(KINDS)]]))
            for spelling in SPELLINGS for i in range(PER_SPELLING)]


def read(path: Path = OUT) -> dict[str, list[str]]:
    """The committed corpus by spelling (for bench.py)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text("utf-8").splitlines():
        spelling, _, text = line.partition("\t")
        out.setdefault(spelling, []).append(text)
    return out


_REFUSED = r"""
import sys, warnings
warnings.simplefilter("ignore")
from tvm.target import Target
for line in sys.stdin.read().splitlines():
    try:
        Target(line).export()
    except Exception as e:
        print(repr(line), type(e).__name__, str(e).splitlines()[0][:100])
"""


def refused_by_tvm(texts: list[str]) -> str:
    done = subprocess.run([str(TVM021), "-c", _REFUSED], input="\n".join(texts),
                          capture_output=True, text=True, check=True)
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed file differs")
    ap.add_argument("--oracle", action="store_true", help="check each string with TVM 0.21")
    args = ap.parse_args(argv)
    lines = corpus()
    text = "".join(f"{spelling}\t{line}\n" for spelling, line in lines)
    if args.oracle:
        refused = refused_by_tvm([line for _, line in lines])
        if refused:
            print(refused, end="")
            return 1
        print(f"TVM 0.21 reads all {len(lines)} strings")
    if args.check:
        same = OUT.exists() and OUT.read_text("utf-8") == text
        print(f"{OUT.relative_to(REPO)}: " + ("up to date" if same else "differs from the generator"))
        return 0 if same else 1
    from targetlang._files import write_atomically

    write_atomically(OUT, text.encode("utf-8"))
    print(f"wrote {OUT.relative_to(REPO)} ({len(lines)} strings)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
