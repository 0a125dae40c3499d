"""Time ``import targetlang`` in several checkouts, alternating, with the same interpreter.

    python3 benchmarks/bench_import.py .                       # this checkout
    git worktree add /tmp/before before-23
    python3 benchmarks/bench_import.py /tmp/before . --rounds 20

Each round imports each checkout's package once in a fresh interpreter (run in the checkout,
so its ``targetlang`` comes first on ``sys.path``), and a bare interpreter beside it; the best
of the rounds, start-up subtracted, is printed per checkout. Bytecode is cached, as for a
user (the first round writes it). Rounds alternate, so a noisy machine's slow moments fall on
every checkout alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def best_seconds(checkouts: Sequence[Path], codes: Sequence[str],
                 rounds: int) -> dict[tuple[Path, str], float]:
    """The best time of ``python -c CODE`` run in each checkout, rounds alternating, from
    cached bytecode (whatever PYTHONDONTWRITEBYTECODE says here: compiling the sources is
    not what a user waits for)."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    best: dict[tuple[Path, str], float] = {}
    for _ in range(rounds):
        for checkout in checkouts:
            for code in codes:
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", code], check=True, cwd=checkout,
                               env=environ)
                took = time.perf_counter() - start
                best[checkout, code] = min(best.get((checkout, code), took), took)
    return best


def best_import_ms(checkouts: Sequence[Path], rounds: int) -> dict[Path, float]:
    best = best_seconds(checkouts, ("pass", "import targetlang"), rounds)
    return {c: (best[c, "import targetlang"] - best[c, "pass"]) * 1e3 for c in checkouts}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkouts", nargs="+", type=Path, help="checkouts of targetlang")
    ap.add_argument("--rounds", type=int, default=15, help="rounds (default 15)")
    args = ap.parse_args(argv)
    for checkout, ms in best_import_ms([c.resolve() for c in args.checkouts],
                                       args.rounds).items():
        print(f"{checkout}: import targetlang {ms:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
