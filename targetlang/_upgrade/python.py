"""Python through the engine (``targetlang.pyscripts``): whole files, and programs embedded
in other files (notebook cells, documentation code blocks) mapped back to their place."""

from __future__ import annotations

import difflib
import inspect
import re
from functools import cache
from typing import Any

from .. import pyscripts
from .common import Change, Edit, Options, Outcome

__all__ = ["comment", "derive_edits", "handle", "is_magic", "neutral", "run_engine"]

SITE = "python"
_INVALID = ("not Python", "the rewritten file")


@cache
def _accepted() -> frozenset[str]:
    """The keyword options this version of the engine takes (``runtime``, ``full`` came in
    issue 21; passed only where accepted)."""
    return frozenset(inspect.signature(pyscripts.migrate_source).parameters)


def derive_edits(old: str, new: str) -> list[Edit]:
    """The edits that turn ``old`` into ``new``: lines first, then narrowed to characters."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    new_starts = [0]
    for line in b:
        new_starts.append(new_starts[-1] + len(line))
    edits: list[Edit] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = starts[i1], starts[i2]
        replacement = new[new_starts[j1]:new_starts[j2]]
        segment = old[start:end]
        head = 0
        while head < min(len(segment), len(replacement)) and segment[head] == replacement[head]:
            head += 1
        tail = 0
        while tail < min(len(segment), len(replacement)) - head and \
                segment[-1 - tail] == replacement[-1 - tail]:
            tail += 1
        edits.append((start + head, end - tail, replacement[head:len(replacement) - tail]))
    return edits


def run_engine(program: str, *, path: str, options: Options) -> tuple[Any, list[Edit]]:
    """The engine's result for one program, and its edits (the engine's own when it gives
    them, else derived from the two texts)."""
    wanted: dict[str, Any] = {"path": path, "target_dialect": options.target_dialect,
                              "environment": options.environment,
                              "runtime": options.runtime, "full": options.full}
    accepted = _accepted()
    result = pyscripts.migrate_source(program, **{k: v for k, v in wanted.items()
                                                  if k in accepted})
    edits = getattr(result, "edits", None)
    if edits is None:
        edits = derive_edits(result.original, result.text) if result.changed else []
    return result, list(edits)


def _changes(result: Any, site: str) -> list[Change]:
    return [Change(r.line, r.column, r.old, r.new, getattr(r, "kind", "rewritten"), site)
            for r in result.rewrites]


def handle(text: str, path: str, options: Options) -> Outcome:
    """A ``.py`` file."""
    result, edits = run_engine(text, path=path, options=options)
    outcome = Outcome()
    for finding in result.findings:
        if finding.message.startswith(_INVALID):
            outcome.invalid = finding
            return Outcome(invalid=finding)
        outcome.report(finding, SITE)
    outcome.edits = edits
    outcome.changes = _changes(result, SITE)
    return outcome


# ---- programs embedded in other files ----------------------------------------------------------

_MAGIC = re.compile(r"[ \t]*(?:[%!?]|[\w.]+\?\??[ \t]*$|[\w.]+[ \t]*=[ \t]*[!%])")


def neutral(line: str) -> str:
    """A line of the same length that Python reads as doing nothing (``...`` keeps an
    indented block a block); its line ending kept."""
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    indent = len(body) - len(body.lstrip(" \t"))
    rest = len(body) - indent
    filler = "..." + " " * (rest - 3) if rest >= 3 else "#" * rest
    return body[:indent] + filler + ending


def comment(line: str) -> str:
    """A line of the same length that Python skips wherever it is (a comment); its line
    ending kept."""
    body = line.rstrip("\r\n")
    return ("#" + " " * (len(body) - 1) if body else "") + line[len(body):]


def is_magic(line: str) -> bool:
    """IPython syntax Python cannot read: ``%magic``, ``!shell``, ``?help``, ``name?``,
    ``files = !ls``."""
    return bool(_MAGIC.match(line))
