"""The historical dialects' data files: every fact cites where it came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

DATA = REPO / "targetlang" / "_data"
MIRROR = Path(os.environ.get("TVM_GIT_DIR", "/work/.mirror/apache+tvm/repo"))


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", ["tvm-0.6", "tvm-0.8", "tvm-0.22", "tvm-0.23", "tvm-0.27"])
def test_every_data_file_names_its_source(name: str) -> None:
    data = load(name)
    assert data["dialect"] == name and "generate_dialects.py" in str(data["source"])


def test_transcribed_kinds_cite_tag_file_and_line() -> None:
    for name, tag in (("tvm-0.6", "v0.6.0"), ("tvm-0.8", "v0.8.0")):
        kinds = load(name)["kinds"]
        assert isinstance(kinds, dict)
        for kind, spec in kinds.items():
            assert str(spec["source"]).startswith(f"{tag}:src/"), (name, kind)
    for spec in load("tvm-0.6")["kinds"]["llvm"]["attrs"].values():  # type: ignore[index]
        assert str(spec["source"]).startswith("v0.6.0:")


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no TVM git mirror")
def test_git_transcriptions_are_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "generate_dialects.py"),
                           "--check", "tvm-0.6", "tvm-0.8", "tvm-0.22", "tvm-0.23"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
