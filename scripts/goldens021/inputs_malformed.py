"""Malformed text: hand-written breakage and seeded mutations of the other inputs."""

from __future__ import annotations

import random
from typing import Iterable, List, Sequence

from .common import SEED, Schema

# ---------------------------------------------------------------------------
# malformed: stray dashes, missing keys, unknown kinds/attributes, duplicates,
# empty input, and seeded random mutations of valid strings
# ---------------------------------------------------------------------------

MALFORMED_INPUTS: List[str] = [
    "", " ", "   ", "\t", "''", "' '",
    "-", "--", "---", "-=x", "-a=", "-mcpu=x", "--mcpu=x",
    "llvm -", "llvm --", "llvm ---", "llvm -=x", "llvm -=", "llvm --=x", "llvm -mcpu=",
    "llvm --mcpu=", "llvm -mcpu= ", "llvm =x", "llvm x", "llvm mcpu=x", "llvm -mcpu=x y",
    "llvm -mcpu x y", "llvm ---mcpu=x", "llvm -mcpu==x", "llvm -mcpu=x=y", "llvm - -mcpu=x",
    "llvm -mcpu=x -", "llvm -mcpu - ", "llvm -mcpu -", "llvm -mcpu --", "llvm -mcpu -=",
    "-llvm", "llvm-", "=llvm", "llvm=", "llvm=x", "llvm,cuda", "llvm;", "llvm/", "/llvm",
    # unknown kinds and near misses
    "lvm", "llv", "llvmm", "cdua", "cud", "LLVM", "Llvm", "Cuda", "CUDA", "llvm2", "llvm64",
    "cuda_host", "trn", "nvptx64", "opengl", "gpu", "cpu", "x86", "arm_cpu", "vta", "micro",
    "nvidia", "nvidia/", "nvidia/jetson", "raspberry-pi", "aws/cpu", "apple/m1",
    "TestTargetKind", "ext-dev", "extdev", "web_gpu", "open_cl",
    "lvm -mcpu=x", "cdua -arch=sm_80", "LLVM -mcpu=x",
    # unknown attributes and near misses
    "cuda -arhc=sm_80", "cuda -Arch=sm_80", "cuda -arch_=sm_80", "cuda -arch-=sm_80",
    "llvm -mcpus=x", "llvm -mcp=x", "llvm -MCPU=x", "llvm -m-cpu=x", "llvm -mcpu_=x",
    "llvm -fast_math=1", "llvm -opt_level=3", "llvm -vector_width=128", "llvm -num_cores=4",
    "cuda -max-num-threads=1", "cuda -maxNumThreads=1",
    "llvm -march=x", "llvm -arch=x", "llvm -target=x86_64-linux-gnu", "llvm -system-lib",
    "llvm -system-lib=1", "llvm -link-params=1", "llvm -runtime=c", "llvm -executor=aot",
    "llvm -interface-api=c", "llvm -unpacked-api=1", "c -runtime=c -system-lib=1",
    "llvm -mcpu=x -bogus", "llvm -bogus -mcpu=x", "llvm -bogus=1 -mcpus=2",
    "opencl -texture_depth_limit=2048", "webgpu -supports_subgroups=1",
    # duplicate keys
    "llvm -mcpu=a -mcpu=b", "llvm -mcpu=a --mcpu b", "llvm -mcpu=a -mcpu=a",
    "llvm -mcpu -mcpu", "llvm -mcpu=a --mcpu=a", "llvm -keys=a -keys=b",
    "llvm -keys=a -device=b -keys=c", "llvm -device=a -device=b", "llvm -tag=a -tag=b",
    "llvm -host=llvm -host=c", "llvm -libs=a -libs=b", "llvm -mattr=+a -mattr=+b",
    "llvm -opt-level=1 -opt-level=x", "llvm -bogus -bogus",
    "cuda -arch=sm_80 -arch=sm_80",
    # values without keys
    "llvm sm_80", "cuda sm_80 -arch=sm_80", "cuda -arch=sm_80 sm_80", "llvm 'x'",
    "llvm -mcpu=x 'y'", "llvm cuda", "llvm llvm",
    # inputs that make TVM 0.21 crash (empty option list / empty host)
    "llvm -host=' '", "cuda -host=' '", "llvm -host='\t'",
]

MUTATION_CHARS = "'\\-= ,\t\"x0{"


def mutate(rng: random.Random, s: str) -> str:
    """One or two random edits of s: truncate, delete, duplicate, swap, insert, replace."""
    for _ in range(rng.choice((1, 1, 1, 2))):
        if not s:
            return s
        i = rng.randrange(len(s))
        op = rng.choice(("truncate", "delete", "duplicate", "swap", "insert", "replace"))
        if op == "truncate":
            s = s[:i] if rng.random() < 0.7 else s[i:]
        elif op == "delete":
            s = s[:i] + s[i + 1:]
        elif op == "duplicate":
            s = s[:i] + s[i] + s[i:]
        elif op == "swap" and i + 1 < len(s):
            s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        elif op == "insert":
            s = s[:i] + rng.choice(MUTATION_CHARS) + s[i:]
        else:
            s = s[:i] + rng.choice(MUTATION_CHARS) + s[i + 1:]
    return s


def cases_malformed(schema: Schema, bases: Sequence[str], seen: Iterable[str],
                    count: int = 300) -> List[str]:
    out = list(MALFORMED_INPUTS)
    taken = set(seen) | set(out)
    rng = random.Random(SEED)
    pool = [b for b in bases if b]
    attempts = 0
    mutated = 0
    while mutated < count and attempts < count * 50:
        attempts += 1
        s = mutate(rng, rng.choice(pool))
        if s in taken:
            continue
        taken.add(s)
        out.append(s)
        mutated += 1
    return out
