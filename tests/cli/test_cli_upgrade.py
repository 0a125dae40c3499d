"""``targetlang upgrade`` as a command: the walk, the three modes, exit codes,
and files kept sacred (encodings, line endings, links, unreadable and invalid files, a run
killed at any moment)."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from test_cli import SCRIPT, needs_script

from targetlang.cli import main
from targetlang.migration._sites import Rewritten, convert_value, json_text

PY = 'import tvm\nt = tvm.target.Target("llvm -mcpu=skylake")\n'
YAML = 'target: "llvm -mcpu=skylake"\n'


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err, environ={})
    return code, out.getvalue(), err.getvalue()


def new(value: str) -> str:
    answer = convert_value(value, target_dialect="tvm-0.27")
    assert isinstance(answer, Rewritten)
    return json_text(answer.json)


def project(root: Path) -> dict[str, bytes]:
    files = {
        "src/a.py": PY.encode(),
        "conf/c.yaml": YAML.encode(),
        "run.sh": b'python t.py --target "llvm -mcpu=skylake"\n',
        ".hidden/x.py": PY.encode(),
        "venv/lib/x.py": PY.encode(),
        "env2/pyvenv.cfg": b"home = /usr\n",
        "env2/y.py": PY.encode(),
        "build/z.py": PY.encode(),
        "node_modules/m/q.json": b'{"t": "llvm -mcpu=skylake"}',
        "pkg.egg-info/w.py": PY.encode(),
        "notes.txt": b"see the llvm docs\n",  # read to report: nothing legacy in it
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return files


def test_the_walk_skips_what_ruff_skips_and_diff_writes_nothing(tmp_path: Path) -> None:
    files = project(tmp_path)
    code, out, err = cli("upgrade", str(tmp_path))
    assert code == 0, err
    touched = sorted(line[len("--- a/"):] for line in out.splitlines() if line.startswith("--- a/"))
    # git apply's shape: a/ and the path without its leading slash
    assert touched == sorted(str(tmp_path / n).lstrip("/")
                             for n in ("src/a.py", "conf/c.yaml", "run.sh"))
    assert all((tmp_path / n).read_bytes() == data for n, data in files.items())
    assert "4 files scanned, 3 changed; 3 sites rewritten, 0 bridged, 0 need a person" in err
    assert "  yaml: 1 file scanned, 1 changed; 1 site rewritten" in err


def test_an_explicit_file_is_always_read(tmp_path: Path) -> None:
    project(tmp_path)
    code, out, _ = cli("upgrade", str(tmp_path / "build" / "z.py"),
                       str(tmp_path / ".hidden" / "x.py"))
    assert code == 0 and out.count("+++ b/") == 2


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_ignored_paths_are_skipped(tmp_path: Path) -> None:
    project(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("conf/\n*.sh\n")
    code, out, _ = cli("upgrade", str(tmp_path))
    assert code == 0 and out.count("+++ b/") == 1 and "src/a.py" in out


def test_write_and_check(tmp_path: Path) -> None:
    project(tmp_path)
    assert cli("upgrade", "--check", str(tmp_path))[0] == 1
    code, out, err = cli("upgrade", "--write", str(tmp_path))
    assert code == 0 and out == "" and err.count("rewrote ") == 3
    assert (tmp_path / "conf/c.yaml").read_text() == f"target: '{new('llvm -mcpu=skylake')}'\n"
    code, _, err = cli("upgrade", "--check", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / ".hidden/x.py").read_bytes() == PY.encode()


def test_write_and_check_exclude_each_other(tmp_path: Path) -> None:
    code, _, err = cli("upgrade", "--write", "--check", str(tmp_path))
    assert code == 2 and "not allowed with" in err


def test_a_place_for_a_person_is_exit_1_and_named(tmp_path: Path) -> None:
    (tmp_path / "t.sh").write_text("tvmc compile --target llvm m.onnx\n")
    code, out, err = cli("upgrade", "--write", str(tmp_path))
    assert code == 1 and out == ""
    assert f"{tmp_path / 't.sh'}:1:1: TL501 tvmc left TVM in 0.20" in err


def test_unreadable_is_exit_2_after_the_others_and_invalid_is_exit_1(tmp_path: Path) -> None:
    (tmp_path / "a_bad.ipynb").write_text('{"cells": [')
    (tmp_path / "b_bad.json").write_text("{'single': 'quotes'}")
    (tmp_path / "c_latin.yaml").write_bytes(b"t: caf\xe9\n")
    (tmp_path / "d_good.py").write_text(PY)
    (tmp_path / "e_good.toml").write_text('target = "llvm -mcpu=skylake"\n')
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    code, _, err = cli("upgrade", "--write", str(tmp_path / "missing.py"), str(tmp_path))
    assert code == 2
    assert err.splitlines()[0].startswith(f"error: {tmp_path / 'missing.py'}: No such file")
    for name in ("a_bad.ipynb", "b_bad.json", "c_latin.yaml"):
        assert (tmp_path / name).read_bytes() == before[name]
        assert f"{tmp_path / name}:" in err
    assert "{" in (tmp_path / "d_good.py").read_text()
    assert "{" in (tmp_path / "e_good.toml").read_text()
    assert "3 not valid for their type; 1 not readable or writable" in err
    del before["a_bad.ipynb"]
    code, _, _ = cli("upgrade", "--check", str(tmp_path / "b_bad.json"))
    assert code == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes anything")
def test_an_unwritable_directory_is_exit_2(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.py").write_text(PY)
    (tmp_path / "b.py").write_text(PY)
    locked.chmod(0o500)
    try:
        code, _, err = cli("upgrade", "--write", str(tmp_path))
    finally:
        locked.chmod(0o700)
    assert code == 2 and "Permission denied" in err and "{" in (tmp_path / "b.py").read_text()


@pytest.mark.parametrize(("name", "data"), [
    ("crlf.py", b'import tvm\r\nt = tvm.target.Target("llvm -mcpu=skylake")\r\n\tx = 1\r\n'[:-9]),
    ("bom.py", b'\xef\xbb\xbfimport tvm\nt = tvm.target.Target("llvm -mcpu=skylake")\n'),
    ("cookie.py", b'# -*- coding: latin-1 -*-\nimport tvm\n# caf\xe9\n'
                  b't = tvm.target.Target("llvm -mcpu=skylake")\n'),
    ("crlf.yaml", b'a: 1\t# a tab\r\ntarget: "llvm -mcpu=skylake"\r\n'),
    ("bom.toml", b'\xef\xbb\xbftarget = "llvm -mcpu=skylake"\r\n'),
    ("crlf.sh", b'TARGET="llvm -mcpu=skylake"\r\n\techo $TARGET\r\n'),
    ("bom.md", b'\xef\xbb\xbf```sh\r\nTARGET="llvm -mcpu=skylake"\r\n```\r\n'),
])
def test_encodings_and_line_endings_are_kept(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    code, _, err = cli("upgrade", "--write", str(path))
    assert code == 0, err
    written = path.read_bytes()
    old_value = b'"llvm -mcpu=skylake"' if b'"llvm' in data else b"'llvm -mcpu=skylake'"
    assert written.count(b"\r\n") == data.count(b"\r\n")
    assert written.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    assert written.count(b"\t") == data.count(b"\t")
    head, _, tail = data.partition(old_value)
    assert written.startswith(head) and written.endswith(tail) and written != data
    if name == "cookie.py":
        assert b"caf\xe9" in written


def test_links_are_treated_as_the_atomic_writer_treats_them(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text(YAML)
    real.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    hard = tmp_path / "hard.yaml"
    os.link(real, hard)
    code, _, err = cli("upgrade", "--write", str(link))
    assert code == 0, err
    assert link.is_symlink() and new("llvm -mcpu=skylake") in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert hard.read_text() == YAML  # like sed -i: the other name keeps the old content
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_link_met_in_the_walk_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.py").write_text(PY)
    (tmp_path / "loop").symlink_to("real")
    (tmp_path / "b.py").symlink_to("real/a.py")
    code, out, _ = cli("upgrade", str(tmp_path))
    assert code == 0 and out.count("+++ b/") == 1


@needs_script
def test_a_run_killed_at_any_moment_leaves_each_file_old_or_new(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    kinds = {"py": PY, "yaml": YAML, "sh": 'TARGET="llvm -mcpu=skylake"\n',
             "json": '{"target": "llvm -mcpu=skylake"}\n'}
    for number in range(40):
        for ending, text in kinds.items():
            (tree / f"f{number}.{ending}").write_text(text)
    old = {p.name: p.read_bytes() for p in tree.iterdir()}
    copy = tmp_path / "copy"
    shutil.copytree(tree, copy)
    assert cli("upgrade", "--write", str(copy))[0] == 0
    new_bytes = {p.name: p.read_bytes() for p in copy.iterdir()}
    for delay in (0.3, 0.6, 0.9, 1.2, 1.6):
        proc = subprocess.Popen([str(SCRIPT), "upgrade", "--write", str(tree)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        for path in tree.iterdir():
            if path.name.endswith(".tmp"):
                continue  # a killed run's temporary file: removed by the next write
            assert path.read_bytes() in (old[path.name], new_bytes[path.name]), path.name
    subprocess.run([str(SCRIPT), "upgrade", "--write", str(tree)], capture_output=True,
                   check=False, timeout=120)
    assert {p.name: p.read_bytes() for p in tree.iterdir()} == new_bytes


def test_notebook_json_bytes_outside_the_source_string_are_kept(tmp_path: Path) -> None:
    text = ('{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 1,\n'
            '   "metadata": {"z": 1, "a": 2},\n   "outputs": [{"text": "llvm -mcpu=skylake"}],\n'
            '   "source": ["import tvm\\n", "tvm.target.Target(\\"llvm -mcpu=skylake\\")"]\n'
            '  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 4\n}')
    path = tmp_path / "n.ipynb"
    path.write_text(text)
    assert cli("upgrade", "--write", str(path))[0] == 0
    written = path.read_text()
    start, end = text.index('"tvm.target'), text.index(']\n  }')
    assert written.startswith(text[:start]) and written.endswith(text[end:])
    line = json.loads(written)["cells"][0]["source"][1]
    assert written[start:len(written) - len(text) + end] == json.dumps(line)
    assert line == f"tvm.target.Target({line[len('tvm.target.Target('):-1]})" and "{" in line


def test_migrate_py_walks_a_directory_for_its_python_files(tmp_path: Path) -> None:
    project(tmp_path)
    code, out, err = cli("migrate", "--py", str(tmp_path))
    assert code == 0 and out.count("+++ b/") == 1 and "src/a.py" in out
    assert "1 file scanned" in err  # migrate --py is upgrade restricted to Python
    code, _, err = cli("migrate", "--py", "--write", str(tmp_path / "run.sh"))
    assert code == 1 and "not Python" in err  # a file named explicitly is read as Python


def test_no_path_is_a_usage_error() -> None:
    code, _, err = cli("upgrade")
    assert code == 2 and "targetlang upgrade PATH" in err


def test_the_pre_commit_hook_runs_check_on_every_supported_file_type() -> None:
    yaml = pytest.importorskip("yaml")
    from conftest import REPO

    from targetlang.migration.upgrade import FILE_TYPES

    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "targetlang-upgrade" and hook["language"] == "python"
    assert hook["entry"].split() == ["targetlang", "upgrade", "--check"]
    identify = pytest.importorskip("identify.identify")  # pre-commit's own file tagger
    for ending in FILE_TYPES:  # pre-commit passes each file whose tags meet types_or
        assert identify.tags_from_filename(f"x{ending}") & set(hook["types_or"]), ending
