"""Sites no rewrite reaches are reported, never silent: shell commands continued over lines,
helpers through ``tvm.target.target``, legacy-looking templates, docstring examples, inline
code in prose, helper-like calls in documentation, a Target's text used as text, and APIs
the release does not have. Printing, logging, comments and bare kinds stay quiet."""

from __future__ import annotations

import pytest

from targetlang.migration._upgrade.codes import CODES
from targetlang.migration.upgrade import FileResult, Options, upgrade_text

OPTIONS = Options()


def run(text: str, kind: str, path: str = "f") -> FileResult:
    return upgrade_text(text, path=path, file_type=kind, options=OPTIONS)


def codes(result: FileResult) -> list[tuple[int, str]]:
    """(line, code) of each report, moved-meaning notes (TL7xx) left out."""
    return sorted((f.line, f.code) for f in result.findings if not f.code.startswith("TL7"))


def twice_same(text: str, kind: str) -> None:
    once = run(text, kind).text
    assert run(once, kind).text == once


# ---- A: shell commands continued over lines ------------------------------------------------

TVMC = ("tvmc compile m.tflite \\\n    --target='c -keys=cpu -model=host' \\\n"
        "    --output m.tar\n")
TVMC_MODULE = ("python3 -m tvm.driver.tvmc tune \\\n    --target=\"opencl -device=adreno\" \\\n"
               "    --target-host=\"llvm -mtriple=aarch64-linux-gnu\" \\\n    m.onnx\n")


@pytest.mark.parametrize("script", [TVMC, TVMC_MODULE])
def test_a_tvmc_command_over_lines_is_one_report_naming_its_lines(script: str) -> None:
    result = run("#!/bin/sh\necho hi\n" + script, "shell")
    assert result.text == "#!/bin/sh\necho hi\n" + script
    assert codes(result) == [(3, "TL501")]
    lines = script.count("\n")
    assert f"a command of {lines} lines: this one and the {lines - 1} after it" in \
        result.findings[0].message


@pytest.mark.parametrize("fence", ["```bash", "```", "```console"])
def test_a_tvmc_command_over_lines_in_a_markdown_fence(fence: str) -> None:
    body = TVMC_MODULE if fence != "```console" else "$ " + TVMC_MODULE
    page = f"# Tune\n\n{fence}\n{body}```\n"
    assert codes(run(page, "markdown")) == [(4, "TL501")]


def test_a_tvmc_command_over_lines_in_an_rst_block() -> None:
    page = "Tune\n====\n\n.. code-block:: bash\n\n" + "".join(
        "    " + line for line in TVMC.splitlines(keepends=True))
    assert codes(run(page, "rst")) == [(6, "TL501")]


def test_another_command_over_lines_has_its_target_rewritten_on_its_own_line() -> None:
    script = "python3 run.py \\\n    --target \"cuda -arch=sm_80\" \\\n    --x 1\n"
    result = run(script, "shell")
    assert result.text.splitlines()[0] == "python3 run.py \\"
    assert result.text.splitlines()[1].startswith("    --target '{")
    assert [c.line for c in result.changes] == [2]
    twice_same(script, "shell")


# ---- B: removed helpers through tvm.target.target -------------------------------------------

@pytest.mark.parametrize("source", [
    "import tvm\nt = tvm.target.target.micro('stm32f4xx', options=['-link-params=1'])\n",
    "import tvm.target.target as TT\nt = TT.micro('stm32f4xx')\n",
    "from tvm.target import target as T\nt = T.micro('stm32f4xx')\n",
    "from tvm.target.target import micro\nt = micro('stm32f4xx')\n",
    "from tvm.target import vta\nt = vta()\n",
])
def test_a_helper_gone_before_0_21_is_reported(source: str) -> None:
    result = run(source, "python")
    assert result.text == source
    assert codes(result) == [(2, "TL507")]


@pytest.mark.parametrize("source", [
    "import tvm\nt = tvm.target.target.arm_cpu('rasp3b')\n",
    "from tvm.target import target as T\nt = T.cuda()\n",
    "import tvm.target.target as TT\nt = TT.cuda(arch='sm_80')\n",
    "from tvm.target.target import create as mk\nt = mk('cuda -arch=sm_80')\n",
])
def test_a_helper_through_the_target_submodule_is_rewritten(source: str) -> None:
    result = run(source, "python")
    assert result.text != source and "Target({" in result.text
    assert {c.code for c in result.changes} <= {"TL102", "TL104"}
    assert "TL102" in {c.code for c in result.changes}
    twice_same(source, "python")


def test_a_helper_through_the_target_submodule_with_run_time_arguments() -> None:
    source = "import tvm\ndef f(m):\n    return tvm.target.target.arm_cpu(m)\n"
    assert codes(run(source, "python")) == [(3, "TL204")]


# ---- C: legacy-looking templates ------------------------------------------------------------

@pytest.mark.parametrize(("source", "line"), [
    ("import nnvm\ndef f(arch, sym):\n    target = 'llvm -target=%s-linux-android' % arch\n"
     "    return nnvm.compiler.build(sym, target)\n", 3),
    ("def f(t):\n    x = 'llvm -mtriple={}'.format(t)\n    return x\n", 2),
    ("N = 53\nARCH = 'cuda -arch=sm_%d' % N\n", 2),
    ("def f(n):\n    return f'cuda -arch=sm_{n}'\n", 2),
])
def test_a_template_of_unknown_use_is_reported(source: str, line: int) -> None:
    result = run(source, "python")
    assert result.text == source
    assert codes(result) == [(line, "TL605")]


def test_a_template_reaching_a_target_is_reported_there_once() -> None:
    source = "import tvm\ndef f(m, n):\n    y = 'cuda -arch=sm_%d' % n\n    return tvm.build(m, target=y)\n"
    assert codes(run(source, "python")) == [(4, "TL201")]


def test_a_template_whose_target_position_reports_nothing_is_reported_itself() -> None:
    # A keyword named like a target of a call the engine does not read, given a value that
    # is None on another branch: no report at the call, so the template reports itself.
    source = ("import nnvm\ndef f(x, arch, sym):\n    if x:\n"
              "        target_host = 'llvm -target=%s-linux-android' % arch\n"
              "    else:\n        target_host = None\n"
              "    return nnvm.compiler.build(sym, 'opencl', target_host=target_host)\n")
    assert (4, "TL605") in codes(run(source, "python"))


@pytest.mark.parametrize(("source", "line"), [
    ("def f(arch):\n    return 'cuda -arch=' + arch\n", 2),
    ("def f(cpu):\n    t = 'llvm -mcpu=' + cpu + ' -mattr=+neon'\n    return t\n", 2),
    ("def f(cpu):\n    return 'llvm ' + '-mcpu=' + cpu\n", 2),
])
def test_a_concatenation_starting_like_a_legacy_target_is_reported(source: str,
                                                                    line: int) -> None:
    assert codes(run(source, "python")) == [(line, "TL605")]


def test_a_concatenation_reaching_a_target_is_reported_there() -> None:
    source = "import tvm\ndef f(m, a):\n    t = 'cuda -arch=' + a\n    return tvm.build(m, target=t)\n"
    assert codes(run(source, "python")) == [(4, "TL201")]


@pytest.mark.parametrize("source", [
    "import logging\ndef f(a):\n    print('llvm -mcpu=%s' % a)\n    logging.info('cuda -arch={}'.format(a))\n",
    "def f(a):\n    print(f'llvm -mcpu={a}')\n",
    "# 'llvm -mcpu=%s' % cpu\nx = 'llvm' + '%s' % 1\n",
    "def f(a):\n    return 'llvm %s' % a\n",  # no option: a bare kind
    "def f(a):\n    return 'llvm' + a\n",
    "def f(a):\n    print('cuda -arch=' + a)\n",
])
def test_templates_printed_commented_or_bare_stay_quiet(source: str) -> None:
    assert codes(run(source, "python")) == []


# ---- D: docstring examples ------------------------------------------------------------------

DOCTEST = '''import tvm


def f():
    """Example.

    >>> target = tvm.target.Target("metal", host="llvm -mtriple=arm64-apple-macos")
    >>> t = tvm.target.Target(
    ...     "cuda -arch=sm_80")
    >>> c = tvm.target.cuda()
    >>> k = tvm.target.Target("llvm")
    """
    return 1
'''


def test_docstring_examples_are_rewritten_in_place() -> None:
    result = run(DOCTEST, "python")
    old, new = DOCTEST.splitlines(), result.text.splitlines()
    assert [n + 1 for n, (a, b) in enumerate(zip(old, new)) if a != b] == [7, 9, 10]
    assert new[6] == ('    >>> target = tvm.target.Target("metal", host={"kind": "llvm", '
                      '"mtriple": "arm64-apple-macos"})')
    assert new[8] == '    ...     {"kind": "cuda", "arch": "sm_80"})'
    assert new[9].startswith('    >>> c = tvm.target.Target({"kind": "cuda"')
    assert codes(result) == []  # rewritten: nothing left for a person
    assert sorted(c.line for c in result.changes) == [7, 9, 10]
    twice_same(DOCTEST, "python")


RAW = 'r"""Raw \\d.\n\n    >>> t = tvm.target.Target("cuda -arch=sm_80")\n    """'
ESCAPED = '"""Escaped \\n.\n\n    >>> t = tvm.target.Target("cuda -arch=sm_80")\n    """'
NEEDS_IMPORT = '"""Example.\n\n    >>> from tvm.target import cuda\n    >>> t = cuda()\n    """'


@pytest.mark.parametrize("docstring", [RAW, ESCAPED, NEEDS_IMPORT])
def test_a_docstring_example_that_cannot_be_rewritten_safely_is_reported(docstring: str) -> None:
    source = f"def f(h):\n    {docstring}\n    return 1\n"
    result = run(source, "python")
    assert result.text == source
    assert [c for _, c in codes(result)] == ["TL607"]


def test_a_docstring_example_with_a_run_time_value_is_reported_as_code_is() -> None:
    source = ('import tvm\n\n\ndef f(x):\n    """Example.\n\n'
              '    >>> tvm.target.Target("llvm -mcpu=%s" % x)\n'
              '    >>> tvm.target.Target(x)\n    """\n')
    assert codes(run(source, "python")) == [(7, "TL201")]


def test_a_docstring_without_examples_stays_quiet() -> None:
    source = 'def f():\n    """Builds for llvm -mcpu=core-avx2 (see the docs)."""\n'
    assert codes(run(source, "python")) == []


def test_a_docstring_example_is_suppressible() -> None:
    quiet = Options(ignore=frozenset({"TL1"}))
    assert upgrade_text(DOCTEST, path="f", file_type="python", options=quiet).text == DOCTEST
    source = DOCTEST.replace("    return 1", "    return 1  # targetlang: ignore")
    raw = source.replace('"""Example.', 'r"""Example \\\\.')  # reported, and suppressed?
    assert [c for _, c in codes(run(raw, "python"))] == ["TL607"] * 3


# ---- E: fragments and inline code -----------------------------------------------------------

def test_a_python_fragment_with_a_target_is_reported() -> None:
    page = ('```python\n"webgpu": {"target_host": "llvm -mtriple=wasm32-unknown-unknown-wasm", '
            '"x": 1},\n```\n')
    assert codes(run(page, "markdown")) == [(2, "TL004")]


@pytest.mark.parametrize(("page", "kind", "expected"), [
    ("Use `llvm -mtriple=arm64-apple-macosx` here.\n", "markdown", [(1, "TL606")]),
    ("# iOS\n\n* `metal -mtriple=aarch64-apple-ios` for iOS\n* `llvm` alone\n", "markdown",
     [(3, "TL606")]),
    ("Both ``cuda -arch=sm_80`` and `x`.\n", "markdown", [(1, "TL606")]),
    ("Title\n=====\n\nUse ``llvm -mtriple=arm64-apple-macosx`` here.\n", "rst", [(4, "TL606")]),
    ("Kinds: `llvm`, `cuda` and `rocm`; a flag `-mcpu=x`.\n", "markdown", []),
    ("Kinds: ``llvm`` and ``cuda``.\n", "rst", []),
    ("Use :code:`cuda -arch=sm_80` or `the docs <https://x>`_.\n", "rst", [(1, "TL606")]),
    ("<!-- targetlang: ignore -->\nUse `llvm -mtriple=arm64-apple-macosx` here.\n",
     "markdown", []),
    (".. targetlang: ignore\n\nUse ``llvm -mtriple=arm64-apple-macosx`` here.\n", "rst", []),
])
def test_inline_code_in_prose(page: str, kind: str, expected: list[tuple[int, str]]) -> None:
    result = run(page, kind)
    assert result.text == page
    assert codes(result) == expected


@pytest.mark.parametrize(("page", "kind", "expected"), [
    ("* `tvm.target.arm_cpu()` makes an arm_cpu target.\n", "markdown", [(1, "TL606")]),
    ("Call ``tvm.target.target.create('llvm')``.\n", "rst", [(1, "TL606")]),
    ("* `tvm.target.Target('cuda')` and `tvm.cuda(0)` are fine.\n", "markdown", []),
])
def test_inline_code_calling_a_removed_helper(page: str, kind: str,
                                              expected: list[tuple[int, str]]) -> None:
    assert codes(run(page, kind)) == expected


def test_inline_code_inside_a_block_is_the_block_s() -> None:
    page = "```text\nrun `llvm -mcpu=core-avx2`\n```\n"  # output: never a site
    assert codes(run(page, "markdown")) == []
    page = "```\nrun `llvm -mcpu=core-avx2` then\n```\n"
    assert [c for _, c in codes(run(page, "markdown"))] == ["TL604"]  # read as shell


# ---- F: helper-like calls in documentation --------------------------------------------------

@pytest.mark.parametrize(("page", "expected"), [
    ('```python\ntarget = tvm.garget.arm_cpu("rasp3b")\n```\n', [(2, "TL505")]),
    ('```\narm_cpu("rasp3b")\n```\n', [(2, "TL505")]),
    ('```python\nt = mytvm.target.cuda()\n```\n', [(2, "TL505")]),
    ('```python\nmodel = model.cuda()\nx = torch.cuda()\n```\n', []),  # PyTorch's cuda
    ('```python\ndev = tvm.cuda(0)\nh = tvm.hexagon(0)\nr = tvm.runtime.rocm(0)\n```\n', []),
    ('```python\nt = tvm.targt.cuda()\n```\n', [(2, "TL505")]),
    ('```python\nt = tvm.garget.hexagon("v68")\n```\n', [(2, "TL505")]),
    ('```python\ndef arm_cpu(model):\n    return model\n```\n', []),
    ('```python\nimport tvm\nt = tvm.target.arm_cpu("rasp3b")\n```\n', []),  # rewritten
])
def test_a_call_named_like_a_removed_helper(page: str, expected: list[tuple[int, str]]) -> None:
    result = run(page, "markdown")
    assert codes(result) == expected
    if expected:
        assert result.text == page


def test_a_helper_like_call_in_rst() -> None:
    page = ".. code-block:: python\n\n    target = tvm.garget.mali()\n"
    assert codes(run(page, "rst")) == [(3, "TL505")]


# ---- G: the text of a Target ----------------------------------------------------------------

G = '''import logging
import tvm


def f(model_inst, remote):
    target = tvm.target.Target("cuda")
    dev = tvm.device(str(target))
    c2 = remote.context(str(target), 0)
    target_str = str(model_inst.target)
    if '-link-params' in target_str:
        pass
    parts = str(target).split()
    if str(target).startswith("cuda"):
        pass
    if "cuda" in str(target):
        pass
    path = "out/" + str(target) + ".so"
    name = f"{target}.so"
    print(str(target))
    logging.info("t=%s", str(target))
    print(f"{target}")
    print("%s" % target)
    return dev, c2, parts, path, name
'''


def test_the_text_of_a_target_used_as_text_is_reported() -> None:
    result = run(G, "python")
    assert result.text == G
    assert codes(result) == [(line, "TL506") for line in (7, 8, 9, 12, 13, 15, 17, 18)]


def test_the_text_of_a_string_target_stays_quiet() -> None:
    source = 'import tvm\ntarget = "cuda"\nif "cuda" in str(target):\n    pass\n'
    assert codes(run(source, "python")) == []


def test_str_of_a_target_without_tvm_stays_quiet() -> None:
    source = 'def f(target):\n    return str(target).split()\n'  # a build system's target
    assert codes(run(source, "python")) == []


@pytest.mark.parametrize("call", ["tvm.context(str(target), 0)", "tvm.context(target, 0)",
                                  "tvm.runtime.context('llvm -mcpu=x', 0)"])
def test_tvm_context_given_a_target_is_a_removed_api(call: str) -> None:
    source = f'import tvm\ntarget = tvm.target.Target("llvm")\nctx = {call}\n'
    assert ("TL507" in [c for _, c in codes(run(source, "python"))])


def test_tvm_context_of_something_else_stays_quiet() -> None:
    source = 'import tvm\nctx = tvm.context(dev_type, 0)\n'
    assert codes(run(source, "python")) == []


# ---- H: AutoTVM's set_cuda_target_arch -------------------------------------------------------

@pytest.mark.parametrize("source", [
    "from tvm.autotvm.measure.measure_methods import set_cuda_target_arch\n"
    "set_cuda_target_arch('sm_53')\n",
    "import tvm.autotvm.measure.measure_methods as mm\nmm.set_cuda_target_arch('sm_53')\n",
    "from tvm import autotvm\nautotvm.measure.measure_methods.set_cuda_target_arch('sm_62')\n",
    "import tvm\ntvm.autotvm.measure.measure_methods.set_cuda_target_arch(['-gencode', 'x'])\n",
    "from tvm.autotvm.measure import measure_methods as m\nm.set_cuda_target_arch('sm_53')\n",
])
def test_set_cuda_target_arch_is_a_removed_api(source: str) -> None:
    result = run(source, "python")
    assert result.text == source
    assert codes(result) == [(2, "TL507")]
    assert '"arch"' in result.findings[0].message


def test_a_local_set_cuda_target_arch_stays_quiet() -> None:
    source = "def set_cuda_target_arch(a):\n    return a\nset_cuda_target_arch('sm_53')\n"
    assert codes(run(source, "python")) == []


def test_every_new_code_is_listed() -> None:
    for code in ("TL505", "TL506", "TL507", "TL605", "TL606", "TL607"):
        assert code in CODES


# ---- code in blocks labelled as text ----------------------------------------------------------

def test_python_in_a_block_labelled_plain_is_rewritten() -> None:
    # translated docs label Python ```plain: it is read as the Python it is
    page = ('```plain\nimport tvm\ntarget = "llvm -mtriple=armv7l-linux-gnueabihf"\n'
            'lib = tvm.compile(mod, target=target)\n```\n')
    result = run(page, "markdown")
    assert '"mtriple": "armv7l-linux-gnueabihf"' in result.text and codes(result) == []
    twice_same(page, "markdown")


@pytest.mark.parametrize(("page", "expected"), [
    ('```text\ntvmc compile m.onnx --target "llvm -mcpu=skylake"\n```\n', [(2, "TL501")]),
    ('~~~none\n$ tvmc tune --target="cuda -arch=sm_80" m.onnx\n~~~\n', [(2, "TL501")]),
])
def test_commands_in_a_block_labelled_as_text_are_read(page: str,
                                                       expected: list[tuple[int, str]]) -> None:
    assert codes(run(page, "markdown")) == expected
    twice_same(page, "markdown")


@pytest.mark.parametrize("page", [
    "```text\nllvm -keys=cpu -mcpu=skylake-avx512 -num-cores=4\n```\n",  # str(target) printed
    "```output\nTarget: cuda -keys=cuda,gpu -arch=sm_80\n```\n",
    "```plain\nrun --target llvm -mcpu=core-avx2 then\n```\n",  # words, no known command
])
def test_output_in_a_block_labelled_as_text_stays_quiet(page: str) -> None:
    assert codes(run(page, "markdown")) == []


def test_legacy_looking_text_no_release_reads_is_reported_where_a_target_may_go() -> None:
    # a keyword named like a target of the file's own function: not certainly a target,
    # but text shaped like one that TVM 0.21 refuses is reported, never dropped
    source = ('def f(x, target_host="llvm"):\n    print(target_host)\n\n'
              'f(1, target_host="llvm -mtriple=arm64-apple-macos --ffast-math=true")\n')
    assert codes(run(source, "python")) == [(4, "TL601")]


@pytest.mark.parametrize(("source", "expected"), [
    # an Ansor record held in a string: the target inside is legacy
    ("import tvm\nLOG = '{\"i\": [[\"[\\\\\"conv\\\\\", 1]\", \"llvm -keys=cpu -mcpu=broadwell\", "
     "[8, 64]], []], \"r\": [[0.1], 0, 0.2, 1], \"v\": \"v0.6\"}'\n", [(2, "TL601")]),
    ("import tvm\nCFG = '{\"target\": \"cuda -arch=sm_80\"}'\n", [(2, "TL601")]),
    # JSON text of a target as TVM >= 0.24 reads it, and JSON without a target: quiet
    ("import tvm\nT = '{\"kind\": \"cuda\", \"arch\": \"sm_80\"}'\n", []),
    ("import tvm\nX = '{\"a\": [1, \"b -c\"]}'\n", []),
])
def test_json_text_holding_a_legacy_target_is_reported(source: str,
                                                       expected: list[tuple[int, str]]) -> None:
    assert codes(run(source, "python")) == expected
    twice_same(source, "python")
