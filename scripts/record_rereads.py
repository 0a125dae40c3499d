#!/usr/bin/env python3
"""Record where TVM 0.21's own ``str -> Target -> str`` is not idempotent.

For each input below, the oracle reads it, prints it (``str(target)``), reads that text
again and prints it again. The rows where the two printings differ (or the re-read fails)
are TVM's own exceptions to idempotence, by class; ``tests/property/test_properties.py`` checks that
targetlang re-reads its TVM style exactly as TVM does and that every exception it allows
is one of these, confirmed here.

    python3 scripts/record_rereads.py     # writes tests/data/tvm-0.21/rereads.jsonl

Uses the oracle like scripts/record_goldens.py (``$TARGETLANG_ORACLE_DIR``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from record_goldens import DATA_DIR, run_oracle

SHARED = Path(__file__).resolve().parents[2] / "shared"
OUTPUT = DATA_DIR / "rereads.jsonl"

#: (class, input): the classes are the predicates of tests/property/test_properties.py.
CASES = [
    ("idempotent", "cuda -arch=sm_80 -libs=cudnn,cublas"),
    ("idempotent", "llvm -mcpu=it\\'s -mattr=+neon"),
    ("idempotent", "vulkan -device_name='Name of GPU'"),
    ("idempotent", "llvm -mcpu=\\'a\\'"),
    ("empty-keys", "cuda -keys=,"),
    ("empty-keys", "opencl -keys=''"),
    ("empty-key", "c -device=''"),
    ("empty-key", '{"kind": "llvm", "keys": ["", "cpu"]}'),
    ("dropped-empty-value", "llvm -mcpu=''"),
    ("dropped-empty-value", "llvm -mcpu=' '"),
    ("array-item-needs-quoting", "llvm -mattr='a b'"),
    ("array-item-needs-quoting", "hexagon -llvm-options='\\'-a b\\',-c'"),
    ("idempotent", "llvm -libs=a\\\\b"),
    ("array-single-item-with-comma", "llvm -libs='\\'a,b\\''"),
    ("array-empty-item", '{"kind": "llvm", "mattr": ["", "+neon"]}'),
    ("key-needs-quoting", '{"kind": "llvm", "keys": ["a,b", "c"]}'),
    ("key-needs-quoting", '{"kind": "llvm", "keys": ["a b"]}'),
    ("string-edge-spaces", '{"kind": "llvm", "mcpu": " a"}'),
    ("mkldnn-rewrite", '{"kind": "llvm", "libs": ["mkldnn"]}'),
]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        first = run_oracle(SHARED, [text for _, text in CASES], Path(tmp) / "first.log")
        printed = [r["str"] if r["ok"] and r["str"] is not None else "" for r in first]
        second = run_oracle(SHARED, printed, Path(tmp) / "second.log")
    with open(OUTPUT, "w", encoding="utf-8") as out:
        for (cls, text), one, two in zip(CASES, first, second):
            row = {"class": cls, "input": text, "ok": one["ok"], "str": one["str"],
                   "reread_ok": two["ok"], "reread_str": two["str"] if two["ok"] else None}
            out.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {OUTPUT.relative_to(DATA_DIR.parents[2])} ({len(CASES)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
