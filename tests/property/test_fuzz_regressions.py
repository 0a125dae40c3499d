"""Replay every input a fuzz target ever failed on (fuzz/regressions/), run every target a
little, and run the fuzz runner for a moment on each engine."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO))
from fuzz import engine, oracle  # noqa: E402
from fuzz.checks import check_parse  # noqa: E402
from fuzz.failures import case_of  # noqa: E402
from fuzz.seeds import DICTIONARY, committed_seeds, dictionary  # noqa: E402
from fuzz.targets import TARGETS, default_targets  # noqa: E402

REGRESSIONS = REPO / "fuzz" / "regressions"
CORPUS = sorted(REGRESSIONS.glob("*.json"))
# Inputs that fail until a fix on another branch lands (fuzz/regressions/README.md).
PENDING = sorted((REGRESSIONS / "pending").glob("*.json"))


def test_corpus_is_not_empty() -> None:
    assert CORPUS


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_regression(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    target = TARGETS[record["campaign"]]
    case = case_of(record)
    if target.needs_oracle and not oracle.available():
        check_parse(case)  # without TVM: still only a Target or a TargetError
    else:
        target.check(case)


def test_pending_regressions_name_a_target() -> None:
    """Pending inputs (often none) are kept readable, ready to move up once their fix lands."""
    for path in PENDING:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["campaign"] in TARGETS and isinstance(record["input"], str), path.name


@pytest.mark.parametrize("name", [n for n in TARGETS if TARGETS[n].strategy is not None
                                  and not TARGETS[n].needs_oracle])
def test_property_target(name: str) -> None:
    """Each property target, as the plain Hypothesis property it is (a few examples)."""
    TARGETS[name].property(max_examples=25)()


@pytest.mark.parametrize("name", [n for n in TARGETS if TARGETS[n].raw])
def test_raw_target_passes_its_seeds(name: str) -> None:
    """Every committed seed of a raw-bytes target passes its check (a seed is no bug)."""
    target = TARGETS[name]
    assert target.decode is not None
    if not (REPO / "fuzz" / "seeds").is_dir():
        pytest.skip("no fuzz/seeds/ (the sdist leaves the seed corpus out; a clone has it)")
    seeds = committed_seeds(name)
    assert seeds, f"fuzz/seeds/{name}/ is empty: run python -m fuzz.seeds"
    for data in seeds[::7]:
        target.check(target.decode(data))


def test_dictionary_is_up_to_date() -> None:
    assert DICTIONARY.read_text(encoding="utf-8") == dictionary(), \
        "fuzz/targetlang.dict is stale: run python -m fuzz.seeds"


def test_every_target_has_its_libfuzzer_script() -> None:
    scripts = {p.stem.removeprefix("fuzz_") for p in (REPO / "fuzz").glob("fuzz_*.py")}
    assert scripts == set(TARGETS)


def _last_line(out: io.StringIO) -> str:
    return out.getvalue().splitlines()[-1]


def test_runner_on_hypothesis(tmp_path: Path) -> None:
    """Without libFuzzer the runner draws Hypothesis examples and says so."""
    from fuzz.runner import main

    out = io.StringIO()
    status = main(["--seconds", "3", "--seed", "3", "--jobs", "1", "--engine", "hypothesis",
                   "--campaign", "parse_bytes", "--campaign", "robustness", "--chunk", "20",
                   "--save-dir", str(tmp_path / "found"), "--corpus", str(tmp_path / "corpus")],
                  out=out)
    assert status == 0, out.getvalue()
    assert "note: plain Hypothesis engine" in out.getvalue()
    last = _last_line(out)
    assert last.startswith("fuzz: ") and " 0 failures (" in last and "over 1 jobs" in last


@pytest.mark.skipif(not engine.available(), reason="atheris is not installed "
                    "(pip install -e '.[fuzz]'); the runner falls back to Hypothesis")
def test_runner_on_libfuzzer(tmp_path: Path) -> None:
    from fuzz.runner import main

    out = io.StringIO()
    status = main(["--seconds", "4", "--seed", "3", "--jobs", "1", "--campaign", "parse_bytes",
                   "--save-dir", str(tmp_path / "found"), "--corpus", str(tmp_path / "corpus")],
                  out=out)
    assert status == 0, out.getvalue()
    last = _last_line(out)
    inputs = int(last.split()[1])
    edges = int(last.split(", ")[-1].split()[0])
    assert inputs > 100 and edges > 100, last
    assert any((tmp_path / "corpus" / "parse_bytes").iterdir())


def test_default_targets_leave_out_the_oracle() -> None:
    oracle = {"differential", "differential_odd"}
    assert not oracle & set(default_targets())
    assert set(default_targets()) | oracle == set(TARGETS)


def test_a_libfuzzer_stop_that_passes_when_replayed_is_kept_but_not_a_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """libFuzzer can stop on an input for a reason that is not the input's (a signal, a
    stalled machine's wall-clock timeout): replayed, it passes. Such a stop is kept and
    listed, and the run does not fail on it; one that fails when replayed is a failure."""
    from fuzz.failures import Findings
    from fuzz.runner import Tally, summary

    def run(data: bytes) -> tuple[int, str]:
        artifact = tmp_path / "collected" / "parse_bytes-6-crash-0123"
        artifact.parent.mkdir(exist_ok=True)
        artifact.write_bytes(data)
        findings = Findings(tmp_path / "regressions", tmp_path / "artifacts")
        findings.add_artifact("parse_bytes", artifact)
        tally = Tally("parse_bytes", inputs=10, seconds=1.0, failures=1)
        out = io.StringIO()
        return summary([tally], findings, 1, 1.0, out), out.getvalue()

    code, printed = run(b"llvm -mcpu=cortex-a72")  # passes: parse gives a Target
    assert code == 0
    assert "parse_bytes: crash (passes when replayed here; kept, not counted)" in printed
    assert "1 failures" not in printed and "0 failures" in printed
    assert (tmp_path / "artifacts" / "parse_bytes-parse_bytes-6-crash-0123").read_bytes() == \
        b"llvm -mcpu=cortex-a72"

    # The same stop on an input that fails when replayed: a failure, minimized and saved.
    import dataclasses

    def refuses(case: object) -> None:
        raise AssertionError("refused")

    monkeypatch.setitem(TARGETS, "parse_bytes",
                        dataclasses.replace(TARGETS["parse_bytes"], check=refuses))
    code, printed = run(b"llvm")
    assert code == 1
    assert "1 failures" in printed
    assert list((tmp_path / "regressions").glob("parse_bytes-*.json"))
