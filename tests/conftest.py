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

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
TOPHUB = REPO / "tests" / "data" / "tophub"  # the few TopHub logs the tests read (README.md there)

# The TVM oracle (docs/oracle.md): real TVM releases behind bin/tvm0NN-python wrappers, and the
# query.py that asks them. TARGETLANG_ORACLE_DIR points at one; a developer's checkout may also
# have query.py in the project's shared folder beside the repository.
ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                                 Path.home() / ".cache" / "targetlang-oracle"))
ORACLE_TVM021 = ORACLE_DIR / "bin" / "tvm021-python"
ORACLE_QUERY = next((q for q in (ORACLE_DIR / "query.py",
                                 REPO.parent / "shared" / "oracle" / "query.py") if q.is_file()),
                    ORACLE_DIR / "query.py")
ORACLE_SKIP = ("needs the TVM oracle (real TVM releases; see docs/oracle.md): set "
               "TARGETLANG_ORACLE_DIR to a directory with bin/tvm021-python and query.py")


def oracle_ready() -> bool:
    return ORACLE_TVM021.exists() and ORACLE_QUERY.is_file()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if oracle_ready():
        return
    skip = pytest.mark.skip(reason=ORACLE_SKIP)
    for item in items:
        if "oracle" in item.keywords:
            item.add_marker(skip)
