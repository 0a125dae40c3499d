"""Count the per-release differential: how many golden cases each JSON release's dialect
reproduces, by category (replays the recorded goldens; no TVM needed).

    .venv/bin/python scripts/count_release_differential.py

The cases and the comparison are the tests' (tests/golden/test_release_differential.py and
test_release_migration.py): accept/reject and the whole export, ``feature.*`` keys included.
"""

from __future__ import annotations

import collections
import json
import lzma
import sys

from shelf import REPO

sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "golden")]
import test_release_differential as differential

import targetlang as tl

RELEASES = ("0.25", "0.26", "0.27")


def agree(case: object, answer: dict[str, object], release: str) -> bool:
    target = differential.read(case, release)
    return (target is not None) == answer["ok"] and (
        target is None or target.to_json() == answer["export"])


def main() -> int:
    bad = 0
    for release in RELEASES:
        counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        featured = 0  # cases whose recorded export holds feature.* keys
        for name, category_of in (("json", lambda c: c["category"]), ("arm", lambda c: "arm")):
            cases = differential.xz_lines(f"{name}-cases.jsonl.xz")
            golden = differential.xz_lines(f"tvm-{release}/{name}-golden.jsonl.xz")
            for case, answer in zip(cases, golden):
                tally = counts[category_of(case)]
                tally[0] += agree(case["input"], answer, release)
                tally[1] += 1
                featured += '"feature.' in json.dumps(answer["export"])
        rows = [json.loads(line) for line in lzma.open(
            REPO / "tests" / "data" / "releases" / "migration-check.jsonl.xz", "rt",
            encoding="utf-8")]
        tally = counts["migrated-text"]
        for row in rows:
            if row["release"] == release and row["migrated"] is not None:
                ours = tl.from_json(row["migrated"], dialect=f"tvm-{release}",
                                    environment=differential.environment(release)).to_json()
                tally[0] += ours == row["export"]
                tally[1] += 1
                featured += '"feature.' in json.dumps(row["export"])
        same = sum(a for a, _ in counts.values())
        total = sum(n for _, n in counts.values())
        bad += total - same
        print(f"tvm-{release}: {same}/{total} agree, feature.* keys compared "
              f"({featured} exports hold some)")
        for category, (a, n) in sorted(counts.items()):
            print(f"  {category}: {a}/{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
