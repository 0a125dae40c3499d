"""targetlang.compat for a program that runs on TVM TIRx (``tvm_tirx``), without TIRx.

TIRx aborts the process when ``tvm`` is imported beside it, so the bridge serves the package
the program imported and never imports the other: stand-in packages on the path (that say
when they are imported) check which one it takes. What compat hands TIRx is ``tirx-0.1``'s
dict of TVM 0.21's meaning; the live TIRx oracle checks the real thing
(tests/golden/test_compat_check.py). Also: text TVM 0.21 refused that an older release read
is read there, with a warning naming each option renamed, moved or dropped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

import targetlang as tl
from targetlang import compat


class FakeTarget:
    def __init__(self, target: Any, host: Any = None) -> None:
        self.target = target
        self.host = host


def fake_tirx(monkeypatch: pytest.MonkeyPatch, version: str = "0.1.0a4") -> types.ModuleType:
    tirx = types.ModuleType("tvm_tirx")
    target = types.ModuleType("tvm_tirx.target")
    target.Target = FakeTarget  # type: ignore[attr-defined]
    tirx.target = target  # type: ignore[attr-defined]
    tirx.__version__ = version  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tvm_tirx", tirx)
    monkeypatch.setitem(sys.modules, "tvm_tirx.target", target)
    monkeypatch.delitem(sys.modules, "tvm", raising=False)
    return tirx


def test_a_program_on_tirx_gets_a_tirx_target_of_tvm_0_21s_meaning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_tirx(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tl.MeaningWarning)
        made = compat.Target("cuda -arch=sm_80 -max_num_threads=512")
        nano = compat.Target("nvidia/jetson-nano")
        migrated = tl.migrate("cuda -arch=sm_80 -max_num_threads=512", target_dialect="tirx-0.1")
    assert isinstance(made, FakeTarget)
    assert made.target == {"kind": "cuda", "arch": "sm_80", "max_num_threads": 512}
    assert tl.from_json(made.target, dialect="tirx-0.1") == tl.from_json(migrated,
                                                                          dialect="tirx-0.1")
    assert tl.from_json(nano.target, dialect="tirx-0.1").attrs["arch"] == "sm_53"
    assert "tvm" not in sys.modules


@pytest.mark.parametrize(("version", "dialect"), [
    ("0.1.0a4", "tirx-0.1"), ("0.1.0", "tirx-0.1"), ("0.9.0", "tirx-0.1"), ("dev", "tirx-0.1")])
def test_tirx_releases_are_read_from_its_version(version: str, dialect: str) -> None:
    tirx = types.SimpleNamespace(__name__="tvm_tirx", __version__=version)
    assert compat._dialect_of(tirx) == dialect


def test_tirx_gets_what_it_reads_without_a_gpu_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cuda target without arch: TVM 0.21 compiled for sm_50 without a GPU, TIRx does not
    compile at all; the dict leaves it to TIRx (a GPU's arch), and a warning says so."""
    fake_tirx(monkeypatch)
    compat._text_config.cache_clear()
    with pytest.warns(tl.MeaningWarning) as caught:
        made = compat.Target("cuda -model=a100")
    assert made.target == {"kind": "cuda", "model": "a100"}
    said = [str(w.message) for w in caught]
    assert any(m.startswith("TM103 cuda: ") and '"arch": "sm_50"' in m for m in said), said
    assert any(m.startswith("TM101 cuda: ") for m in said) and any(
        m.startswith("TM102 cuda: ") and "backend_config" in m for m in said)
    assert caught[0].filename == __file__  # at the program's line


@pytest.mark.parametrize(("text", "named", "config"), [
    ("llvm --system-lib", ["TM201 -system-lib=1"], {"kind": "llvm"}),
    ("llvm -system-lib", ["TM201 -system-lib=1"], {"kind": "llvm"}),
    ("llvm -target=aarch64-linux-gnu", ["TM301 -target"],
     {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}),
    ("llvm -link-params=1", ["TM202 -link-params=1"], {"kind": "llvm"}),
    ("c -runtime=c", ["TM203 -runtime=c"], {"kind": "c"}),
    ("c -executor=aot", ["TM204 -executor=aot"], {"kind": "c"}),
    ("c -executor=aot -interface-api=c -unpacked-api=1",
     ["TM204 -executor=aot", "TM205 -interface-api=c", "TM206 -unpacked-api=1"], {"kind": "c"}),
    ("llvm -runtime=c++ -system-lib", ["-runtime=c++", "TM201 -system-lib=1"], {"kind": "llvm"}),
])
@pytest.mark.parametrize("package", ["tvm", "tvm_tirx"])
def test_text_tvm_0_21_refused_is_read_as_an_older_release_read_it_and_said(
        monkeypatch: pytest.MonkeyPatch, package: str, text: str, named: list[str],
        config: dict[str, Any]) -> None:
    if package == "tvm":
        tvm, target = types.ModuleType("tvm"), types.ModuleType("tvm.target")
        target.Target = FakeTarget  # type: ignore[attr-defined]
        tvm.target = target  # type: ignore[attr-defined]
        tvm.__version__ = "0.27.0"  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "tvm", tvm)
        monkeypatch.setitem(sys.modules, "tvm.target", target)
    else:
        fake_tirx(monkeypatch)
    with pytest.raises(tl.TargetError):
        tl.parse(text)  # TVM 0.21 refused it
    compat._text_config.cache_clear()
    with pytest.warns(tl.MigrationWarning) as caught:
        made = compat.Target(text)
    assert made.target == config
    said = [str(w.message) for w in caught if issubclass(w.category, tl.MigrationWarning)]
    for name in named:
        assert sum(name in message for message in said) == 1, (name, said)
    assert all(w.filename == __file__ for w in caught)


@pytest.mark.parametrize("text", ["nonsense -x=1", "llvm -executor=aot", "llvm -no-such=1",
                                  "cuda -arch=compute_80", ""])
def test_text_no_release_read_raises_value_error(monkeypatch: pytest.MonkeyPatch,
                                                 text: str) -> None:
    fake_tirx(monkeypatch)
    with pytest.raises(ValueError):
        compat.Target(text)


def _packages(tmp_path: Path, **packages: str) -> dict[str, str]:
    """Stand-in ``tvm``/``tvm_tirx`` packages on a path: each prints when imported, and TIRx
    aborts (as the real one does) when ``tvm`` is in the process."""
    for name, version in packages.items():
        (tmp_path / name / "target").mkdir(parents=True)
        guard = ("import sys\nif 'tvm' in sys.modules and 'tvm_tirx' in sys.modules:\n"
                 "    print('ABORT: tvm and tvm_tirx in one process'); sys.exit(99)\n")
        (tmp_path / name / "__init__.py").write_text(
            f"print('imported {name}')\n__version__ = {version!r}\n{guard}", "utf-8")
        (tmp_path / name / "target" / "__init__.py").write_text(
            "class Target:\n    def __init__(self, target, host=None):\n"
            "        self.config = target\n", "utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}


def _run(code: str, env: dict[str, str]) -> list[str]:
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                          text=True, check=False, cwd=REPO, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_the_bridge_serves_the_package_the_program_imported_and_never_the_other(
        tmp_path: Path) -> None:
    env = _packages(tmp_path, tvm="0.27.0", tvm_tirx="0.1.0a4")
    call = ("import json, sys, targetlang.compat as c\n"
            "t = c.Target('cuda -arch=sm_80')\n"
            "print(type(t).__module__, json.dumps(t.config), 'tvm' in sys.modules, "
            "'tvm_tirx' in sys.modules)\n")
    assert _run("import tvm_tirx\n" + call, env) == [
        "imported tvm_tirx", 'tvm_tirx.target {"kind": "cuda", "arch": "sm_80"} False True']
    assert _run("import tvm\n" + call, env) == [
        "imported tvm", 'tvm.target {"kind": "cuda", "arch": "sm_80"} True False']
    # neither imported: TVM, where it is installed
    assert _run(call, env)[-1].startswith("tvm.target ")


def test_a_program_with_only_tirx_installed_gets_tirx(tmp_path: Path) -> None:
    env = _packages(tmp_path, tvm_tirx="0.1.0a4")
    out = _run("import json, targetlang.compat as c\nt = c.cuda('a100', arch='sm_80')\n"
               "print(type(t).__module__, json.dumps(t.config))\n", env)
    assert out[0] == "imported tvm_tirx"
    assert out[1].startswith("tvm_tirx.target ")
    assert json.loads(out[1].split(" ", 1)[1]) == {"kind": "cuda", "arch": "sm_80",
                                                   "model": "a100"}
