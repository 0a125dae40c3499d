"""The files of a run read as one program: values followed across the tree's imports, in
both directions (what a module's value becomes where another module uses it; what another
module does with a value), parameters decided by their callers only when all are known,
cycles and unreadable modules degraded to a report, the same answers whatever the order."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from targetlang.cli import main
from targetlang.migration._program import Program, index
from targetlang.upgrade import FileResult, Options, upgrade_text

LEGACY = "llvm -mcpu=skylake"
NEW = '\'{"kind": "llvm", "mcpu": "skylake"}\''


def project(root: Path, files: dict[str, str]) -> dict[str, FileResult]:
    """Every Python file of ``files`` upgraded, the files read as one program."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    paths = [str(root / name) for name in files if name.endswith(".py")]
    program = Program.of_files(paths, roots=[str(root)])
    return {name: upgrade_text(files[name], path=str(root / name), file_type="python",
                               options=Options(program=program))
            for name in files if name.endswith(".py")}


def codes(result: FileResult) -> list[str]:
    return [f.code for f in result.findings]


# ---- values across modules ---------------------------------------------------------------

def test_a_constant_imported_by_another_module_is_rewritten_where_it_is_written(
        tmp_path: Path) -> None:
    out = project(tmp_path, {
        "config.py": f'TARGET = "{LEGACY}"\n',
        "tune.py": "import tvm\nfrom config import TARGET\nt = tvm.target.Target(TARGET)\n"})
    assert out["config.py"].text == f"TARGET = {NEW}\n"
    assert not out["tune.py"].changed and out["tune.py"].findings == []
    assert out["config.py"].findings == []


@pytest.mark.parametrize("spelled", [
    "import config\nt = tvm.target.Target(config.TARGET)\n",
    "import config as c\nt = tvm.target.Target(c.TARGET)\n",
    "from config import *\nt = tvm.target.Target(TARGET)\n",
    "from . import config\nt = tvm.target.Target(config.TARGET)\n",
    "from .config import TARGET as T\nt = tvm.target.Target(T)\n",
    "import pkg.config\nt = tvm.target.Target(pkg.config.TARGET)\n",
    "from pkg import TARGET\nt = tvm.target.Target(TARGET)\n",
])
def test_every_import_form(tmp_path: Path, spelled: str) -> None:
    files = {"config.py": f'TARGET = "{LEGACY}"\n', "tune.py": "import tvm\n" + spelled}
    if "pkg" in spelled:  # a package's module, and its __init__ re-exporting the name
        files = {"pkg/__init__.py": "from .config import TARGET\n",
                 "pkg/config.py": files["config.py"], "tune.py": files["tune.py"]}
    out = project(tmp_path, files)
    written = next(name for name in out if name.endswith("config.py"))
    assert out[written].text == f"TARGET = {NEW}\n", spelled
    assert all(r.findings == [] for r in out.values())


def test_a_value_another_module_also_uses_otherwise_is_kept_and_reported(
        tmp_path: Path) -> None:
    out = project(tmp_path, {
        "config.py": f'TARGET = "{LEGACY}"\n',
        "tune.py": "import tvm\nfrom config import TARGET\nt = tvm.target.Target(TARGET)\n",
        "report.py": "from config import TARGET\nassert TARGET == 'x'\n"})
    assert not out["config.py"].changed and codes(out["config.py"]) == ["TL302"]
    assert "report.py:2" in out["config.py"].findings[0].message  # the other module named


def test_returns_class_attributes_and_arguments_across_modules(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "lib.py": ("def board():\n    return 'llvm -mtriple=aarch64-linux-gnu'\n"
                   "class Config:\n    target = 'llvm -mcpu=znver3'\n"),
        "build.py": ("import tvm\ndef build(mod, target):\n"
                     "    return tvm.compile(mod, target=target)\n"),
        "main.py": ("import tvm\nimport lib\nfrom build import build\n"
                    "a = tvm.target.Target(lib.board())\n"
                    "b = tvm.target.Target(lib.Config().target)\n"
                    f"c = build(None, '{LEGACY}')\n")})
    assert '"mtriple": "aarch64-linux-gnu"' in out["lib.py"].text
    assert '"mcpu": "znver3"' in out["lib.py"].text and out["lib.py"].findings == []
    assert NEW in out["main.py"].text  # the argument: build() passes it to a target
    assert codes(out["build.py"]) == ["TL804"]  # build() can be called from outside
    assert "main.py:6" in out["build.py"].findings[0].message  # the callers seen


def test_a_class_attribute_set_elsewhere_or_a_dataclass_field_is_not_followed(
        tmp_path: Path) -> None:
    out = project(tmp_path / "set", {
        "config.py": "class A:\n    target = 'llvm -mcpu=x86-64'\n",
        "main.py": ("import tvm\nfrom config import A\na = A()\na.target = 'llvm'\n"
                    "tvm.target.Target(a.target)\n")})
    assert "also sets elsewhere" in out["main.py"].findings[0].message
    # (the class's own value only reaches targets: rewritten where it is written)
    assert '"mcpu": "x86-64"' in out["config.py"].text
    out = project(tmp_path / "field", {
        "config.py": ("import dataclasses\n@dataclasses.dataclass\nclass B:\n"
                      "    target: str = 'llvm -mcpu=x'\n"),
        "main.py": "import tvm\nfrom config import B\ntvm.target.Target(B(target='cuda').target)\n"})
    assert "a field each instance may set" in out["main.py"].findings[0].message


def test_a_target_another_module_returns_has_its_properties_read(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "targets.py": ("import tvm\ndef jetson() -> tvm.target.Target:\n"
                       "    return tvm.target.Target('cuda', host='llvm')\n"),
        "main.py": "from targets import jetson\nprint(jetson().arch)\n"})
    assert out["main.py"].text == ('from targets import jetson\n'
                                   'print(jetson().attrs.get("arch", ""))\n')


# ---- parameters: decided by their callers only when all are known ------------------------

@pytest.mark.parametrize(("name", "header", "closed"), [
    ("lib.py", "", False),                   # importable: other code may call it
    ("lib.py", "_", True),                   # private
    ("run.py", "", True),                    # a script nothing imports
    ("test_x.py", "", True),                 # a test module nothing imports
])
def test_the_callers_of_a_function(tmp_path: Path, name: str, header: str,
                                   closed: bool) -> None:
    source = (f"import tvm\ndef {header}build(target):\n"
              "    return tvm.target.Target(target)\n"
              f"{header}build('{LEGACY}')\n")
    if name == "run.py":
        source += "if __name__ == '__main__':\n    pass\n"
    out = project(tmp_path, {name: source})
    assert NEW in out[name].text  # the caller's value: it only reaches a target
    assert codes(out[name]) == ([] if closed else ["TL804"])


def test_a_script_another_module_imports_is_not_closed(tmp_path: Path) -> None:
    script = ("import tvm\ndef build(target):\n    return tvm.target.Target(target)\n"
              "if __name__ == '__main__':\n    build('llvm')\n")
    out = project(tmp_path, {"run.py": script, "other.py": "from run import build\n"})
    assert codes(out["run.py"]) == ["TL804"]


def test_a_private_function_called_from_another_module(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "lib.py": "import tvm\ndef _make(target):\n    return tvm.target.Target(target)\n",
        "main.py": f"from lib import _make\n_make('{LEGACY}')\n"})
    assert out["lib.py"].findings == [] and NEW in out["main.py"].text


def test_pytest_fixtures_of_a_conftest(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "tests/conftest.py": (f"import tvm.testing\nimport pytest\n"
                              f"target = tvm.testing.parameter('{LEGACY}')\n"
                              "@pytest.fixture(params=['llvm -mcpu=znver3'])\n"
                              "def host(request):\n    return request.param\n"),
        "tests/sub/test_a.py": ("import tvm\ndef test_a(target, host):\n"
                                "    tvm.target.Target(target, host=host)\n")})
    assert NEW in out["tests/conftest.py"].text and '"znver3"' in out["tests/conftest.py"].text
    assert all(r.findings == [] for r in out.values())


# ---- what no tool can decide: said, never guessed ----------------------------------------

def test_a_cycle_of_imports_is_a_report(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "a.py": "import tvm\nfrom b import T\ntvm.target.Target(T)\n",
        "b.py": "from a import T\n"})
    assert codes(out["a.py"]) == ["TL801"] and not out["a.py"].changed


def test_an_unreadable_module_is_a_report(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "a.py": "import tvm\nfrom b import T\ntvm.target.Target(T)\n",
        "b.py": "T = (\n"})
    assert codes(out["a.py"]) == ["TL802"]


def test_a_module_outside_the_run_is_a_report(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text(f'TARGET = "{LEGACY}"\n')
    out = project(tmp_path, {"a.py": "import tvm\nfrom config import T\ntvm.target.Target(T)\n"})
    assert codes(out["a.py"]) == ["TL803"]
    assert "upgrade the whole project in one run" in out["a.py"].findings[0].message


def test_a_module_outside_the_project_is_run_time(tmp_path: Path) -> None:
    out = project(tmp_path, {"a.py": "import tvm\nfrom numpy import T\ntvm.target.Target(T)\n"})
    assert codes(out["a.py"]) == ["TL201"]


def test_every_report_says_why_and_how_to_help(tmp_path: Path) -> None:
    out = project(tmp_path, {
        "lib.py": "import tvm\ndef build(target):\n    return tvm.target.Target(target)\n",
        "main.py": ("import tvm, sys\ntvm.target.Target(f'llvm -mcpu={sys.argv[1]}')\n"
                    "t = 'llvm' if sys.argv else 'cuda'\nt = sys.argv[1]\n"
                    "tvm.target.Target(t)\n")})
    for result in out.values():
        for finding in result.findings:
            assert "no tool" in finding.message or "only run time" in finding.message or \
                "depends on how the program runs" in finding.message, finding.message
            assert "or route it through targetlang.compat" in finding.message


# ---- one program, whatever the order ---------------------------------------------------------

def test_the_same_answers_whatever_file_asks_first(tmp_path: Path) -> None:
    files = {
        "a.py": ("import tvm\nfrom b import f\nX = 'llvm -mcpu=x86-64'\n"
                 "def g(t):\n    return f(t)\ntvm.target.Target(g(X))\n"),
        "b.py": ("import tvm\nfrom a import g\ndef f(t):\n    tvm.target.Target(t)\n"
                 "    return g(t)\n")}
    forward = project(tmp_path, files)
    program = Program.of_files([str(tmp_path / n) for n in reversed(list(files))])
    backward = {n: upgrade_text(files[n], path=str(tmp_path / n), file_type="python",
                                options=Options(program=program)) for n in reversed(list(files))}
    for name in files:
        assert forward[name].text == backward[name].text
        assert [str(f) for f in forward[name].findings] == [str(f) for f in backward[name].findings]


def test_the_cli_reads_the_run_as_one_program_with_any_jobs(tmp_path: Path) -> None:
    for number in range(6):  # enough files for the parallel path
        (tmp_path / f"config{number}.py").write_text(f'TARGET = "{LEGACY}"\n')
        (tmp_path / f"tune{number}.py").write_text(
            f"import tvm\nfrom config{number} import TARGET\ntvm.target.Target(TARGET)\n")
    outputs = []
    for jobs in ("1", "2"):
        out, err = io.StringIO(), io.StringIO()
        code = main(["upgrade", "--format", "json", "--jobs", jobs, str(tmp_path)],
                    stdin=io.StringIO(""), stdout=out, stderr=err, environ={})
        assert code == 0, err.getvalue()
        outputs.append(json.loads(out.getvalue()))
    assert outputs[0] == outputs[1] and len(outputs[0]) == 6
    assert all(site["path"].endswith(tuple(f"config{n}.py" for n in range(6)))
               for site in outputs[0])


def test_the_index_finds_imports_in_every_spelling() -> None:
    text = ("import a, b.c as d\nfrom .e import (f,\n    g as h)\nfrom i import *\n"
            "if x: from j import k\ntry: import l\nexcept: pass\nx = 1; from m import n\n"
            "from n import o \\\n    , p\n")
    found = index(["/p/x.py"], texts={"/p/x.py": text}).imports["/p/x.py"]
    modules = [module for module, _ in found]
    assert modules == ["a", "b.c", ".e", "i", "j", "l", "m", "n"]
    assert found[2][1] == (("f", "f"), ("g", "h")) and found[3][1] == (("*", "*"),)
    assert found[-1][1] == (("o", "o"), ("p", "p"))


def test_a_fifo_or_a_device_in_the_run_is_never_read_by_the_index(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "f.py"
    os.mkfifo(fifo)
    found = index([str(fifo), "/dev/zero"])  # returns: neither is opened
    assert found.imports == {}


# ---- the other file types in the program ---------------------------------------------------

def run(text: str, kind: str, path: str = "f", options: Options | None = None) -> FileResult:
    return upgrade_text(text, path=path, file_type=kind, options=options or Options())


def test_a_pages_python_blocks_are_one_program() -> None:
    page = ("```python\nimport tvm\ntarget = 'llvm -mcpu=skylake'\n```\n\nThen:\n\n"
            "```python\nlib = tvm.compile(mod, target=target)\n```\n\n"
            "<!-- targetlang: ignore -->\n```python\ntvm.target.Target('llvm -mcpu=x')\n```\n")
    result = run(page, "markdown", "a.md")
    assert NEW.replace("'", "'") in result.text and result.findings == []  # no TL601
    assert "Target('llvm -mcpu=x')" in result.text and result.suppressed == 1
    rst = (".. code-block:: python\n\n   import tvm\n   t = 'llvm -mcpu=skylake'\n\n"
           ">>> tvm.target.Target(t)\n")
    assert NEW in run(rst, "rst", "a.rst").text


def test_shell_arrays_exports_and_words_of_unknown_role() -> None:
    text = ("targets=('llvm' 'rocm -libs=miopen'\n  'llvm -mcpu=skylake')\n"
            "export TVM_TGT='llvm -mcpu=skylake'\nmy_tool --hw 'llvm -mcpu=skylake'\n"
            "llvm -mcpu=skylake on 1 workers\n")
    result = run(text, "shell")
    assert result.text.count('"kind"') == 2  # the array's items
    assert [(f.code, f.line) for f in result.findings] == [("TL604", 3), ("TL604", 4),
                                                           ("TL604", 5)]


def test_the_options_of_the_projects_own_script(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(
        "import argparse, tvm\np = argparse.ArgumentParser()\np.add_argument('model')\n"
        "p.add_argument('device')\np.add_argument('--hw')\np.add_argument('--log')\n"
        "a = p.parse_args()\ntvm.target.Target(a.device)\ntvm.compile(None, target=a.hw)\n"
        "print(a.log)\n")
    program = Program.of_files([str(tmp_path / "bench.py")], roots=[str(tmp_path)])
    text = ("python3 bench.py resnet 'llvm -mcpu=skylake' --hw='llvm -mcpu=skylake' "
            "--log 'llvm -mcpu=skylake'\n")
    result = run(text, "shell", str(tmp_path / "run.sh"), Options(program=program))
    assert result.text.count('"kind"') == 2  # the positional argument and --hw
    assert [f.code for f in result.findings] == ["TL604"]  # --log: printed, no target


def test_a_block_without_a_language_of_any_commands_is_shell() -> None:
    page = ("```\n./build/run_model --target=\"opencl --device=adreno\" --model x\n```\n\n"
            "```\ncuda -keys=cuda,gpu -arch=sm_80\n```\n")
    result = run(page, "markdown", "a.md")
    assert '\'{"kind": "opencl", "device": "adreno"}\'' in result.text
    assert [f.code for f in result.findings] == ["TL603"]  # output: a target on its own


def test_a_target_inside_a_larger_config_text_is_reported() -> None:
    text = ("- '!!python/object:W {args: [1], target: llvm -keys=cpu -link-params=0, "
            "name: x}'\n- 'plain text'\n")
    result = run(text, "yaml")
    assert [(f.code, f.line) for f in result.findings] == [("TL602", 1)]
    assert not result.changed


def test_a_chain_longer_than_followed_is_a_report(tmp_path: Path) -> None:
    files = {"m0.py": f'T = "{LEGACY}"\n'}
    for number in range(1, 20):
        files[f"m{number}.py"] = f"from m{number - 1} import T\n"
    files["main.py"] = "import tvm\nfrom m19 import T\ntvm.target.Target(T)\n"
    out = project(tmp_path, files)
    assert codes(out["main.py"]) == ["TL805"]
    assert not any(r.changed for r in out.values())  # nothing guessed
    short = project(tmp_path / "short", {
        "m0.py": f'T = "{LEGACY}"\n', "m1.py": "from m0 import T\n",
        "main.py": "import tvm\nfrom m1 import T\ntvm.target.Target(T)\n"})
    assert short["m0.py"].text == f"T = {NEW}\n"


def test_a_value_passed_as_keywords_of_a_dict_is_not_a_positional_argument(
        tmp_path: Path) -> None:
    out = project(tmp_path, {"a.py": (
        "import argparse, tvm\np = argparse.ArgumentParser()\np.add_argument('--d')\n"
        "args = p.parse_args()\ndef run(target=None, **kw):\n    tvm.target.Target(target)\n"
        "opts = {'x': args.d}\nrun(**opts)\n")})
    assert codes(out["a.py"])  # reported, no failure of the upgrade (it was TL005)
    assert "TL005" not in codes(out["a.py"])
