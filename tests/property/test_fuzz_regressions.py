"""Replay every input the fuzz campaigns ever failed on (fuzz/regressions/)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO))
from fuzz import oracle  # noqa: E402
from fuzz.campaigns import CAMPAIGNS, check_robustness  # noqa: E402

CORPUS = sorted((REPO / "fuzz" / "regressions").glob("*.json"))


def test_corpus_is_not_empty() -> None:
    assert CORPUS


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_regression(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    campaign = CAMPAIGNS[record["campaign"]]
    if campaign.needs_oracle and not oracle.available():
        check_robustness(record["input"])
    else:
        campaign.check(record["input"])


def test_fuzz_runner_smoke(tmp_path: Path) -> None:
    """The runner runs a campaign for a moment and reports in the agreed format."""
    import io

    from fuzz.runner import main

    out = io.StringIO()
    status = main(["--seconds", "2", "--seed", "3", "--campaign", "robustness", "--chunk", "20",
                   "--save-dir", str(tmp_path)], out=out)
    assert status == 0, out.getvalue()
    assert out.getvalue().splitlines()[-1].endswith("passed, 0 failed")
