"""docs/: the guide's grammar summaries are the installed grammars, and every page describes the
current library (its examples run, the names and commands it shows exist, its links resolve)."""

from __future__ import annotations

import doctest
import importlib
import re
from types import ModuleType

import pytest
from conftest import REPO
from examples import check_console_examples, console_examples
from golden import records

import targetlang
from targetlang._syntax.grammar import grammar_text
from targetlang.cli import build_parser

GUIDE = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")


def summary(grammar: str) -> str:
    lines = [line.rstrip() for line in grammar.splitlines()]
    return "".join(line + "\n" for line in lines if line.strip() and not line.lstrip().startswith("//"))


@pytest.mark.parametrize("name", ["target.lark", "tvmc.lark"])
def test_grammar_summary_is_the_installed_grammar(name: str) -> None:
    block = re.search(rf"<!-- grammar: {re.escape(name)} -->\n```lark\n(.*?)```\n", GUIDE, re.S)
    assert block is not None, f"docs/guide.md has no summary of {name}"
    installed = grammar_text(name)  # installed, or the source tree's (an unpacked sdist)
    assert block.group(1) == summary(installed), "run python3 scripts/sync_docs.py"


# ---- every page describes the current library ------------------------------------------------

DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted((REPO / "docs").glob("*.md"))}


@pytest.mark.parametrize("name", sorted(DOCS))
def test_doc_python_examples_run(name: str) -> None:
    parser = doctest.DocTestParser()
    # A code fence ends an example's expected output, as a blank line would (as in README.md).
    text = re.sub(r"^```.*$", "", DOCS[name], flags=re.M)
    test = parser.get_doctest(text, {}, name, str(REPO / "docs" / name), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", sorted(DOCS))
def test_doc_console_examples_print_what_the_page_shows(name: str) -> None:
    check_console_examples(console_examples(DOCS[name]))


@pytest.mark.parametrize("name", sorted(DOCS))
def test_doc_has_no_placeholders_or_outside_paths(name: str) -> None:
    text = DOCS[name]
    for stale in (r"\bissue #\d", r"fills it in", r"\bTODO\b", r"\bTBD\b", r"\.\./shared"):
        assert not re.search(stale, text), f"{name}: {stale}"


@pytest.mark.parametrize("name", sorted(DOCS))
def test_doc_names_and_commands_exist(name: str) -> None:
    text = DOCS[name]
    for dotted in re.findall(r"`targetlang\.([A-Za-z_][\w.]*)", text):
        value: object = targetlang
        for part in dotted.split("."):
            if isinstance(value, ModuleType) and not hasattr(value, part):
                try:  # a submodule not imported yet (targetlang.strategies)
                    value = importlib.import_module(f"{value.__name__}.{part}")
                    continue
                except ModuleNotFoundError:
                    pass
            value = getattr(value, part)  # AttributeError: the page names what is gone
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in re.findall(r"`targetlang ([a-z][a-z-]*)", text):
        assert command in sub.choices, f"{name}: targetlang {command}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(DOCS))
def test_doc_relative_links_resolve(name: str) -> None:
    for target in re.findall(r"\]\((\.\./[^)#]+|[^):#]+\.md)\)", DOCS[name]):
        assert (REPO / "docs" / target).resolve().exists(), f"{name}: {target}"


def test_guide_lists_every_dialect_and_the_current_counts() -> None:
    table = GUIDE[GUIDE.index("## 2. Dialects"):GUIDE.index("## 3.")]
    for dialect in targetlang.dialects():
        assert f"`{dialect}`" in table, dialect
    assert f"{len(targetlang.kinds())} kinds, {len(targetlang.tags())} tags" in table
    assert f"all {len(records()):,} cases" in GUIDE


def test_guide_states_the_limits_the_code_keeps() -> None:
    from targetlang._lower.core import MAX_JSON_DEPTH, MAX_TARGET_DEPTH
    from targetlang._memo import ORDINARY_CHARS

    limits = GUIDE[GUIDE.index("## 7. Limits"):]
    assert f"at most {MAX_TARGET_DEPTH} targets deep" in limits
    assert f"at most {MAX_JSON_DEPTH} levels" in limits
    assert f"up to {ORDINARY_CHARS:,} characters" in limits
