"""Every import path the README, the docs and the API contract show works, and each is the one
path of what it names: a module found there is that module, not a second name for another."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO

# The API contract lives beside a developer's checkout; a clone has the README and docs/.
CONTRACT = REPO.parent / "shared" / "API.md"
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))] + \
    ([CONTRACT] if CONTRACT.is_file() else [])

_IMPORT = re.compile(r"^\s*(?:>>> |\.\.\. )?import (targetlang(?:\.\w+)*)", re.M)
_FROM = re.compile(r"^\s*(?:>>> |\.\.\. )?from (targetlang(?:\.\w+)*) import \(?([\w, ]+)", re.M)
# (not `[tool.targetlang.per-file-ignores]`, a TOML table, nor fuzz/targetlang.dict, a file)
_DOTTED = re.compile(r"(?<![\w./])(targetlang(?:\.[A-Za-z_]\w*)+)(?![\w/-])")


def paths_in(text: str) -> set[str]:
    """The dotted paths a page imports or names (``targetlang.compat.Target``)."""
    found = set(_IMPORT.findall(text)) | set(_DOTTED.findall(text))
    for module, names in _FROM.findall(text):
        found |= {f"{module}.{name.strip()}" for name in names.split(",") if name.strip()}
    return found


def resolve(path: str) -> object:
    """The object at ``path``: the longest importable module, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in parts[cut:]:
            value = getattr(value, part)
        return value
    raise ModuleNotFoundError(path)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_path_a_page_shows_works(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    paths = paths_in(text)
    assert paths or page.name not in ("README.md", "API.md")
    for path in sorted(paths):
        if path.endswith((".py", ".md", ".lark", ".dict")):  # a file name in prose
            continue
        value = resolve(path)  # ModuleNotFoundError / AttributeError: the page names what is gone
        if isinstance(value, ModuleType):
            assert value.__name__ == path, f"{page.name}: {path} is a second name of {value}"


def test_the_readmes_headline_paths_are_found() -> None:
    readme = paths_in((REPO / "README.md").read_text(encoding="utf-8"))
    assert any(path.startswith("targetlang.compat") for path in readme)
