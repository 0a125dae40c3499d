"""logs stats|select|normalize on a MetaSchedule database (tests/data/meta_schedule/db/: what
TVM 0.21's JSONDatabase wrote, 17 records of 10 targets)."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest
from conftest import ORACLE_DIR, TESTS

import targetlang as tl
from targetlang.cli import main

DB = TESTS / "data" / "meta_schedule" / "db"
RECORDS = DB / "database_tuning_record.json"


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(path: Path) -> list[list[object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_stats_counts_records_per_target_for_a_directory_or_its_file() -> None:
    code, out, err = cli("logs", "stats", str(DB), "--json")
    assert code == 0, err
    assert cli("logs", "stats", str(RECORDS), "--json")[1] == out
    rows = json.loads(out)
    assert sum(r["records"] for r in rows) == 17 and len(rows) == 10


def test_two_dicts_of_one_target_are_one_target(tmp_path: Path) -> None:
    lines = RECORDS.read_text("utf-8").splitlines()
    record = json.loads(lines[0])
    config = record[1][2]
    respelled = {k: config[k] for k in reversed(list(config))}  # the same target, other order
    respelled.pop("keys")
    record[1][2] = respelled
    (tmp_path / "database_tuning_record.json").write_text(
        "\n".join([json.dumps(record), *lines[1:]]) + "\n", encoding="utf-8")
    rows = json.loads(cli("logs", "stats", str(tmp_path), "--json")[1])
    assert len(rows) == 10 and max(len(r["spellings"]) for r in rows) == 2


def test_select_is_semantic() -> None:
    code, out, err = cli("logs", "select", str(DB), "--target",
                         "llvm -num-cores=2 -mtriple=x86_64-unknown-linux-gnu -mcpu=skylake",
                         "-o", "-")
    assert code == 0, err
    chosen = out.splitlines()
    assert len(chosen) == 8
    assert set(chosen) <= set(RECORDS.read_text("utf-8").splitlines())


@pytest.mark.parametrize("release", ["tvm-0.25", "tvm-0.26", "tvm-0.27"])
def test_normalize_rewrites_targets_and_instructions(tmp_path: Path, release: str) -> None:
    out = tmp_path / "database_tuning_record.json"
    before_workload = (DB / "database_workload.json").read_bytes()
    # -o -: the records alone (-o DIR writes a database: tests/cli/test_meta_schedule_database.py)
    code, text, err = cli("logs", "normalize", str(DB), "--to", release, "-o", "-")
    assert code == 0, err
    out.write_text(text, encoding="utf-8")
    assert "renamed GetSBlock" in err and "-o DIR writes the database" in err
    assert (DB / "database_workload.json").read_bytes() == before_workload
    old, new = records(RECORDS), records(out)
    assert len(old) == len(new) == 17
    by_target: dict[str, object] = {}
    for a, b in zip(old, new):
        assert a[0] == b[0] and a[1][1] == b[1][1] and a[1][3] == b[1][3]  # type: ignore[index]
        instructions = [["GetSBlock" if i[0] == "GetBlock" else i[0], *i[1:]]
                        for i in a[1][0][0]]  # type: ignore[index]
        assert b[1][0] == [instructions, a[1][0][1]]  # type: ignore[index]
        original, written = a[1][2], b[1][2]  # type: ignore[index]
        key = json.dumps(tl.migrate(original, source_dialect="tvm-0.21",
                                    target_dialect="tvm-0.21"), sort_keys=True)
        assert by_target.setdefault(key, written) == written  # one dict per target
        assert written == tl.migrate(original, source_dialect="tvm-0.21", target_dialect=release)
        tl.from_json(written, dialect=release)


@pytest.mark.parametrize("to", [[], ["--to", "text"]])
@pytest.mark.parametrize("output", ["x.json", "-", "out_dir"])
@pytest.mark.parametrize("given", ["directory", "records file"])
def test_normalize_a_database_without_a_form_is_a_usage_error(
        tmp_path: Path, to: list[str], output: str, given: str) -> None:
    """A database's records hold TargetJSON dicts: without ``--to`` (or with ``--to text``)
    there is nothing to write them as, a usage error (exit 2) like the CLI's others, and
    nothing is written."""
    source = str(DB) if given == "directory" else str(DB / "database_tuning_record.json")
    out = output if output == "-" else str(tmp_path / output)
    code, text, err = cli("logs", "normalize", source, "-o", out, *to)
    assert code == 2 and "--to json or --to tvm-0.N" in err and text == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("output", ["out_dir", "-"])
def test_no_database_is_written_for_tirx_which_has_no_meta_schedule(
        tmp_path: Path, output: str) -> None:
    """TVM TIRx 0.1 has no MetaSchedule (its oracle: no schedule module, no database, no trace
    instruction; schedule-instructions.json): a database for it is refused with the reason,
    and nothing is written (its logs' targets are normalized: test_cli_releases.py)."""
    out = output if output == "-" else str(tmp_path / output)
    code, text, err = cli("logs", "normalize", str(DB), "--to", "tirx-0.1", "-o", out)
    assert code == 1 and "tirx-0.1 has no MetaSchedule" in err and text == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.oracle
@pytest.mark.parametrize("release", ["0.25", "0.26", "0.27"])
def test_each_release_reads_the_normalized_targets(tmp_path: Path, release: str) -> None:
    exe = ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    if not exe.exists():
        pytest.skip(f"no TVM {release} oracle at {exe}")
    out = tmp_path / "database_tuning_record.json"
    code, text, _ = cli("logs", "normalize", str(DB), "--to", f"tvm-{release}", "-o", "-")
    assert code == 0
    out.write_text(text, encoding="utf-8")
    configs = [r[1][2] for r in records(out)]  # type: ignore[index]
    code = ("import json, sys, warnings\nwarnings.simplefilter('ignore')\n"
            "from tvm.target import Target\nout = []\n"
            "for c in json.load(sys.stdin):\n"
            "    e = Target(c).export()\n"
            "    plain = lambda o: dict(o.items()) if hasattr(o, 'items') else list(o)\n"
            "    out.append(json.loads(json.dumps(e, default=plain)))\n"
            "print(json.dumps(out))\n")
    done = subprocess.run([str(exe), "-c", code], input=json.dumps(configs),
                          capture_output=True, text=True, timeout=300, check=True)
    exports = json.loads(done.stdout.splitlines()[-1])
    assert len(exports) == 17
    for config, export in zip(configs, exports):
        assert tl.from_json(config, dialect=f"tvm-{release}") == \
            tl.from_json(export, dialect=f"tvm-{release}")
