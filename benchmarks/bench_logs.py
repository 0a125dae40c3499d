"""Throughput and memory of ``targetlang logs stats`` and ``logs normalize`` on big logs.

    python3 benchmarks/bench_logs.py [--records 1000000] [--dir /tmp]

Makes logs by repeating the TopHub records (``../shared/corpora/tophub``, comments kept,
both record formats) up to 100,000 and ``--records`` records, runs the installed command
line on each (a fresh process; ``-o`` to a file), and prints records per second and the peak
resident memory of each run: flat memory means the same peak for both sizes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" if (REPO.parent / "shared").exists() else Path("/work/shared")


def make_log(path: Path, records: int) -> None:
    sources = sorted((SHARED / "corpora" / "tophub").glob("*.log"))
    lines = [line for log in sources for line in log.read_bytes().splitlines(keepends=True)]
    written = 0
    with path.open("wb", buffering=1 << 20) as out:
        while written < records:
            for line in lines:
                is_record = line.lstrip().startswith(b"{")
                if is_record and written >= records:
                    break
                out.write(line)
                written += is_record


def run(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one command-line run in a fresh process."""
    code = ("import resource, sys\nfrom targetlang.cli import main\nrc = main(sys.argv[1:])\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {args}\n{done.stderr}")
    return elapsed, int(done.stderr.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    folder = Path(args.dir)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    for count in (100_000, args.records):
        log = folder / f"targetlang-bench-{count}.log"
        if not log.exists():
            make_log(log, count)
        size = log.stat().st_size / 1e6
        out = folder / f"targetlang-bench-{count}.out"
        for name, extra in (("stats", []), ("normalize --to text", ["-o", str(out)]),
                            ("normalize --to json", ["-o", str(out), "--to", "json"])):
            tool = name.split()
            elapsed, rss = run(["logs", *tool[:1], str(log), "--quiet", *extra, *tool[1:]])
            print(f"{name:>20}: {count:>9,} records ({size:,.0f} MB) in {elapsed:6.2f} s = "
                  f"{count / elapsed:>9,.0f} records/s, peak RSS {rss / 1024:,.0f} MiB")
        out.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
