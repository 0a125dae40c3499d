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

#: a kind name of TVM 0.21 followed by an option, where a value starts (a quote, ``=``, a
#: blank, a bracket): what a legacy target looks like in any language's text
_LEGACY = re.compile(
    r"""(?:^|(?<=[\s"'`=(\[{,:]))((?:llvm|cuda|rocm|opencl|vulkan|metal|nvptx|hexagon|webgpu|"""
    r"""c|ext_dev|hybrid|aocl|sdaccel|aocl_sw_emu|stackvm|sdaccel|example_npu|composite)"""
    r"""[ \t]+--?[A-Za-z_][^"'`\r\n]*)""")
#: a line that is only a comment, in the languages read here
_COMMENT = re.compile(r"[ \t]*(?:#|//|/\*|\*|--|;|%|rem[ \t]|REM[ \t]|::)")
#: a record of an AutoTVM or Ansor tuning log, or of a MetaSchedule database
_RECORD = re.compile(r"""[ \t]*[\[{].*"(?:i|input)"[ \t]*:""")


def handle(text: str, path: str, options: Options) -> Outcome:
    """Report each legacy target of a text file; a tuning log once, as a whole."""
    outcome = Outcome()
    candidates = _candidate_lines(text)
    if not candidates:  # most files: nothing legacy-looking
        return outcome
    from .._pysites import looks_like_legacy  # (first use: the engine imports this module)

    lines = text.splitlines()
    quiet = options.quiet(_directives(lines))
    records = [number for number, line in enumerate(lines, 1)
               if _RECORD.match(line) and _LEGACY.search(line)]
    if records:
        finding = Finding(path, records[0], 0, f"a tuning log ({len(records)} records hold "
                          "legacy targets, the first on this line): its records are rewritten "
                          "by `targetlang logs normalize FILE` (AutoTVM and Ansor logs, "
                          "MetaSchedule databases), not by the upgrade", "TL609")
        outcome.report(finding, "tuning log", quiet)
    positions = Lines(text)
    record_lines = set(records)
    for number in sorted(candidates):
        line = lines[number - 1] if number <= len(lines) else ""
        if number in record_lines or _COMMENT.match(line):
            continue
        for match in _LEGACY.finditer(line):
            found = match.group(1).rstrip(" \t\\;,)]}")
            if not looks_like_legacy(found):
                continue
            column = match.start(1)
            at = positions.starts[number - 1] + column
            line_number, column = positions.position(at)
            outcome.report(Finding(path, line_number, column, f"{found!r} looks like a legacy "
                                   "target in a file the upgrade reads but does not rewrite "
                                   "(plain text, a log, a build file, a source in another "
                                   "language): if a program reads it as a target, write it "
                                   "as JSON text (`targetlang migrate TARGET` prints it); "
                                   "else suppress this code", "TL608"), "text line", quiet)
            break  # one report a line
    outcome.suppressed = quiet.count
    return outcome


#: an option where a word ends: a legacy target's first option follows its kind name
_OPTION = re.compile(r" --?[A-Za-z_]|\t--?[A-Za-z_]")
_KINDS = frozenset({"llvm", "cuda", "rocm", "opencl", "vulkan", "metal", "nvptx", "hexagon",
                    "webgpu", "c", "ext_dev", "hybrid", "aocl", "sdaccel", "aocl_sw_emu",
                    "stackvm", "example_npu", "composite"})
_BOUNDARY = frozenset(" \t\r\n\"'`=([{,:")


def _candidate_lines(text: str) -> set[int]:
    """The lines (from 1) where a kind name is followed by an option: found from the
    options, which are few, rather than by a pattern tried at every character (a large
    source reads in a few milliseconds)."""
    if " -" not in text and "\t-" not in text:
        return set()
    found: set[int] = set()
    line, counted = 1, 0  # the matches come in order: newlines counted once, not per match
    for match in _OPTION.finditer(text):
        end = match.start()
        while end and text[end - 1] in " \t":
            end -= 1
        start = end
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        if end - start <= 11 and text[start:end] in _KINDS and (
                start == 0 or text[start - 1] in _BOUNDARY):
            line += text.count("\n", counted, start)
            counted = start
            found.add(line)
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
        if _COMMENT.match(line) and not _LEGACY.search(line):
            found[number + 1] = codes
    return found
