"""The README tells the truth: its examples run and CI runs its test command."""

from __future__ import annotations

import doctest
import re

import pytest

from conftest import REPO

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


@pytest.mark.parametrize("line", [
    line for line in README.splitlines() if line.startswith("$ targetlang")])
def test_readme_console_examples_are_listed(line: str) -> None:
    # The console examples are run for real in tests/test_cli.py; here: they name real commands.
    assert line.split()[2] in {"parse", "format", "check"}
