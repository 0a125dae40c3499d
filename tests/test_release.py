"""Release hygiene: one version, a change log in Keep a Changelog's shape, and a wheel that
needs only lark at run time and carries the grammars, data files and py.typed."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

import targetlang

PYPROJECT = (REPO / "pyproject.toml").read_text(encoding="utf-8")
CHANGELOG = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_version_is_written_in_one_place() -> None:
    project = PYPROJECT[PYPROJECT.index("[project]"):PYPROJECT.index("[project.optional")]
    assert not re.search(r"^version\s*=", project, re.M), "pyproject.toml: a second version"
    assert re.search(r'^dynamic = \["version"\]', project, re.M)
    assert 'version = {attr = "targetlang.__version__"}' in PYPROJECT
    assert re.fullmatch(r"\d+\.\d+\.\d+", targetlang.__version__)
    # The installed metadata was made from the same place (an editable install counts).
    assert importlib.metadata.version("targetlang") == targetlang.__version__


# Keep a Changelog 1.1.0: release headings and the six kinds of change, nothing else.
CHANGE_KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def test_changelog_follows_keep_a_changelog() -> None:
    assert CHANGELOG.startswith("# Changelog\n")
    assert "keepachangelog.com" in CHANGELOG
    releases = re.findall(r"^## (.*)$", CHANGELOG, re.M)
    assert releases and releases[0] == "[Unreleased]"
    for release in releases[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", release), release
    for section in re.split(r"^## .*$", CHANGELOG, flags=re.M)[1:]:
        kinds = re.findall(r"^### (.*)$", section, re.M)
        assert kinds, "a release without kinds of change"
        assert all(kind in CHANGE_KINDS for kind in kinds), kinds
        assert len(kinds) == len(set(kinds)), f"a kind of change twice: {kinds}"
        assert [k for k in CHANGE_KINDS if k in kinds] == kinds, f"out of order: {kinds}"
    assert not re.search(r"^#### ", CHANGELOG, re.M)


def _wheel(tmp_path: Path) -> Path:
    if importlib.util.find_spec("build") is None:
        pytest.skip("needs the 'build' package (pip install -e '.[docs]')")
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path),
                           str(REPO)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels = list(tmp_path.glob("targetlang-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_the_wheel_needs_only_lark_and_carries_its_files(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path)
    assert wheel.name == f"targetlang-{targetlang.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    needs = [line.split(":", 1)[1].strip() for line in metadata.splitlines()
             if line.startswith("Requires-Dist:")]
    at_run_time = [need for need in needs if "extra ==" not in need]
    assert at_run_time == ["lark>=1.1.9"]
    package = REPO / "targetlang"
    expected = {"targetlang/py.typed"}
    expected |= {f"targetlang/grammar/{p.name}" for p in (REPO / "grammar").glob("*.lark")}
    expected |= {"targetlang/" + p.relative_to(package).as_posix()
                 for p in (package / "_data").rglob("*.json")}
    expected |= {"targetlang/" + p.relative_to(package).as_posix()
                 for p in package.rglob("*.py")}
    assert len(expected) > 50
    assert not expected - names, sorted(expected - names)
