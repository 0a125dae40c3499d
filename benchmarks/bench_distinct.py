"""The cost of a read as a process reads more: a million distinct strings in one process.

    python3 benchmarks/bench_distinct.py                       # 1,000,000 reads, chunks of 10,000
    python3 benchmarks/bench_distinct.py --reads 200000 --heap 1000000

A long-running reader (a tuning-log pass over millions of records) must cost the same per
read at the millionth read as at the thousandth. This reads ``--reads`` distinct strings with
``parse`` (every one a miss of the memo, which keeps the last 8,192 and drops the oldest) and
times each chunk of ``--chunk`` reads: the chunks are flat when the largest costs at most 1.2x
the median. The strings are the benchmark corpora's (simple, spellings, odd spellings), each
made distinct by a ``-model`` value of its own. The garbage collector runs as it does in any
program; ``--heap N`` first makes N tracked objects that live to the end, as a program's own
data does (a full collection walks them all), and the run counts the collections and their
time per chunk. What the memo keeps is shown too: the objects the collector tracks before and
after the memo is full, per entry.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from generate_odd_spellings import read as read_odd_spellings  # noqa: E402
from generate_spellings import read as read_spellings  # noqa: E402

import targetlang as tl  # noqa: E402
from targetlang.target import DEFAULT_DIALECT, _parse_memo  # noqa: E402

ENV = tl.Environment.no_gpu()


def bases() -> list[str]:
    """Strings TVM 0.21 reads, of every spelling, without a -model of their own."""
    texts = (HERE / "corpora" / "simple.txt").read_text("utf-8").splitlines()
    texts += [t for group in read_spellings().values() for t in group]
    texts += [t for group in read_odd_spellings().values() for t in group]
    out = []
    for text in texts:
        try:
            tl.parse(text, environment=ENV)
        except tl.TargetError:
            continue
        if "model" not in text and "-host" not in text:
            out.append(text)
    return out


class _Collections:
    """The garbage collector's passes, as gc.callbacks reports them: (generation, seconds)."""

    def __init__(self) -> None:
        self.passes: list[tuple[int, float]] = []
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.passes.append((info["generation"], time.perf_counter() - self._start))


def run(reads: int, chunk: int, heap: int) -> tuple[list[float], list[float], list[str]]:
    """Seconds per read of each chunk (on the clock, and of this process's CPU time: other
    programs running beside it slow the first, not the second), and the report's lines
    about the collector."""
    program_data = [[i] for i in range(heap)]  # (tracked, alive to the end)
    texts = bases()
    collections = _Collections()
    gc.callbacks.append(collections)
    lines = []
    try:
        gc.collect()
        tracked_before = len(gc.get_objects())
        per_chunk: list[float] = []
        cpu_per_chunk: list[float] = []
        full: list[tuple[int, float]] = []
        for first in range(0, reads, chunk):
            batch = [f"{texts[i % len(texts)]} -model=m{i}" for i in range(first, first + chunk)]
            seen = len(collections.passes)
            start, cpu = time.perf_counter(), time.process_time()
            for text in batch:
                tl.parse(text, environment=ENV)
            per_chunk.append((time.perf_counter() - start) / chunk)
            cpu_per_chunk.append((time.process_time() - cpu) / chunk)
            full += [(len(per_chunk) - 1, s) for g, s in collections.passes[seen:] if g == 2]
        # (a tuple stops being tracked once what it holds has, and a pass may meet a record
        # before its parts: a record, its values, an array of them, three passes show what
        # stays)
        for _ in range(3):
            gc.collect()
        tracked_after = len(gc.get_objects())
        kept = len(_parse_memo.get((DEFAULT_DIALECT, ENV._key)) or ())
        lines.append(f"- objects the collector tracks: {tracked_before:,} before the reads, "
                     f"{tracked_after:,} after them with {kept:,} texts in the memo "
                     f"({(tracked_after - tracked_before) / max(kept, 1):.2f} per entry kept)")
        young = sum(1 for g, _ in collections.passes if g < 2)
        lines.append(f"- collections during the reads: {young:,} young, {len(full)} full "
                     f"({', '.join(f'{s * 1e3:.1f} ms in chunk {c}' for c, s in full[:8]) or 'none'})")
    finally:
        gc.callbacks.remove(collections)
        del program_data
    return per_chunk, cpu_per_chunk, lines


def _chunks(label: str, per_chunk: list[float]) -> list[str]:
    median = statistics.median(per_chunk)
    worst = max(per_chunk)
    return [f"- {label}: median chunk {median * 1e6:.2f}, fastest {min(per_chunk) * 1e6:.2f}, "
            f"slowest {worst * 1e6:.2f} (chunk {per_chunk.index(worst)}): slowest / median = "
            f"{worst / median:.2f} ({'flat' if worst <= 1.2 * median else 'NOT flat'}: at most "
            f"1.2); first chunks {', '.join(f'{x * 1e6:.2f}' for x in per_chunk[:3])}, last "
            f"{', '.join(f'{x * 1e6:.2f}' for x in per_chunk[-3:])}"]


def section_distinct(reads: int = 1_000_000, chunk: int = 10_000, heap: int = 0) -> list[str]:
    per_chunk, cpu_per_chunk, collector = run(reads, chunk, heap)
    beside = f", beside {heap:,} tracked objects of the program" if heap else ""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [f"{reads:,} distinct strings read by `parse` in one process, in chunks of "
            f"{chunk:,} (µs per read){beside}; load average {load} ({os.cpu_count()} cores):",
            *_chunks("on the clock", per_chunk),
            *_chunks("CPU time of this process", cpu_per_chunk),
            *collector]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reads", type=int, default=1_000_000)
    ap.add_argument("--chunk", type=int, default=10_000)
    ap.add_argument("--heap", type=int, default=0,
                    help="tracked objects the program holds beside the reads (default 0)")
    args = ap.parse_args(argv)
    print("\n".join(section_distinct(args.reads, args.chunk, args.heap)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
