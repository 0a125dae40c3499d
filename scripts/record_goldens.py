#!/usr/bin/env python3
"""Record TVM 0.21's answers for a golden corpus of target inputs.

targetlang's `tvm-0.21` dialect must parse legacy target strings exactly like
`tvm.target.Target(...)` in TVM 0.21. This script builds a deterministic corpus
of inputs (about 4,600, in named categories), asks the TVM 0.21 oracle about
each (`shared/oracle/query.py`, see `shared/oracle/README.md`) and writes:

    tests/data/tvm-0.21/cases.jsonl    {"category", "input"} per line
    tests/data/tvm-0.21/golden.jsonl   {"category", "input", "ok", "export", "str",
                                        "str_error", "host_str", "features",
                                        "error_type", "error"} per line, same order
    tests/data/tvm-0.21/PROVENANCE.md  how and where it was recorded, counts

Categories: tophub, tvm-tests, tags, kind-attr, quoting, json, malformed,
generated (see the functions `cases_<category>` below). Kinds, attributes,
attribute types and tags come from the oracle's `introspect.py`, so the corpus
follows the schema of the TVM build it is recorded with. Random parts use a
fixed seed; the order is stable and inputs are de-duplicated (the first
category that produces an input keeps it).

Usage (plain python3, stdlib only; it shells out to the oracle interpreter):

    python3 scripts/record_goldens.py            # regenerate cases, record goldens
    python3 scripts/record_goldens.py --check    # re-run the oracle on the committed
                                                 # cases, diff against golden.jsonl;
                                                 # exit 1 on any difference
    python3 scripts/record_goldens.py --list     # print the cases, no oracle run

The oracle is `$TARGETLANG_ORACLE_DIR/bin/tvm021-python` (default directory
`~/.cache/targetlang-oracle`; install it with `shared/oracle/install.sh`). The
shared directory (oracle scripts, TopHub corpus) defaults to `<repo>/../shared`
and can be set with `--shared-dir` or `$TARGETLANG_SHARED_DIR`.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence

from goldens021.common import DATA_DIR, RESULT_FIELDS
from goldens021.corpus import build_cases
from goldens021.oracle import (
    dump_line,
    golden_record,
    introspect,
    oracle_info,
    read_jsonl,
    run_oracle,
    write_jsonl,
)
from goldens021.provenance import outcome, write_provenance
from shelf import REPO


def record(shared: Path, out_dir: Path) -> int:
    t0 = time.monotonic()
    schema = introspect(shared)
    cases = build_cases(schema, shared)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_jsonl(out_dir / "cases.jsonl", ({"category": c, "input": s} for c, s in cases))
    print(f"{len(cases)} cases; running the oracle ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        results = run_oracle(shared, [s for _, s in cases], Path(tmp) / "stderr.log")
    golden = [golden_record(c, s, rec) for (c, s), rec in zip(cases, results)]
    golden_path = out_dir / "golden.jsonl"
    write_jsonl(golden_path, golden)
    elapsed = time.monotonic() - t0
    write_provenance(out_dir / "PROVENANCE.md", schema, oracle_info(), golden, elapsed,
                     golden_path)
    counts = collections.Counter(outcome(r) for r in golden)
    print(f"wrote {golden_path} ({len(golden)} cases: {dict(counts)}) in {elapsed:.0f} s",
          file=sys.stderr)
    return 0


def check(shared: Path, out_dir: Path, max_report: int = 30) -> int:
    golden = read_jsonl(out_dir / "golden.jsonl")
    committed = [(r["category"], r["input"]) for r in read_jsonl(out_dir / "cases.jsonl")]
    problems = 0
    if committed != [(r["category"], r["input"]) for r in golden]:
        print("cases.jsonl and golden.jsonl list different cases", file=sys.stdout)
        problems += 1
    schema = introspect(shared)
    if build_cases(schema, shared) != committed:
        print("the generator now produces other cases than cases.jsonl (re-record)")
        problems += 1
    with tempfile.TemporaryDirectory() as tmp:
        results = run_oracle(shared, [r["input"] for r in golden], Path(tmp) / "stderr.log")
    diffs = 0
    for row, rec in zip(golden, results):
        fresh = golden_record(row["category"], row["input"], rec)
        # compare through JSON so that the comparison ignores float/int spelling quirks
        if json.loads(dump_line(fresh)) != row:
            diffs += 1
            if diffs <= max_report:
                fields = [k for k in RESULT_FIELDS if fresh.get(k) != row.get(k)]
                print(f"DIFF {row['category']} {row['input']!r}: fields {fields}")
                for k in fields:
                    print(f"    golden: {k} = {json.dumps(row.get(k), ensure_ascii=False)}")
                    print(f"    oracle: {k} = {json.dumps(fresh.get(k), ensure_ascii=False)}")
    if diffs:
        print(f"{diffs} of {len(golden)} cases differ from {out_dir / 'golden.jsonl'}")
        problems += 1
    else:
        print(f"all {len(golden)} cases match {out_dir / 'golden.jsonl'}")
    return 1 if problems else 0


def list_cases(shared: Path) -> int:
    cases = build_cases(introspect(shared), shared)
    for c, s in cases:
        print(dump_line({"category": c, "input": s}))
    counts = collections.Counter(c for c, _ in cases)
    print(f"{len(cases)} cases: {dict(counts)}", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="re-run the oracle on the committed cases and diff against "
                           "golden.jsonl; exit 1 on any difference")
    mode.add_argument("--list", action="store_true",
                      help="print the generated cases as JSON lines; no oracle run")
    ap.add_argument("--shared-dir", type=Path,
                    default=Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared")),
                    help="directory with oracle/ and corpora/ (default: <repo>/../shared)")
    ap.add_argument("--out-dir", type=Path, default=DATA_DIR,
                    help=f"where the files go (default: {DATA_DIR.relative_to(REPO)})")
    args = ap.parse_args(argv)
    shared = args.shared_dir.resolve()
    if args.check:
        return check(shared, args.out_dir)
    if args.list:
        return list_cases(shared)
    return record(shared, args.out_dir)


if __name__ == "__main__":
    sys.exit(main())
