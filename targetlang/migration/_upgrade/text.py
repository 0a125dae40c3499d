"""Files the upgrade reads but never rewrites: plain text, logs, build files, and sources in
other languages (C/C++, CUDA, JavaScript, ...). No grammar of theirs tells a target from text
about one, so each legacy target found in them is reported (TL608), and a tuning log as a
whole (TL609) with the command that rewrites it: nothing legacy in a project is left without
a word."""

from __future__ import annotations

import re

from .common import Finding, Lines, Options, Outcome
from .suppress import DIRECTIVE, directive_codes

__all__ = ["TEXT_ENDINGS", "TEXT_NAMES", "handle"]

#: endings of the files read as text (lower case)
TEXT_ENDINGS = (".txt", ".log", ".jsonl", ".cfg", ".ini", ".conf", ".env", ".bash", ".zsh",
                ".ksh", ".mk", ".cmake", ".markdown", ".c", ".cc", ".cpp", ".cxx", ".h",
                ".hh", ".hpp", ".cu", ".cuh", ".js", ".mjs", ".ts", ".java", ".rs", ".go",
                ".swift", ".kt", ".scala", ".r", ".jl", ".lua", ".tcl", ".ps1", ".bat")
#: names of the files read as text whatever their ending
TEXT_NAMES = ("makefile", "gnumakefile", "dockerfile", "jenkinsfile", "cmakelists.txt",
              "containerfile", "justfile", "vagrantfile", "procfile")

#: a line that is only a comment, in the languages read here
_COMMENT = re.compile(r"[ \t]*(?:#|//|/\*|\*|--|;|%|rem[ \t]|REM[ \t]|::)")
#: a record of an AutoTVM or Ansor tuning log, or of a MetaSchedule database
_RECORD = re.compile(r"""[ \t]*[\[{].*"(?:i|input)"[ \t]*:""")


def handle(text: str, path: str, options: Options) -> Outcome:
    """Report each legacy target of a text file; a tuning log once, as a whole."""
    outcome = Outcome()
    found = _legacy_targets(text)
    if not found:  # most files: nothing legacy-looking
        return outcome
    lines = text.splitlines()
    quiet = options.quiet(_directives(lines))
    records = [number for number in sorted(found)
               if number <= len(lines) and _RECORD.match(lines[number - 1])]
    if records:
        finding = Finding(path, records[0], 0, f"a tuning log ({len(records)} records hold "
                          "legacy targets, the first on this line): its records are rewritten "
                          "by `targetlang logs normalize FILE` (AutoTVM and Ansor logs, "
                          "MetaSchedule databases), not by the upgrade", "TL609")
        outcome.report(finding, "tuning log", quiet)
    positions = Lines(text)
    record_lines = set(records)
    for number, (at, target) in sorted(found.items()):
        if number in record_lines or _COMMENT.match(lines[number - 1]):
            continue
        line_number, column = positions.position(at)
        outcome.report(Finding(path, line_number, column, f"{target!r} looks like a legacy "
                               "target in a file the upgrade reads but does not rewrite "
                               "(plain text, a log, a build file, a source in another "
                               "language): if a program reads it as a target, write it as "
                               "JSON text (`targetlang migrate TARGET` prints it); else "
                               "suppress this code", "TL608"), "text line", quiet)
    outcome.suppressed = quiet.count
    return outcome


#: an option where a word ends: a legacy target's first option follows its kind name
_OPTION = re.compile(r" --?[A-Za-z_]|\t--?[A-Za-z_]")
#: what may stand before a kind name where a value starts (a quote, ``=``, a blank, ...)
_BOUNDARY = frozenset(" \t\r\n\"'`=([{,:")
#: where a target's text ends on its line
_VALUE_END = re.compile(r"[\"'`\r\n]")


def _legacy_targets(text: str) -> dict[int, tuple[int, str]]:
    """The first legacy-looking target of each line (from 1 -> its offset and text), found
    from the options, which are few, rather than by a pattern tried at every character (a
    large source reads in a few milliseconds)."""
    if " -" not in text and "\t-" not in text:
        return {}
    from .._pysites import looks_like_legacy  # (first use: the engine imports this module)

    found: dict[int, tuple[int, str]] = {}
    line, counted = 1, 0  # the matches come in order: newlines counted once, not per match
    for match in _OPTION.finditer(text):
        end = match.start()
        while end and text[end - 1] in " \t":
            end -= 1
        start = end
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        if start == end or (start and text[start - 1] not in _BOUNDARY):
            continue
        stop = _VALUE_END.search(text, match.start())
        target = text[start:stop.start() if stop else len(text)].rstrip(" \t\\;,)]}")
        if not looks_like_legacy(target):  # (the kind names of TVM 0.21, from its data)
            continue
        line += text.count("\n", counted, start)
        counted = start
        found.setdefault(line, (start, target))
    return found


def _directives(lines: list[str]) -> dict[int, frozenset[str] | None]:
    """``targetlang: ignore[...]`` on a line suppresses that line, and the next one when the
    directive is all the line says (a comment of its own)."""
    found: dict[int, frozenset[str] | None] = {}
    for number, line in enumerate(lines, 1):
        match = DIRECTIVE.search(line)
        if match is None:
            continue
        codes = directive_codes(match.group(1))
        found[number] = codes
        if _COMMENT.match(line) and not _legacy_targets(line):
            found[number + 1] = codes
    return found
