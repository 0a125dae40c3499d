"""docs/guide.md: its grammar summaries are the installed grammars, and its links resolve."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from conftest import REPO

GUIDE = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")


def summary(grammar: str) -> str:
    lines = [line.rstrip() for line in grammar.splitlines()]
    return "".join(line + "\n" for line in lines if line.strip() and not line.lstrip().startswith("//"))


@pytest.mark.parametrize("name", ["target.lark", "tvmc.lark"])
def test_grammar_summary_is_the_installed_grammar(name: str) -> None:
    block = re.search(rf"<!-- grammar: {re.escape(name)} -->\n```lark\n(.*?)```\n", GUIDE, re.S)
    assert block is not None, f"docs/guide.md has no summary of {name}"
    installed = resources.files("targetlang.grammar").joinpath(name).read_text("utf-8")
    assert block.group(1) == summary(installed), "run python3 scripts/sync_docs.py"


def test_relative_links_resolve() -> None:
    for target in re.findall(r"\]\((\.\./[^)#]+|[^):#]+\.md)\)", GUIDE):
        assert (REPO / "docs" / target).resolve().exists(), target
