"""The package type-checks under mypy --strict and passes ruff (both configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff() -> None:
    """pyflakes, isort and bugbear (configured in pyproject.toml) find nothing."""
    pytest.importorskip("ruff")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
