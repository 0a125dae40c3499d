"""The README tells the truth: its examples run and CI runs its test command."""

from __future__ import annotations

import doctest
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from targetlang.cli import build_parser, main

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


def _console_examples() -> list[tuple[str, str]]:
    """Each ``$ command`` of the README's console blocks with the output shown under it."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


CONSOLE = _console_examples()


def test_readme_shows_every_subcommand() -> None:
    shown = {shlex.split(c.split("|")[-1] if c.startswith("echo ") and "|" in c else c)[1]
             for c, _ in CONSOLE if "targetlang" in c}
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(sub.choices) <= shown  # type: ignore[attr-defined]


def test_readme_console_examples_print_what_the_readme_shows() -> None:
    # Run in-process, one after another (``echo $?`` prints the previous exit code); stdout
    # then stderr, as a terminal shows a program that writes one and then the other.
    status = 0
    for command, expected in CONSOLE:
        if command == "echo $?":
            assert expected == f"{status}\n", command
            continue
        stdin = ""
        if command.startswith("echo ") and " | " in command:
            echo, command = command.split(" | ", 1)
            stdin = shlex.split(echo)[1] + "\n"
        head = None
        if " | head -n " in command:
            command, count = command.split(" | head -n ")
            head = int(count)
        words = shlex.split(command)
        assert words[0] == "targetlang", command
        out, err = io.StringIO(), io.StringIO()
        status = main(words[1:], stdin=io.StringIO(stdin), stdout=out, stderr=err, environ={})
        shown = out.getvalue() + err.getvalue()
        if head is not None:
            shown = "".join(shown.splitlines(keepends=True)[:head])
        assert shown == expected, command


def test_readme_strategies_example_passes_cold_under_default_settings(tmp_path: Path) -> None:
    # A user's first run: a fresh interpreter, no Hypothesis database or Unicode tables yet,
    # Hypothesis' default settings (the suite's "ci" profile would hide too_slow).
    block = re.search(r"```python\n(from hypothesis import given\nfrom targetlang.strategies"
                      r".*?)```", README, re.S)
    assert block is not None
    script = ("def my_tool(value):\n    return value\n\n" + block.group(1)
              + "\ntest_my_tool_keeps_targets()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HYPOTHESIS")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
