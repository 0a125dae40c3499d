"""Run fuzz campaigns for a time budget; shrink and save every failure.

Campaigns take turns in chunks of Hypothesis examples (each chunk with its own seed
derived from ``--seed``), so a short run still touches every campaign. A failing input is
shrunk by Hypothesis and written to ``fuzz/regressions/<campaign>-<hash>.json``; the test
suite replays that corpus forever (tests/property/test_fuzz_regressions.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

from . import oracle
from .campaigns import CAMPAIGNS, Campaign

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
MAX_FAILURES_PER_CAMPAIGN = 5


@dataclass
class Tally:
    campaign: Campaign
    inputs: int = 0
    seconds: float = 0.0
    failures: list[Path] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0


def save_failure(campaign: str, text: str, error: BaseException, directory: Path) -> Path:
    digest = hashlib.sha256(f"{campaign}\0{text}".encode()).hexdigest()[:12]
    path = directory / f"{campaign}-{digest}.json"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        record = {"campaign": campaign, "input": text,
                  "error": f"{type(error).__name__}: {error}"[:500],
                  "found": time.strftime("%Y-%m-%d")}
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def run_chunk(tally: Tally, chunk_seed: int, examples: int, directory: Path) -> None:
    """Run ``examples`` inputs of one campaign; on failure, save the shrunk input."""
    campaign = tally.campaign
    failing: list[tuple[str, BaseException]] = []

    @seed(chunk_seed)
    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate, Phase.shrink])
    @given(campaign.strategy())
    def body(text: str) -> None:
        tally.inputs += 1
        try:
            campaign.check(text)
        except BaseException as e:  # noqa: BLE001 - any exception is a finding
            failing.append((text, e))
            raise

    start = time.monotonic()
    try:
        body()
    except BaseException:  # noqa: BLE001 - Hypothesis re-raises the shrunk failure
        if failing:
            text, error = failing[-1]  # the last failure Hypothesis saw is the shrunk one
            tally.failures.append(save_failure(campaign.name, text, error, directory))
        else:
            raise
    finally:
        tally.seconds += time.monotonic() - start


def progress(tallies: Sequence[Tally], elapsed: float, out: TextIO, final: bool = False) -> None:
    parts = [f"{t.campaign.name} {t.inputs:,} ({t.rate:,.0f}/s, {len(t.failures)} failed)"
             for t in tallies]
    line = f"[{int(elapsed) // 60:02d}:{int(elapsed) % 60:02d}] " + "  ".join(parts)
    if out.isatty():
        out.write("\r" + line + ("\n" if final else ""))
    elif final:
        out.write(line + "\n")
    out.flush()


def summary(tallies: Sequence[Tally], out: TextIO) -> int:
    out.write(f"\n{'campaign':<14}{'inputs':>10}{'inputs/s':>11}{'failures':>10}\n")
    for t in tallies:
        out.write(f"{t.campaign.name:<14}{t.inputs:>10,}{t.rate:>11,.0f}{len(t.failures):>10}\n")
        for path in t.failures:
            out.write(f"  saved {path.relative_to(REGRESSIONS.parent.parent)}\n")
    inputs = sum(t.inputs for t in tallies)
    failed = sum(len(t.failures) for t in tallies)
    out.write(f"fuzz: {inputs - failed} passed, {failed} failed\n")
    return 1 if failed else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.splitlines()[0])
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="time budget in minutes")
    budget.add_argument("--seconds", type=float, help="time budget in seconds (default 60)")
    ap.add_argument("--seed", type=int, help="base seed (default: random, printed)")
    ap.add_argument("--campaign", action="append", choices=sorted(CAMPAIGNS),
                    help="campaign to run (repeatable; default: all, differential only "
                         "when the TVM 0.21 oracle is installed)")
    ap.add_argument("--chunk", type=int, default=200, help="examples per turn (default 200)")
    ap.add_argument("--save-dir", type=Path, default=REGRESSIONS,
                    help="where failures are saved (default fuzz/regressions)")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = parse_args(argv)
    out = out or sys.stdout
    budget = args.minutes * 60 if args.minutes is not None else (args.seconds or 60.0)
    base_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    names = args.campaign or [n for n, c in CAMPAIGNS.items()
                              if not c.needs_oracle or oracle.available()]
    if any(CAMPAIGNS[n].needs_oracle for n in names) and not oracle.available():
        out.write(f"the differential campaign needs the TVM 0.21 oracle at {oracle.TVM021}\n")
        return 2
    tallies = [Tally(CAMPAIGNS[n]) for n in names]
    out.write(f"fuzz: {', '.join(names)} for {budget:g}s, seed {base_seed}\n")
    start = time.monotonic()
    turn = 0
    while time.monotonic() - start < budget:
        tally = tallies[turn % len(tallies)]
        turn += 1
        if len(tally.failures) >= MAX_FAILURES_PER_CAMPAIGN:
            continue
        run_chunk(tally, base_seed + turn, args.chunk, args.save_dir)
        progress(tallies, time.monotonic() - start, out)
    progress(tallies, time.monotonic() - start, out, final=True)
    return summary(tallies, out)
