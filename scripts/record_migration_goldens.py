"""Record what TVM says about migrated targets: ``tests/data/migration/golden.jsonl``.

    python3 scripts/record_migration_goldens.py           # rewrite the golden file
    python3 scripts/record_migration_goldens.py --check   # exit 1 if TVM now says otherwise

For every case (the 45 distinct TopHub target strings of ``../shared/corpora``, then the
extra cases below) it records:

* ``input``, ``dialect`` (``detect_dialect``) and ``migrated`` (``targetlang.migrate()``);
* ``tvm021``: TVM 0.21's ``Target(text).export()`` of the text as TVM 0.7 to 0.23's AutoTVM
  loader read it (``-target`` rewritten to ``-mtriple``), or null where 0.21 cannot read
  the text (a ``tvm-0.8`` string);
* ``tvm027``: TVM 0.27's ``Target(migrated).export()`` (``ok`` false and the error where it
  refuses).

``tests/unit/tools/test_migration.py`` replays it without TVM: ``migrate()`` must give the same
``migrated``, TVM 0.27 must have accepted it, and its export must describe the same target
as TVM 0.21's (``same_target`` there: equal but for ``feature.*`` keys and the values TVM
detected from the machine).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO

SHARED = REPO.parent / "shared"
if not SHARED.exists():
    SHARED = Path("/work/shared")
QUERY = SHARED / "oracle" / "query.py"
OUTPUT = REPO / "tests" / "data" / "migration" / "golden.jsonl"

#: Beyond TopHub: tags, hosts, composites, opencl's new default, TVM 0.8's moved options.
EXTRA = [
    "nvidia/jetson-nano",
    "llvm -target=aarch64-linux-gnu -mcpu=cortex-a72",
    "raspberry-pi/4b-aarch64",
    "cuda -arch=sm_80 -libs=cudnn,cublas -host='llvm -mtriple=aarch64-linux-gnu'",
    "composite --host=llvm --devices=cuda,opencl",
    "opencl -device=mali",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+neon,+dotprod -num-cores=4",
    "rocm -mcpu=gfx908",
    "vulkan -from_device=0",
    "c -mcpu=cortex-m55",
    "llvm -link-params=1 -system-lib",
    "c -executor=aot -interface-api=c -unpacked-api=1 -runtime=c -system-lib -link-params=1",
    "cuda -arch=sm_75 -system-lib",
]


def oracle(name: str, lines: list[str], mode: str) -> list[dict[str, Any]]:
    python = ORACLE_DIR / "bin" / name
    if not python.exists():
        sys.exit(f"no oracle at {python}; run ../shared/oracle/install.sh")
    done = subprocess.run([str(python), str(QUERY), "--mode", mode], input="\n".join(lines) + "\n",
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def record() -> list[dict[str, Any]]:
    import targetlang as tl

    corpus = (SHARED / "corpora" / "tophub-targets.txt").read_text(encoding="utf-8").splitlines()
    cases = corpus + EXTRA
    rows: list[dict[str, Any]] = []
    for text in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows.append({"input": text, "dialect": tl.detect_dialect(text),
                         "migrated": tl.migrate(text)})
    legacy = [r for r in rows if r["dialect"] != "tvm-0.8"]  # what TVM 0.21 can read
    read = oracle("tvm021-python", [r["input"].replace("-target", "-mtriple") for r in legacy],
                  "parse")
    for row, answer in zip(legacy, read):
        row["tvm021"] = answer["export"] if answer["ok"] else {"error": answer["error"]}
    accepted = oracle("tvm027-python", [json.dumps(r["migrated"]) for r in rows], "accept")
    for row, answer in zip(rows, accepted):
        row.setdefault("tvm021", None)
        row["tvm027"] = ({"ok": True, "export": answer["export"]} if answer["ok"]
                         else {"ok": False, "error": answer["error"]})
    return rows


def render(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = render(record())
    if args.check:
        same = OUTPUT.read_text(encoding="utf-8") == text
        print("migration goldens up to date" if same else f"{OUTPUT} differs")
        return 0 if same else 1
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(REPO)} ({text.count(chr(10))} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
