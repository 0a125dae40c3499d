"""Meaning that moved out of the target, said by the upgrade: a TL7xx report at each site
whose target uses what changed (the notes of ``targetlang.meaning_notes``), with the line
that keeps TVM 0.21's meaning; suppressible like every code."""

from __future__ import annotations

import pytest

from targetlang.migration._upgrade.codes import CODES, moved_meaning_code
from targetlang.migration.meaning import table
from targetlang.upgrade import FileResult, Options, upgrade_text


def run(text: str, kind: str = "python", **options: object) -> FileResult:
    return upgrade_text(text, path="f", file_type=kind, options=Options(**options))  # type: ignore[arg-type]


def codes(result: FileResult) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings]


def test_each_note_has_one_code_by_a_fixed_rule() -> None:
    reported = [e["code"] for e in table() if e["code"].startswith(("TM1", "TM2"))]
    assert all(code[3] == "0" for code in reported)  # TMa0c: the rule's room
    mapped = [moved_meaning_code(code) for code in reported]
    assert len(set(mapped)) == len(mapped) and all(c in CODES for c in mapped)
    assert moved_meaning_code("TM101") == "TL711" and moved_meaning_code("TM206") == "TL726"
    assert not any(code.startswith("TL73") for code in CODES)  # a rename is the rewrite's


def test_a_rewritten_cuda_target_is_reported_with_the_line_that_keeps_its_meaning() -> None:
    text = "import tvm\nt = tvm.target.Target('cuda -arch=sm_80')\nh = tvm.target.cuda()\n"
    result = run(text)
    assert "{\"kind\": \"cuda\", \"arch\": \"sm_80\"}" in result.text
    assert codes(result) == [("TL711", 2), ("TL712", 2), ("TL711", 3), ("TL712", 3)]
    assert 'PassContext(config={"tirx.enable_fast_math": True})' in result.findings[0].message
    assert "(TM101)" in result.findings[0].message
    again = run(result.text)
    assert again.text == result.text and again.findings == []  # said once, with the rewrite


def test_only_where_the_target_uses_what_changed() -> None:
    assert run("import tvm\nt = tvm.target.Target('llvm -mcpu=skylake')\n").findings == []
    tirx = run("import tvm\na = tvm.target.Target('cuda -model=x')\n"
               "b = tvm.target.Target('cuda -arch=sm_80')\n", target_dialect="tirx-0.1")
    assert ("TL713", 2) in codes(tirx) and ("TL713", 3) not in codes(tirx)
    older = run("import tvm\nt = tvm.target.Target('cuda -arch=sm_80')\n",
                target_dialect="tvm-0.24")  # the math changed in 0.25
    assert older.findings == [] and older.changed


def test_a_renamed_option_is_carried_by_the_rewrite_without_a_report() -> None:
    result = run("import tvm\nt = tvm.target.Target('llvm -target=aarch64-linux-gnu')\n")
    assert result.findings == [] and '"mtriple": "aarch64-linux-gnu"' in result.text


@pytest.mark.parametrize(("text", "kind"), [
    ("import tvm\nt = tvm.target.Target('llvm --system-lib -mcpu=cortex-a72')\n", "python"),
    ("target: 'llvm --system-lib -mcpu=cortex-a72'\n", "yaml"),
    ("python t.py --target 'llvm --system-lib -mcpu=cortex-a72'\n", "shell"),
])
def test_an_option_moved_out_of_the_target_is_reported_and_the_site_left(text: str,
                                                                         kind: str) -> None:
    result = run(text, kind)
    assert result.text == text and [f.code for f in result.findings] == ["TL721"]
    assert 'system_lib_prefix' in result.findings[0].message
    two = run(text.replace("--system-lib", "--system-lib -link-params=1"), kind)
    assert sorted(f.code for f in two.findings) == ["TL721", "TL722"]


def test_a_loss_without_a_note_stays_tl401() -> None:
    result = run("import tvm\nt = tvm.target.Target('c -executor=graph -mcpu=x')\n")
    assert result.findings and all(f.code == "TL401" for f in result.findings)


def test_in_every_file_type_and_suppressible() -> None:
    for text, kind in (("target: 'cuda -arch=sm_80'\n", "yaml"),
                       ("run --target 'cuda -arch=sm_80'\n", "shell"),
                       ("```python\nimport tvm\ntvm.target.Target('cuda -arch=sm_80')\n```\n",
                        "markdown")):
        result = run(text, kind)
        assert result.changed and [f.code for f in result.findings] == ["TL711", "TL712"], kind
    quiet = run("import tvm\nt = tvm.target.Target('cuda -arch=sm_80')  "
                "# targetlang: ignore[TL71]\n")
    assert quiet.findings == [] and quiet.changed and quiet.suppressed == 2
    configured = run("target: 'cuda -arch=sm_80'\n", "yaml", ignore=frozenset({"TL712"}))
    assert [f.code for f in configured.findings] == ["TL711"]
