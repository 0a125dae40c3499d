"""Random targets (fixed seed): several attributes of one kind, in every syntax."""

from __future__ import annotations

import random
from typing import Dict, List, Optional

from .common import SEED, Schema, attr_text, kinds_of, options_of

GEN_STRINGS: Dict[str, List[str]] = {
    "mcpu": ["cortex-a53", "cortex-a72", "cortex-m55", "cortex-m7", "skylake", "haswell",
             "x86-64", "generic", "sm_80", "gfx908", "gfx90a", "hexagonv68", "apple-m1",
             "znver3", "'cortex-a53'"],
    "arch": ["sm_50", "sm_53", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90a"],
    "mtriple": ["aarch64-linux-gnu", "x86_64-linux-gnu", "armv7l-linux-gnueabihf",
                "arm64-linux-android", "riscv64-unknown-linux-gnu", "x86_64-apple-darwin",
                "aarch64-arm-none-eabi", "hexagon", "nvptx64-nvidia-cuda",
                "amdgcn-amd-amdhsa-hcc", "wasm32-unknown-unknown"],
    "mabi": ["lp64d", "ilp32", "aapcs"],
    "mfloat-abi": ["hard", "soft", "softfp"],
    "march": ["armv7e-m", "armv8-a", "rv64gc"],
    "jit": ["mcjit", "orcjit"],
    "device": ["arm_cpu", "mali", "intel_graphics", "riscv_cpu", "adreno", "bifrost", "vta"],
    "model": ["unknown", "rk3399", "bcm2837", "v100", "a100", "'my model'", "pynq"],
    "tag": ["mytag", "custom"],
    "device_name": ["'Name of GPU'", "nvidia", "'AMD Radeon'"],
    "device_type": ["discrete", "integrated", "virtual"],
    "driver_name": ["mesa", "'NVIDIA driver'"],
}
GEN_ARRAYS: Dict[str, List[str]] = {
    "mattr": ["+neon", "+avx2", "+sse4.1", "-avx512f", "+sve", "+v8.2a", "+dotprod",
              "+hvxv68", "+hvx-length128b", "+fullfp16", "+i8mm", "+v", "+m"],
    "libs": ["cublas", "cudnn", "cblas", "mkl", "dnnl", "thrust", "cutlass", "rocblas",
             "miopen", "mps"],
    "keys": ["cpu", "gpu", "arm_cpu", "cuda", "mali", "opencl", "vulkan"],
    "cl-opt": ["-unroll-threshold:uint=100", "-unroll-count:uint=3",
               "-enable-loop-versioning-licm:bool=true"],
    "llvm-options": ["-hexagon-noopt", "-hexagon-small-data-threshold=0"],
    "devices": ["cuda", "llvm", "opencl", "'cuda -arch=sm_80'", "vulkan", "c"],
}
GEN_INTS = ["0", "1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024", "2048",
            "4096", "16384", "32768", "49152", "65536", "-1", "3"]
GEN_BOOLS = ["true", "false", "True", "False", "0", "1", "TRUE"]
GEN_HOSTS = ["llvm", "c", "'llvm -mcpu=cortex-a53'", "nvidia/jetson-nano",
             "'llvm -mtriple=aarch64-linux-gnu -mattr=+neon'", "'c -mcpu=cortex-m7'"]
GEN_WORDS = ["a", "foo", "bar", "x1", "v2", "'two words'"]


def gen_value(rng: random.Random, attr: str, type_key: str) -> Optional[str]:
    """A random value of the attribute's type (None: use the bare-key syntax)."""
    if type_key == "bool":
        return None if rng.random() < 0.2 else rng.choice(GEN_BOOLS)
    if type_key == "int":
        return rng.choice(GEN_INTS)
    if type_key == "ffi.String":
        return rng.choice(GEN_STRINGS.get(attr, GEN_WORDS))
    if type_key == "ffi.Array":
        items = GEN_ARRAYS.get(attr, GEN_WORDS)
        return ",".join(rng.sample(items, rng.randint(1, min(3, len(items)))))
    if type_key == "target.Target":
        return rng.choice(GEN_HOSTS)
    raise SystemExit(f"no generator for type {type_key!r}")


def cases_generated(schema: Schema, count: int = 300) -> List[str]:
    rng = random.Random(SEED + 1)
    kinds = kinds_of(schema)
    out = []
    for _ in range(count):
        kind = rng.choice(kinds)
        opts = [(a, t) for a, t in options_of(schema, kind).items() if a != "from_device"]
        parts = [kind]
        for attr, type_key in rng.sample(opts, rng.randint(1, min(5, len(opts)))):
            value = gen_value(rng, attr, type_key)
            syntax = rng.choice(("eq", "eq", "eq", "dasheq", "space"))
            if syntax == "space" and value is not None and value.startswith("-"):
                syntax = "eq"  # `-k -v` would read -v as the next key: not valid-looking
            parts.append(attr_text(attr, value, syntax))
        out.append(" ".join(parts))
    return out
