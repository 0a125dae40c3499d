"""Each file type ``targetlang upgrade`` reads rewrites the target sites in that
file's own quoting, edits nothing else, and reports what needs a person."""

from __future__ import annotations

import json
from typing import Any

import pytest

from targetlang.migration._sites import Rewritten, convert_value, json_text
from targetlang.migration._upgrade import shell
from targetlang.migration._upgrade.configs import toml_literal, yaml_quoted
from targetlang.migration.upgrade import FileResult, Options, upgrade_text

OPTIONS = Options()
GPU = "rocm -libs=miopen,rocblas"
ARM = "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu"


def new(value: str) -> str:
    """The JSON text a legacy value becomes (whatever minimal output the release gives)."""
    answer = convert_value(value, target_dialect=OPTIONS.target_dialect)
    assert isinstance(answer, Rewritten)
    return json_text(answer.json)


def run(text: str, kind: str, path: str = "f") -> FileResult:
    return upgrade_text(text, path=path, file_type=kind, options=OPTIONS)


def only_lines_differ(old: str, new_text: str, lines: set[int]) -> None:
    a, b = old.splitlines(keepends=True), new_text.splitlines(keepends=True)
    assert len(a) == len(b)
    assert {i + 1 for i, (x, y) in enumerate(zip(a, b)) if x != y} == lines


# ---- configs --------------------------------------------------------------------------------

def test_json_values_become_json_strings_and_nothing_else_moves() -> None:
    text = ('{\n  "target" : "rocm -libs=miopen,rocblas",\n  "llvm -mcpu=skylake": 1,\n'
            '  "targets": [1, "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu", "llvm"],\n'
            '  "prose": "use cuda -arch=sm_80 here",\n'
            '  "expected_str": "cuda -keys=cuda,gpu -arch=sm_80"\n}\n')
    result = run(text, "json")
    assert json.loads(result.text) == {
        "target": new(GPU), "llvm -mcpu=skylake": 1, "targets": [1, new(ARM), "llvm"],
        "prose": "use cuda -arch=sm_80 here", "expected_str": "cuda -keys=cuda,gpu -arch=sm_80"}
    only_lines_differ(text, result.text, {2, 4})
    assert [c.site for c in result.changes] == ["config value"] * 2
    # a value under a key that does not name a target (a test's expected str()) is reported,
    # and so is a target written inside a larger text
    assert [(f.code, f.line) for f in result.findings] == [("TL602", 5), ("TL602", 6)]


def test_json_escaping_follows_the_file() -> None:
    escaped = '{"name": "caf\\u00e9", "target": "llvm -mcpu=skylake"}'
    assert "\\u00e9" in run(escaped, "json").text
    plain = '{"name": "café", "target": "llvm -mcpu=skylake"}'
    result = run(plain, "json").text
    assert "café" in result and json.loads(result)["target"] == new("llvm -mcpu=skylake")


def test_invalid_json_is_reported_and_untouched() -> None:
    result = run('{"t": "cuda -arch=sm_80",}', "json")
    assert result.invalid is not None and result.text == result.original
    assert result.invalid.message.startswith("not JSON")


YAML = """\
# a comment: target: "cuda"
defaults: &base
  target: "rocm -libs=miopen,rocblas"   # kept comment
  host: llvm -device=arm_cpu -mtriple=aarch64-linux-gnu
job:
  <<: *base
  targets:
    - 'rocm -libs=miopen,rocblas'
    - llvm
  flow_targets: [llvm -device=arm_cpu -mtriple=aarch64-linux-gnu, {t: "rocm -libs=miopen,rocblas"}]
  note: |
    target: cuda -arch=sm_80
  folded: cuda -arch=sm_80
    continues here
  quoted: 'it''s llvm'
---
- target: !!str rocm -libs=miopen,rocblas
"""


def test_yaml_scalars_become_single_quoted_json_text() -> None:
    yaml = pytest.importorskip("yaml")
    result = run(YAML, "yaml")
    only_lines_differ(YAML, result.text, {3, 4, 8, 10, 17})
    assert "# kept comment" in result.text and "&base" in result.text
    old, rewritten = list(yaml.safe_load_all(YAML)), list(yaml.safe_load_all(result.text))
    swap = {GPU: new(GPU), ARM: new(ARM)}

    def expect(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: expect(v) for k, v in value.items()}
        if isinstance(value, list):
            return [expect(v) for v in value]
        return swap.get(value, value) if isinstance(value, str) else value

    assert rewritten == expect(old)


def test_yaml_single_quote_in_a_value_is_doubled() -> None:
    assert yaml_quoted("a'b") == "'a''b'"


def test_toml_literal_or_basic_strings() -> None:
    tomllib = pytest.importorskip("tomllib")
    text = ('# c\n[build]\ntarget = "rocm -libs=miopen,rocblas" # keep\n'
            "hosts = [\n  'llvm -device=arm_cpu -mtriple=aarch64-linux-gnu',\n  \"llvm\",\n]\n"
            '"llvm -mcpu=x" = "y"\ninline = { target = "rocm -libs=miopen,rocblas", n = 1 }\n'
            '[tool."rocm -libs=miopen,rocblas"]\nx = 1\n')
    result = run(text, "toml")
    only_lines_differ(text, result.text, {3, 5, 9})
    assert tomllib.loads(result.text) == {
        "build": {"target": new(GPU), "hosts": [new(ARM), "llvm"], "llvm -mcpu=x": "y",
                  "inline": {"target": new(GPU), "n": 1}},
        "tool": {GPU: {"x": 1}}}
    assert toml_literal('{"a": 1}') == "'{\"a\": 1}'"
    assert toml_literal("it's") == '"it\'s"'
    assert tomllib.loads(f"v = {toml_literal(chr(7) + 'x')}")["v"] == "\x07x"


def test_invalid_toml_is_reported_with_its_line() -> None:
    pytest.importorskip("tomllib")  # Python 3.10 has no TOML reader: the scanner alone
    result = run('a = 1\nb = "cuda -arch=sm_80\n', "toml")
    assert result.invalid is not None and result.invalid.line == 2
    assert result.text == result.original


# ---- shell ---------------------------------------------------------------------------------------

def test_shell_arguments_and_assignments() -> None:
    text = ('#!/bin/sh\nTARGET="rocm -libs=miopen,rocblas"\nexport TVM_TARGET=\'llvm -device=arm_cpu '
            "-mtriple=aarch64-linux-gnu'\npython tune.py --target \"rocm -libs=miopen,rocblas\" \\\n"
            "  --target-host=llvm\\ -device=arm_cpu\\ -mtriple=aarch64-linux-gnu --n 3\n"
            'echo "rocm -libs=miopen,rocblas"  # its role is unknown: reported\n'
            "cat <<EOF\n--target cuda -arch=sm_80\nEOF\n")
    result = run(text, "shell")
    only_lines_differ(text, result.text, {2, 3, 4, 5})
    words = [w.value for command in shell.commands(result.text) for w in command]
    assert words.count(new(GPU)) == 1 and "TARGET=" + new(GPU) in words
    assert "TVM_TARGET=" + new(ARM) in words and "--target-host=" + new(ARM) in words
    assert [(f.code, f.line) for f in result.findings] == [("TL604", 6)]  # not the here-doc


def test_shell_quote_round_trips_a_single_quote() -> None:
    quoted = shell.quote("it's")
    assert [w.value for w in shell.commands(f"echo {quoted}")[0]] == ["echo", "it's"]


def test_tvmc_lines_and_run_time_values_are_reported() -> None:
    text = ("tvmc compile --target 'llvm -mcpu=skylake' m.onnx\n"
            "python -m tvm.driver.tvmc tune --target llvm m.onnx\n"
            'python t.py --target "llvm -mcpu=$CPU"\n')
    result = run(text, "shell", "s.sh")
    assert result.text == text
    assert [(f.line, f.message[:21]) for f in result.findings] == [
        (1, "tvmc left TVM in 0.20"), (2, "tvmc left TVM in 0.20"), (3, "--target holds a targ")]
    assert result.reported == {"tvmc command": 2, "shell argument": 1}


# ---- documentation -------------------------------------------------------------------------------

def test_markdown_blocks_python_doctest_and_shell() -> None:
    text = ("Prose with \"rocm -libs=miopen,rocblas\" is not a site.\n\n"
            "```python\nimport tvm\nt = tvm.target.Target(\"rocm -libs=miopen,rocblas\")\n```\n"
            "- item\n\n  ~~~bash\n  TARGET=\"rocm -libs=miopen,rocblas\"\n  ~~~\n"
            "```pycon\n>>> import tvm\n>>> tvm.target.Target(\"rocm -libs=miopen,rocblas\")\n"
            "cuda -keys=cuda,gpu\n```\n"
            "```console\n$ python t.py --target 'rocm -libs=miopen,rocblas'\nTARGET=\"cuda\"\n```\n"
            "```python\nthis is not Python (\"rocm -libs=miopen,rocblas\")\n```\n")
    result = run(text, "markdown", "README.md")
    only_lines_differ(text, result.text, {5, 10, 14, 18})
    lines = result.text.splitlines()
    assert lines[9] == "  TARGET=" + shell.quote(new(GPU))
    assert lines[13].startswith(">>> tvm.target.Target({")
    assert {c.site for c in result.changes} == {"python code block", "shell code block"}


def test_rst_code_blocks_and_literal_blocks() -> None:
    text = ("Title\n=====\n\n.. code-block:: python\n   :caption: x\n\n"
            "   import tvm\n   t = tvm.target.Target(\"rocm -libs=miopen,rocblas\")\n\n"
            "Run::\n\n    >>> import tvm\n    >>> tvm.target.Target(\"rocm -libs=miopen,rocblas\")\n\n"
            ".. code-block:: bash\n\n    tvmc compile --target llvm m.onnx\n\nEnd.\n")
    result = run(text, "rst", "doc.rst")
    only_lines_differ(text, result.text, {8, 13})
    assert result.text.splitlines()[7].startswith("   t = tvm.target.Target({")
    assert [(f.line, f.column) for f in result.findings] == [(17, 4)]


# ---- notebooks -----------------------------------------------------------------------------------

def notebook(cells: list[list[str]], ensure_ascii: bool = False) -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {"k": [1, 2]},
                   "outputs": [{"name": "stdout", "text": ["rocm -libs=miopen,rocblas\n"]}],
                   "source": source} for source in cells] +
                 [{"cell_type": "markdown", "metadata": {}, "source": ["`cuda -arch=sm_80`"]}],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}, indent=1, ensure_ascii=ensure_ascii) + "\n"


def test_notebook_is_one_program_and_only_source_strings_change() -> None:
    text = notebook([["%matplotlib inline\n", "from tvm.target import Target\n", "!ls -l\n"],
                     ["%%time\n", "t = Target(\"rocm -libs=miopen,rocblas\")  # café\n", "t"],
                     ["%%bash\n", "tvmc --target 'llvm -mcpu=x'\n"]])
    result = run(text, "notebook", "n.ipynb")
    old, rewritten = json.loads(text), json.loads(result.text)
    expected = json.loads(text)
    expected["cells"][1]["source"][1] = expected["cells"][1]["source"][1].replace(
        '"rocm -libs=miopen,rocblas"', result.changes[0].new)
    assert rewritten == expected and rewritten != old
    only_lines_differ(text, result.text, {text.splitlines().index(
        '    "t = Target(\\"rocm -libs=miopen,rocblas\\")  # café\\n",') + 1})


def test_notebook_findings_name_the_cell_and_escaping_follows_the_file() -> None:
    text = notebook([["import tvm\n"], ["x = 1\n", "tvm.target.Target(name)\n"],
                     ["tvm.target.Target('llvm -mcpu=skylake')  # é"]], ensure_ascii=True)
    result = run(text, "notebook", "n.ipynb")
    assert [str(f).split(": ")[0] for f in result.findings] == ["n.ipynb:cell 2:2:19"]
    assert "\\u00e9" in result.text and "é" not in result.text
    assert json.loads(result.text)["cells"][2]["source"][0].startswith("tvm.target.Target({")


@pytest.mark.parametrize("text", ["{", "[]", '{"cells": 3}', '{"cells": [1]}'])
def test_an_invalid_notebook_is_reported_and_untouched(text: str) -> None:
    result = run(text, "notebook", "n.ipynb")
    assert result.invalid is not None and result.text == text
    assert result.invalid.message.startswith("not a notebook")


def test_a_notebook_cell_given_as_one_string() -> None:
    text = json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                  "source": "import tvm\nt = tvm.target.Target("
                                            "'llvm -mcpu=skylake')\n"}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 2})
    result = run(text, "notebook")
    assert json.loads(result.text)["cells"][0]["source"].startswith("import tvm\nt = tvm.ta")
    assert result.count("rewritten") == 1


def test_notebook_shell_lines_magic_continuations_and_a_cell_that_is_not_python() -> None:
    cells = [["!pip install x \\\n", "    --upgrade\n", "gpus = !nvidia-smi -L\n",
              "import tvm\n"],
             ["def f(:\n", "  pass"],
             ["%%bash\n", "python t.py --target 'rocm -libs=miopen,rocblas'\n", "tvmc run m"],
             ["!python t.py --target=\"rocm -libs=miopen,rocblas\"\n",
              "t = tvm.target.Target('rocm -libs=miopen,rocblas')"]]
    result = run(notebook(cells), "notebook", "n.ipynb")
    sources = [c["source"] for c in json.loads(result.text)["cells"][:4]]
    assert sources[:2] == cells[:2]
    assert sources[2][1] == f"python t.py --target {shell.quote(new(GPU))}\n"
    assert sources[3][0] == f"!python t.py --target={shell.quote(new(GPU))}\n"
    assert sources[3][1].startswith("t = tvm.target.Target({")
    # the cell Python cannot read holds nothing that looks like a target: no report
    assert [str(f)[:18] for f in result.findings] == ["n.ipynb:cell 3:3:1"]
    assert result.reported == {"tvmc command": 1}


def test_a_console_prompt_in_any_shell_block() -> None:
    text = ("```bash\n$ tvmc compile --target 'rocm -libs=miopen,rocblas' m.onnx\n"
            "$ python t.py \\\n    --target 'rocm -libs=miopen,rocblas'\noutput --target x\n```\n")
    result = run(text, "markdown", "a.md")
    assert [(f.line, f.column) for f in result.findings] == [(2, 2)]
    assert result.text.splitlines()[3] == f"    --target {shell.quote(new(GPU))}"
    assert result.text.splitlines()[1] == text.splitlines()[1]


@pytest.mark.parametrize("value", ["a\x7fb", "it's", "x\ny", "tab\there", "é😀\x85\ufeff\u2028",
                                   '\\ "q"', "\x00\x1b"])
def test_yaml_quoting_reads_back_as_the_value(value: str) -> None:
    yaml = pytest.importorskip("yaml")
    quoted = yaml_quoted(value)
    assert "\n" not in quoted and yaml.safe_load(f"k: {quoted}")["k"] == value


@pytest.mark.parametrize(("kind", "text"), [
    ("yaml", "target: '  rocm -libs=miopen,rocblas'\n"),
    ("json", '{"target": "{\\"kind\\": \\"cuda\\", \\"host\\": \\"llvm -mcpu=skylake\\"}"}'),
    ("shell", "run --target ' rocm -libs=miopen,rocblas'\n"),
    ("toml", 'target = "\\trocm -libs=miopen,rocblas"\n'),
])
def test_values_tvm_read_with_blanks_or_as_json_text_with_legacy_parts(kind: str,
                                                                       text: str) -> None:
    result = run(text, kind)
    assert result.count("rewritten") == 1 and result.changes[0].target is not None
    assert json.loads(result.changes[0].target)["kind"] in ("cuda", "rocm")


def test_shell_loops_over_targets_and_env_assignments() -> None:
    text = ("for target in 'rocm -libs=miopen,rocblas' llvm; do\n  env TVM_TARGET=\"$target\" "
            "TARGET='rocm -libs=miopen,rocblas' python t.py\ndone\nfor f in 'cuda -libs=x'; do :; done\n")
    result = run(text, "shell")
    assert result.count("rewritten") == 2
    assert [(f.code, f.line) for f in result.findings] == [("TL604", 4)]  # `f` names no target
    assert {c.site for c in result.changes} == {"shell loop value", "shell assignment"}


def test_a_tuning_log_named_json_is_reported_with_what_rewrites_it() -> None:
    text = ('# kept\n{"i": [["t", "llvm -keys=cpu -mcpu=x", [1]], []], "r": [[1]], "v": "v0.6"}\n'
            '{"i": [["t", "llvm -keys=cpu -mcpu=x", [1]], []], "r": [[1]], "v": "v0.6"}\n')
    result = run(text, "json", "log.json")
    assert result.invalid is not None and result.text == text
    assert "targetlang logs normalize" in result.invalid.message


def test_invalid_yaml_is_reported_and_untouched_where_pyyaml_can_tell() -> None:
    pytest.importorskip("yaml")
    text = 'a:\n  target: "rocm -libs=miopen,rocblas\nb: [1, 2\n'
    result = run(text, "yaml")
    assert result.invalid is not None and result.text == text
    assert result.invalid.message.startswith("not YAML")
    tagged = "r: !Ref x\ntarget: 'rocm -libs=miopen,rocblas'\n"  # a tag PyYAML cannot construct
    assert run(tagged, "yaml").count("rewritten") == 1


@pytest.mark.parametrize("text", [
    "targets: {? '\n\n    ' : cuda -model=it's}\n",
    "targets:\n- '0': cuda -model=it's\n  ? '0\n\n    '\n  : []\n",
    "targets:\n  0#: cuda -model=it's\n",
    "targets:\n  \xa0: cuda -model=it's\n",
    "target: [1,\n  cuda -model=it's, # c\n  'x']\n",
])
def test_yaml_shapes_found_by_the_property_tests(text: str) -> None:
    yaml = pytest.importorskip("yaml")
    result = run(text, "yaml")
    assert result.invalid is None and result.count("rewritten") == 1
    def leaves(node: Any) -> list[Any]:
        if isinstance(node, dict):
            return [leaf for value in node.values() for leaf in leaves(value)]
        if isinstance(node, list):
            return [leaf for value in node for leaf in leaves(value)]
        return [node]

    assert new("cuda -model=it's") in leaves(yaml.safe_load(result.text))


def test_yaml_block_scalars_holding_a_target_become_one_quoted_value() -> None:
    yaml = pytest.importorskip("yaml")
    text = ("a:\n  target: >-\n    rocm -libs=miopen,rocblas\n  keep: |\n    not a target\n"
            "    at all\n  n: 1\n")
    result = run(text, "yaml")
    assert result.count("rewritten") == 1
    assert yaml.safe_load(result.text) == {"a": {"target": new(GPU),
                                                 "keep": "not a target\nat all\n", "n": 1}}


def test_a_notebook_that_compiles_only_cell_by_cell_is_still_rewritten() -> None:
    # `from __future__` (or top-level `await`) in a later cell: Jupyter compiles each cell on
    # its own, so the joined program never compiled; the rewrite must not be refused for it
    text = notebook([["import tvm\n"], ["from __future__ import annotations\n",
                                        "t = tvm.target.Target(\"cuda -arch=sm_80\")\n"],
                     ["await something()\n"]])
    result = run(text, "notebook", "n.ipynb")
    assert [f.code for f in result.findings] == ["TL711", "TL712"]  # cuda: moved meaning
    assert result.invalid is None
    assert json.loads(result.text)["cells"][1]["source"][1] == \
        't = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n'


def test_a_rewrite_that_breaks_compiling_is_still_refused() -> None:
    # the check stays for programs that compiled: nothing a rewrite makes may break them
    from targetlang.migration import pyscripts

    assert pyscripts._compile_error("x = 1\n", "f") is None
    assert pyscripts._compile_error("from __future__ import annotations\n"
                                    "x = 1\nfrom __future__ import division\n", "f") is not None


def test_json_text_means_what_tvm_0_21_read_of_it() -> None:
    # TVM 0.21 reads a JSON string up to a NUL ('a'); 0.24+ keep the NUL: the site is
    # rewritten to the project's meaning, as every other value is
    value = '{"kind": "llvm", "mcpu": "a\\u0000b"}'
    assert convert_value(value, target_dialect="tvm-0.27") == \
        Rewritten({"kind": "llvm", "mcpu": "a"})


# ---- documentation blocks without a language, and suppressions of whole blocks -------------

def test_blocks_without_a_language_are_read_as_what_they_are() -> None:
    text = ("Indented:\n\n    t = tvm.target.Target('rocm -libs=miopen,rocblas')\n\n"
            "Commands:\n\n```\n$ python tune.py --target 'rocm -libs=miopen,rocblas'\n```\n\n"
            "Output:\n\n```\ncuda -keys=cuda,gpu -libs=cudnn,cublas\n```\n\n"
            "```text\nrocm -libs=miopen,rocblas\n```\n\n"
            "```yaml\ntarget: rocm -libs=miopen,rocblas\nexpected_str: rocm -libs=miopen,rocblas\n```\n")
    result = run(text, "markdown", "a.md")
    lines = result.text.splitlines()
    assert lines[2] == f"    t = tvm.target.Target({py_dict(GPU)})"  # no import tvm needed
    assert lines[7] == f"$ python tune.py --target {shell.quote(new(GPU))}"
    assert lines[-3] == f"target: {yaml_quoted(new(GPU))}"
    # the output block is reported (TL603); a labelled text block is not code; the expected
    # value under a key that names no target is reported (TL602)
    assert [(f.code, f.line) for f in result.findings] == [("TL603", 14), ("TL602", 23)]


def py_dict(value: str) -> str:
    from targetlang.migration._pysites import py_literal

    answer = convert_value(value, target_dialect=OPTIONS.target_dialect)
    assert isinstance(answer, Rewritten)
    return py_literal(answer.json)


def test_a_comment_before_a_block_suppresses_it() -> None:
    md = ("<!-- targetlang: ignore[TL101] -->\n```python\ntvm.target.Target('rocm -libs=miopen,rocblas')\n"
          "```\n\n<!-- targetlang: ignore[TL501] -->\n\n```sh\ntvmc run m\n"
          "python t.py --target 'rocm -libs=miopen,rocblas'\n```\n")
    result = run(md, "markdown", "a.md")
    assert result.findings == [] and result.count("rewritten") == 1 and result.suppressed == 2
    assert "tvm.target.Target('rocm" in result.text
    rst = (".. targetlang: ignore\n\n.. code-block:: python\n\n   "
           "tvm.target.Target('rocm -libs=miopen,rocblas')\n\n>>> tvm.target.Target("
           "'rocm -libs=miopen,rocblas')\n")
    result = run(rst, "rst", "a.rst")
    assert result.count("rewritten") == 1 and result.suppressed == 1
    assert result.text.splitlines()[4].endswith("('rocm -libs=miopen,rocblas')")


# ---- the bridge in documentation pages ------------------------------------------------------

RUNTIME = Options(runtime=True)
PAGE_MD = ("# T\n\n```python\nimport tvm\nfrom tvm import relay\n```\n\nText.\n\n"
           "```python\ntarget = \"llvm\"\ngraph = relay.build(relay_mod, target)\n```\n\n"
           "```python\nctx = tvm.device(target)\n```\n")
PAGE_RST = ("T\n=\n\n.. code-block:: python\n\n    import tvm\n    from tvm import relay\n\n"
            "Text.\n\n.. code-block:: python\n\n    target = \"llvm\"\n"
            "    graph = relay.build(relay_mod, target)\n\n"
            ".. code-block:: python\n\n    ctx = tvm.device(target)\n")


@pytest.mark.parametrize(("page", "kind", "import_line"), [
    (PAGE_MD, "markdown", "import targetlang.compat\n"),
    (PAGE_RST, "rst", "    import targetlang.compat\n"),
])
def test_a_page_bridged_in_a_later_block_imports_the_bridge_in_its_block(
        page: str, kind: str, import_line: str) -> None:
    once = upgrade_text(page, path="p", file_type=kind, options=RUNTIME).text
    assert "targetlang.compat.Target(target)" in once
    # the import goes after the page's last import, inside that block, with its indentation
    assert "from tvm import relay\n" + import_line in once
    twice = upgrade_text(once, path="p", file_type=kind, options=RUNTIME).text
    assert twice == once


def test_a_bridge_spelled_in_full_without_an_import_is_not_wrapped_again() -> None:
    page = ("```python\nfrom tvm import relay\ndef f(target):\n"
            "    return relay.build(m, targetlang.compat.Target(target))\n```\n")
    result = upgrade_text(page, path="p", file_type="markdown", options=RUNTIME)
    assert "Target(targetlang.compat.Target(" not in result.text


# ---- files read only to report: text, logs, build files, other languages ---------------------

@pytest.mark.parametrize(("name", "text", "expected"), [
    ("Makefile", 'tune:\n\tpython3 tune.py --target "llvm -mcpu=skylake-avx512"\n', [(2, "TL608")]),
    ("Dockerfile", 'ENV TVM_TARGET="cuda -arch=sm_80"\n', [(1, "TL608")]),
    ("deploy.cc", 'auto t = tvm::Target("llvm -mtriple=aarch64-linux-gnu");\n', [(1, "TL608")]),
    ("targets.txt", "llvm -mcpu=core-avx2\ncuda -libs=cudnn\n", [(1, "TL608"), (2, "TL608")]),
    ("run.bash", "python x.py --target='rocm -libs=miopen'\n", [(1, "TL608")]),
    ("tune.log", '{"i": [["t", "llvm -keys=cpu -mcpu=x", [1]], []], "r": [[1]], "v": "v0.6"}\n'
     '{"i": [["t", "llvm -keys=cpu -mcpu=y", [1]], []], "r": [[1]], "v": "v0.6"}\n', [(1, "TL609")]),
])
def test_a_legacy_target_in_a_file_read_only_to_report_is_reported(
        name: str, text: str, expected: list[tuple[int, str]]) -> None:
    from targetlang.migration.upgrade import file_type

    assert file_type(name) == "text"
    result = run(text, "text", name)
    assert result.text == text  # never rewritten
    assert sorted((f.line, f.code) for f in result.findings) == expected


@pytest.mark.parametrize("text", [
    "# llvm -mcpu=x in a comment\n// cuda -arch=sm_80\n",  # comments
    'Target("llvm");\nTarget("cuda");\n',  # bare kinds: valid on every release
    'x = "llvm -mcpu=x"  # targetlang: ignore\n',  # suppressed on its line
    "# targetlang: ignore[TL608]\nllvm -mcpu=x\n",  # by a comment line before it
    "see the llvm docs - they help\n",  # no option after the kind
])
def test_text_files_stay_quiet_where_nothing_legacy_is_meant(text: str) -> None:
    assert run(text, "text", "f.txt").findings == []


def test_a_text_file_in_another_encoding_is_read_all_the_same(tmp_path: Any) -> None:
    from targetlang.migration.upgrade import upgrade_file

    path = tmp_path / "notes.txt"
    path.write_bytes(b"caf\xe9: llvm -mcpu=skylake\n")  # Latin-1, not UTF-8
    result = upgrade_file(path)  # its type from its name: text, not Python
    assert result.file_type == "text" and result.invalid is None
    assert [(f.line, f.code) for f in result.findings] == [(1, "TL608")]
    assert path.read_bytes() == b"caf\xe9: llvm -mcpu=skylake\n"
