"""Move the real TVM 0.21 database to 0.25, 0.26 and 0.27 and load it in each release.

    python3 scripts/check_databases.py            # check, and record what each release read
    python3 scripts/check_databases.py --check    # check only (exit 1 on any difference)

For each release: ``targetlang logs normalize tests/data/meta_schedule/tuned/db --to tvm-0.N
--workloads tests/data/meta_schedule/tuned/workloads-0.N.json -o DIR`` (this worktree's
targetlang), then the release's oracle opens DIR with ``JSONDatabase(work_dir=DIR,
allow_missing=False)`` and reports: the records it loaded (run_secs, args_info, the target's
export, the trace's instruction kinds), whether each workload is structurally equal
(``tvm.ir.structural_equal``) to the one it builds itself (``make_tuned_database.workloads``,
normalized as ``TuneContext`` does), whether each record's trace applies to its workload, and
the best record of each workload (``get_top_k(workload, 1)``). The 0.21 oracle answers the same
on the original database. Checked: every release loads every record, every measurement is
kept, every workload is equal, every trace applies, and the best record per workload is the
one 0.21 finds. What each release read is written to
``tests/data/meta_schedule/tuned/loaded.json`` (the goldens ``tests/cli/test_meta_schedule.py``
replays without TVM).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO

TUNED = REPO / "tests" / "data" / "meta_schedule" / "tuned"
RELEASES = ("0.25", "0.26", "0.27")


def probe(work: str) -> dict[str, Any]:
    """Runs in an oracle: what its JSONDatabase reads from ``work``."""
    import tvm  # type: ignore[import-not-found]
    from make_tuned_database import meta_schedule, workloads  # type: ignore[import-not-found]

    ms = meta_schedule()
    try:
        from tvm.s_tir.schedule import Schedule  # type: ignore[import-not-found]
    except ImportError:
        from tvm.tir.schedule import Schedule  # type: ignore[import-not-found]
    equal = getattr(tvm.ir, "structural_equal", None)
    if equal is None:  # TVM >= 0.25: in tvm_ffi
        from tvm_ffi import structural_equal as equal  # type: ignore[import-not-found]
    database = ms.database.JSONDatabase(work_dir=work, allow_missing=False)
    own = [ms.TuneContext(mod=func, num_threads=1).mod for _, func in workloads()]
    records = database.get_all_tuning_records()
    table: list[Any] = []
    out: dict[str, Any] = {"tvm_version": str(tvm.__version__), "records": [], "workloads": [],
                           "best": []}
    for record in records:
        mod = record.workload.mod
        index = next((i for i, w in enumerate(table) if w.same_as(record.workload)), None)
        if index is None:
            table.append(record.workload)
            index = len(table) - 1
        trace = json.loads(json.dumps(record.trace.as_json(), default=_plain))
        applies = True
        try:
            schedule = Schedule(mod)
            record.trace.apply_to_schedule(schedule, remove_postproc=False)
        except Exception as error:  # noqa: BLE001 - what TVM refused is the fact
            applies = f"{type(error).__name__}: {str(error)[:200]}"
        out["records"].append({
            "workload": index,
            "run_secs": [float(x) for x in record.run_secs],
            "args_info": json.loads(json.dumps([a.as_json() for a in record.args_info],
                                               default=_plain)),
            "target": json.loads(json.dumps(record.target.export(), default=_plain)),
            "kinds": [inst[0] for inst in trace[0]],
            "trace_applies": applies,
        })
    for workload in table:
        out["workloads"].append(
            [bool(equal(workload.mod, mine)) for mine in own])
        best = database.get_top_k(workload, 1)
        out["best"].append([float(x) for x in best[0].run_secs] if best else None)
    return out


def _plain(value: Any) -> Any:
    if hasattr(value, "items"):
        return {str(k): v for k, v in value.items()}
    if hasattr(value, "value"):
        return value.value
    if isinstance(value, str) or hasattr(value, "__str__") and not hasattr(value, "__iter__"):
        return str(value)
    return list(value)


def ask(release: str, work: Path) -> dict[str, Any]:
    exe = ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    done = subprocess.run([str(exe), __file__, "--probe", str(work)], check=True,
                          capture_output=True, text=True,
                          env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def normalize(release: str, out: Path) -> None:
    from targetlang.cli import main as cli

    code = cli(["logs", "normalize", str(TUNED / "db"), "--to", f"tvm-{release}", "--quiet",
                "--workloads", str(TUNED / f"workloads-{release}.json"), "-o", str(out)])
    assert code == 0, f"normalize --to tvm-{release} exited {code}"


def check(original: dict[str, Any], moved: dict[str, Any], release: str) -> list[str]:
    """What differs between the 0.21 reading and a release's (empty: nothing)."""
    problems = []
    a, b = original["records"], moved["records"]
    if len(a) != len(b):
        problems.append(f"{release}: {len(b)} records loaded, 0.21 {len(a)}")
    for n, (x, y) in enumerate(zip(a, b)):
        for key in ("workload", "run_secs", "args_info"):
            if x[key] != y[key]:
                problems.append(f"{release}: record {n} {key}: {y[key]} != 0.21's {x[key]}")
        renamed = ["GetSBlock" if k == "GetBlock" else k for k in x["kinds"]]
        if renamed != y["kinds"]:
            problems.append(f"{release}: record {n} trace kinds differ")
        if y["trace_applies"] is not True:
            problems.append(f"{release}: record {n} trace does not apply: {y['trace_applies']}")
    for n, equal in enumerate(moved["workloads"]):
        if not equal[n] or sum(equal) != 1:
            problems.append(f"{release}: workload {n} equal to its own workloads {equal}")
    if moved["best"] != original["best"]:
        problems.append(f"{release}: best per workload {moved['best']} != 0.21's "
                        f"{original['best']}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="do not write loaded.json")
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own output goes to standard error
        out.write(json.dumps(probe(args.probe)) + "\n")
        out.close()
        return 0
    loaded = {"tvm-0.21": ask("0.21", TUNED / "db")}
    problems = []
    with tempfile.TemporaryDirectory() as temp:
        for release in RELEASES:
            out = Path(temp) / f"db-{release}"
            normalize(release, out)
            loaded[f"tvm-{release}"] = moved = ask(release, out)
            problems += check(loaded["tvm-0.21"], moved, release)
            print(f"tvm-{release}: {len(moved['records'])} records loaded, "
                  f"{sum(r['trace_applies'] is True for r in moved['records'])} traces apply, "
                  f"workloads equal: {[w[i] for i, w in enumerate(moved['workloads'])]}, "
                  f"best run_secs per workload {moved['best']}")
    print(f"tvm-0.21: {len(loaded['tvm-0.21']['records'])} records, best run_secs per "
          f"workload {loaded['tvm-0.21']['best']}")
    for problem in problems:
        print(problem)
    if not args.check:
        (TUNED / "loaded.json").write_text(json.dumps(loaded, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {(TUNED / 'loaded.json').relative_to(REPO)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
