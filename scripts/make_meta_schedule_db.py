"""Make a small real MetaSchedule database with the TVM 0.21 oracle, and see how 0.25-0.27 read it.

    python3 scripts/make_meta_schedule_db.py          # tune, then probe 0.25/0.26/0.27
    python3 scripts/make_meta_schedule_db.py --probe-only

Tuning: a 16x16x16 float32 matmul in TIR (``tvm.script``), ``tvm.meta_schedule.tune_tir`` on
``llvm`` (targets below, all with ``-num-cores`` so that TVM does not ask the machine), a few
trials, ``JSONDatabase`` work dir ``tests/data/meta_schedule/db/`` (its
``database_workload.json`` and ``database_tuning_record.json`` are what TVM wrote, byte for
byte). Records are then added for a few more targets (the same workload and trace committed
under another target dict, as ``JSONDatabase.commit_tuning_record`` writes them), so that the
database holds several targets, as a shared database does.

Probe: the 0.21 oracle and each of the 0.25/0.26/0.27 oracles (``tvm.s_tir.meta_schedule``
there) is asked to
(1) read every record's target dict with ``Target(dict)`` and export it, and (2) open the whole
database with ``JSONDatabase``, and (3) whether it knows each instruction kind the traces use
(and ``GetBlock``/``GetSBlock``); what happened is written to ``tests/data/meta_schedule/reads.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO

OUT = REPO / "tests" / "data" / "meta_schedule"
DB = OUT / "db"

# The target tuned on, then the extra targets recorded with the same trace (legacy strings, as
# a 0.21 user wrote them; TVM 0.21 stores each record's target as Target(str).export()).
TUNED = "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=skylake -num-cores=2"
EXTRA = [
    "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=skylake-avx512 -num-cores=4",
    "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon -num-cores=4",
    "cuda -arch=sm_80 -max_threads_per_block=1024 -max_shared_memory_per_block=49152 "
    "-thread_warp_size=32 -registers_per_block=65536",
    "nvidia/jetson-orin-nano",
    "apple/m1-gpu",
    "opencl -device=mali",
    "vulkan -from_device=0",
    "rocm -mcpu=gfx90a",
    "webgpu",
]
TRIALS = 8


def tune() -> None:
    """Runs in the 0.21 oracle."""
    import tempfile

    import tvm  # type: ignore[import-not-found]
    from tvm import meta_schedule as ms  # type: ignore[import-not-found]
    from tvm.script import tir as T  # type: ignore[import-not-found]

    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle) -> None:
        T.func_attr({"global_symbol": "matmul", "tir.noalias": True})
        A = T.match_buffer(a, (16, 16), "float32")
        B = T.match_buffer(b, (16, 16), "float32")
        C = T.match_buffer(c, (16, 16), "float32")
        for i, j, k in T.grid(16, 16, 16):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    mod = tvm.IRModule({"main": matmul})
    with tempfile.TemporaryDirectory() as work:
        database = ms.tune_tir(mod, TUNED, work_dir=work, max_trials_global=TRIALS,
                               num_trials_per_iter=4, num_tuning_cores=1,
                               cost_model="random")  # no xgboost in the oracle
        records = database.get_all_tuning_records()
        assert records, "tuning made no record"
        best = min(records, key=lambda r: sum(float(x) for x in (r.run_secs or [1e9])))
        for text in EXTRA:
            database.commit_tuning_record(ms.database.TuningRecord(
                best.trace, best.workload, best.run_secs, tvm.target.Target(text),
                best.args_info))
        os.makedirs(sys.argv[-1], exist_ok=True)
        for name in ("database_workload.json", "database_tuning_record.json"):
            shutil.copyfile(os.path.join(work, name), os.path.join(sys.argv[-1], name))


def probe(db: str) -> dict[str, Any]:
    """Runs in a 0.25+ oracle."""
    import tvm  # type: ignore[import-not-found]
    from shelf import plain  # the script's directory is on sys.path
    from tvm.target import Target  # type: ignore[import-not-found]

    result: dict[str, Any] = {"tvm_version": str(tvm.__version__), "targets": []}
    lines = Path(db, "database_tuning_record.json").read_text().splitlines()
    for line in lines:
        workload_index, record = json.loads(line)
        target = record[2]
        entry: dict[str, Any] = {"input": target}
        try:
            entry["export"] = plain(Target(target).export(), Target)
            entry["ok"] = True
        except Exception as exc:  # noqa: BLE001 - what TVM refused is the fact
            entry.update(ok=False, error_type=type(exc).__name__, error=str(exc)[:300])
        result["targets"].append(entry)
    try:
        from tvm.s_tir import meta_schedule as ms  # type: ignore[import-not-found]
        from tvm.s_tir.schedule import InstructionKind  # type: ignore[import-not-found]
    except ImportError:  # TVM <= 0.23
        from tvm import meta_schedule as ms  # type: ignore[import-not-found]
        from tvm.tir.schedule import InstructionKind  # type: ignore[import-not-found]
    try:
        database = ms.database.JSONDatabase(
            path_workload=os.path.join(db, "database_workload.json"),
            path_tuning_record=os.path.join(db, "database_tuning_record.json"),
            allow_missing=False)
        result["whole_database"] = {"ok": True, "records": len(database.get_all_tuning_records())}
    except Exception as exc:  # noqa: BLE001
        result["whole_database"] = {"ok": False, "error_type": type(exc).__name__,
                                    "error": str(exc)[:600]}
    # Which of the traces' instruction kinds this release knows (0.25 renamed GetBlock).
    names: set[str] = set()
    for line in lines:
        for instruction in json.loads(line)[1][0][0]:
            names.add(instruction[0])
    known = {}
    for name in sorted(names | {"GetBlock", "GetSBlock"}):
        try:
            InstructionKind.get(name)
            known[name] = True
        except Exception:  # noqa: BLE001 - an unknown instruction kind
            known[name] = False
    result["instruction_kinds"] = known
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probe-only", action="store_true")
    ap.add_argument("--tune", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("dir", nargs="?", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tune:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
        tune()
        out.close()
        return 0
    if args.probe:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
        out.write(json.dumps(probe(args.dir)))
        out.close()
        return 0
    if not args.probe_only:
        tmp = OUT / "db.new"
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run([str(ORACLE_DIR / "bin" / "tvm021-python"), __file__, "--tune", str(tmp)],
                       check=True)
        shutil.rmtree(DB, ignore_errors=True)
        tmp.rename(DB)
    reads = {}
    for version in ("021", "025", "026", "027"):
        done = subprocess.run([str(ORACLE_DIR / "bin" / f"tvm{version}-python"), __file__,
                               "--probe", str(DB)], check=True, stdout=subprocess.PIPE,
                              text=True)
        reads[f"tvm-0.{int(version)}"] = json.loads(done.stdout)
    text = json.dumps(reads, indent=1, sort_keys=True) + "\n"
    (OUT / "reads.json").write_text(text, encoding="utf-8")
    print(f"wrote {DB.relative_to(REPO)}/ and tests/data/meta_schedule/reads.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
