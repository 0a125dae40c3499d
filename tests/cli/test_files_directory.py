"""_files.write_directory_atomically: a new directory of files, complete or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from targetlang import _files
from targetlang._files import write_directory_atomically

FILES = {"database_workload.json": b"[1]\n", "database_tuning_record.json": b"[2]\n"}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_directory_with_modes_from_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_directory_atomically(tmp_path / "db", FILES)
    finally:
        os.umask(old)
    assert {p.name: p.read_bytes() for p in (tmp_path / "db").iterdir()} == FILES
    assert mode(tmp_path / "db") == 0o750
    assert mode(tmp_path / "db" / "database_workload.json") == 0o640
    assert os.listdir(tmp_path) == ["db"]


def test_an_empty_directory_is_taken(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir()
    write_directory_atomically(str(tmp_path / "db"), FILES)
    assert sorted(os.listdir(tmp_path / "db")) == sorted(FILES)


@pytest.mark.parametrize("what", ["file", "non-empty", "link", "dangling link"])
def test_what_is_there_is_refused_and_kept(tmp_path: Path, what: str) -> None:
    out = tmp_path / "out"
    if what == "file":
        out.write_text("x")
    elif what == "non-empty":
        out.mkdir()
        (out / "keep").write_text("x")
    else:
        target = tmp_path / "target"
        if what == "link":
            target.mkdir()
        out.symlink_to(target)
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(OSError) as caught:
        write_directory_atomically(out, FILES)
    assert caught.value.filename == str(out)
    assert sorted(os.listdir(tmp_path)) == before
    if what == "link":
        assert os.listdir(tmp_path / "target") == []


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failure_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  error: BaseException) -> None:
    calls = []

    def failing_fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:  # the second file
            raise error

    monkeypatch.setattr(_files.os, "fsync", failing_fsync)
    with pytest.raises(type(error)) as caught:
        write_directory_atomically(tmp_path / "db", FILES)
    if isinstance(error, OSError):
        assert caught.value.filename == str(tmp_path / "db")  # type: ignore[attr-defined]
    assert os.listdir(tmp_path) == []
