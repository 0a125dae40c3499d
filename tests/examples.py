"""The console examples of README.md and docs/*.md: each ``$ command`` with the output shown
under it, and the check that the command line prints exactly that."""

from __future__ import annotations

import io
import re
import shlex

from targetlang.cli import main


def console_examples(text: str) -> list[tuple[str, str]]:
    """Each ``$ command`` of the text's console blocks with the output shown under it."""
    examples: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def subcommands_shown(examples: list[tuple[str, str]]) -> set[str]:
    return {shlex.split(c.split("|")[-1] if c.startswith("echo ") and "|" in c else c)[1]
            for c, _ in examples if "targetlang" in c}


def check_console_examples(examples: list[tuple[str, str]]) -> None:
    """Run them in-process, one after another (``echo $?`` prints the previous exit code);
    stdout then stderr, as a terminal shows a program that writes one and then the other."""
    status = 0
    for command, expected in examples:
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
