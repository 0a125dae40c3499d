"""The shelf's one command (``python -m scripts``): every generator and recorder by name, and a
generator that needs nothing but the checkout says its committed file is what it writes."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scripts", *args], cwd=REPO, capture_output=True,
                          text=True, check=False, timeout=300)


def test_list_names_every_generator_and_recorder() -> None:
    done = _run("list")
    assert done.returncode == 0, done.stderr
    listed = {tuple(line.split()[:2]) for line in done.stdout.splitlines()}
    expected = {("regenerate", p.stem.removeprefix("generate_"))
                for p in (REPO / "scripts").glob("generate_*.py")}
    expected |= {("record", p.stem.removeprefix("record_"))
                 for p in (REPO / "scripts").glob("record_*.py")}
    assert expected <= listed
    # every script that writes a golden is reachable by a name
    others = {line.split()[1] for line in done.stdout.splitlines()} - {n for _, n in expected}
    assert {"compat", "machine_names", "tuned_database"} <= others


def test_check_runs_the_script_with_check() -> None:
    # The benchmark corpora come from the release facts and a fixed seed: no oracle, no git.
    done = _run("check", "bench_corpora")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "generate_bench_corpora.py --check" in done.stdout


def test_an_unknown_name_is_a_usage_error() -> None:
    done = _run("regenerate", "no_such_table")
    assert done.returncode == 2 and "python -m scripts list" in done.stderr
