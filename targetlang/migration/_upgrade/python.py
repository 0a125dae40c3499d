"""Python through the engine (``targetlang.pyscripts``): whole files, and programs embedded
in other files (notebook cells, documentation code blocks) mapped back to their place."""

from __future__ import annotations

import re
from typing import Any

from .. import pyscripts
from .common import Change, Edit, Options, Outcome, Quiet

__all__ = ["comment", "handle", "is_magic", "neutral", "run_engine"]

SITE = "python"
_INVALID = ("not Python", "the rewritten file")


def run_engine(program: str, *, path: str, options: Options,
               quiet: Quiet | None = None) -> tuple[Any, list[Edit]]:
    """The engine's result for one program, and its edits. ``quiet``: the suppressions
    (default: the configuration's codes and the program's own comments)."""
    quiet = quiet if quiet is not None else options.quiet()
    result = pyscripts.migrate_source(program, path=path,
                                      target_dialect=options.target_dialect,
                                      environment=options.environment,
                                      runtime=options.runtime, full=options.full,
                                      quiet=quiet, assume_tvm=options.docs,
                                      program=options.program)
    result.suppressed = quiet.count
    return result, list(result.edits)


def changes(result: Any, site: str) -> list[Change]:
    return [Change(r.line, r.column, r.old, r.new, r.kind, site, code=r.code,
                   end_line=r.end_line, end_column=r.end_column)
            for r in result.rewrites]


def handle(text: str, path: str, options: Options, quiet: Quiet | None = None) -> Outcome:
    """A ``.py`` file (``quiet``: the suppressions, when not only the text's own)."""
    result, edits = run_engine(text, path=path, options=options, quiet=quiet)
    outcome = Outcome()
    for finding in result.findings:
        if finding.message.startswith(_INVALID):
            outcome.invalid = finding
            return Outcome(invalid=finding)
        outcome.report(finding, SITE)
    outcome.edits = edits
    outcome.changes = changes(result, SITE)
    outcome.suppressed = result.suppressed
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
