"""The API reference's rule: every entry says what it is (docs/_ext/targetlang_api.py fails the
build, which tests/test_site.py runs with -W, on one that does not)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from conftest import REPO

pytest.importorskip("sphinx")
sys.path.insert(0, str(REPO / "docs" / "_ext"))

import targetlang_api  # noqa: E402
from docutils import nodes  # noqa: E402
from sphinx import addnodes  # noqa: E402


class _Warnings:
    def __init__(self) -> None:
        self.said: list[str] = []

    def warning(self, message: str, *args: Any, **kwargs: Any) -> None:
        self.said.append(message % args)


def _entry(*content: nodes.Node) -> addnodes.desc_content:
    signature = addnodes.desc_signature(module="targetlang.demo", fullname="Thing.size")
    body = addnodes.desc_content("", *content)
    addnodes.desc("", signature, body)
    return body


@pytest.mark.parametrize("content, missing", [
    ((), True),
    ((nodes.paragraph(text="Bases: object"),), True),
    ((nodes.paragraph(text="Alias for field number 0"),), True),
    ((nodes.paragraph(text="Bases: object"), nodes.paragraph(text="The size, in bytes.")), False),
    ((nodes.paragraph(text="The size, in bytes."),), False),
], ids=["empty", "only-bases", "namedtuple-alias", "bases-and-text", "text"])
def test_an_entry_without_its_own_text_is_a_warning(monkeypatch: pytest.MonkeyPatch,
                                                    content: tuple[nodes.Node, ...],
                                                    missing: bool) -> None:
    said = _Warnings()
    monkeypatch.setattr(targetlang_api, "logger", said)
    targetlang_api.require_description(None, "py", "attribute",  # type: ignore[arg-type]
                                       _entry(*content))
    assert said.said == (["attribute targetlang.demo.Thing.size has no docstring: say what "
                          "it is (and what it raises)"] if missing else [])


def test_the_reference_lists_public_modules_only() -> None:
    modules = targetlang_api.public_modules()
    assert "targetlang.compat" in modules and "targetlang.cli" in modules
    assert not [m for m in modules if any(part.startswith("_") for part in m.split("."))]
    assert not [m for m in modules if m.startswith("targetlang.cli.")]  # the command's machinery
