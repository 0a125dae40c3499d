"""Run the fuzz targets for a time budget on libFuzzer, or on Hypothesis without atheris.

``python -m fuzz`` runs them on libFuzzer (atheris), or on plain Hypothesis where atheris is
missing; every failure is minimized and saved.

With atheris each target runs in turn for its share of the budget in libFuzzer's fork mode
(``-fork=JOBS``: JOBS worker processes, crashes collected without stopping), on its corpus
``fuzz/corpus/<target>/`` (kept between runs) plus the committed seeds ``fuzz/seeds/<target>/``.
Without atheris (or with ``--engine hypothesis`` / ``TARGETLANG_FUZZ_ENGINE=hypothesis``),
JOBS processes draw Hypothesis examples of every target in turn. Either way a failing input
is minimized and written to ``fuzz/regressions/`` (fuzz/failures.py), which the test suite
replays, and the last line reads
``fuzz: N inputs, F failures (E execs/s over J jobs, C coverage edges)``.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from . import engine, oracle
from .failures import REGRESSIONS, STOPS, Findings
from .targets import TARGETS, default_targets

FUZZ = Path(__file__).resolve().parent
CORPUS = FUZZ / "corpus"
SEEDS = FUZZ / "seeds"
ENGINE_VARIABLE = "TARGETLANG_FUZZ_ENGINE"
#: libFuzzer's fork-mode status line: "#123: cov: 45 ft: 67 corp: 8 exec/s 9 oom/timeout/crash: 0/0/1 ..."
_STATUS = re.compile(r"^#(\d+): cov: (\d+) ft: \d+ corp: (\d+) exec/s \d+ "
                     r"oom/timeout/crash: (\d+)/(\d+)/(\d+)")
#: libFuzzer's status line in a single process (-fork=0): "#123	NEW    cov: 45 ft: ..."
_PLAIN_STATUS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: \d+ corp: (\d+)")
_FINAL = re.compile(r"^stat::number_of_executed_units: (\d+)")
PROGRESS_EVERY = 10.0  # seconds between progress lines when not on a terminal
#: Longer than libFuzzer's default 4096: a 4,301-digit integer is a known kind of trouble.
MAX_LEN = 16384
MIN_SECONDS = 2.0  # the least a target runs, so that a short run still touches every one
STARTUP_SECONDS = 1.5  # Python, Hypothesis and the instrumentation before libFuzzer's clock


@dataclass
class Tally:
    name: str
    inputs: int = 0
    seconds: float = 0.0
    edges: int = 0
    corpus: int = 0
    failures: int = 0
    saved: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0


class Progress:
    def __init__(self, out: TextIO, start: float) -> None:
        self.out, self.start, self.last = out, start, 0.0

    def show(self, tallies: Sequence[Tally], final: bool = False) -> None:
        now = time.monotonic()
        tty = self.out.isatty()
        if not final and not tty and now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        elapsed = now - self.start
        inputs = sum(t.inputs for t in tallies)
        busy = [t for t in tallies if t.inputs]
        current = busy[-1] if busy else None
        line = (f"[{int(elapsed) // 60:02d}:{int(elapsed) % 60:02d}] {inputs:,} inputs "
                f"({inputs / elapsed if elapsed else 0:,.0f} execs/s), "
                f"{sum(t.edges for t in tallies):,} coverage edges, "
                f"{sum(t.failures for t in tallies)} failures")
        if current is not None:
            line += f"; {current.name}: {current.inputs:,} ({current.rate:,.0f}/s, " \
                    f"cov {current.edges:,}, corpus {current.corpus:,})"
        if tty:
            self.out.write("\r\x1b[K" + line + ("\n" if final else ""))
        else:
            self.out.write(line + "\n")
        self.out.flush()


# ---- on libFuzzer ---------------------------------------------------------------------------

class EngineRun:
    """Targets on libFuzzer: ``jobs`` processes at a time.

    With at least as many targets as jobs, each target runs in one libFuzzer process (restarted
    after a crash) for its share of the job-seconds, ``jobs`` targets side by side. With fewer
    targets than jobs, each target gets the whole budget in libFuzzer's fork mode with its share
    of the jobs (``-fork=N``: N workers on one corpus).
    """

    def __init__(self, tallies: Sequence[Tally], jobs: int, seed: int, corpus_root: Path,
                 progress: Progress) -> None:
        self.tallies, self.jobs, self.seed = tallies, jobs, seed
        self.corpus_root, self.progress = corpus_root, progress
        self.lock = threading.Lock()
        self.artifacts: list[tuple[str, Path]] = []
        self.temp = Path(tempfile.mkdtemp(prefix="targetlang-fuzz-"))

    def run(self, budget: float) -> None:
        slots = min(self.jobs, len(self.tallies))
        forks = max(1, self.jobs // len(self.tallies))
        deadline = time.monotonic() + budget
        # Raw and property targets take turns; each target's time is set when it starts, from
        # what is left, so that one that overran (a slow start, a crash) is paid for by the
        # targets after it rather than by the last one.
        raw = [it for it in enumerate(self.tallies) if TARGETS[it[1].name].raw]
        drawn = [it for it in enumerate(self.tallies) if not TARGETS[it[1].name].raw]
        waiting = [it for pair in itertools.zip_longest(raw, drawn) for it in pair
                   if it is not None]
        busy_until = [time.monotonic()] * slots

        def slot(number: int) -> None:
            while True:
                with self.lock:
                    if not waiting:
                        return
                    index, tally = waiting.pop(0)
                    now = time.monotonic()
                    left = sum(max(0.0, deadline - max(now, busy_until[i]))
                               for i in range(slots) if i != number) + max(0.0, deadline - now)
                    weight = TARGETS[tally.name].weight
                    share = left * weight / (weight + sum(TARGETS[t.name].weight
                                                          for _, t in waiting))
                    seconds = max(MIN_SECONDS, share)
                    busy_until[number] = now + seconds
                self._target(tally, seconds, forks, self.seed + index)

        with ThreadPoolExecutor(max_workers=slots) as pool:
            for number in range(slots):
                pool.submit(slot, number)

    def _target(self, tally: Tally, seconds: float, forks: int, seed: int) -> None:
        try:
            end = time.monotonic() + seconds
            restarts = 0
            while restarts == 0 or end - time.monotonic() >= MIN_SECONDS:
                self._process(tally, max(MIN_SECONDS, end - time.monotonic()), forks,
                              seed + 7919 * restarts)
                restarts += 1
        except Exception as error:  # noqa: BLE001 - a broken target must not stop the run
            with self.lock:
                self.progress.out.write(f"{tally.name}: {type(error).__name__}: {error}\n")

    def _process(self, tally: Tally, seconds: float, forks: int, seed: int) -> None:
        name = tally.name
        corpus = self.corpus_root / name
        corpus.mkdir(parents=True, exist_ok=True)
        artifacts = self.temp / name
        artifacts.mkdir(exist_ok=True)
        dirs = [str(corpus)] + ([str(SEEDS / name)] if (SEEDS / name).is_dir() else [])
        mode = [f"-fork={forks}", "-ignore_crashes=1", "-ignore_timeouts=1",
                "-ignore_ooms=1"] if forks > 1 else []
        command = [sys.executable, str(FUZZ / f"fuzz_{name}.py"), *mode,
                   f"-max_total_time={max(1, int(seconds - STARTUP_SECONDS))}",
                   f"-seed={seed}", f"-max_len={MAX_LEN}",
                   "-timeout=30", "-rss_limit_mb=3072", "-print_final_stats=1",
                   f"-artifact_prefix={artifacts}/", *dirs]
        base_inputs = tally.inputs
        start = time.monotonic()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace", cwd=artifacts)
        assert proc.stdout is not None
        # The first pass over the corpus counts for libFuzzer's clock, and a busy machine
        # stretches it: once libFuzzer runs, it is stopped at its time as Ctrl-C would stop
        # it (it still reports). Python's own start is never cut short.
        stop = threading.Timer(seconds, proc.send_signal, [signal.SIGINT])
        try:
            for line in proc.stdout:
                if line.startswith("INFO: Seed:") and stop.ident is None:
                    stop.start()
                executed = _FINAL.match(line)
                if executed is not None:
                    tally.inputs = base_inputs + int(executed.group(1))
                    continue
                match = _STATUS.match(line) or _PLAIN_STATUS.match(line)
                if match is None:
                    continue
                with self.lock:
                    tally.inputs = base_inputs + int(match.group(1))
                    tally.edges = max(tally.edges, int(match.group(2)))
                    tally.corpus = int(match.group(3))
                    if match.re is _STATUS:
                        tally.failures = sum(int(match.group(i)) for i in (4, 5, 6))
                    tally.seconds += time.monotonic() - start
                    start = time.monotonic()
                    self.progress.show(self.tallies)
        finally:
            proc.wait()
            stop.cancel()
            tally.seconds += time.monotonic() - start
        for artifact in sorted(artifacts.iterdir()):
            if artifact.name.split("-")[0] in STOPS:
                collected = self.temp / "collected"
                collected.mkdir(exist_ok=True)
                kept = collected / f"{name}-{seed}-{artifact.name}"
                artifact.rename(kept)
                with self.lock:
                    self.artifacts.append((name, kept))
                    if forks == 1:
                        tally.failures += 1

    def collect(self, findings: Findings) -> None:
        """Reproduce, minimize and save what libFuzzer wrote."""
        by_name = {t.name: t for t in self.tallies}
        for name, artifact in self.artifacts:
            path = findings.add_artifact(name, artifact)
            if path is not None:
                by_name[name].saved.append(str(path))
        shutil.rmtree(self.temp, ignore_errors=True)


def minimize_corpus(name: str, corpus: Path) -> tuple[int, int]:
    """Replace ``corpus`` by its smallest subset with the same coverage (libFuzzer's merge)."""
    if not corpus.is_dir():
        return 0, 0
    before = sum(1 for p in corpus.iterdir() if p.is_file())
    merged = corpus.with_name(corpus.name + ".merging")
    shutil.rmtree(merged, ignore_errors=True)
    merged.mkdir()
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([sys.executable, str(FUZZ / f"fuzz_{name}.py"), "-merge=1",
                        f"-max_len={MAX_LEN}", f"-artifact_prefix={scratch}/", str(merged),
                        str(corpus)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=scratch)
    shutil.rmtree(corpus)
    merged.rename(corpus)
    return before, sum(1 for p in corpus.iterdir() if p.is_file())


# ---- on plain Hypothesis ----------------------------------------------------------------------

def _hypothesis_worker(names: list[str], deadline: float, base_seed: int, chunk: int,
                       updates: Any) -> None:
    """One job: every target in turn, ``chunk`` examples at a time, until the deadline."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

    from .failures import failure

    turn = 0
    while time.time() < deadline:
        name = names[turn % len(names)]
        target = TARGETS[name]
        turn += 1
        count = 0
        failing: list[Any] = []

        @seed(base_seed + turn)
        @settings(max_examples=chunk, database=None, deadline=None, verbosity=Verbosity.quiet,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate])
        @given(target.cases())
        def body(case: Any) -> None:
            nonlocal count
            count += 1
            # body runs within this iteration, so the loop's target and failing are its own
            if failure(target, case) is not None:  # noqa: B023
                failing.append(case)  # noqa: B023
                raise AssertionError  # stop this chunk: the parent minimizes

        start = time.monotonic()
        try:
            body()
        except AssertionError:
            pass
        updates.put((name, count, time.monotonic() - start, failing[:1]))
    updates.put(None)


def run_hypothesis(tallies: Sequence[Tally], seconds: float, jobs: int, seed: int, chunk: int,
                   findings: Findings, progress: Progress) -> None:
    by_name = {t.name: t for t in tallies}
    names = [t.name for t in tallies]
    deadline = time.time() + seconds
    context: Any = multiprocessing.get_context("spawn" if sys.platform != "linux" else "fork")
    updates: Any = context.Queue()
    workers = [context.Process(target=_hypothesis_worker,
                               args=(names[i % len(names):] + names[:i % len(names)], deadline,
                                     seed + 1_000_003 * i, chunk, updates), daemon=True)
               for i in range(jobs)]
    for worker in workers:
        worker.start()
    running = len(workers)
    while running:
        try:
            update = updates.get(timeout=1.0)
        except queue.Empty:
            if not any(w.is_alive() for w in workers):
                break
            continue
        if update is None:
            running -= 1
            continue
        name, count, spent, failing = update
        tally = by_name[name]
        tally.inputs += count
        tally.seconds += spent / jobs  # the jobs share the wall clock
        for case in failing:
            tally.failures += 1
            from .failures import failure

            error = failure(TARGETS[name], case)
            if error is not None:
                path = findings.add(name, case, error)
                if path is not None:
                    tally.saved.append(str(path))
        progress.show(tallies)
    for worker in workers:
        worker.join()


# ---- the command ------------------------------------------------------------------------------

def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.splitlines()[0])
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="time budget in minutes")
    budget.add_argument("--seconds", type=float, help="time budget in seconds (default 60)")
    ap.add_argument("--seed", type=int, help="base seed (default: random, printed)")
    ap.add_argument("--campaign", action="append", choices=sorted(TARGETS), metavar="TARGET",
                    help="target to run (repeatable; default: all but differential, which "
                         "needs the TVM 0.21 oracle): " + ", ".join(TARGETS))
    ap.add_argument("--jobs", type=int, default=0,
                    help="worker processes (default 0: one per core)")
    ap.add_argument("--engine", choices=["auto", "atheris", "hypothesis"],
                    default=os.environ.get(ENGINE_VARIABLE, "auto"),
                    help=f"auto (default; also ${ENGINE_VARIABLE}): atheris when installed")
    ap.add_argument("--corpus", type=Path, default=CORPUS,
                    help="corpus directory kept between runs (default fuzz/corpus)")
    ap.add_argument("--save-dir", type=Path, default=REGRESSIONS,
                    help="where failures are saved (default fuzz/regressions)")
    ap.add_argument("--minimize-corpus", action="store_true",
                    help="only shrink each target's corpus to the inputs that keep its "
                         "coverage (libFuzzer's -merge=1), then exit")
    ap.add_argument("--chunk", type=int, default=100,
                    help="Hypothesis engine: examples per turn (default 100)")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = parse_args(argv)
    out = out or sys.stdout
    budget = args.minutes * 60 if args.minutes is not None else (args.seconds or 60.0)
    base_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    jobs = args.jobs or os.cpu_count() or 1
    names = args.campaign or default_targets()
    if any(TARGETS[n].needs_oracle for n in names) and not oracle.available():
        out.write(f"the differential target needs the TVM 0.21 oracle at {oracle.TVM021}\n")
        return 2
    use_atheris = args.engine != "hypothesis" and engine.available()
    if args.engine == "atheris" and not use_atheris:
        out.write("atheris is not installed: pip install -e '.[fuzz]'\n")
        return 2
    if not use_atheris:
        why = "forced by --engine/" + ENGINE_VARIABLE if args.engine == "hypothesis" \
            else "atheris is not installed (pip install -e '.[fuzz]' for libFuzzer)"
        out.write(f"note: plain Hypothesis engine, no coverage guidance ({why})\n")
    if args.minimize_corpus:
        if not use_atheris:
            out.write("--minimize-corpus needs atheris: pip install -e '.[fuzz]'\n")
            return 2
        for name in names:
            before, after = minimize_corpus(name, args.corpus / name)
            out.write(f"{name}: corpus {before} -> {after} inputs\n")
        return 0
    tallies = [Tally(n) for n in names]
    out.write(f"fuzz: {', '.join(names)} for {budget:g}s on "
              f"{'libFuzzer (atheris)' if use_atheris else 'Hypothesis'}, {jobs} jobs, "
              f"seed {base_seed}\n")
    out.flush()
    findings = Findings(args.save_dir, args.corpus.parent / "artifacts")
    start = time.monotonic()
    progress = Progress(out, start)
    if use_atheris:
        run = EngineRun(tallies, jobs, base_seed, args.corpus, progress)
        run.run(budget)
        run.collect(findings)
    else:
        run_hypothesis(tallies, budget, jobs, base_seed, args.chunk, findings, progress)
    elapsed = time.monotonic() - start
    progress.show(tallies, final=True)
    return summary(tallies, findings, jobs, elapsed, out)


def summary(tallies: Sequence[Tally], findings: Findings, jobs: int, elapsed: float,
            out: TextIO) -> int:
    out.write(f"\n{'target':<16}{'inputs':>12}{'execs/s':>10}{'edges':>8}{'failures':>10}\n")
    for t in tallies:
        out.write(f"{t.name:<16}{t.inputs:>12,}{t.rate:>10,.0f}{t.edges:>8,}{t.failures:>10}\n")
    for key, path in findings.saved.items():
        shown = path.relative_to(FUZZ.parent) if path.is_relative_to(FUZZ.parent) else path
        out.write(f"  {key}: {shown}\n")
    inputs = sum(t.inputs for t in tallies)
    # libFuzzer counts every stop; those whose input passes when replayed are not failures
    failures = max(sum(t.failures for t in tallies) - findings.unreproduced, findings.count)
    edges = sum(t.edges for t in tallies)
    rate = inputs / elapsed if elapsed else 0.0
    out.write(f"fuzz: {inputs} inputs, {failures} failures ({rate:.0f} execs/s over {jobs} jobs, "
              f"{edges} coverage edges)\n")
    return 1 if failures else 0
