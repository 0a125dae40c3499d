"""logs normalize|select writing MetaSchedule databases (directories) for another release.

The data: tests/data/meta_schedule/tuned/db/ (what TVM 0.21's JSONDatabase wrote after tuning a
matmul and a conv2d, 16 records), workloads-0.N.json (the workload tables 0.25/0.26/0.27 write
for the same workloads) and loaded.json (what each release's JSONDatabase read from the
database normalized for it: scripts/check_databases.py). The oracle test at the end redoes
that check live.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ORACLE_DIR, REPO, TESTS

import targetlang as tl
from targetlang.cli import main

TUNED = TESTS / "data" / "meta_schedule" / "tuned"
DB = TUNED / "db"
RELEASES = ["0.25", "0.26", "0.27"]
LOADED = json.loads((TUNED / "loaded.json").read_text("utf-8"))


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(directory: Path) -> list[Any]:
    text = (directory / "database_tuning_record.json").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines()]


def kinds(record: Any) -> list[str]:
    return [instruction[0] for instruction in record[1][0][0]]


def renamed(trace: Any, old: str, new: str) -> Any:
    instructions, decisions = trace
    return [[[new if i[0] == old else i[0], *i[1:]] for i in instructions], decisions]


def normalize(out: Path, release: str, *extra: str) -> tuple[int, str, str]:
    return cli("logs", "normalize", str(DB), "--to", f"tvm-{release}", "-o", str(out), *extra)


@pytest.mark.parametrize("release", RELEASES)
def test_a_database_for_each_release(tmp_path: Path, release: str) -> None:
    out = tmp_path / "db"
    given = TUNED / f"workloads-{release}.json"
    code, _, err = normalize(out, release, "--workloads", str(given))
    assert code == 0, err
    assert sorted(os.listdir(out)) == ["database_tuning_record.json", "database_workload.json"]
    assert (out / "database_workload.json").read_bytes() == given.read_bytes()
    old, new = records(DB), records(out)
    assert len(old) == len(new) == 16
    assert "GetBlock renamed GetSBlock" in err and "in 64 records" in err
    for a, b in zip(old, new):
        assert a[0] == b[0] and a[1][1] == b[1][1] and a[1][3] == b[1][3]  # every measurement
        assert b[1][0] == renamed(a[1][0], "GetBlock", "GetSBlock")
        assert b[1][2] == tl.migrate(a[1][2], source_dialect="tvm-0.21",
                                     target_dialect=f"tvm-{release}")
        assert "GetBlock" not in kinds(b)


@pytest.mark.parametrize("release", RELEASES)
def test_what_each_release_read_is_what_we_write(tmp_path: Path, release: str) -> None:
    """The goldens: the records each release's JSONDatabase loaded from this output."""
    out = tmp_path / "db"
    assert normalize(out, release, "--workloads", str(TUNED / f"workloads-{release}.json"))[0] == 0
    loaded = LOADED[f"tvm-{release}"]["records"]
    written = records(out)
    assert len(loaded) == len(written)
    by_time = {json.dumps(r[1][1]): r for r in written}
    assert len(by_time) == len(written)  # every run_secs tells its record apart
    for entry in loaded:
        record = by_time[json.dumps(entry["run_secs"])]
        assert entry["workload"] == record[0] and entry["args_info"] == record[1][3]
        assert entry["kinds"] == kinds(record)
        assert entry["trace_applies"] is True
        assert tl.from_json(entry["target"], dialect=f"tvm-{release}") == \
            tl.from_json(record[1][2], dialect=f"tvm-{release}")
    assert LOADED[f"tvm-{release}"]["best"] == LOADED["tvm-0.21"]["best"]


def test_without_the_new_workload_table_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "db"
    code, _, err = normalize(out, "0.27")
    assert code == 1 and not out.exists() and os.listdir(tmp_path) == []
    assert "--workloads" in err and "TVM 0.21" in err and "nothing written" in err


@pytest.mark.parametrize("change", ["reversed", "one", "other release"])
def test_a_workload_table_that_does_not_match_is_refused(tmp_path: Path, change: str) -> None:
    lines = (TUNED / "workloads-0.27.json").read_bytes().splitlines(keepends=True)
    if change == "reversed":
        lines.reverse()
    elif change == "one":
        lines = lines[:1]
    else:
        lines = (TUNED / "workloads-0.26.json").read_bytes().splitlines(keepends=True)
    table = tmp_path / "workloads.json"
    table.write_bytes(b"".join(lines))
    code, _, err = normalize(tmp_path / "db", "0.27", "--workloads", str(table))
    assert code == 1 and not (tmp_path / "db").exists(), err
    assert str(table) in err
    assert {"reversed": "no buffer of shape", "one": "holds 1 workloads",
            "other release": "written by TVM 0.26"}[change] in err


def test_the_same_release_keeps_its_own_table_and_traces(tmp_path: Path) -> None:
    for to in ("json", "tvm-0.21"):
        out = tmp_path / to
        code, _, err = cli("logs", "normalize", str(DB), "--to", to, "-o", str(out))
        assert code == 0, err
        assert (out / "database_workload.json").read_bytes() == \
            (DB / "database_workload.json").read_bytes()
        assert [r[1][0] for r in records(out)] == [r[1][0] for r in records(DB)]


def test_back_from_a_newer_release(tmp_path: Path) -> None:
    """A 0.25 database moved to 0.21: GetSBlock is GetBlock again, 0.21's table given."""
    newer = tmp_path / "db-0.25"
    assert normalize(newer, "0.25", "--workloads", str(TUNED / "workloads-0.25.json"))[0] == 0
    back = tmp_path / "db-0.21"
    code, _, err = cli("logs", "normalize", str(newer), "--to", "tvm-0.21", "-o", str(back),
                       "--workloads", str(DB / "database_workload.json"))
    assert code == 0, err
    assert [r[1][0] for r in records(back)] == [r[1][0] for r in records(DB)]
    assert (back / "database_workload.json").read_bytes() == \
        (DB / "database_workload.json").read_bytes()


def with_instruction(tmp_path: Path, kind: str) -> Path:
    """The database with one instruction of ``kind`` added to its first record's trace."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "database_workload.json").write_bytes((DB / "database_workload.json").read_bytes())
    lines = (DB / "database_tuning_record.json").read_text("utf-8").splitlines(keepends=True)
    lines[0] = lines[0].replace('[0,[[[', f'[0,[[[["{kind}",["b0"],[0,0,[]],[]],', 1)
    (source / "database_tuning_record.json").write_text("".join(lines), encoding="utf-8")
    return source


@pytest.mark.parametrize("release", RELEASES)
def test_a_removed_instruction_is_refused_and_counted(tmp_path: Path, release: str) -> None:
    source = with_instruction(tmp_path, "SetAxisSeparator")
    out = tmp_path / "db"
    code, _, err = cli("logs", "normalize", str(source), "--to", f"tvm-{release}", "-o",
                       str(out), "--workloads", str(TUNED / f"workloads-{release}.json"))
    written = records(out)
    if release == "0.25":  # 0.26 removed it (apache/tvm 80648af29f)
        assert code == 0 and len(written) == 16 and "SetAxisSeparator" in kinds(written[0])
        return
    assert code == 1 and len(written) == 15
    assert "line 1: the trace uses instruction SetAxisSeparator" in err
    assert f"1 records refused: their traces use SetAxisSeparator, which TVM {release}" in err
    assert all("SetAxisSeparator" not in kinds(r) for r in written)


def test_the_records_alone_are_converted_the_same_way(tmp_path: Path) -> None:
    source = with_instruction(tmp_path, "SetAxisSeparator")
    code, out, err = cli("logs", "normalize", str(source), "--to", "tvm-0.27", "-o", "-")
    assert code == 1 and "SetAxisSeparator, which TVM 0.27 does not have" in err
    written = [json.loads(line) for line in out.splitlines()]
    assert len(written) == 15
    assert [r[1][1] for r in written] == [r[1][1] for r in records(DB)][1:]
    assert all("GetBlock" not in kinds(r) and "GetSBlock" in kinds(r) for r in written)
    assert os.listdir(tmp_path) == ["source"]


def test_an_instruction_no_release_knows_is_refused(tmp_path: Path) -> None:
    source = with_instruction(tmp_path, "NoSuchInstruction")
    code, _, err = cli("logs", "normalize", str(source), "--to", "tvm-0.21", "-o",
                       str(tmp_path / "db"))
    assert code == 1 and len(records(tmp_path / "db")) == 15 and "NoSuchInstruction" in err


def test_records_that_cannot_be_written_are_left_out(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "database_workload.json").write_bytes((DB / "database_workload.json").read_bytes())
    lines = (DB / "database_tuning_record.json").read_text("utf-8").splitlines(keepends=True)
    bad_target = json.loads(lines[0])
    bad_target[1][2] = {"kind": "no-such-kind"}
    bad_index = json.loads(lines[1])
    bad_index[0] = 7
    lines[:2] = [json.dumps(bad_target) + "\n", json.dumps(bad_index) + "\n", "not json\n"]
    (source / "database_tuning_record.json").write_text("".join(lines), encoding="utf-8")
    code, _, err = cli("logs", "normalize", str(source), "--to", "tvm-0.27", "-o",
                       str(tmp_path / "db"), "--workloads", str(TUNED / "workloads-0.27.json"))
    assert code == 1
    assert len(records(tmp_path / "db")) == 14
    assert "records: 17 read" in err and "3 failed" in err
    assert "line 2: workload index 7" in err and "line 3: not a MetaSchedule" in err
    assert "line 1: target" in err


def test_the_output_directory(tmp_path: Path) -> None:
    given = ("--workloads", str(TUNED / "workloads-0.27.json"))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert normalize(empty, "0.27", *given)[0] == 0 and len(records(empty)) == 16
    code, _, err = normalize(empty, "0.27", *given)  # now not empty: refused, kept
    assert code == 2 and "not empty" in err and len(records(empty)) == 16
    (tmp_path / "file").write_text("x")
    code, _, err = normalize(tmp_path / "file", "0.27", *given)
    assert code == 2 and (tmp_path / "file").read_text() == "x"
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    code, _, err = normalize(tmp_path / "link", "0.27", *given)
    assert code == 2 and "symbolic link" in err and not (tmp_path / "elsewhere").exists()
    code, _, err = normalize(DB, "0.27", *given)  # over the input: refused
    assert code == 2 and len(records(DB)) == 16
    assert sorted(os.listdir(tmp_path)) == ["empty", "file", "link"]  # no temporary left
    assert sorted(os.listdir(TUNED)) == ["PROVENANCE.md", "db", "loaded.json", "workloads-0.25.json",
                                         "workloads-0.26.json", "workloads-0.27.json"]


def test_the_records_file_stands_for_its_database(tmp_path: Path) -> None:
    out = tmp_path / "db"
    code, _, err = cli("logs", "normalize", str(DB / "database_tuning_record.json"), "--to",
                       "tvm-0.26", "-o", str(out), "--workloads",
                       str(TUNED / "workloads-0.26.json"))
    assert code == 0, err
    assert len(records(out)) == 16


def test_workloads_needs_a_database(tmp_path: Path) -> None:
    log = TESTS / "data" / "tophub" / "mali_v0.06.log"
    code, _, err = cli("logs", "normalize", str(log), "--to", "tvm-0.27", "-o",
                       str(tmp_path / "x"), "--workloads", str(TUNED / "workloads-0.27.json"))
    assert code == 2 and "--workloads is for a MetaSchedule database" in err
    code, out, err = cli("logs", "normalize", str(DB), "--to", "tvm-0.27", "-o", "-",
                         "--workloads", str(TUNED / "workloads-0.27.json"))
    assert code == 2 and out == "" and "(-o DIR)" in err


def test_a_release_without_an_instruction_table(tmp_path: Path) -> None:
    code, _, err = cli("logs", "normalize", str(DB), "--to", "tvm-0.8", "-o",
                       str(tmp_path / "db"))
    assert code == 1 and "no trace instruction table for TVM 0.8" in err
    assert not (tmp_path / "db").exists()


def test_select_writes_a_database_of_one_target(tmp_path: Path) -> None:
    out = tmp_path / "db"
    code, _, err = cli("logs", "select", str(DB), "--target",
                       "llvm -mtriple=x86_64-unknown-linux-gnu -num-cores=1", "-o", str(out))
    assert code == 0, err
    assert (out / "database_workload.json").read_bytes() == \
        (DB / "database_workload.json").read_bytes()
    assert records(out) == records(DB)
    code, _, err = cli("logs", "select", str(DB), "--target", "llvm -num-cores=4", "-o",
                       str(tmp_path / "none"))
    assert code == 0 and records(tmp_path / "none") == []


def test_the_instruction_tables() -> None:
    data = json.loads((REPO / "targetlang" / "_data" / "schedule-instructions.json").read_text())
    releases = data["releases"]
    # TVM TIRx has no MetaSchedule: its oracle has no schedule module and no instruction
    tirx = releases.pop("tirx-0.1")
    assert tirx["meta_schedule"] is False and tirx["kinds"] == [] and tirx["from"] == "oracle"
    assert not any(tirx["asked"]["modules"].values()) and tirx["asked"]["found"] == []
    assert {r: ("GetBlock" in e["kinds"], "GetSBlock" in e["kinds"])
            for r, e in releases.items()} == {
        "0.21": (True, False), "0.22": (True, False), "0.23": (True, False),
        "0.24": (False, True), "0.25": (False, True), "0.26": (False, True),
        "0.27": (False, True)}
    assert [r for r, e in releases.items() if "SetAxisSeparator" in e["kinds"]] == \
        ["0.21", "0.22", "0.23", "0.24", "0.25"]
    assert [r for r, e in releases.items() if e["from"] == "oracle"] == \
        ["0.21", "0.25", "0.26", "0.27"]


@pytest.mark.oracle
@pytest.mark.parametrize("release", RELEASES)
def test_each_release_loads_the_database(tmp_path: Path, release: str) -> None:
    exe = ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    if not exe.exists():
        pytest.skip(f"no TVM {release} oracle at {exe}")
    out = tmp_path / "db"
    assert normalize(out, release, "--workloads", str(TUNED / f"workloads-{release}.json"))[0] == 0
    script = REPO / "scripts" / "check_databases.py"
    done = subprocess.run([str(exe), str(script), "--probe", str(out)], capture_output=True,
                          text=True, timeout=900, check=True,
                          env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
    moved = json.loads(done.stdout.splitlines()[-1])
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from check_databases import check  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(REPO / "scripts"))
    assert check(LOADED["tvm-0.21"], moved, release) == []
    assert len(moved["records"]) == 16
