"""Differential check of targetlang's Arm features against the TVM 0.21 oracle, on random cases.

    python3 scripts/check_arm_features.py                   # all three checks, default sizes
    python3 scripts/check_arm_features.py --seed 7 --targets 10000 --report report.json

Run it with an interpreter that imports targetlang (the development venv); it shells out to the
oracle (``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``, default ``~/.cache/targetlang-oracle``).
Three checks, each on seeded random cases:

1. triples: does LLVM have a target for an architecture name, and which (``aarch64``, ARM,
   Thumb)? Random names around ``arm``/``aarch64``/``arm64``/``thumb`` with sub-architecture
   pieces, against LLVM's own ``lookupTarget`` (through the C API of the library TVM loaded).
2. feature sets: every LLVM feature on for a (triple, CPU, -mattr) - not only the seven TVM
   reads - against ``llvm_get_cpu_features``.
3. targets: whole target strings (and some JSON configs) through TVM's ``Target`` via
   ``shared/oracle/query.py``: accepted or not (crashes included), ``export()`` and features.

Prints the agreement of each and the first disagreements; exit 1 if any disagree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO

import targetlang as tl
from targetlang._lower import arm as _arm

ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"
GENERATOR = REPO / "scripts" / "generate_arm_features.py"
ENV = tl.Environment.no_gpu(system_triple="x86_64-unknown-linux-gnu")

PREFIXES = ("arm", "armeb", "aarch64", "aarch64_be", "aarch64_32", "arm64", "arm64e", "arm64ec",
            "arm64_32", "thumb", "thumbeb")
PIECES = ("v", "v7", "v8", "v9", "v6", "v5", "v4", "v2", "v3", "v8.2", "v9.4", ".", "a", "l",
          "hl", "r", "m", "em", "s", "k", "ve", "t", "te", "j", "z", "eb", "_be", "_32", "e", "c",
          "-a", "main", "base", ".main", "1", "2", "6", "x", "64", "_", "é", "٣", " ", "A", "V")
SUFFIXES = ("", "-linux-gnu", "-unknown-linux-gnueabihf", "-none-eabi", "-apple-macos",
            "-pc-windows-msvc", "-linux-android", "-", "--")
COMMON_TRIPLES = (
    "aarch64-linux-gnu", "aarch64-unknown-linux-gnu", "aarch64-arm-none-eabi", "aarch64-none-elf",
    "aarch64_be-linux-gnu", "aarch64_32-unknown-linux", "aarch64-linux-android",
    "aarch64-pc-windows-msvc", "arm64-apple-macos", "arm64-apple-darwin", "arm64-apple-ios",
    "arm64e-apple-ios", "arm64ec-pc-windows-msvc", "arm64_32-apple-watchos",
    "arm64-linux-android", "arm-linux-gnueabihf", "arm-linux-gnueabi", "arm-none-eabi",
    "arm-unknown-linux-gnu", "armv7a-linux-gnueabihf", "armv7l-linux-gnueabihf",
    "armv7-linux-gnueabihf", "armv7-none-linux-gnueabihf", "armv7a-arm-none-eabi",
    "armv8a-arm-none-eabi", "armv8l-linux-gnueabihf", "armv8.2a-linux-gnueabihf",
    "armv8.6a-none-eabi", "armv9a-none-eabi", "armv9.2a-linux", "armv7em-none-eabi",
    "armv7m-none-eabi", "armv6m-none-eabi", "armv8m.main-none-eabi", "armv8.1m.main-none-eabi",
    "armv8m.base-none-eabi", "armv8r-none-eabi", "armv7r-none-eabi", "armeb-linux-gnueabi",
    "armebv7-linux", "armv7eb-linux", "armv5te-linux-gnueabi", "armv6-linux-gnueabihf",
    "armv6k-linux", "armv4t-linux", "armv7s-apple-ios", "armv7k-apple-watchos",
    "armv7-pc-windows-msvc", "armv7a-unknown-linux-android", "armv7ve-linux", "arm", "aarch64",
    "arm64",
)
VERSION_FLAGS = tuple(f"+v8.{i}a" for i in range(1, 10)) + tuple(f"+v9.{i}a" for i in range(1, 8)) \
    + ("+v8a", "+v9a", "+v8r", "+armv7-a", "+armv8-a", "+armv8.2-a", "+armv9-a", "+v7",
       "+armv8.1-m.main", "+v8.2a", "-v8.2a", "-v8a", "-v9a", "+v8.4b", "+v10a")
INTERESTING = ("neon", "sve", "sve2", "sve2p1", "dotprod", "i8mm", "fullfp16", "sme", "sme2",
               "fp-armv8", "fp16fml", "bf16", "crypto", "aes", "sha2", "simd", "crc", "lse",
               "rdm", "mve", "mve.fp", "dsp", "vfp4", "d32", "fp64", "thumb-mode", "nomve",
               "nodsp", "woof", "NEON", "Neon", "help", "cpuhelp", "")


def oracle(args: Sequence[str], stdin: str) -> Any:
    done = subprocess.run([str(ORACLE_PYTHON), *args], input=stdin, check=False,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        sys.exit(f"oracle failed ({done.returncode}): {done.stderr[-3000:]}")
    return done.stdout


def random_arch(rng: random.Random) -> str:
    out = rng.choice(PREFIXES)
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
        out += rng.choice(PIECES)
    return out


def random_triple(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(COMMON_TRIPLES)
    if roll < 0.6:
        return random_full_triple(rng)
    arch = random_arch(rng)
    if not arch.startswith(("arm", "aarch64")):
        arch = "arm" + arch
    return arch + rng.choice(SUFFIXES)


def random_mattr(rng: random.Random, unsigned: float = 0.0) -> list[str]:
    t = _arm.tables()
    names = list(t.aarch64.features) + list(t.arm.features)
    items = []
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4, 6))):
        roll = rng.random()
        if roll < 0.25:
            items.append(rng.choice(VERSION_FLAGS))
            continue
        name = rng.choice(INTERESTING) if roll < 0.6 else rng.choice(names)
        sign = "" if rng.random() < unsigned else rng.choice("++-")
        items.append(sign + name)
    return items


def random_cpu(rng: random.Random) -> str | None:
    t = _arm.tables()
    roll = rng.random()
    if roll < 0.15:
        return None
    if roll < 0.2:
        return rng.choice(("generic", "", "foo", "cortex-a53+crypto", "Cortex-A53", "native"))
    if roll < 0.25:
        return rng.choice(t.aarch64.cpu_aliases)
    if roll < 0.3:
        return rng.choice(("cortex-m0", "cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33",
                           "cortex-m55", "cortex-m85", "cortex-m23", "cortex-m52",
                           "cortex-m55+nomve"))
    return rng.choice(list(t.aarch64.cpus) + list(t.arm.cpus))


# ---- 1. triples ---------------------------------------------------------------------------

VENDORS = ("unknown", "pc", "apple", "none", "arm", "w64", "")
OSES = ("linux", "macos", "ios", "watchos", "tvos", "darwin", "windows", "win32", "uefi",
        "netbsd", "freebsd", "none", "eabi", "android", "xros", "driverkit", "bridgeos",
        "firmware", "macosx14", "windows10", "wind", "", "mingw32", "cygwin", "elf")
ENVS = ("gnu", "gnueabihf", "eabi", "msvc", "itanium", "android", "musl", "gnu-elf", "elf",
        "coff", "macho", "xcoff", "goff", "wasm", "spirv", "msvc-coff", "gnu-macho", "foo",
        "", "eabihf-xcoff", "gnu-wasm", "simulator", "macabi")


def random_full_triple(rng: random.Random) -> str:
    parts = [random_arch(rng)]
    for choices in (VENDORS, OSES, ENVS):
        if rng.random() < 0.2:
            break
        parts.append(rng.choice(choices))
    return "-".join(parts)


def check_triples(rng: random.Random, count: int) -> tuple[int, list[str]]:
    """Architecture names alone (target or not), then whole triples (machine or not)."""
    arches = sorted({random_arch(rng) for _ in range(count)}
                    | {t.split("-")[0] for t in COMMON_TRIPLES})
    triples = sorted({random_full_triple(rng) for _ in range(count)} | set(COMMON_TRIPLES))
    job = {"lookup": [a + "-linux" for a in arches]}
    answer = json.loads(oracle([str(GENERATOR), "--probe", "triples"], json.dumps(job)))["lookup"]
    machines = json.loads(oracle([str(GENERATOR), "--probe", "machines"], json.dumps(triples)))
    names = {"aarch64": "aarch64", "aarch64_be": "aarch64", "aarch64_32": "aarch64",
             "arm": "arm", "armeb": "arm", "thumb": "thumb", "thumbeb": "thumb"}
    bad = []
    for arch in arches:
        llvm = answer[arch + "-linux"]
        mine = _arm.arm_triple(arch + "-linux")
        want = None if llvm is None else names[llvm]
        got = None if mine is None else ("thumb" if mine.thumb else mine.target)
        if want != got:
            bad.append(f"{arch!r}: LLVM target {llvm}, targetlang {got}")
    for triple in triples:
        llvm_ok = machines[triple] == "ok"
        problem = _arm.triple_problem(triple)
        if llvm_ok != (problem is None):
            bad.append(f"{triple!r}: LLVM {machines[triple]}, targetlang {problem or 'ok'}")
    return len(arches) + len(triples), bad


# ---- 2. feature sets ----------------------------------------------------------------------

def check_sets(rng: random.Random, count: int) -> tuple[int, list[str]]:
    cases = []
    while len(cases) < count:
        triple = random_triple(rng)
        parsed = _arm.arm_triple(triple)
        if parsed is None or _arm.triple_problem(triple) is not None:
            continue
        mattr = random_mattr(rng)
        if _arm.unsigned_item(mattr) is not None:
            continue
        cases.append((triple, parsed, random_cpu(rng), mattr))
    job = {"features": [[t, c, m] for t, _, c, m in cases]}
    answer = json.loads(oracle([str(GENERATOR), "--probe", "triples"], json.dumps(job)))
    bad = []
    for (triple, parsed, cpu, mattr), llvm in zip(cases, answer["features"]):
        mine = set(_arm.cpu_features(parsed, cpu, mattr))
        theirs = set(llvm)
        if mine != theirs:
            bad.append(f"{triple} -mcpu={cpu} -mattr={mattr}: only LLVM "
                       f"{sorted(theirs - mine)}, only targetlang {sorted(mine - theirs)}")
    return len(cases), bad


# ---- 3. whole targets ---------------------------------------------------------------------

def random_target(rng: random.Random) -> str:
    kind = "llvm" if rng.random() < 0.95 else "c"
    triple = random_triple(rng) if rng.random() < 0.97 else None
    if triple is not None and _arm.triple_problem(triple) is not None and rng.random() < 0.9:
        triple = rng.choice(COMMON_TRIPLES)  # crashes are slow to replay: keep a few
    cpu = random_cpu(rng)
    mattr = random_mattr(rng, unsigned=0.01)
    if rng.random() < 0.1:  # JSON: -mattr items with commas and spaces inside
        config: dict[str, Any] = {"kind": kind}
        if triple is not None:
            config["mtriple"] = triple
        if cpu is not None:
            config["mcpu"] = cpu
        if mattr:
            joined = ",".join(mattr)
            # One item holding them all, or spaced items (LLVM aborts on " +x": keep it rare).
            config["mattr"] = [joined] if rng.random() < 0.9 else [" " + m for m in mattr]
        return json.dumps(config)
    words = [kind]
    if triple is not None:
        words.append(f"-mtriple={triple}" if " " not in triple else f"-mtriple='{triple}'")
    if cpu is not None:
        words.append(f"-mcpu={cpu}" if cpu else "-mcpu=''")
    if mattr:
        words.append("-mattr=" + ",".join(m if m else "''" for m in mattr))
    return " ".join(words)


def ask_query(texts: Sequence[str], query: Path) -> list[dict[str, Any]]:
    """TVM's answers for target texts, through the oracle's query.py."""
    with tempfile.TemporaryFile("w+") as errors:
        done = subprocess.run([str(ORACLE_PYTHON), str(query),
                               "--timeout", "30"], input="\n".join(texts) + "\n",
                              stdout=subprocess.PIPE, stderr=errors, text=True, check=True)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    if len(records) != len(texts):
        sys.exit(f"query.py answered {len(records)} of {len(texts)} cases")
    return records


def compare_target(text: str, rec: Mapping[str, Any]) -> str | None:
    """How targetlang and TVM disagree on a text (None when they agree)."""
    try:
        target = tl.parse(text, environment=ENV)
    except tl.TargetError as e:
        return f"{text!r}: TVM accepts, targetlang: {e.message}" if rec["ok"] else None
    if not rec["ok"]:
        return f"{text!r}: TVM {rec['error_type']}, targetlang accepts"
    if target.to_json() != rec["export"] or dict(target.features) != rec["features"]:
        return f"{text!r}: TVM {rec['features']}, targetlang {dict(target.features)}"
    return None


def check_targets(rng: random.Random, count: int, query: Path) -> tuple[int, list[str], int]:
    cases = list(dict.fromkeys(random_target(rng) for _ in range(count)))
    records = ask_query(cases, query)
    bad = [p for p in (compare_target(t, r) for t, r in zip(cases, records)) if p is not None]
    crashes = sum(r["error_type"] == "Crash" for r in records)
    return len(cases), bad, crashes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2021)
    ap.add_argument("--triples", type=int, default=20000, help="random architecture names")
    ap.add_argument("--sets", type=int, default=20000, help="random (triple, CPU, -mattr)")
    ap.add_argument("--targets", type=int, default=5000, help="random target strings")
    ap.add_argument("--query", type=Path, help="the oracle's query.py",
                    default=Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared"))
                    / "oracle" / "query.py")
    ap.add_argument("--report", type=Path, help="write counts and disagreements as JSON")
    args = ap.parse_args()
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON}; run ../shared/oracle/install.sh")
    report: dict[str, Any] = {"seed": args.seed, "llvm_version": _arm.tables().llvm_version}
    failed = False
    checks = (("triples", lambda rng: check_triples(rng, args.triples)),
              ("feature sets", lambda rng: check_sets(rng, args.sets)),
              ("targets", lambda rng: check_targets(rng, args.targets, args.query)))
    for name, run in checks:
        if not getattr(args, name.split()[-1]):
            continue
        rng = random.Random(f"{args.seed}-{name}")
        total, bad, *extra = run(rng)
        agree = total - len(bad)
        line = f"{name}: {agree}/{total} agree ({100 * agree / max(total, 1):.3f}%)"
        if extra:
            line += f"; TVM crashed on {extra[0]}"
        print(line)
        for item in bad[:20]:
            print("   ", item)
        report[name] = {"total": total, "agree": agree, "disagreements": bad}
        failed = failed or bool(bad)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
