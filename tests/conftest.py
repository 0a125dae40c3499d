"""Shared test configuration: Hypothesis profiles and the live-oracle marker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# "ci" is fast and derandomized (the default); "fuzz" runs long: HYPOTHESIS_PROFILE=fuzz.
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=500, deadline=None)
settings.register_profile("fuzz", max_examples=20_000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                                 Path.home() / ".cache" / "targetlang-oracle"))
ORACLE_TVM021 = ORACLE_DIR / "bin" / "tvm021-python"
REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ORACLE_TVM021.exists():
        return
    skip = pytest.mark.skip(reason=f"no TVM 0.21 oracle at {ORACLE_TVM021} "
                                   "(install with ../shared/oracle/install.sh)")
    for item in items:
        if "oracle" in item.keywords:
            item.add_marker(skip)
