"""Tuning logs: stats, select, normalize (library and command line)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, TOPHUB
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang.cli import main
from targetlang.migration.logs import LogSummary, normalize, same_target_key, select, stats

OLD = (b'{"r": [[0.1], 0, 0.7, 1533118978.7], "v": 0.1, "i": ["llvm -device=arm_cpu -model=pynq '
       b'-target=armv7a-linux-eabi", "topi_nn_conv2d", [], {}, ["conv2d"], {"i": 7, "e": []}]}\n')
NEW = (b'{"input": ["llvm -mtriple=armv7a-linux-eabi -model=pynq -device=arm_cpu", "conv2d", [], '
       b'{}], "config": {"index": 1}, "result": [[1e-05], 0, 1.5, 1.0], "version": 0.2}\n')
QUOTED = (b'{"input": ["llvm -device=\'arm_cpu\' -model=pynq -mtriple=armv7a-linux-eabi", "d", [], '
          b'{}], "version": 0.2}\n')
OTHER = b'{"input": ["cuda -model=v100", "conv2d", [], {}], "version": 0.2}\n'
LOG = [b"# a comment\n", OLD, b"\n", NEW, QUOTED, OTHER, b'{"input": ["cuda -model=v1\n',
       b'{"input": ["cuda -arhc=sm_80", "x", [], {}]}\n']


def run_normalize(lines: list[bytes], to: str = "text") -> tuple[list[bytes], LogSummary]:
    summary = LogSummary()
    return list(normalize(lines, summary, to=to)), summary  # type: ignore[arg-type]


def test_normalize_rewrites_only_targets_and_keeps_everything_else() -> None:
    out, summary = run_normalize(LOG)
    assert len(out) == len(LOG)
    assert out[0] == LOG[0] and out[2] == LOG[2] and out[6] == LOG[6] and out[7] == LOG[7]
    pynq = "llvm -keys=arm_cpu,cpu -device=arm_cpu -model=pynq -mtriple=armv7a-linux-eabi"
    for index in (1, 3, 4):
        assert json.loads(out[index]).get("input", json.loads(out[index]).get("i"))[0] == pynq
    assert out[1].endswith(b'"topi_nn_conv2d", [], {}, ["conv2d"], {"i": 7, "e": []}]}\n')
    assert (summary.records, summary.changed, summary.unchanged, summary.failed) == (6, 4, 0, 2)
    assert summary.comments == 1 and summary.blank == 1
    assert [n for n, _ in summary.failures] == [7, 8]
    assert "unreadable" in summary.failures[0][1] and "arhc" in summary.failures[1][1]


def test_normalize_is_idempotent_and_json_mode_writes_targetjson() -> None:
    once, _ = run_normalize(LOG)
    twice, summary = run_normalize(once)
    assert twice == once and summary.changed == 0 and summary.unchanged == 4
    as_json, _ = run_normalize(LOG, to="json")
    target = json.loads(as_json[3])["input"][0]
    assert target == tl.migrate("llvm -mtriple=armv7a-linux-eabi -model=pynq -device=arm_cpu",
                                target_dialect="tvm-0.21")
    again, summary = run_normalize(as_json, to="json")
    assert again == as_json and summary.changed == 0


def test_select_finds_every_spelling() -> None:
    summary = LogSummary()
    out = list(select(LOG, "llvm -device=arm_cpu -mtriple=armv7a-linux-eabi -model=pynq", summary))
    assert out == [LOG[0], OLD, LOG[2], NEW, QUOTED, LOG[6]]
    assert summary.selected == 3 and summary.failed == 2


def test_stats_counts_targets_not_spellings() -> None:
    summary = LogSummary()
    found = stats(LOG, summary)
    assert [(e.count, len(e.spellings)) for e in found] == [(3, 3), (1, 1)]
    assert found[1].text.startswith("cuda -keys=cuda,gpu")


def test_a_target_moved_out_of_target_is_a_failure_not_a_loss() -> None:
    line = b'{"input": ["llvm -link-params=1", "x", [], {}]}\n'
    out, summary = run_normalize([line])
    assert out == [line] and summary.failed == 1 and "link-params" in summary.failures[0][1]


def test_same_target_key_reads_every_release() -> None:
    assert same_target_key("llvm -target=aarch64-linux-gnu") == \
        same_target_key("llvm -keys=arm_cpu,cpu -mtriple=aarch64-linux-gnu") == \
        same_target_key({"kind": "llvm", "mtriple": "aarch64-linux-gnu"})


@pytest.mark.parametrize("name", ["arm_cpu_v0.01.log", "cuda_v0.10.log", "vta_v0.08.log"])
def test_tophub_logs_normalize_without_loss(name: str) -> None:
    lines = (TOPHUB / name).read_bytes().splitlines(keepends=True)
    out, summary = run_normalize(lines)
    assert len(out) == len(lines) and summary.failed == 0
    for old, new in zip(lines, out):
        if old.startswith(b"{"):
            a, b = json.loads(old), json.loads(new)
            key = "input" if "input" in a else "i"
            assert same_target_key(a[key][0].replace("-target", "-mtriple")) == \
                same_target_key(b[key][0])
            a[key][0] = b[key][0] = None
            assert a == b
        else:
            assert old == new


@settings(max_examples=30)
@given(st.lists(st.sampled_from(LOG), max_size=12))
def test_property_normalize_keeps_line_count_and_is_idempotent(lines: list[bytes]) -> None:
    once, _ = run_normalize(lines)
    assert len(once) == len(lines)
    assert run_normalize(once)[0] == once


# ---- command line ------------------------------------------------------------------------------

def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_logs_normalize_writes_atomically_and_never_over_the_input(tmp_path: Path) -> None:
    log = tmp_path / "in.log"
    log.write_bytes(b"".join(LOG[:6]))
    code, _, err = cli("logs", "normalize", str(log), "-o", str(tmp_path / "out.log"))
    assert code == 0 and "records: 4 read, 4 changed, 0 unchanged, 0 failed" in err
    assert (tmp_path / "out.log").read_bytes().count(b"\n") == 6
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    code, _, err = cli("logs", "normalize", str(log), "-o", str(log))
    assert code == 2 and "overwrite the input" in err


def test_cli_logs_reports_failures_with_line_numbers(tmp_path: Path) -> None:
    log = tmp_path / "in.log"
    log.write_bytes(b"".join(LOG))
    code, out, err = cli("logs", "normalize", str(log), "-o", "-")
    assert code == 1 and "line 7: unreadable record (kept verbatim)" in err
    assert out.count("\n") == len(LOG)


def test_cli_logs_stats_and_select(tmp_path: Path) -> None:
    log = tmp_path / "in.log"
    log.write_bytes(b"".join(LOG[:6]))
    code, out, _ = cli("logs", "stats", str(log))
    assert code == 0 and out.splitlines()[1].split()[:2] == ["3", "3"]
    code, out, _ = cli("logs", "stats", str(log), "--json")
    assert json.loads(out)[0]["records"] == 3
    code, out, err = cli("logs", "select", str(log), "--target", "cuda -model=v100", "-o", "-")
    assert code == 0 and out.count('"input"') == 1 and "1 selected" in err


def test_cli_logs_subprocess_smoke(tmp_path: Path) -> None:
    log = tmp_path / "in.log"
    log.write_bytes(OLD + NEW)
    done = subprocess.run([sys.executable, "-m", "targetlang", "logs", "normalize", str(log),
                           "-o", "-", "--to", "json"], capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert all(json.loads(line)["input" if b"input" in line else "i"][0]["kind"] == "llvm"
               for line in done.stdout.splitlines())


def test_readme_stats_example_is_what_the_command_prints() -> None:
    page = (REPO / "docs" / "tuning.md").read_text(encoding="utf-8")  # moved from the README
    section = page[page.index("# AutoTVM tuning logs"):]
    block = section[section.index("```text\n") + 8:]
    block = block[:block.index("```")]
    code, out, err = cli("logs", "stats", str(TOPHUB / "mali_v0.06.log"))
    assert code == 0 and out + err == block
