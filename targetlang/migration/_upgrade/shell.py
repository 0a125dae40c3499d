"""Shell scripts (and ``sh``/``bash``/``console`` code blocks): arguments and assignments
holding a legacy target become JSON text in single quotes; ``tvmc`` command lines, which
have no TVM 0.24+ equivalent, are reported.

The scanner reads words as the shell does (quotes, backslashes, ``$(...)``, comments, here
documents, continuation lines) and keeps where each word is, so that one word can be
replaced in the bytes of the file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .common import Finding, Lines, Options, Outcome, Quiet, may_be_target, value_site
from .suppress import comment_lines

__all__ = ["Word", "commands", "handle", "quote"]

#: Options whose value is a target: --target, --target-host, --target_host, --tvm-target,
#: --host (as tune_relay-style scripts name them).
_TARGET_OPTION = re.compile(r"--?(?:[A-Za-z0-9_-]*target[A-Za-z0-9_-]*|host)", re.I)
_TARGET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.A)
_OPERATORS = ";&|()"
_DECLARE = {"export", "declare", "local", "readonly", "typeset", "env"}
TVMC_MESSAGE = ("tvmc left TVM in 0.20 (with Relay); TVM 0.24+ has no command line to "
                "compile with: build from Python (tvm.compile / relax.build) with the target "
                "as JSON (`targetlang tvmc TARGET` prints tvmc's targets as TargetJSON)")


@dataclass(frozen=True, slots=True)
class Word:
    """A shell word: where it is, its source text, its value after quote removal, and
    whether it is literal (no expansion: ``$``, backquotes)."""

    start: int
    end: int
    raw: str
    value: str
    literal: bool


def quote(value: str) -> str:
    """``value`` in single quotes, a single quote in it written ``'\\''``."""
    return "'" + value.replace("'", "'\\''") + "'"


def unquote(raw: str) -> tuple[str, bool]:
    """The value of a word's source text and whether it is literal."""
    out: list[str] = []
    literal = True
    index, size = 0, len(raw)
    while index < size:
        char = raw[index]
        if char == "'":
            end = raw.find("'", index + 1)
            end = size if end < 0 else end
            out.append(raw[index + 1:end])
            index = end + 1
        elif char == '"':
            index += 1
            while index < size and raw[index] != '"':
                if raw[index] == "\\" and index + 1 < size and raw[index + 1] in '$`"\\\n':
                    out.append(raw[index + 1] if raw[index + 1] != "\n" else "")
                    index += 2
                    continue
                if raw[index] in "$`":
                    literal = False
                out.append(raw[index])
                index += 1
            index += 1
        elif char == "\\" and index + 1 < size:
            out.append(raw[index + 1] if raw[index + 1] != "\n" else "")
            index += 2
        else:
            if char in "$`":
                literal = False
            out.append(char)
            index += 1
    return "".join(out), literal


def _skip_expansion(text: str, index: int) -> int:
    """The end of ``$(...)`` / ``${...}`` / backquotes starting at ``index``."""
    opener = text[index:index + 2]
    if opener in ("$(", "${"):
        close = ")" if opener == "$(" else "}"
        depth, index = 1, index + 2
        while index < len(text) and depth:
            char = text[index]
            if char == "\\":
                index += 2
                continue
            if char in "'\"":
                end = text.find(char, index + 1)
                index = len(text) if end < 0 else end + 1
                continue
            if char == opener[1]:
                depth += 1
            elif char == close:
                depth -= 1
            index += 1
        return index
    end = text.find("`", index + 1)
    return len(text) if end < 0 else end + 1


def commands(text: str) -> list[list[Word]]:
    """The simple commands of a script, each a list of words."""
    found: list[list[Word]] = []
    current: list[Word] = []
    heredocs: list[tuple[str, bool]] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char in " \t":
            index += 1
            continue
        if char in "\r\n":
            if current and not _in_array(text, current):
                found.append(current)
                current = []
            index += 1
            if char == "\r" and index < size and text[index] == "\n":
                index += 1
            for delimiter, tabs in heredocs:  # skip each here document's body
                while index < size:
                    end = text.find("\n", index)
                    end = size if end < 0 else end + 1
                    line = text[index:end].rstrip("\r\n")
                    index = end
                    if (line.lstrip("\t") if tabs else line) == delimiter:
                        break
            heredocs = []
            continue
        if char == "#":
            end = text.find("\n", index)
            index = size if end < 0 else end
            continue
        if char == "\\" and text[index + 1:index + 2] == "\n":
            index += 2
            continue
        if char == "(" and current and current[-1].end == index and \
                current[-1].raw.endswith("=") and _TARGET_NAME.match(current[-1].raw):
            # an array assignment, name=(a b c): its items are words of the command
            index += 1
            continue
        if char == ")" and current and any(w.raw.endswith("=") and w.end < index and
                                           text[w.end:w.end + 1] == "(" for w in current):
            index += 1
            found.append(current)
            current = []
            continue
        if char in _OPERATORS:
            if current:
                found.append(current)
                current = []
            index += 1
            continue
        if text.startswith("<<", index):
            match = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z0-9_]+)\2").match(text, index)
            if match:
                heredocs.append((match.group(3), match.group(1) == "-"))
                index = match.end()
                continue
        start = index
        while index < size:
            char = text[index]
            if char in " \t\r\n" or char in _OPERATORS:
                break
            if char == "'":
                end = text.find("'", index + 1)
                index = size if end < 0 else end + 1
            elif char == '"':
                index += 1
                while index < size and text[index] != '"':
                    if text[index] == "\\":
                        index += 1
                    elif text.startswith(("$(", "${"), index) or text[index] == "`":
                        index = _skip_expansion(text, index)
                        continue
                    index += 1
                index += 1
            elif char == "\\":
                index += 2
            elif text.startswith(("$(", "${"), index) or char == "`":
                index = _skip_expansion(text, index)
            else:
                index += 1
        index = min(index, size)
        raw = text[start:index]
        value, literal = unquote(raw)
        current.append(Word(start, index, raw, value, literal))
    if current:
        found.append(current)
    return found


def _in_array(text: str, current: list[Word]) -> bool:
    """Whether the words so far open an array assignment not yet closed (its items may go
    over several lines)."""
    return any(w.raw.endswith("=") and text[w.end:w.end + 1] == "(" for w in current)


def _is_tvmc(words: list[Word]) -> bool:
    names = [w.value for w in words]
    for number, name in enumerate(names):
        if "=" in name and number == 0:
            continue
        base = name.rsplit("/", 1)[-1]
        if base == "tvmc":
            return True
        if base.startswith("python") and "-m" in names:
            at = names.index("-m")
            return at + 1 < len(names) and names[at + 1] in ("tvm.driver.tvmc", "tvmc")
        if base not in ("sudo", "env", "time", "exec", "nohup"):
            return False
    return False


def _substitutions(text: str, words: list[list[Word]]) -> list[tuple[int, str]]:
    """The command substitutions inside the words (``$(...)``, backquotes), each as (its
    offset, its text): commands run there are read too."""
    found: list[tuple[int, str]] = []
    for command in words:
        for word in command:
            raw, index = word.raw, 0
            while index < len(raw):
                char = raw[index]
                if char == "'" and not _inside_double(raw, index):
                    close = raw.find("'", index + 1)
                    index = len(raw) if close < 0 else close + 1
                    continue
                if char == "\\":
                    index += 2
                    continue
                if raw.startswith("$(", index) and not raw.startswith("$((", index):
                    end = _skip_expansion(raw, index)
                    found.append((word.start + index + 2, raw[index + 2:end - 1]))
                    index = end
                    continue
                if char == "`":
                    end = _skip_expansion(raw, index)
                    found.append((word.start + index + 1, raw[index + 1:end - 1]))
                    index = end
                    continue
                index += 1
    return found


def _inside_double(raw: str, index: int) -> bool:
    """Whether ``raw[index]`` lies inside double quotes (a rough count, enough for ``'``)."""
    return raw.count('"', 0, index) % 2 == 1


def _is_kind(word: str) -> bool:
    from ...target import kinds  # (first use)

    return word in kinds("tvm-0.21")


def _unknown_word(word: Word, number: int, words: list[Word], where: Any, path: str,
                  options: Options, outcome: Outcome, quiet: Quiet) -> None:
    """A literal word holding a legacy target in no known target place (an option the
    program does not show, a variable that does not name a target): reported (TL604)."""
    from .._pysites import looks_like_legacy  # the one cheap look at a legacy string

    if not word.literal:
        return
    value = word.value
    name, equals, rest = word.raw.partition("=")
    assigned = bool(equals) and bool(_TARGET_NAME.fullmatch(name) or name.startswith("-"))
    if assigned:
        value = unquote(rest)[0]
    if not looks_like_legacy(value):
        return
    before = words[number - 1].value if number else ""
    place = (f"the value of {name}" if assigned else f"the argument of {before}"
             if before.startswith("-") else "an argument")
    spot = where(word.start)
    outcome.report(Finding(path, spot.line, spot.column,
                           f"{value!r} is a legacy target string, and {place} is not known to "
                           f"take a target (no target option or variable, and no script of "
                           f"this run that reads it): no tool can tell a target from text "
                           f"about one; if the program reads it as a target, write it as JSON "
                           f"text (`targetlang migrate TARGET` prints it), else suppress this "
                           f"code", "TL604"), "shell word", quiet)


def _script_options(words: list[Word], path: str, options: Options) -> dict[Any, Any]:
    """A command that runs a Python script of the run (``python tune.py ...``, ``python -m
    pkg.tune``, ``./tune.py``): the words its argparse reads as a target (word number ->
    the prefix before the value, ``--hw=``), and under ``"flags"`` the numbers of the
    option words whose value follows them."""
    program = options.program
    if program is None or not words:
        return {}
    values = [w.value for w in words]
    start = 0
    while start < len(values) and ("=" in values[start] and not values[start].startswith("-")
                                   or values[start] in ("env", "sudo", "time", "exec",
                                                        "nohup")):
        start += 1
    if start >= len(values):
        return {}
    command = values[start]
    module: str | None = None
    script: str | None = None
    at = start + 1
    if command.rsplit("/", 1)[-1].startswith("python"):
        while at < len(values) and values[at].startswith("-") and values[at] != "-m":
            at += 2 if values[at] in ("-W", "-X") else 1
        if at < len(values) and values[at] == "-m" and at + 1 < len(values):
            module, at = values[at + 1], at + 2
        elif at < len(values):
            script, at = values[at], at + 1
    elif command.endswith(".py"):
        script = command
    else:
        return {}
    found = program.script(path, script=script, module=module)
    if found is None:
        return {}
    reads = found.command_line()
    out: dict[Any, Any] = {}
    flags: set[int] = set()
    positional = 0
    number = at
    while number < len(values):
        value = values[number]
        if value.startswith("-") and len(value) > 1:
            flag, equals, _ = value.partition("=")
            role = reads.options.get(flag)
            if role is None:
                number += 1  # an option the script does not show: its value is not known
                continue
            takes, target = role
            if equals:
                if target:
                    out[number] = words[number].raw[:words[number].raw.index("=") + 1]
            elif takes and number + 1 < len(values):
                flags.add(number)
                if target:
                    out[number + 1] = ""
                number += 1
            number += 1
            continue
        if positional < len(reads.positionals) and reads.positionals[positional]:
            out[number] = ""
        positional += 1
        number += 1
    out["flags"] = flags
    return out


def handle(text: str, path: str, options: Options) -> Outcome:
    """A shell script (or its lines in a notebook cell or a code block)."""
    quiet = options.quiet(comment_lines(text))
    outcome = _handle(text, path, options, quiet, 0)
    outcome.suppressed = quiet.count
    return outcome


def _handle(text: str, path: str, options: Options, quiet: Quiet, depth: int,
            base: int = 0, host: str | None = None) -> Outcome:
    outcome = Outcome()
    host = text if host is None else host
    lines = Lines(host)

    def where(offset: int) -> Finding:
        line, column = lines.position(base + offset)
        return Finding(path, line, column, "")

    def site(word: Word, prefix: str, name: str, kind: str) -> None:
        value, literal = unquote(word.raw[len(prefix):])
        if not may_be_target(value):
            return
        if not literal:
            answer_probe = Outcome()
            value_site(value, quote=quote, options=options, where=where(word.start),
                       site=kind, start=word.start, end=word.end, old=word.raw,
                       outcome=answer_probe, quiet=Quiet())
            if answer_probe.edits or answer_probe.findings:
                spot = where(word.start)
                outcome.report(Finding(path, spot.line, spot.column,
                                       f"{name} holds a target built by the shell at run time "
                                       f"({word.raw}); write it as JSON text (`targetlang "
                                       "migrate TARGET` prints it)", "TL205"), kind, quiet)
            return
        value_site(value, quote=lambda new: prefix + quote(new), options=options,
                   where=where(word.start), site=kind, start=base + word.start,
                   end=base + word.end, old=word.raw, outcome=outcome, quiet=quiet)

    found = commands(text)
    for words in found:
        if _is_tvmc(words):
            spot = where(words[0].start)
            last = where(words[-1].start).line
            span = (f" (a command of {last - spot.line + 1} lines: this one and the "
                    f"{last - spot.line} after it, continued with \\)") if last > spot.line else ""
            outcome.report(Finding(path, spot.line, spot.column, TVMC_MESSAGE + span, "TL501"),
                           "tvmc command", quiet)
            continue
        handled: set[int] = set()
        if len(words) > 3 and words[0].raw == "for" and words[2].raw == "in":
            if "target" in words[1].raw.lower():  # for target in "llvm -mcpu=x" "cuda"; do
                for word in words[3:]:
                    site(word, "", words[1].raw, "shell loop value")
                continue
            handled.update((0, 1, 2))
        array = next((n for n, w in enumerate(words) if w.raw.endswith("=") and
                      text[w.end:w.end + 1] == "(" and _TARGET_NAME.fullmatch(w.raw[:-1])),
                     None)
        if array is not None:  # targets=('llvm' 'cuda -libs=cudnn'): each item
            name = words[array].raw[:-1]
            handled.update(range(array + 1))
            if "target" in name.lower():
                for number in range(array + 1, len(words)):
                    site(words[number], "", name, "shell array value")
                    handled.add(number)
        script = _script_options(words, path, options)
        leading = True
        for number, word in enumerate(words):
            if number in handled:
                continue
            name, equals, _ = word.raw.partition("=")
            if equals and _TARGET_NAME.fullmatch(name) and (
                    leading or (words[0].value in _DECLARE)):
                if "target" in name.lower():
                    site(word, name + "=", name, "shell assignment")
                    handled.add(number)
                continue
            if leading and word.value in _DECLARE:
                continue
            leading = False
            if number in script:  # an option of the project's own script that takes a target
                prefix = script[number]
                site(word, prefix, f"{word.raw[:len(prefix)] or words[number - 1].raw}",
                     "shell argument")
                handled.add(number)
            elif equals and _TARGET_OPTION.fullmatch(name):
                site(word, name + "=", name, "shell argument")
                handled.add(number)
            elif _TARGET_OPTION.fullmatch(word.raw) and number + 1 < len(words):
                site(words[number + 1], "", word.raw, "shell argument")
                handled.add(number + 1)
        if 0 not in handled and len(words) > 1 and words[0].literal and \
                words[1].value.startswith("-") and _is_kind(words[0].value):
            # `llvm -mcpu=x ...` as a command: a target on its own line (output pasted in a
            # shell block, a list of targets): no command runs it
            spot = where(words[0].start)
            outcome.report(Finding(path, spot.line, spot.column,
                                   f"a line that reads as the legacy target "
                                   f"{' '.join(w.value for w in words[:3])!r}... rather than "
                                   "a command (output, or a list of targets?): no tool can "
                                   "tell what reads it; if a tool reads it as a target, write "
                                   "it as JSON text, if it is output, suppress this code",
                                   "TL604"), "shell word", quiet)
            continue
        for number, word in enumerate(words):  # a legacy target anywhere else: reported
            if number not in handled:
                _unknown_word(word, number, words, where, path, options, outcome, quiet)
    if depth < 8:  # $(python run.py --target "...") runs a command too
        for offset, inner in _substitutions(text, found):
            outcome.merge(_handle(inner, path, options, quiet, depth + 1, base + offset, host))
    return outcome
