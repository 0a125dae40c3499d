"""``targetlang upgrade`` over a whole tree, timed against pyupgrade on its ``.py`` files.

    python3 benchmarks/upgrade.py TREE [--repeat N]

Both run as a user runs them, in a fresh process each: ``targetlang upgrade TREE`` (every
file type, a diff, nothing written) and ``migrate --py`` on the ``.py`` files the walk finds,
against ``pyupgrade --py38-plus`` on the same ``.py`` files in one run (on a copy: pyupgrade
writes). Prints the best of N wall times and the ratios. On a shared machine the times move;
the ratio less so.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from targetlang.migration.upgrade import walk  # noqa: E402

#: the best CPU time (user + system, the command and its children) of each command timed
CPU: dict[str, float] = {}


def best(command: list[str], repeat: int, before: object = None, name: str = "") -> float:
    """The best wall time of ``repeat`` runs (and, in :data:`CPU`, the best CPU time: on a
    shared machine it moves less than the wall time)."""
    times, cpus = [], []
    for _ in range(repeat):
        if callable(before):
            before()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              check=False)
        if done.returncode > 1:  # 1: places found, still a full run
            raise SystemExit(f"{command[:3]} failed: {done.stderr.decode()[-500:]}")
        times.append(time.perf_counter() - start)
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime)
    CPU[name] = min(cpus)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pyupgrade = shutil.which("pyupgrade")
    # this checkout's targetlang, started as the console script starts it
    os.environ["PYTHONPATH"] = f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    targetlang = [sys.executable, "-m", "targetlang"]
    python = [str(p) for p, kind in walk([str(args.tree)]) if kind == "python"]
    upgrade = best([*targetlang, "upgrade", "--jobs", "1", str(args.tree)], args.repeat,
                   name="upgrade")
    upgrade2 = best([*targetlang, "upgrade", "--jobs", "2", str(args.tree)], args.repeat,
                    name="upgrade-2")
    migrate = best([*targetlang, "migrate", "--py", "--jobs", "1", *python], args.repeat,
                   name="migrate")
    print(f"{len(python)} .py files under {args.tree}")
    print(f"targetlang upgrade --jobs 1 TREE (all file types): {upgrade:.2f} s")
    print(f"targetlang upgrade --jobs 2 TREE (all file types): {upgrade2:.2f} s")
    print(f"targetlang migrate --py (.py files):      {migrate:.2f} s")
    if pyupgrade is None:
        print("pyupgrade: not installed")
        return
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "tree"

        def fresh() -> None:
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(args.tree, copy, symlinks=True)

        files = [str(copy / Path(p).relative_to(args.tree)) for p in python]
        reference = best([pyupgrade, "--py38-plus", *files], args.repeat, fresh,
                         name="pyupgrade")
    print(f"pyupgrade --py38-plus (.py files):       {reference:.2f} s")
    print(f"ratio upgrade --jobs 2 / pyupgrade: {upgrade2 / reference:.2f}")
    print(f"CPU seconds: upgrade --jobs 1 {CPU['upgrade']:.2f}, migrate --py "
          f"{CPU['migrate']:.2f}, pyupgrade {CPU['pyupgrade']:.2f}; ratio upgrade / pyupgrade "
          f"{CPU['upgrade'] / CPU['pyupgrade']:.2f}")
    print(f"ratio upgrade --jobs 1 / pyupgrade: {upgrade / reference:.2f}; "
          f"migrate --py / pyupgrade: {migrate / reference:.2f}")


if __name__ == "__main__":
    main()
