"""The command line with a release dialect: check, migrate --to, migrate --py --to, logs normalize --to."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest
from conftest import TESTS

import targetlang as tl
from targetlang.cli import main


def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_check_names_the_json_path_where_a_release_refuses() -> None:
    config = '{"kind": "webgpu", "max_shared_memory_per_block": 1024}'
    assert cli("check", "--dialect", "tvm-0.27", config)[0] == 0  # 0.27 added it
    code, _, err = cli("check", "--dialect", "tvm-0.26", config)
    assert code == 1 and "(at max_shared_memory_per_block)" in err
    code, _, err = cli("check", "--dialect", "tvm-0.25", '{"kind": "cuda", "host": {"kind": '
                       '"llvm", "mcpu": 3}}')
    assert code == 1 and "(at host.mcpu)" in err


@pytest.mark.parametrize("release", ["tvm-0.25", "tvm-0.26", "tvm-0.27"])
def test_migrate_to_a_release_writes_what_it_reads_as_meant(release: str) -> None:
    code, out, _ = cli("migrate", "--compact", "--to", release, "webgpu")
    assert code == 0
    migrated = json.loads(out)
    assert tl.from_json(migrated, dialect=release).kind == "webgpu"
    assert ("max_shared_memory_per_block" in migrated) == (release == "tvm-0.27")


def test_migrate_py_keeps_a_tag_only_where_it_means_the_same(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text('import tvm\na = tvm.target.Target("nvidia/jetson-nano")\n'
                      'b = tvm.target.Target("apple/m1-gpu")\n', encoding="utf-8")
    code, out, _ = cli("migrate", "--py", "--to", "tvm-0.25", str(script))
    assert code == 0
    assert '-a = tvm.target.Target("nvidia/jetson-nano")' not in out  # the same in 0.21 and 0.25
    assert '-b = tvm.target.Target("apple/m1-gpu")' in out  # 0.21's apple/m1-gpu meant apple-m4
    assert '"mcpu": "apple-m4"' in out


@pytest.mark.parametrize("release", ["tvm-0.25", "tvm-0.27", "tirx-0.1"])
def test_logs_normalize_to_a_release_writes_one_dict_per_target(tmp_path: Path,
                                                                release: str) -> None:
    log = TESTS / "data" / "tophub" / "cuda_v0.10.log"
    out = tmp_path / "out.log"
    code, _, err = cli("logs", "normalize", str(log), "-o", str(out), "--to", release)
    assert code == 0, err
    before = log.read_text("utf-8").splitlines()
    after = out.read_text("utf-8").splitlines()
    assert len(before) == len(after)
    targets: dict[str, dict[str, object]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for old, new in zip(before, after):
            old_record, new_record = json.loads(old), json.loads(new)
            text, config = old_record["input"][0], new_record["input"][0]
            assert old_record["input"][1:] == new_record["input"][1:]
            assert {k: v for k, v in old_record.items() if k != "input"} == \
                {k: v for k, v in new_record.items() if k != "input"}
            assert targets.setdefault(text, config) == config  # one dict per target
            assert config == tl.migrate(text, source_dialect="tvm-0.21", target_dialect=release)
            tl.from_json(config, dialect=release)  # that release accepts it
