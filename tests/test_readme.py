"""The README tells the truth: its examples run and CI runs its test command."""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import tomllib
from conftest import REPO
from examples import check_console_examples, console_examples, subcommands_shown

import targetlang
from targetlang.cli import build_parser

README = (REPO / "README.md").read_text(encoding="utf-8")


def _setup_commands() -> list[str]:
    block = re.search(r"## Set-up\n\n```sh\n(.*?)```", README, re.S)
    assert block is not None
    return block.group(1).strip().splitlines()


def test_readme_has_two_setup_commands_and_ci_runs_the_second() -> None:
    commands = _setup_commands()
    assert len(commands) == 2
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == commands[1]


def test_readme_python_examples() -> None:
    parser = doctest.DocTestParser()
    # A code fence ends an example's expected output, as a blank line would.
    text = re.sub(r"^```.*$", "", README, flags=re.M)
    test = parser.get_doctest(text, {}, "README.md", str(REPO / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 5
    assert result.failed == 0


CONSOLE = console_examples(README)
DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted((REPO / "docs").glob("*.md"))}


def test_readme_and_docs_show_every_subcommand() -> None:
    # The README shows the first steps; docs/ shows every subcommand with its output.
    shown = subcommands_shown(CONSOLE)
    for text in DOCS.values():
        shown |= subcommands_shown(console_examples(text))
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(sub.choices) <= shown  # type: ignore[attr-defined]


def test_readme_console_examples_print_what_the_readme_shows() -> None:
    assert CONSOLE, "the README shows the command line"
    check_console_examples(CONSOLE)


def test_readme_strategies_example_passes_cold_under_default_settings(tmp_path: Path) -> None:
    # A user's first run: a fresh interpreter, no Hypothesis database or Unicode tables yet,
    # Hypothesis' default settings (the suite's "ci" profile would hide too_slow).
    # The example lives in docs/testing.md (the README links there).
    block = re.search(r"```python\n(from hypothesis import given\nfrom targetlang.strategies"
                      r".*?)```", DOCS["testing.md"], re.S)
    assert block is not None
    script = ("def my_tool(value):\n    return value\n\n" + block.group(1)
              + "\ntest_my_tool_keeps_targets()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HYPOTHESIS")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


def _github_anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _project_urls() -> dict[str, str]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]


HOME = _project_urls()["Source"]  # https://github.com/<owner>/<name>


def test_readme_links_are_absolute_and_reach_their_files_and_sections() -> None:
    # The README is also the package index's page, where a relative link goes nowhere: every
    # link is absolute, and one into this repository names a file of it (and a heading there).
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    assert len(links) >= 10
    inside = 0
    for link in links:
        assert link.startswith("https://"), link
        if not link.startswith(HOME + "/"):
            continue
        rest = link.removeprefix(HOME + "/blob/main/")
        assert rest != link, f"{link}: a file of the repository is {HOME}/blob/main/PATH"
        path, _, anchor = rest.partition("#")
        target = REPO / path
        assert target.is_file(), path
        inside += 1
        if anchor:
            text = re.sub(r"```.*?```", "", target.read_text(encoding="utf-8"), flags=re.S)
            headings = {_github_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}
            assert anchor in headings, f"{path}#{anchor}"
    assert inside >= 10


def test_readme_renders_for_the_package_index() -> None:
    # What PyPI shows: readme_renderer (the dev extra) renders the Markdown as the index does.
    markdown = pytest.importorskip("readme_renderer.markdown")
    if not any(importlib.util.find_spec(name) for name in ("comrak", "cmarkgfm")):
        pytest.skip("readme_renderer renders Markdown with comrak or cmarkgfm: "
                    "pip install 'readme_renderer[md]' (the dev extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Markdown renderers are not available" is a failure
        html = markdown.render(README, variant="GFM")
    assert ">Set-up<" in html and "<pre" in html
    # (the renderer's own anchors on the headings, #user-content-..., are not the README's)
    hrefs = [href for href in re.findall(r'href="([^"]*)"', html)
             if not href.startswith("#user-content-")]
    assert hrefs and all(href.startswith("https://") for href in hrefs), hrefs


def test_the_pre_commit_snippet_names_the_repository_and_a_release() -> None:
    page = (REPO / "docs" / "upgrade.md").read_text(encoding="utf-8")
    snippets = re.findall(r"- repo: (\S+)\n\s+rev: (\S+)", page)
    assert snippets and set(snippets) == {(HOME, f"v{targetlang.__version__}")}


def test_readme_is_short_and_the_upgrade_comes_first() -> None:
    assert len(README.encode("utf-8")) <= 12_500
    jobs = re.findall(r"^## (.*)$", README, re.M)
    assert jobs[:3] == ["Set-up", "My project stopped working on TVM 0.24+",
                        "Reading and checking targets"]
