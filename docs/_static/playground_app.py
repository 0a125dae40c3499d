"""What the playground page (docs/playground.md) runs in the browser, under Pyodide: one input
read by the real library. Plain CPython runs it too (tests/test_site.py)."""

from __future__ import annotations

import json
import shlex
import warnings
from typing import Any

import targetlang
from targetlang._inspect.explain import node, render
from targetlang.migration.pyscripts import migrate_source
from targetlang.tvmc import parse_tvmc_args


def kind_of_input(text: str) -> str:
    """``tvmc`` (a tvmc command line), ``python`` (lines of a script), or ``target``: legacy
    text, a tag or JSON text, which are one line or start with ``{``."""
    stripped = text.strip()
    if stripped.startswith(("tvmc ", "--target")):
        return "tvmc"
    if stripped.startswith("{"):
        return "target"
    if "\n" in stripped or stripped.startswith(("import ", "from ")) or "tvm." in stripped:
        return "python"
    return "target"


def target_words(words: list[str]) -> list[str]:
    """The ``--target...`` arguments of a tvmc command line (its command and files left out)."""
    kept: list[str] = []
    for i, word in enumerate(words):
        if word.startswith("--target"):
            kept.append(word)
            if "=" not in word and i + 1 < len(words):
                kept.append(words[i + 1])
    return kept


def read(text: str) -> targetlang.Target:
    """The text as TVM 0.21 reads it, or else in the newest release that reads it (a
    ``-link-params`` string of TVM 0.8, say); TVM 0.21's error when none does."""
    try:
        return targetlang.parse(text)
    except targetlang.TargetError as error:
        try:
            return targetlang.parse(text, dialect=targetlang.detect_dialect(text))
        except targetlang.TargetError:
            raise error from None


def run(text: str, release: str = "tvm-0.27") -> dict[str, Any]:
    """Every answer the page shows for ``text``, with the upgrade to ``release`` and the
    warnings the library gave (``MigrationWarning``: what the upgrade moved or dropped)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = answer(text, release)
    out["warnings"] = [str(warning.message) for warning in caught]
    return out


def answer(text: str, release: str) -> dict[str, Any]:
    kind = kind_of_input(text)
    out: dict[str, Any] = {"input": kind, "release": release, "version": targetlang.__version__}
    try:
        if kind == "python":
            result = migrate_source(text, path="playground.py", target_dialect=release)
            out["upgraded_python"] = result.text
            out["diff"] = result.diff()
            out["findings"] = [str(finding) for finding in result.findings]
            return out
        if kind == "tvmc":
            words = shlex.split(text.strip())
            words = words[1:] if words and words[0] == "tvmc" else words
            target_text, options = parse_tvmc_args(target_words(words))
            if target_text is None:
                raise targetlang.TargetError("no --target in this tvmc line", source=text)
            tvmc = targetlang.parse_tvmc(target_text, options)
            out["tvmc_json"] = tvmc.to_json()
            target = tvmc.target
        else:
            target = read(text)
        out["dialect"] = target.dialect
        out["json"] = target.to_json()
        out["canonical"] = target.to_string()
        out["explain"] = render(node(target))
        # what `targetlang upgrade` writes: only what the release would not fill in by itself
        out["upgrade"] = targetlang.migrate(target, target_dialect=release, minimal=True)
    except targetlang.TargetError as error:
        out["error"] = str(error)
    return out


def run_json(text: str, release: str = "tvm-0.27") -> str:
    """:func:`run`'s answer as JSON text, for the page's JavaScript."""
    return json.dumps(run(text, release), indent=2)
