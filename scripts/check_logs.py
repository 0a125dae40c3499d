"""Check ``logs normalize`` and ``logs select`` over every TopHub log (``../shared/corpora``).

    python3 scripts/check_logs.py [--to text|json]

For every log: records out == records in, every comment and blank line kept in place,
nothing lost (each output line is the input line with only the target replaced), each
normalized target the same target as the original, and normalizing twice changes nothing.
For every distinct target: ``select`` finds every record whose target is that target,
however it was spelled (checked against a plain JSON reading of each record).
With the TVM 0.21 oracle installed (``../shared/oracle``), TVM 0.21 itself also reads every
(original, normalized) pair of targets, the original with AutoTVM's ``-target`` rewrite,
and must export the same target for both. Prints a summary; exit 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

from shelf import REPO

SHARED = REPO.parent / "shared" if (REPO.parent / "shared").exists() else Path("/work/shared")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--to", choices=("text", "json"), default="text")
    args = ap.parse_args()
    import targetlang as tl
    from targetlang.migration.logs import LogSummary, normalize, same_target_key, select

    warnings.simplefilter("ignore", tl.MigrationWarning)
    failures: list[str] = []
    pairs: set[tuple[str, str]] = set()
    totals: Counter[str] = Counter()
    identity: dict[str, str] = {}
    for log in sorted((SHARED / "corpora" / "tophub").glob("*.log")):
        lines = log.read_bytes().splitlines(keepends=True)
        summary = LogSummary()
        out = list(normalize(lines, summary, to=args.to))
        again = list(normalize(out, LogSummary(), to=args.to))
        totals["files"] += 1
        totals["lines"] += len(lines)
        totals["records"] += summary.records
        totals["changed"] += summary.changed
        totals["failed"] += summary.failed
        if len(out) != len(lines):
            failures.append(f"{log.name}: {len(lines)} lines in, {len(out)} out")
        if again != out:
            failures.append(f"{log.name}: normalizing twice changes the log")
        for number, (old, new) in enumerate(zip(lines, out), 1):
            if old.lstrip().startswith(b"#") or not old.strip():
                if old != new:
                    failures.append(f"{log.name}:{number}: comment or blank line changed")
                continue
            before, after = json.loads(old), json.loads(new)
            key = "input" if "input" in before else "i"
            old_target, new_target = before[key][0], after[key][0]
            before[key][0] = after[key][0] = None
            if before != after:
                failures.append(f"{log.name}:{number}: more than the target changed")
            pairs.add((old_target.replace("-target", "-mtriple"),
                       new_target if isinstance(new_target, str) else json.dumps(new_target)))
            old_id = identity.get(old_target) or same_target_key(
                old_target.replace("-target", "-mtriple"))
            identity[old_target] = old_id
            if same_target_key(new_target) != old_id:
                failures.append(f"{log.name}:{number}: {old_target!r} became another target")
        # select: every record of each target, whatever its spelling
        by_target: Counter[str] = Counter(identity[json.loads(line).get(
            "input", json.loads(line).get("i"))[0]] for line in lines
            if line.strip() and not line.lstrip().startswith(b"#"))
        spelling_of = {i: s for s, i in identity.items()}
        for key, count in by_target.items():
            picked = LogSummary()
            list(select(lines, spelling_of[key], picked))
            if picked.selected != count:
                failures.append(f"{log.name}: select {spelling_of[key]!r} found "
                                f"{picked.selected} of {count}")
            totals["selects"] += 1
    print(f"{totals['files']} logs, {totals['lines']} lines, {totals['records']} records: "
          f"{totals['changed']} changed, {totals['failed']} failed; {totals['selects']} "
          f"selections; {len(identity)} spellings of "
          f"{len(set(identity.values()))} distinct targets")
    oracle = Path(os.environ.get("TARGETLANG_ORACLE_DIR", Path.home() / ".cache/targetlang-oracle"))
    python = oracle / "bin" / "tvm021-python"
    if python.exists():
        cases = [text for pair in sorted(pairs) for text in pair]
        done = subprocess.run([str(python), str(SHARED / "oracle" / "query.py")],
                              input="\n".join(cases) + "\n", stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        same = 0
        for (old, new), a, b in zip(sorted(pairs), answers[::2], answers[1::2]):
            if a["ok"] and b["ok"] and a["export"] == b["export"]:
                same += 1
            else:
                failures.append(f"TVM 0.21 reads {old!r} and {new!r} differently")
        print(f"TVM 0.21: {same} of {len(pairs)} (original, normalized) pairs are the same target")
    for failure in failures[:50]:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
