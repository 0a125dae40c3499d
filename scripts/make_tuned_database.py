"""A real MetaSchedule database tuned with TVM 0.21, and the workload tables 0.25-0.27 write.

    python3 scripts/make_tuned_database.py              # tune with 0.21, then the tables
    python3 scripts/make_tuned_database.py --tables     # only the 0.25/0.26/0.27 tables

Tuning (the 0.21 oracle): two small TE workloads (a 16x16x16 float32 matmul and a 1x8x8x4 NHWC
conv2d with a 3x3x4x4 kernel), ``tvm.meta_schedule.tune_tir`` on ``llvm -num-cores=1``, a few
trials each (random cost model: the oracle has no xgboost), one ``tune_tir`` after the other
into one ``JSONDatabase`` work dir, so the workload table holds matmul then conv2d. The
database is written to ``tests/data/meta_schedule/tuned/db/`` byte for byte as TVM wrote it.

Tables (the 0.25, 0.26 and 0.27 oracles): each release builds the same workloads with the same
TE code, normalizes them as its ``TuneContext`` does (what ``tune_tir`` commits), and commits
them in the same order into an empty ``JSONDatabase``; its ``database_workload.json`` is
written to ``tests/data/meta_schedule/tuned/workloads-0.N.json`` (what ``logs normalize
--workloads`` takes). Saving IR crashes with apache-tvm-ffi 0.1.15.post2 (the 0.26/0.27
oracles' own): for those releases the script runs the oracle's TVM with apache-tvm-ffi
0.1.14.post1 from an overlay venv it makes once under ``$TARGETLANG_ORACLE_DIR/overlay-0.N``
(the oracle venvs are not touched).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from typing import Any

from shelf import ORACLE_DIR, REPO

OUT = REPO / "tests" / "data" / "meta_schedule" / "tuned"
TARGET = "llvm -num-cores=1"
TRIALS = 8
RELEASES = ("0.25", "0.26", "0.27")
#: Releases whose own apache-tvm-ffi crashes when saving IR, and the one that saves.
SAVING_FFI = {"0.26": "0.1.14.post1", "0.27": "0.1.14.post1"}


def workloads() -> list[tuple[str, Any]]:
    """The workloads, (name, PrimFunc), in tuning order; runs in any oracle (TE is in all)."""
    from tvm import te  # type: ignore[import-not-found]

    n = 16
    a = te.placeholder((n, n), "float32", name="A")
    b = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    data = te.placeholder((1, 8, 8, 4), "float32", name="data")
    kernel = te.placeholder((3, 3, 4, 4), "float32", name="kernel")
    ry = te.reduce_axis((0, 3), name="ry")
    rx = te.reduce_axis((0, 3), name="rx")
    rc = te.reduce_axis((0, 4), name="rc")
    conv = te.compute(
        (1, 6, 6, 4),
        lambda nn, y, x, f: te.sum(data[nn, y + ry, x + rx, rc] * kernel[ry, rx, rc, f],
                                   axis=[ry, rx, rc]), name="conv")
    return [("matmul", te.create_prim_func([a, b, c])),
            ("conv2d", te.create_prim_func([data, kernel, conv]))]


def meta_schedule() -> Any:
    try:
        from tvm.s_tir import meta_schedule as ms  # type: ignore[import-not-found]
    except ImportError:  # TVM <= 0.23
        from tvm import meta_schedule as ms  # type: ignore[import-not-found]
    return ms


def tune(work: str) -> None:
    """Runs in the 0.21 oracle."""
    ms = meta_schedule()
    os.makedirs(work, exist_ok=True)
    for name, func in workloads():
        ms.tune_tir(func, TARGET, work_dir=work, max_trials_global=TRIALS,
                    num_trials_per_iter=4, num_tuning_cores=1, cost_model="random", seed=1)
        print(f"tuned {name}", file=sys.stderr)


def table(work: str) -> None:
    """Runs in a 0.25+ oracle: the same workloads, committed as tune_tir commits them."""
    ms = meta_schedule()
    os.makedirs(work, exist_ok=True)
    database = ms.database.JSONDatabase(work_dir=work)
    for _, func in workloads():
        database.commit_workload(ms.TuneContext(mod=func, num_threads=1).mod)


def python_for(release: str) -> str:
    """The interpreter that runs release ``release``'s TVM and can save IR."""
    wrapper = ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    ffi = SAVING_FFI.get(release)
    if ffi is None:
        return str(wrapper)
    overlay = ORACLE_DIR / f"overlay-{release}"
    python = overlay / "bin" / "python"
    if not python.exists():
        venv = ORACLE_DIR / f"tvm-{release}"
        subprocess.run([str(venv / "bin" / "python"), "-m", "venv", str(overlay)], check=True)
        site = next((venv / "lib").glob("python3*/site-packages"))
        (next((overlay / "lib").glob("python3*/site-packages")) / "oracle.pth").write_text(
            f"{site}\n", encoding="utf-8")
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps",
                        f"apache-tvm-ffi=={ffi}"], check=True)
    return str(python)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", action="store_true", help="only the 0.25+ workload tables")
    ap.add_argument("--tune", help=argparse.SUPPRESS)
    ap.add_argument("--table", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tune:
        tune(args.tune)
        return 0
    if args.table:
        table(args.table)
        return 0
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", HIP_VISIBLE_DEVICES="",
               ROCR_VISIBLE_DEVICES="")
    if not args.tables:
        work = OUT / "db.new"
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run([python_for("0.21"), __file__, "--tune", str(work)], check=True, env=env)
        shutil.rmtree(OUT / "db", ignore_errors=True)
        work.mkdir(exist_ok=True)
        for extra in work.iterdir():  # keep only the database (tune_tir also writes logs)
            if extra.name not in ("database_workload.json", "database_tuning_record.json"):
                shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
        work.rename(OUT / "db")
    for release in RELEASES:
        work = OUT / f"table-{release}.new"
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run([python_for(release), __file__, "--table", str(work)], check=True, env=env)
        shutil.copyfile(work / "database_workload.json", OUT / f"workloads-{release}.json")
        shutil.rmtree(work)
    print(f"wrote {OUT.relative_to(REPO)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
