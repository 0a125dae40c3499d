"""Replay the inputs the file and stream campaigns failed on (fuzz/regressions/tools/): each
with the property it broke (tests/cli/test_file_properties.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO
from test_file_properties import check_batch, check_log, check_script

from targetlang.migration.pyscripts import migrate_file

CORPUS = sorted((REPO / "fuzz" / "regressions" / "tools").glob("*.json"))


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def check_script_file(data: bytes, tmp_path: Path) -> None:
    """``migrate --py --write`` on a file of any bytes: an answer, never an exception; a file
    it cannot read as Python is reported and left as it was."""
    path = tmp_path / "script.py"
    path.write_bytes(data)
    result = migrate_file(path, write=True)
    if any(f.message.startswith("not Python") for f in result.findings):
        assert path.read_bytes() == data and not result.rewrites


def test_corpus_is_not_empty() -> None:
    assert CORPUS


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_regression(path: Path, tmp_path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    campaign, given = record["campaign"], record["input"]
    if campaign == "logs":
        check_log(_bytes(given))
    elif campaign == "migrate-py":
        check_script(given)
    elif campaign == "migrate-py-file":
        check_script_file(_bytes(given), tmp_path)
    elif campaign == "cli-batch":
        check_batch(record["command"], given)
    else:
        pytest.fail(f"unknown campaign {campaign!r}")
