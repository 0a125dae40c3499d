"""``targetlang upgrade`` as a tool one leaves in CI: codes and suppressions, configuration,
output formats (SARIF checked against the official schema), standard input, parallel runs in
a stable order, diffs that ``git apply`` takes, and bad input that never ends a run."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, TESTS

from targetlang.cli import main
from targetlang.migration._upgrade.codes import CODES

LEGACY = "rocm -mcpu=gfx908"


def cli(*argv: str, stdin: str = "", cwd: Path | None = None,
        environ: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err,
                    environ=environ or {})
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


# ---- codes ------------------------------------------------------------------------------------

def test_every_code_is_documented_with_what_to_do() -> None:
    page = (REPO / "docs" / "upgrade.md").read_text(encoding="utf-8")
    code, out, _ = cli("upgrade", "--list-codes")
    assert code == 0
    for entry in CODES.values():
        assert f"`{entry.id}`" in page, entry.id
        assert entry.id in out and entry.action[:30] in out


# ---- suppression ------------------------------------------------------------------------------

MIXED = f'import tvm\ntarget = "{LEGACY}"{{c}}\ndev = tvm.device(target, 0)\nt = tvm.target.Target(target)\n'


@pytest.mark.parametrize(("comment", "quiet"), [
    ("", False), ("  # targetlang: ignore", True), ("  # targetlang: ignore[TL301]", True),
    ("  # targetlang: ignore[TL3]", True), ("  # targetlang: ignore[TL601]", False),
    ("  # TARGETLANG: IGNORE[tl301, TL999]", True)])
def test_a_comment_on_the_line_suppresses_its_codes(tmp_path: Path, comment: str,
                                                     quiet: bool) -> None:
    write(tmp_path, {"a.py": MIXED.format(c=comment)})
    code, out, err = cli("upgrade", "--check", str(tmp_path / "a.py"))
    assert (code, "TL301" in err) == ((0, False) if quiet else (1, True)), err
    assert out == ""


def test_suppression_in_every_file_type_with_comments(tmp_path: Path) -> None:
    write(tmp_path, {
        "a.yaml": f"expected: {LEGACY}  # targetlang: ignore[TL602]\nnote: '{LEGACY}'\n",
        "b.toml": f'target = "{LEGACY}" # targetlang: ignore\n',
        "c.sh": "tvmc compile m.onnx  # targetlang: ignore[TL501]\n",
        "d.md": (f"<!-- targetlang: ignore -->\n```python\nimport tvm\n"
                 f"tvm.target.Target('{LEGACY}')\n```\n\n```sh\ntvmc run x  "
                 "# targetlang: ignore\n```\n"),
        "e.rst": f".. code-block:: python\n\n   tvm.target.Target('{LEGACY}')  # targetlang: ignore\n",
        "f.ipynb": json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                          "source": ["import tvm\n",
                                                     f"x = '{LEGACY}'\n",
                                                     "tvm.device(x)  # unrelated\n",
                                                     "tvm.target.Target(x)\n"]}],
                               "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
    })
    code, out, err = cli("upgrade", "--check", str(tmp_path))
    lines = [line for line in err.splitlines() if ": TL" in line]
    assert [line.split(": ")[1].split()[0] for line in lines] == ["TL602", "TL301"], err
    assert "a.yaml:2" in lines[0] and "f.ipynb:cell 1:2:" in lines[1]
    assert "would rewrite" not in err and code == 1
    assert "6 suppressed" in err


def test_a_suppressed_rewrite_keeps_the_old_text_and_is_stable(tmp_path: Path) -> None:
    text = f'import tvm\nt = tvm.target.Target("{LEGACY}")  # targetlang: ignore[TL101]\n'
    write(tmp_path, {"a.py": text})
    assert cli("upgrade", "--write", str(tmp_path))[0] == 0
    assert (tmp_path / "a.py").read_text() == text


# ---- configuration ----------------------------------------------------------------------------

def test_pyproject_configures_the_run(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": ('[tool.targetlang]\nto = "tvm-0.25"\nignore = ["TL6"]\n'
                           'extend-exclude = ["fixtures"]\n'
                           '[tool.targetlang.per-file-ignores]\n"tests/*.py" = ["TL301"]\n'),
        "src/a.py": f'import tvm\nt = tvm.target.Target("{LEGACY}")\nx = "{LEGACY}"\n',
        "tests/test_a.py": MIXED.format(c=""),
        "fixtures/broken.json": "{",
        "other/b.py": MIXED.format(c=""),
    })
    code, out, err = cli("upgrade", "--check", ".", cwd=tmp_path)
    assert "fixtures" not in err and "tests/test_a.py" not in err
    assert "other/b.py:2:10: TL301" in err and "TL601" not in err
    assert code == 1
    # the explicit file is excluded too (pre-commit passes files one by one)
    assert "fixtures" not in cli("upgrade", "--check", "fixtures/broken.json", cwd=tmp_path)[2]
    assert cli("upgrade", "--check", "--exit-zero", ".", cwd=tmp_path)[0] == 0
    code, _, err = cli("upgrade", "--check", "--extend-exclude", "other", ".", cwd=tmp_path)
    assert code == 1 and "would rewrite src/a.py" in err and "other" not in err
    bad = tmp_path / "bad.toml"
    bad.write_text('[tool.targetlang]\nignore = ["TL99x"]\n')
    code, _, err = cli("upgrade", "--config", str(bad), ".", cwd=tmp_path)
    assert code == 2 and "unknown code TL99X" in err


def test_a_config_key_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.targetlang]\nignores = ['TL1']\n", "a.py": ""})
    code, _, err = cli("upgrade", "a.py", cwd=tmp_path)
    assert code == 2 and "did you mean 'ignore'" in err


# ---- output formats ---------------------------------------------------------------------------

PROJECT = {"a.py": MIXED.format(c="") + f'u = tvm.target.Target("{LEGACY}")\n',
           "b.yaml": f"target: {LEGACY}\n", "c.sh": "tvmc compile m.onnx\n"}


def test_json_output(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    code, out, _ = cli("upgrade", "--format", "json", ".", cwd=tmp_path)
    sites = json.loads(out)
    assert code == 1
    assert {(s["path"], s["code"], s["replacement"] is None) for s in sites} == {
        ("a.py", "TL301", True), ("a.py", "TL101", False), ("b.yaml", "TL101", False),
        ("c.sh", "TL501", True)}
    assert all({"line", "column", "end_line", "end_column", "message"} <= set(s) for s in sites)


def test_sarif_output_is_valid_sarif_2_1_0(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    write(tmp_path, PROJECT)
    code, out, _ = cli("upgrade", "--format", "sarif", ".", cwd=tmp_path)
    log = json.loads(out)
    schema = json.loads((TESTS / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(log, schema)
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"TL301", "TL101", "TL501"}
    assert any("fixes" in r for r in results)


def test_github_annotations(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    code, out, _ = cli("upgrade", "--check", "--format", "github", ".", cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1 and all(line.startswith(("::error ", "::notice ")) for line in lines)
    assert any("file=a.py,line=2,col=10" in line and "TL301" in line for line in lines)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_diff_is_what_git_apply_takes(tmp_path: Path) -> None:
    write(tmp_path, {**PROJECT, "sub/no_newline.py": f'import tvm\nt = tvm.target.Target("{LEGACY}")'})
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    _, diff, _ = cli("upgrade", ".", cwd=tmp_path)
    _, _, _ = cli("upgrade", "--write", ".", cwd=tmp_path / "..") if False else (0, "", "")
    assert "a/./" not in diff and "a//" not in diff and "\\ No newline at end of file" in diff
    (tmp_path / "p.diff").write_text(diff)
    done = subprocess.run(["git", "apply", "--check", "p.diff"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, check=True)
    assert cli("upgrade", ".", cwd=tmp_path)[1] == ""  # applied: nothing left to change


def test_colour_on_request_and_never_in_a_pipe(tmp_path: Path) -> None:
    write(tmp_path, {"b.yaml": f"target: {LEGACY}\n"})
    assert "\033[" not in cli("upgrade", ".", cwd=tmp_path)[1]
    assert "\033[" in cli("upgrade", "--color", "always", ".", cwd=tmp_path)[1]
    assert "\033[" in cli("upgrade", ".", cwd=tmp_path, environ={"FORCE_COLOR": "1"})[1]
    assert "\033[" not in cli("upgrade", ".", cwd=tmp_path,
                              environ={"FORCE_COLOR": "1", "NO_COLOR": "1"})[1]


def test_standard_input(tmp_path: Path) -> None:
    source = f'import tvm\nt = tvm.target.Target("{LEGACY}")\n'
    code, out, _ = cli("upgrade", "--write", "-", stdin=source)
    assert code == 0 and out.startswith("import tvm\nt = tvm.target.Target({")
    code, out, _ = cli("upgrade", "--write", "--stdin-filename", "c.yaml", "-",
                       stdin=f"target: {LEGACY}\n")
    assert out.startswith("target: '{")
    code, out, _ = cli("upgrade", "--stdin-filename", "x/c.yaml", "-", stdin=f"target: {LEGACY}\n")
    assert out.startswith("--- a/x/c.yaml\n+++ b/x/c.yaml\n")
    assert cli("upgrade", "--check", "-", stdin=source)[0] == 1


def test_jobs_give_the_same_output_in_the_same_order(tmp_path: Path) -> None:
    for number in range(30):
        write(tmp_path, {f"d{number % 3}/f{number}.py": MIXED.format(c="") +
                         f'u = tvm.target.Target("{LEGACY}")\n'})
    one = cli("upgrade", "--jobs", "1", ".", cwd=tmp_path)
    two = cli("upgrade", "--jobs", "2", ".", cwd=tmp_path)
    assert one == two and one[1].count("+++ b/") == 30


def test_quiet_and_the_summary_counts_real_changes_only(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": 'import tvm\nt = tvm.target.Target({"kind": "cuda"})\n'})
    code, out, err = cli("upgrade", ".", cwd=tmp_path)
    assert "0 changed; 0 sites rewritten" in err
    write(tmp_path, {"b.yaml": f"target: {LEGACY}\n"})
    assert cli("upgrade", "-q", ".", cwd=tmp_path)[2] == ""


def test_migrate_py_is_upgrade_restricted_to_python(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    upgrade = cli("upgrade", "a.py", cwd=tmp_path)
    migrate = cli("migrate", "--py", "a.py", cwd=tmp_path)
    assert upgrade == migrate and upgrade[0] == 1


# ---- bad input ------------------------------------------------------------------------------

def test_bad_input_never_ends_the_run(tmp_path: Path) -> None:
    write(tmp_path, {
        "a_deep.json": "[" * 3000 + "]" * 3000,
        "b_deep.json": '{"target": ' + "[" * 3000 + f'"{LEGACY}"' + "]" * 3000 + "}",
        "c.yaml": "x: a: b\n", "d.yaml": "a: 1\x00\n", "e.yaml": "a:\n\tb: 1\n",
        "f.toml": '[[array.of.tables]]\nname = "x"\n[[array.of.tables]]\n'
                  f'target = "{LEGACY}"\n',
        "g.ipynb": '{"cells": 1}', "h.py": "(" * 500 + ")" * 500,
        "l.toml": "a = " + "[" * 5000 + "]" * 5000 + "\n",
        "i.rst": f"Text.\n\n>>> import tvm\n>>> tvm.target.Target('{LEGACY}')\n",
        "j.sh": f'X=$(python x.py --target "{LEGACY}")\n',
        "k.md": f"Text:\n\n```\nimport tvm\nt = tvm.target.Target('{LEGACY}')\n```\n\n"
                f"```python\ntvm.target.Target('{LEGACY}'\n```\n",
        "z.py": f'import tvm\nt = tvm.target.Target("{LEGACY}")\n',
    })
    os.mkfifo(tmp_path / "fifo.py")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "sock.py"))
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        code, out, err = cli("upgrade", "--check", str(tmp_path))
    finally:
        locked.chmod(0o700)
        listener.close()
    assert code == 2 and "Traceback" not in err
    assert "fifo.py: not a regular file (a FIFO)" in err and "sock.py: not a regular" in err
    if os.geteuid() != 0:
        assert "locked: cannot be listed" in err
    assert "TL005" not in err
    for name in ("c.yaml", "d.yaml", "e.yaml", "g.ipynb", "l.toml"):
        assert f"{name}:" in err and "TL001" in err, name
    assert "b_deep.json" in err  # a deep value: checked, would be rewritten
    for name in ("f.toml", "i.rst", "j.sh", "k.md", "z.py"):
        assert f"would rewrite {tmp_path / name}" in err, name
    assert "k.md:9:1: TL004" in err


def test_a_notebook_site_in_sarif_and_annotations_points_at_its_line_in_the_file(
        tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# x\n"]},
                          {"cell_type": "code", "metadata": {}, "outputs": [],
                           "execution_count": None,
                           "source": ["import tvm\n", f"x = '{LEGACY}'\n", "tvm.device(x)\n",
                                      "tvm.target.Target(x)\n"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(notebook, indent=1)
    write(tmp_path, {"n.ipynb": text})
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "x = " in row)
    _, out, _ = cli("upgrade", "--format", "sarif", ".", cwd=tmp_path)
    log = json.loads(out)
    jsonschema.validate(log, json.loads((TESTS / "data" / "sarif" /
                                         "sarif-schema-2.1.0.json").read_text()))
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": line}
    assert result["properties"] == {"cell": 2, "cellLine": 2, "cellColumn": 5}
    _, out, _ = cli("upgrade", "--format", "github", ".", cwd=tmp_path)
    assert f"file=n.ipynb,line={line}," in out and "cell 2:2:5" in out


def test_the_documented_ci_steps_go_green_once_a_project_is_upgraded_and_configured(
        tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    page = (REPO / "docs" / "upgrade.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in page.split("```yaml\n")[1:]]
    workflow = yaml.safe_load(next(b for b in blocks if "runs-on" in b))
    hooks = yaml.safe_load(next(b for b in blocks if "repos:" in b))
    assert hooks["repos"][0]["hooks"] == [{"id": "targetlang-upgrade"}]
    step = workflow["jobs"]["upgrade"]["steps"][-1]["run"].split()
    assert step[:3] == ["targetlang", "upgrade", "--check"] and step[-1] == "."
    write(tmp_path, {**PROJECT, "d.py": MIXED.format(c="")})
    assert cli(*step[1:], cwd=tmp_path)[0] == 1  # before: work to do
    cli("upgrade", "--write", ".", cwd=tmp_path)
    code, out, _ = cli(*step[1:], cwd=tmp_path)
    assert code == 1 and "TL301" in out and "TL501" in out  # what a person looked at
    write(tmp_path, {"pyproject.toml": '[tool.targetlang.per-file-ignores]\n'
                                       '"a.py" = ["TL301"]\n"d.py" = ["TL3"]\n'
                                       '"c.sh" = ["TL501"]\n'})
    assert cli(*step[1:], cwd=tmp_path)[:2] == (0, "")
    hook = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert cli(*hook["entry"].split()[1:], *files, cwd=tmp_path)[0] == 0  # as pre-commit runs it


def test_workers_end_with_a_parent_killed_outright(tmp_path: Path) -> None:
    import signal
    import sys
    import time

    for number in range(120):
        write(tmp_path, {f"f{number}.py": f'import tvm\nt = tvm.target.Target("{LEGACY}")\n'
                                         + "x = 1\n" * 2000})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "targetlang", "upgrade", "--write",
                             "--jobs", "2", str(tmp_path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)  # the workers hold standard error until they are gone
    # a worker finishes the file it writes, then ends: no temporary file of its own stays
    done = subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--check",
                           str(tmp_path)], capture_output=True, env=env, timeout=300)
    assert done.returncode in (0, 1) and not list(tmp_path.glob("*.tmp"))
    subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--write", str(tmp_path)],
                   capture_output=True, env=env, timeout=300, check=True)
    assert all("{" in p.read_text() for p in tmp_path.glob("*.py"))
