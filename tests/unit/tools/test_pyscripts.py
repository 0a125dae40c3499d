"""migrate --py: legacy target literals of Python scripts to dict literals."""

from __future__ import annotations

import ast
import io
import os
from pathlib import Path

from conftest import REPO

import targetlang as tl
from targetlang.cli import main
from targetlang.migration.pyscripts import migrate_file, migrate_source, py_literal

SCRIPT = '''\
# -*- coding: utf-8 -*-
import tvm
from tvm import relax, relay
from tvm.target import Target as T

target = tvm.target.Target("cuda -arch=sm_80", host="llvm -mtriple=aarch64-linux-gnu")  # keep
lib = tvm.compile(mod, target="llvm -device=arm_cpu -target=aarch64-linux-gnu")
ex = relax.build(mod, "llvm -mcpu=skylake-avx512 -num-cores=4", params=None)
old = relay.build(mod, target="cuda -model=v100", target_host="llvm")
f = tvm.build(s, [A, B], "opencl -device=mali", "llvm -mtriple=aarch64-linux-gnu")
plain = T("llvm")            # TVM 0.27 reads a bare kind name: unchanged
tagged = T("nvidia/jetson-nano")
name = f"llvm -mcpu={cpu}"
t1 = T(f"llvm -mcpu={cpu}")
t2 = T("llvm " + "-mcpu=x")
t3 = T(name)
t4 = T("llvm -system-lib")
t5 = T("cuda -arhc=sm_80")
t6 = T("llvm " "-mcpu=x")
other = Target("llvm -mcpu=x")  # not TVM's Target: not touched
'''


def test_rewrites_exactly_the_literals() -> None:
    result = migrate_source(SCRIPT, path="s.py")
    olds = [r.old for r in result.rewrites]
    assert olds == ['"cuda -arch=sm_80"', '"llvm -mtriple=aarch64-linux-gnu"',
                    '"llvm -device=arm_cpu -target=aarch64-linux-gnu"',
                    '"llvm -mcpu=skylake-avx512 -num-cores=4"', '"cuda -model=v100"',
                    '"opencl -device=mali"', '"llvm -mtriple=aarch64-linux-gnu"']
    for rewrite in result.rewrites:
        # minimal output: what TVM 0.27 reads of it is the migrated target
        assert tl.from_json(ast.literal_eval(rewrite.new), dialect="tvm-0.27").to_json() == \
            tl.from_json(tl.migrate(ast.literal_eval(rewrite.old)), dialect="tvm-0.27").to_json()
    # Every other byte is kept: putting the old literals back gives the original.
    restored = result.text
    for rewrite in result.rewrites:
        restored = restored.replace(rewrite.new, rewrite.old, 1)
    assert restored == SCRIPT
    assert "# keep" in result.text and 'T("llvm")' in result.text
    compile(result.text, "s.py", "exec")


def test_reports_what_it_cannot_prove() -> None:
    result = migrate_source(SCRIPT, path="s.py")
    # (the cuda targets rewritten on lines 6 and 9 are compiled otherwise since 0.25: TL71x)
    assert {(f.line, f.code) for f in result.findings if f.code.startswith("TL71")} == {
        (6, "TL711"), (6, "TL712"), (9, "TL711"), (9, "TL712")}
    messages = [(f.line, f.message) for f in result.findings if not f.code.startswith("TL71")]
    lines = [line for line, _ in messages]
    assert lines == [14, 15, 16, 17, 18, 19, 20]
    text = "\n".join(m for _, m in messages)
    for expected in ("an f-string", "computed string", "the variable 'name' (line 13), an f-string",
                     "has no place in a target", "not a target in any release", "concatenation",
                     "whose use here is not known"):
        assert expected in text
    assert str(next(f for f in result.findings if f.line == 14)).startswith("s.py:14:")


def test_py_literal_is_python() -> None:
    value = {"kind": "llvm", "keys": ["a'b", 'c"d'], "flag": True, "n": None, "x": 3}
    assert ast.literal_eval(py_literal(value)) == value


def test_cli_diff_and_write(tmp_path: Path) -> None:
    script = tmp_path / "tutorial.py"
    script.write_text(SCRIPT, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["migrate", "--py", str(script)], stdin=io.StringIO(), stdout=out, stderr=err)
    assert code == 1  # as upgrade: places not rewritten are reported and need a person
    assert out.getvalue().startswith(f"--- a/{str(script).lstrip('/')}")
    assert "+lib = tvm.compile" in out.getvalue()
    assert f"{script}:14:" in err.getvalue()
    assert script.read_text(encoding="utf-8") == SCRIPT
    mode = script.stat().st_mode
    code = main(["migrate", "--py", str(script), "--write"], stdin=io.StringIO(),
                stdout=io.StringIO(), stderr=err)
    assert "rewrote" in err.getvalue() and script.stat().st_mode == mode
    assert script.read_text(encoding="utf-8") == migrate_source(SCRIPT).text
    assert not migrate_file(script).rewrites  # done: nothing left to rewrite
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")
    code = main(["migrate", "--py", str(tmp_path / "broken.py")], stdin=io.StringIO(),
                stdout=io.StringIO(), stderr=err)
    assert code == 1 and "not Python" in err.getvalue()


def test_readme_example_is_what_the_command_prints(tmp_path: Path) -> None:
    page = (REPO / "docs" / "upgrade.md").read_text(encoding="utf-8")  # moved from the README
    section = page[page.index("# Python scripts"):]
    block = section[section.index("```text\n") + 8:]
    block = block[:block.index("```")]
    source = "".join(line[1:] + "\n" for line in block.splitlines()[3:]
                     if line[:1] in (" ", "-"))
    (tmp_path / "tutorial.py").write_text(source, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        main(["migrate", "--py", "-q", "tutorial.py"], stdin=io.StringIO(), stdout=out,
             stderr=err)
    finally:
        os.chdir(cwd)
    assert out.getvalue() + err.getvalue() == block
