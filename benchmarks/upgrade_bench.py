"""The Python upgrade engine over a whole tree, timed against pyupgrade on the same files.

    python3 benchmarks/upgrade_bench.py TREE [--runs 5] [--runtime]

Copies every ``*.py`` file under TREE (for example ``git archive v0.21.0`` of apache/tvm,
unpacked) into a fresh temporary directory for each run, then times, as whole processes (start-
up included), one after the other in each run:

* ``python -m targetlang migrate --py FILE...`` (the diff on standard output, thrown away;
  ``--runtime`` is not a ``migrate`` option, so the engine runs as ``migrate --py`` runs it);
* ``python3 -m pyupgrade --py38-plus FILE...`` (it rewrites the copies: each run has its own).

Prints each run's two wall times and their ratio, and the medians. Needs pyupgrade installed
for ``python3`` (``pip install pyupgrade``).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter that runs targetlang (default: this one)")
    args = parser.parse_args()
    sources = sorted(p.relative_to(args.tree) for p in args.tree.rglob("*.py") if p.is_file())
    print(f"{len(sources)} .py files under {args.tree}")
    ours: list[float] = []
    theirs: list[float] = []
    for run in range(args.runs + 1):  # the first run warms the disk cache: not counted
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch)
            for relative in sources:
                (root / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(args.tree / relative, root / relative)
            files = [str(s) for s in sources]
            a = timed([args.python, "-m", "targetlang", "migrate", "--py", *files], root)
            b = timed(["python3", "-m", "pyupgrade", "--py38-plus", *files], root)
        if run:
            ours.append(a)
            theirs.append(b)
            print(f"run {run}: targetlang {a:.2f} s, pyupgrade {b:.2f} s, ratio {a / b:.2f}")
    ratios = [a / b for a, b in zip(ours, theirs)]
    print(f"median: targetlang {statistics.median(ours):.2f} s, pyupgrade "
          f"{statistics.median(theirs):.2f} s, ratio {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
