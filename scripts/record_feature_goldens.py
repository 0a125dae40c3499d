#!/usr/bin/env python3
"""Record TVM 0.21's target-parser features for a golden table of Arm targets.

Every Arm CPU LLVM knows (each processor TVM's ``-mcpu`` check accepts, and LLVM's CPU
aliases, which TVM turns into ``generic``), plus no CPU and unknown ones, on an AArch64, an
AArch32 and an ``arm64`` triple, each with a set of ``-mattr`` lists (additions, removals,
architecture versions); then triple variants (every AArch32 sub-architecture, big-endian,
Thumb, Windows, Apple), M-profile and test-kind cases, JSON configs, and inputs TVM dies on.
The CPU and sub-architecture names come from ``targetlang/_data/arm-features.json`` (itself
recorded from the oracle by ``scripts/generate_arm_features.py``). Writes:

    tests/data/tvm-0.21/features-golden.jsonl   {"category", "input", "ok", "keys",
                                                 "features", "error_type"} per line
    tests/data/tvm-0.21/features-PROVENANCE.md  how and where it was recorded, counts

Usage (plain python3; it shells out to the oracle's ``shared/oracle/query.py``):

    python3 scripts/record_feature_goldens.py           # record
    python3 scripts/record_feature_goldens.py --check   # re-ask TVM, exit 1 on a difference
    python3 scripts/record_feature_goldens.py --list    # print the cases only

The oracle is ``$TARGETLANG_ORACLE_DIR/bin/tvm021-python`` (default directory
``~/.cache/targetlang-oracle``); the shared directory defaults to ``<repo>/../shared``
(``--shared-dir`` or ``$TARGETLANG_SHARED_DIR``).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO

DATA = REPO / "tests" / "data" / "tvm-0.21"
GOLDEN = DATA / "features-golden.jsonl"
PROVENANCE = DATA / "features-PROVENANCE.md"
TABLES = REPO / "targetlang" / "_data" / "arm-features.json"
ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"
FIELDS = ("category", "input", "ok", "keys", "features", "error_type")

#: One triple per path through TVM: AArch64, AArch32, and arm64 (AArch64 in LLVM, but
#: TVM's is_aarch64 only looks for the "aarch64" prefix).
TABLE_TRIPLES = ("aarch64-linux-gnu", "armv7a-linux-gnueabihf", "arm64-apple-macos")
TABLE_MATTRS: tuple[tuple[str, ...], ...] = (
    (),
    ("+neon",),
    ("-neon",),
    ("+sve", "-fullfp16"),
    ("+v8.2a", "+dotprod"),
    ("+v8.6a", "-i8mm"),
    ("+v9a",),
    ("+v9.2a", "+sme", "-sve"),
    ("+i8mm", "+fullfp16"),
    ("+armv8.2-a", "-dotprod"),
)
EXTRA_CPUS = (None, "generic", "", "foo", "cortex-a53+crypto", "Cortex-A53", "native", "help")

TRIPLE_VARIANTS = (
    "aarch64-unknown-linux-gnu", "aarch64-arm-none-eabi", "aarch64-none-elf",
    "aarch64_be-linux-gnu", "aarch64_32-unknown-linux", "aarch64-linux-android",
    "aarch64-pc-windows-msvc", "aarch64-apple-darwin", "arm64-apple-ios", "arm64e-apple-ios",
    "arm64ec-pc-windows-msvc", "arm64_32-apple-watchos", "arm64-linux-android", "arm64x",
    "arm", "arm-linux-gnueabihf", "arm-none-eabi", "armeb-linux-gnueabi", "armebv7-linux",
    "armv7eb-linux", "armv7l-linux-gnueabihf", "armv7-none-linux-gnueabihf",
    "armv7-pc-windows-msvc", "armv7s-apple-ios", "armv7k-apple-watchos", "armv6m-none-eabi",
    "armv8.1m.main-none-eabi", "armx", "arm7", "armm", "aarch64m-linux", "aarch64v8.2a",
    "arm64v9a", "armv9.9a", "armv7zzz", "aarch64 ",
)
TRIPLE_MATTRS: tuple[tuple[str, ...], ...] = ((), ("+neon", "+dotprod"), ("-neon",),
                                              ("+v8.4a", "+sve"))

#: Inputs TVM 0.21 dies on (a segfault, an LLVM assertion or abort), and near misses.
EDGE = (
    "llvm -mtriple=armfoo", "llvm -mtriple=aarch64foo-linux", "llvm -mtriple=armebeb",
    "llvm -mtriple=arm64v7eb", "llvm -mtriple=aarch64_eb", "llvm -mtriple=armv7-a",
    "llvm -mtriple=armeb-apple-macos", "llvm -mtriple=armebv7-pc-windows-msvc",
    "llvm -mtriple=aarch64_be-apple-ios -mcpu=cortex-a53", "llvm -mtriple=arm-unknown-uefi",
    "llvm -mtriple=armv7-apple-ios-elf", "llvm -mtriple=arm-linux-gnu-coff",
    "llvm -mtriple=aarch64-linux-gnu-xcoff", "llvm -mtriple=arm64-apple-macos-wasm",
    "llvm -mtriple=armebv7k-apple-watchos", "llvm -mtriple=arm-unknown-linux-wasm",
    "llvm -mtriple=aarch64-linux-gnu -mattr=neon", "llvm -mtriple=armv7a-linux -mattr=+neon,sve",
    "llvm -mtriple=aarch64-linux-gnu -mattr=help",
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon,sve"]}',
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon", " +sve"]}',
    "llvm -mtriple=arm-unknown-netbsd-wasm", "llvm -mtriple=aarch64-pc-windows-elf",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+help",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+cpuhelp,+sve",
    "llvm -mtriple=thumbv7-linux",
)
OTHER_INPUTS = (
    # M-profile (parsers/mprofile.cc): by -mcpu prefix, whatever the triple
    "c -mcpu=cortex-m55", "c -mcpu=cortex-m55+nomve", "c -mcpu=cortex-m55+nodsp+nomve",
    "c -mcpu=cortex-m7 -mattr=+nodsp", "c -mcpu=cortex-m85 -mattr=+nomve,+woof",
    "c -mcpu=cortex-m0", "c -mcpu=cortex-m3", "c -mcpu=cortex-m33 -keys=x",
    "c -mcpu=cortex-m4x", "c -mcpu=cortex-m23", "llvm -mcpu=cortex-m55 -mtriple=aarch64-linux-gnu",
    "llvm -mcpu=cortex-m23 -mtriple=aarch64-linux-gnu",
    "llvm -mcpu=cortex-m23 -mtriple=armv8m.base",
    "llvm -mcpu=cortex-m4 -mtriple=armfoo",
    # the test kind, and kinds without features
    "test", "test -keys=a", "cuda", "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake",
    # keys merging and JSON configs
    "llvm -mtriple=aarch64-linux-gnu -keys=cpu", "llvm -mtriple=arm64-apple-macos -keys=arm_cpu,x",
    "llvm -mtriple=armv7a-linux -device=arm_cpu", "llvm -mtriple=aarch64-linux-gnu -keys=,",
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon,-neon"]}',
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["", "+sve", ""]}',
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+", "-", "+SVE", "+sve "]}',
    '{"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": [""]}',
    '{"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": ["+simd"]}',
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": ""}',
    '{"kind": "c", "mtriple": "aarch64-linux-gnu"}',
    '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "cl-opt": ["-bad"]}',
    # order matters: removals after additions, additions after removals
    "llvm -mtriple=aarch64-linux-gnu -mattr=-neon,+sve",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+sve,-neon",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+v9a,-v8.2a",
    "llvm -mtriple=aarch64-linux-gnu -mattr=-v8.2a,+v9a",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 -mattr=-fp-armv8,+dotprod",
    "llvm -mtriple=armv8.2a-linux-gnueabihf -mattr=-v8.2a",
    "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=generic -mattr=+v8.4b,+v10a",
)


def load_tables() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TABLES.read_text(encoding="utf-8"))
    return data


def target_text(triple: str, cpu: str | None, mattr: Iterable[str]) -> str:
    words = ["llvm", f"-mtriple='{triple}'" if " " in triple else f"-mtriple={triple}"]
    if cpu is not None:
        words.append(f"-mcpu={cpu}" if cpu else "-mcpu=''")
    items = list(mattr)
    if items:
        words.append("-mattr=" + ",".join(items))
    return " ".join(words)


def build_cases() -> list[tuple[str, str]]:
    tables = load_tables()["targets"]
    cpus: list[str | None] = sorted(set(tables["aarch64"]["cpus"]) | set(tables["arm"]["cpus"])
                                    | set(tables["aarch64"]["cpu_aliases"]))
    cases: list[tuple[str, str]] = []
    for cpu in cpus + list(EXTRA_CPUS):
        for triple in TABLE_TRIPLES:
            for mattr in TABLE_MATTRS:
                cases.append(("cpu-table", target_text(triple, cpu, mattr)))
    subarchs = sorted(tables["arm"]["subarch_features"])
    triples = [f"arm{s}-linux-gnueabihf" for s in subarchs] + list(TRIPLE_VARIANTS)
    for triple in triples:
        for mattr in TRIPLE_MATTRS:
            cases.append(("triples", target_text(triple, None, mattr)))
    cases += [("edge", text) for text in EDGE]
    cases += [("other", text) for text in OTHER_INPUTS]
    first: dict[str, str] = {}  # input -> the first category that has it
    for category, text in cases:
        first.setdefault(text, category)
    return [(category, text) for text, category in first.items()]


def ask_oracle(shared: Path, inputs: list[str]) -> list[dict[str, Any]]:
    """One query.py run (it restarts its TVM worker after each crash)."""
    done = subprocess.run([str(ORACLE_PYTHON), str(shared / "oracle" / "query.py"),
                           "--timeout", "30"], input="".join(i + "\n" for i in inputs),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(inputs):
        raise SystemExit(f"query.py answered {len(answers)} of {len(inputs)} cases")
    return answers


def golden_row(category: str, text: str, answer: dict[str, Any]) -> dict[str, Any]:
    ok = bool(answer["ok"])
    return {"category": category, "input": text, "ok": ok,
            "keys": answer["export"]["keys"] if ok else None,
            "features": answer["features"] if ok else None,
            "error_type": answer["error_type"]}


def write_provenance(rows: list[dict[str, Any]], elapsed: float) -> None:
    meta = load_tables()
    counts: dict[str, collections.Counter[str]] = {}
    for row in rows:
        outcome = "accepted" if row["ok"] else \
            "died" if row["error_type"] in ("Crash", "Timeout") else "rejected"
        counts.setdefault(row["category"], collections.Counter())[outcome] += 1
    digest = hashlib.sha256(GOLDEN.read_bytes()).hexdigest()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# TVM 0.21 target-parser features: provenance",
        "",
        "`features-golden.jsonl` holds what TVM 0.21's `tvm.target.Target(input)` derived for",
        "each input (`features`: the non-null `TargetGetFeature` values, `keys`: the exported",
        "keys), or how it failed (`error_type` `Crash`: TVM died). Built and recorded by",
        "`scripts/record_feature_goldens.py`; replayed by `tests/golden/test_features_golden.py`.",
        "",
        "| | |",
        "|---|---|",
        f"| recorded | {now} |",
        f"| TVM / LLVM | {meta['tvm_version']} / {meta['llvm_version']} |",
        f"| cases | {len(rows)} |",
        f"| recording time | {elapsed:.0f} s |",
        f"| features-golden.jsonl | {GOLDEN.stat().st_size} bytes, sha256 `{digest}` |",
        "",
        "| category | cases | accepted | rejected | died |",
        "|---|---:|---:|---:|---:|",
    ]
    for category, c in counts.items():
        lines.append(f"| {category} | {sum(c.values())} | {c['accepted']} | {c['rejected']} "
                     f"| {c['died']} |")
    lines += ["", "Regenerate (then review the diff) or check against a live oracle:", "",
              "```sh", "python3 scripts/record_feature_goldens.py",
              "python3 scripts/record_feature_goldens.py --check", "```", ""]
    PROVENANCE.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="re-ask TVM, compare with the file")
    ap.add_argument("--list", action="store_true", help="print the cases, no oracle run")
    ap.add_argument("--shared-dir", type=Path,
                    default=Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared")))
    args = ap.parse_args()
    cases = build_cases()
    if args.list:
        for category, text in cases:
            print(f"{category}\t{text}")
        return 0
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON}; run ../shared/oracle/install.sh")
    started = time.monotonic()
    answers = ask_oracle(args.shared_dir, [text for _, text in cases])
    rows = [golden_row(c, t, a) for (c, t), a in zip(cases, answers)]
    if args.check:
        old = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
        diff = [(o["input"], o, n) for o, n in zip(old, rows) if o != n]
        for text, o, n in diff[:20]:
            print(f"{text!r}: recorded {o}, now {n}")
        same = len(old) == len(rows) and not diff
        print("features golden up to date" if same else f"{len(diff)} cases differ")
        return 0 if same else 1
    with open(GOLDEN, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            line = json.dumps({k: row[k] for k in FIELDS}, ensure_ascii=False,
                              separators=(",", ":"))
            f.write(line + "\n")
    write_provenance(rows, time.monotonic() - started)
    print(f"wrote {GOLDEN.relative_to(REPO)} ({len(rows)} cases) and "
          f"{PROVENANCE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
