"""The Python engine of `targetlang upgrade`: import forms, names, argparse, pytest, properties,
--runtime, edits, minimal and full output."""

from __future__ import annotations

import ast
import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang._lower.dialects import releases
from targetlang.configuration import presets
from targetlang.migration._sites import Rewritten, convert_value
from targetlang.migration.pyscripts import NEWEST_RELEASE, Finding, apply_edits, migrate_source

LEGACY = "llvm -mcpu=skylake-avx512 -num-cores=4"


def needing(findings: list[Finding]) -> list[Finding]:
    """The reports of a test's subject: a rewritten cuda target's moved meaning (TL7xx,
    tests/unit/upgrade/test_moved_meaning.py) left out."""
    return [f for f in findings if not f.code.startswith("TL7")]


def migrated(value: str, full: bool = False) -> dict[str, object]:
    answer = convert_value(value, target_dialect=NEWEST_RELEASE, full=full)
    assert isinstance(answer, Rewritten)
    return answer.json


def check(result_text: str, original: str, edits: list[tuple[int, int, str]]) -> None:
    assert apply_edits(original, edits) == result_text
    assert edits == sorted(edits)
    assert all(a[1] <= b[0] for a, b in zip(edits, edits[1:]))
    compile(result_text, "<s>", "exec")


def test_the_default_release_is_the_newest_registered() -> None:
    assert NEWEST_RELEASE == releases()[0]
    source = f'import tvm\nt = tvm.target.Target("{LEGACY}")\n'
    assert migrate_source(source).text == migrate_source(
        source, target_dialect=releases()[0]).text


# ---- import forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("imports, call", [
    ("from tvm.target import cuda", "cuda()"),
    ("from tvm.target import cuda as gpu", "gpu()"),
    ("import tvm.target as tt", "tt.cuda()"),
    ("from tvm import target as _target", "_target.cuda()"),
    ("import tvm", "tvm.target.cuda()"),
    ("from tvm.target import target as T", "T.cuda()"),
])
def test_every_import_form_of_a_helper_is_rewritten(imports: str, call: str) -> None:
    source = f"{imports}\nt = {call}\n"
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == []
    assert [r.old for r in result.rewrites if r.old == call] == [call]
    new = next(r.new for r in result.rewrites if r.old == call)
    written = ast.literal_eval(new[new.index("(") + 1:-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = tl.migrate(presets.cuda(dialect="tvm-0.21"), target_dialect=NEWEST_RELEASE)
    assert tl.from_json(written, dialect=NEWEST_RELEASE) == tl.from_json(
        expected, dialect=NEWEST_RELEASE)
    assert "cuda" not in result.text.split("\n")[0].replace("cuda as gpu", "")


def test_a_bare_helper_whose_import_goes_away_still_has_a_target() -> None:
    source = "from tvm.target import cuda, arm_cpu as board\na = cuda()\nb = board('rasp3b')\n"
    result = migrate_source(source)
    check(result.text, source, result.edits)
    first = result.text.splitlines()[0]
    assert first == "import tvm"  # the helpers are gone from tvm.target: the import too
    assert "tvm.target.Target({" in result.text


def test_a_helper_import_kept_when_a_call_needs_a_person() -> None:
    source = "from tvm.target import Target, cuda\na = cuda()\nb = cuda(model)\n"
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert result.text.splitlines()[0] == "from tvm.target import Target, cuda"
    assert "a = Target({" in result.text
    assert [f.line for f in needing(result.findings)] == [1, 3]
    assert "known only at run time" in needing(result.findings)[1].message


def test_relative_imports_inside_tvm_are_followed() -> None:
    source = ("from ..target import Target\nfrom .. import target as _t\n"
              f"a = Target('{LEGACY}')\nb = _t.cuda()\n")
    result = migrate_source(source, path="python/tvm/relax/x.py")
    check(result.text, source, result.edits)
    assert len(result.rewrites) == 2
    # outside a tvm tree a relative import is someone else's module
    assert migrate_source(source, path="mypkg/x.py").rewrites == []


def test_tvm_target_target_target_and_keywords_of_helpers() -> None:
    source = ("import tvm\na = tvm.target.target.Target('" + LEGACY + "')\n"
              "b = tvm.target.hexagon('v68', hvx=64, link_params=True)\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert len(result.rewrites) == 2 and needing(result.findings) == []
    new = result.rewrites[1].new
    written = ast.literal_eval(new[new.index("(") + 1:-1])
    assert "+hvx-length64b" in written["mattr"]  # link_params: ignored by TVM 0.21, too


# ---- names -------------------------------------------------------------------------------------

def test_a_literal_bound_to_a_name_becomes_json_text_where_it_is_written() -> None:
    source = (f'import tvm\nTARGET = "{LEGACY}"\n\ndef build(mod):\n'
              '    t = TARGET\n    return tvm.compile(mod, target=t)\n')
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == []
    (rewrite,) = result.rewrites
    assert rewrite.line == 2
    assert json.loads(ast.literal_eval(rewrite.new)) == migrated(LEGACY)


def test_a_literal_in_the_target_position_becomes_a_dict_display() -> None:
    source = f'import tvm\nt = tvm.target.Target("{LEGACY}")\n'
    (rewrite,) = migrate_source(source).rewrites
    assert ast.literal_eval(rewrite.new) == migrated(LEGACY)
    assert rewrite.new.startswith("{")


def test_a_target_passed_on_is_not_reported() -> None:
    source = ("import tvm\nfrom tvm.target import Target\n"
              "def f(mod, t: Target, u: 'tvm.target.Target'):\n"
              "    a = tvm.target.Target('llvm')\n    with a:\n        pass\n"
              "    b = tvm.target.Target(a)\n    tvm.compile(mod, target=b)\n"
              "    tvm.compile(mod, target=t)\n    tvm.compile(mod, target=u)\n"
              "    c = Target.current()\n    tvm.compile(mod, c)\n")
    assert needing(migrate_source(source).findings) == []


def test_names_of_unknown_value_are_reported_with_why() -> None:
    source = ("import tvm\ndef f(mod, target, flag):\n"
              "    tvm.compile(mod, target=target)\n"
              "    x = 'llvm'\n    if flag:\n        x = g()\n"
              "    tvm.compile(mod, target=x)\n")
    findings = needing(migrate_source(source).findings)
    assert [f.line for f in findings] == [3, 7]
    assert "the parameter 'target' of f" in findings[0].message
    assert "the variable 'x'" in findings[1].message


def test_the_last_binding_that_dominates_the_use_is_followed() -> None:
    source = ("import tvm\ndef f(mod, target):\n    target = tvm.target.Target(target)\n"
              "    return tvm.compile(mod, target=target)\n")
    findings = needing(migrate_source(source).findings)
    assert [f.line for f in findings] == [3]  # the parameter; the Target made of it is fine


def test_a_private_function_called_with_literals_is_followed() -> None:
    source = ("import tvm\ndef _check(mod, target):\n    tvm.compile(mod, target=target)\n"
              f"_check(None, '{LEGACY}')\n_check(None, 'cuda')\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == []
    assert [r.line for r in result.rewrites] == [4]


def test_a_function_returning_a_target_is_followed() -> None:
    source = ("import tvm\ndef make():\n    return tvm.target.Target('llvm')\n"
              "tvm.compile(None, target=make())\n"
              f"def legacy():\n    return '{LEGACY}'\ntvm.compile(None, target=legacy())\n")
    result = migrate_source(source)
    assert needing(result.findings) == []
    assert [r.line for r in result.rewrites] == [6]


def test_items_of_a_list_or_dict_that_flow_into_a_target() -> None:
    source = (f"import tvm\nTARGETS = ['{LEGACY}', 'cuda -arch=sm_80']\n"
              "for t in TARGETS:\n    tvm.compile(None, target=t)\n"
              "BY_NAME = {'x86': 'llvm -mcpu=core-avx2'}\n"
              "tvm.compile(None, target=BY_NAME['x86'])\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == []
    assert sorted(r.line for r in result.rewrites) == [2, 2, 5]


def test_a_legacy_string_of_unknown_use_is_reported_not_rewritten() -> None:
    source = (f"import tvm\nt = tvm.target.Target('llvm')\nassert str(t) == '{LEGACY}'\n"
              f"print('use {LEGACY}')\n")
    result = migrate_source(source)
    assert result.text == source
    # the message is no target string; line 3 holds a legacy string and compares a Target's
    # text, which is JSON since TVM 0.24
    assert sorted((f.line, f.code) for f in needing(result.findings)) == [
        (3, "TL506"), (3, "TL601")]
    assert "not known to be a target" in next(
        f.message for f in result.findings if f.code == "TL601")


# ---- argparse and pytest -----------------------------------------------------------------------

def test_argparse_default_and_choices_flowing_into_a_target() -> None:
    source = ("import argparse\nimport tvm\np = argparse.ArgumentParser()\n"
              f"p.add_argument('--target', default='{LEGACY}', choices=['{LEGACY}', 'cuda'])\n"
              "p.add_argument('--target-host', dest='host_target', default='llvm -mcpu=x')\n"
              "args = p.parse_args()\nt = tvm.target.Target(args.target)\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert [r.line for r in result.rewrites] == [4, 4]
    assert all(json.loads(ast.literal_eval(r.new)) == migrated(LEGACY) for r in result.rewrites)
    unknown_use, command_line = needing(result.findings)
    assert command_line.line == 7 and "--target" in command_line.message  # run time decides
    # an option whose value reaches no target: its default is a string of unknown use
    assert unknown_use.line == 5 and "llvm -mcpu=x" in result.text


def test_argparse_target_option_without_a_visible_use() -> None:
    source = f"import argparse\np = argparse.ArgumentParser()\np.add_argument('--target', default='{LEGACY}')\n"
    result = migrate_source(source)  # no tvm here: a script handing its option to TVM later
    assert result.rewrites == []
    assert [f.line for f in needing(result.findings)] == [3]


def test_pytest_parameters() -> None:
    source = ("import pytest\nimport tvm\nimport tvm.testing\n"
              f"@pytest.mark.parametrize('target', ['{LEGACY}', 'cuda'])\n"
              "def test_a(target):\n    tvm.compile(None, target=target)\n"
              f"@pytest.mark.parametrize('n, tgt', [(1, '{LEGACY}'), pytest.param(2, 'llvm')])\n"
              "def test_b(n, tgt):\n    tvm.compile(None, target=tgt)\n"
              f"@tvm.testing.parametrize_targets('{LEGACY}')\n"
              "def test_c(target):\n    tvm.compile(None, target=target)\n"
              f"dtype, tt = tvm.testing.parameters(('int8', '{LEGACY}'), ('int16', 'llvm'))\n"
              "def test_d(dtype, tt):\n    tvm.compile(None, target=tt)\n"
              "def test_e(target):\n    tvm.compile(None, target=target)\n")
    result = migrate_source(source, path="tests/test_x.py")
    check(result.text, source, result.edits)
    assert [r.line for r in result.rewrites] == [4, 7, 10, 13]
    # test_e's target is the fixture tvm.testing sets from the environment: run time
    assert [f.line for f in needing(result.findings)] == [17]


# ---- --runtime ---------------------------------------------------------------------------------

RUNTIME = '''#!/usr/bin/env python
# -*- coding: latin-1 -*-
"""A script."""
from __future__ import annotations
import tvm
from tvm.target import Target, cuda

def f(mod, attrs, m):
    a = Target(f"llvm {attrs}")
    b = tvm.compile(mod, target="llvm -device=arm_cpu" + " -mattr=" + m)
    c = cuda(m)
    d = tvm.target.rocm(m)
    e = tvm.target.Target(attrs, host="llvm")
    return a, b, c, d, e
'''


def test_runtime_bridges_what_only_run_time_knows() -> None:
    result = migrate_source(RUNTIME, runtime=True)
    check(result.text, RUNTIME, result.edits)
    assert needing(result.findings) == []
    lines = result.text.splitlines()
    # the import goes after the docstring, __future__ and the imports already there
    assert lines[:7] == ["#!/usr/bin/env python", "# -*- coding: latin-1 -*-", '"""A script."""',
                         "from __future__ import annotations", "import tvm",
                         "from tvm.target import Target; from targetlang.compat import cuda",
                         "import targetlang.compat"]
    assert result.text.count("import targetlang.compat") == 1
    assert "from tvm.target import Target; from targetlang.compat import cuda" in lines
    assert '    a = targetlang.compat.Target(f"llvm {attrs}")' in lines
    assert ('    b = tvm.compile(mod, target=targetlang.compat.Target("llvm -device=arm_cpu" + '
            '" -mattr=" + m))') in lines
    assert "    c = cuda(m)" in lines and "    d = targetlang.compat.rocm(m)" in lines
    assert '    e = targetlang.compat.Target(attrs, host="llvm")' in lines
    assert {r.kind for r in result.rewrites} == {"bridged"}
    without = migrate_source(RUNTIME)
    assert without.rewrites == [] or all(r.kind == "rewritten" for r in without.rewrites)
    assert len(needing(without.findings)) == 6  # the five calls and the helper's import


def test_runtime_import_goes_after_the_imports_already_there() -> None:
    source = "# -*- coding: utf-8 -*-\nimport tvm\nt = tvm.target.Target(x)"
    result = migrate_source(source, runtime=True)
    check(result.text, source, result.edits)
    assert result.text.splitlines()[:3] == ["# -*- coding: utf-8 -*-", "import tvm",
                                            "import targetlang.compat"]


def test_runtime_does_not_wrap_a_value_that_may_be_none() -> None:
    source = "import tvm\ndef f(mod, target=None):\n    return tvm.compile(mod, target=target)\n"
    result = migrate_source(source, runtime=True)
    assert result.text == source and len(needing(result.findings)) == 1
    assert "None" in needing(result.findings)[0].message


# ---- minimal and full --------------------------------------------------------------------------

@pytest.mark.parametrize("full", [False, True])
def test_minimal_unless_full(full: bool) -> None:
    source = f"import tvm\nt = tvm.target.Target('{LEGACY}')\nTARGET = '{LEGACY}'\n" \
             "tvm.compile(None, target=TARGET)\n"
    result = migrate_source(source, full=full)
    direct, named = result.rewrites
    assert ast.literal_eval(direct.new) == migrated(LEGACY, full)
    assert json.loads(ast.literal_eval(named.new)) == migrated(LEGACY, full)


# ---- the whole: edits give the text, the text compiles ----------------------------------------

PIECES = [
    f"t{{n}} = tvm.target.Target('{LEGACY}')\n",
    "t{n} = tvm.target.Target('cuda -arch=sm_80', host='llvm -mtriple=aarch64-linux-gnu')\n",
    f"T{{n}} = '{LEGACY}'\ntvm.compile(None, target=T{{n}})\n",
    "c{n} = cuda()\n",
    "c{n} = tvm.target.arm_cpu('rasp3b')\n",
    "c{n} = tvm.target.cuda(model{n})\n",
    "def f{n}(target):\n    return tvm.compile(None, target=target)\n",
    "x{n} = tvm.target.Target(f'llvm -mcpu={{cpu}}').mcpu\n",
    "print(tvm.target.Target('cuda').arch)\n",
    "s{n} = 'llvm -mattr=+neon'  # a comment\n",
    "if True:\n    u{n} = tvm.target.Target('llvm -mcpu=core-avx2')\n",
]
HEADS = ["", '"""Doc."""\n', "from __future__ import annotations\n", "# c\n",
         "# -*- coding: utf-8 -*-\n\"\"\"D.\"\"\"; import os\n"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(HEADS), st.lists(st.sampled_from(PIECES), max_size=8),
       st.booleans(), st.booleans(), st.sampled_from(["\n", "\r\n"]))
def test_edits_applied_to_the_original_give_the_text_which_compiles(
        head: str, pieces: list[str], runtime: bool, full: bool, newline: str) -> None:
    body = "".join(p.format(n=i) for i, p in enumerate(pieces))
    source = (head + "import tvm\nfrom tvm.target import cuda\n" + body).replace("\n", newline)
    result = migrate_source(source, runtime=runtime, full=full)
    check(result.text, source, result.edits)
    assert result.original == source
    if newline == "\r\n":  # a line added keeps the file's line ending
        assert result.text.count("\n") == result.text.count("\r\n")
    if "__future__" in head:
        compile(result.text, "<s>", "exec")  # __future__ still first: compile() would refuse


def test_a_property_of_a_rewritten_helper_call_keeps_both_rewrites() -> None:
    source = "import tvm\nassert tvm.target.mali().device_name == 'mali'\n"
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == [] and len(result.edits) == 1
    assert result.text.startswith("import tvm\nassert tvm.target.Target({")
    assert result.text.endswith(').attrs.get("device", "") == \'mali\'\n')


def test_an_import_left_with_no_name_goes_with_its_line() -> None:
    source = "import tvm\nfrom tvm.target import cuda\nt = cuda()\n"
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert result.text.startswith("import tvm\nt = tvm.target.Target({")
    kept = "import tvm\nif x:\n    from tvm.target import cuda  # why\n    t = cuda()\n"
    result = migrate_source(kept)
    check(result.text, kept, result.edits)
    assert "    pass  # why\n" in result.text


def test_tuple_assignments_and_nested_functions_of_one_name() -> None:
    source = (f"import tvm\ntarget, dev = '{LEGACY}', tvm.cpu()\ntvm.compile(None, target=target)\n"
              "def test_a():\n    def verify(target='llvm'):\n        tvm.compile(None, target=target)\n"
              "    verify()\n"
              "def test_b():\n    def verify(target):\n        tvm.compile(None, target=target)\n"
              f"    verify('{LEGACY}')\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert needing(result.findings) == []
    assert [r.line for r in result.rewrites] == [2, 11]


def test_a_name_bound_in_branches_is_known_when_every_binding_is() -> None:
    source = ("import tvm\ndef f(mod, gpu):\n    if gpu:\n        t = tvm.target.Target('cuda')\n"
              f"    else:\n        t = '{LEGACY}'\n    return tvm.compile(mod, target=t)\n"
              "def g(mod, gpu, other):\n    t = 'llvm'\n    if gpu:\n        t = other\n"
              "    return tvm.compile(mod, target=t)\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert [r.line for r in result.rewrites] == [6]
    assert [f.line for f in needing(result.findings)] == [12]


def test_an_option_typed_target_and_the_text_of_an_f_string() -> None:
    source = ("import argparse\nfrom tvm.target import Target\np = argparse.ArgumentParser()\n"
              f"p.add_argument('--base', type=Target, default='{LEGACY}')\n"
              "m = '+neon'\nt = f'llvm -mtriple=aarch64-linux-gnu -mattr={m}'\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert [r.line for r in result.rewrites] == [4]
    assert json.loads(ast.literal_eval(result.rewrites[0].new)) == migrated(LEGACY)
    assert [(f.line, "read by Target at run time" in f.message) for f in needing(result.findings)] == [
        (4, True), (6, False)]
    assert needing(result.findings)[1].code == "TL605"  # a template of unknown use
    bridged = migrate_source(source, runtime=True)
    check(bridged.text, source, bridged.edits)
    assert "type=targetlang.compat.Target" in bridged.text
    assert [f.code for f in needing(bridged.findings)] == ["TL605"]


def test_a_name_unpacked_in_a_loop_says_where_it_comes_from() -> None:
    source = ("import tvm\nimport tvm.testing\nfor target, dev in tvm.testing.enabled_targets():\n"
              "    tvm.compile(None, target=target)\n")
    (finding,) = needing(migrate_source(source).findings)
    assert "unpacked from an item of tvm.testing.enabled_targets()" in finding.message


def test_a_parameter_default_reaching_a_target_becomes_json_text() -> None:
    source = (f"import tvm\ndef bench(mod, target='{LEGACY}'):\n"
              "    return tvm.compile(mod, target=tvm.target.Target(target))\n")
    result = migrate_source(source)
    check(result.text, source, result.edits)
    assert [r.line for r in result.rewrites] == [2]
    assert json.loads(ast.literal_eval(result.rewrites[0].new)) == migrated(LEGACY)
    (finding,) = needing(result.findings)  # what the callers pass is still theirs to decide
    assert "its callers decide" in finding.message
