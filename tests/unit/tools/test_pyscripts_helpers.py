"""migrate --py and the target helpers TVM 0.24 removed (tvm.target.cuda(), arm_cpu("rasp3b"), ...)."""

from __future__ import annotations

import ast
import json
import warnings

import pytest

import targetlang as tl
from targetlang import presets
from targetlang.pyscripts import Finding, migrate_source

SCRIPT = '''import tvm
from tvm import target as T
a = tvm.target.cuda()
b = tvm.target.arm_cpu("rasp3b")
c = T.mali()
d = tvm.target.hexagon("v68")
e = tvm.target.cuda(model, arch="sm_80")
f = tvm.target.create("llvm -mcpu=skylake")
g = tvm.target.Target("llvm")
'''
CALLS = {3: ("cuda", (), {}), 4: ("arm_cpu", ("rasp3b",), {}), 5: ("mali", (), {}),
         6: ("hexagon", ("v68",), {})}


def needing(findings: list[Finding]) -> list[Finding]:
    """The reports of a test's subject: a rewritten cuda target's moved meaning (TL7xx,
    tests/unit/upgrade/test_moved_meaning.py) left out."""
    return [f for f in findings if not f.code.startswith("TL7")]


@pytest.mark.parametrize("release", ["tvm-0.24", "tvm-0.25", "tvm-0.27"])
def test_literal_helper_calls_become_what_the_helper_returned_in_0_21(release: str) -> None:
    result = migrate_source(SCRIPT, target_dialect=release)
    lines = result.text.splitlines()
    compile(result.text, "<s>", "exec")
    assert [r.line for r in result.rewrites] == [3, 4, 5, 6, 8]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number, (helper, args, kwargs) in CALLS.items():
            call = ast.parse(lines[number - 1]).body[0].value  # type: ignore[attr-defined]
            assert ast.unparse(call.func).endswith(".Target")
            written = ast.literal_eval(call.args[0])
            made = getattr(presets, helper)(*args, **kwargs, dialect="tvm-0.21")
            assert tl.from_json(written, dialect=release) == tl.from_json(
                tl.migrate(made, target_dialect=release), dialect=release)
    # every other line is byte-identical
    for number, (old, new) in enumerate(zip(SCRIPT.splitlines(), lines), start=1):
        if number not in (3, 4, 5, 6, 8):
            assert old == new
    assert [(f.line, f.column) for f in needing(result.findings)] == [(7, 4)]
    assert "known only at run time" in needing(result.findings)[0].message


def test_helpers_are_left_alone_for_releases_that_still_have_them() -> None:
    result = migrate_source(SCRIPT, target_dialect="tvm-0.21")
    assert not any(r.line in (3, 4, 5, 6, 8) for r in result.rewrites)


def test_the_rewritten_rasp3b_is_the_0_21_target() -> None:
    result = migrate_source("import tvm\nt = tvm.target.arm_cpu('rasp3b')\n",
                            target_dialect="tvm-0.27")
    written = ast.literal_eval(result.text.split("Target(", 1)[1].rsplit(")", 1)[0])
    assert written["mtriple"] == "armv7l-linux-gnueabihf" and written["model"] == "bcm2837"
    assert json.loads(json.dumps(written)) == written


def test_attribute_reads_become_what_0_21_read_on_json_releases() -> None:
    script = ('import tvm\nt = tvm.target.Target("cuda -arch=sm_80")\n'
              'print(t.arch, t.kind, t.libs)\nprint(tvm.target.Target.current().max_num_threads)\n'
              'u = other()\nprint(u.arch)\n')
    on_024 = migrate_source(script, target_dialect="tvm-0.24")
    assert on_024.findings == []
    lines = on_024.text.splitlines()
    assert lines[2] == 'print(t.attrs.get("arch", ""), t.kind, list(t.attrs.get("libs", [])))'
    assert lines[3] == 'print(tvm.target.Target.current().attrs["max_num_threads"])'
    assert lines[5] == "print(u.arch)"  # not known to be a Target, nor named like one
    # 0.25 restored Target.__getattr__: attrs[key] reads the same; a default did not come back
    on_027 = migrate_source(script, target_dialect="tvm-0.27").text.splitlines()
    assert on_027[2] == lines[2] and on_027[3].endswith(".max_num_threads)")
    assert migrate_source(script, target_dialect="tvm-0.21").text.splitlines()[2] == \
        "print(t.arch, t.kind, t.libs)"