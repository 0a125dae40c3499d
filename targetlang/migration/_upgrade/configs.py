"""Configuration files (JSON, YAML, TOML): a string value holding a legacy target becomes
JSON text in that file's quoting, by editing the bytes of that value only (comments, key
order, anchors and formatting stay). No YAML or TOML library is needed: small scanners
find the string scalars and where they are; ``tomllib`` (Python 3.11+) checks TOML where
it exists."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from . import jsonspan
from .common import (
    Finding,
    Lines,
    Options,
    Outcome,
    Quiet,
    apply_edits,
    embedded_target,
    key_role,
    may_be_target,
    value_site,
)
from .suppress import comment_lines

__all__ = ["handle_json", "handle_toml", "handle_yaml", "toml_literal", "yaml_quoted"]

SITE = "config value"
#: (start, end, value, source text, keys of the mappings around it) of one string scalar.
Scalar = tuple[int, int, str, str, tuple[str | None, ...]]


def _sites(text: str, path: str, options: Options, scalars: Iterator[Scalar],
           quote: Callable[[str], str], outcome: Outcome, quiet: Quiet) -> None:
    lines: Lines | None = None
    for start, end, value, old, keys in scalars:
        if not may_be_target(value):
            inside = embedded_target(value)
            if inside is not None:  # a target written inside a larger text: reported
                lines = lines or Lines(text)
                line, column = lines.position(start)
                outcome.report(Finding(path, line, column, f"{SITE} holds the legacy target "
                                       f"{inside!r} inside a larger text (a serialized "
                                       "object, a message): no tool can tell what reads it "
                                       "there; if a tool reads it as a target, rewrite that "
                                       "part as JSON text (`targetlang migrate`), else "
                                       "suppress this code", "TL602",
                                       line + old.count("\n")), SITE, quiet)
            continue
        lines = lines or Lines(text)
        line, column = lines.position(start)
        value_site(value, quote=quote, options=options, where=Finding(path, line, column, ""),
                   site=SITE, start=start, end=end, old=old, outcome=outcome, quiet=quiet,
                   role=key_role(list(keys)))


def _same_but_values(old: Any, new: Any, changed: dict[str, str | None]) -> bool:
    """Whether two parsed documents agree everywhere but the string values in ``changed``
    (old value -> new value)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return list(old) == list(new) and all(_same_but_values(old[k], new[k], changed)
                                              for k in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same_but_values(a, b, changed)
                                            for a, b in zip(old, new))
    return bool(old == new or (isinstance(old, str) and changed.get(old) == new))


def _checked(outcome: Outcome, text: str, path: str,
             load: Callable[[str], Any] | None) -> None:
    """With a reader at hand, make sure the edited file reads as the old one but for the
    rewritten values (each change's legacy value -> its JSON text); otherwise keep the file
    and say so."""
    if load is None or not outcome.edits:
        return
    changed = {c.value: c.target for c in outcome.changes if c.value is not None}
    try:
        before = load(text)
    except (ValueError, RecursionError):
        return  # the reader cannot read it as it is (a custom YAML tag): the scanner alone
    try:
        same = _same_but_values(before, load(apply_edits(text, outcome.edits)), changed)
        why = "its structure changed"
    except (ValueError, RecursionError) as error:
        same, why = False, str(error)
    if not same:  # pragma: no cover - a guard: the scanners should never get here
        outcome.report(Finding(path, 1, 0, f"the rewritten file would not read the same "
                                           f"({why}); left unchanged", "TL003"), SITE)
        outcome.edits.clear()
        outcome.changes.clear()


# ---- JSON ------------------------------------------------------------------------------------

def handle_json(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    try:
        root = jsonspan.parse(text)
    except ValueError as error:
        why = f"not JSON: {error}"
        if _tuning_log(text):
            why += ("; it is JSON Lines, a tuning log or a MetaSchedule database: "
                    "`targetlang logs normalize --to tvm-0.27 FILE -o OUT` rewrites its targets")
        outcome.invalid = Finding(path, getattr(error, "lineno", 1),
                                  getattr(error, "colno", 1) - 1, why, "TL001")
        return outcome
    ascii_only = jsonspan.encoder_for(text)
    scalars = ((s.start, s.end, s.value, text[s.start:s.end], keys)
               for s, keys in jsonspan.keyed_strings(root))
    quiet = options.quiet()  # JSON has no comments: only the configuration suppresses
    _sites(text, path, options, scalars,
           lambda new: json.dumps(new, ensure_ascii=ascii_only), outcome, quiet)
    _checked(outcome, text, path, json.loads)
    outcome.suppressed = quiet.count
    return outcome


def _tuning_log(text: str) -> bool:
    """Whether a text is JSON Lines (a JSON value a line, ``#`` comments allowed): AutoTVM
    and auto-scheduler logs, MetaSchedule databases."""
    lines = [line for line in text.splitlines()[:20] if line.strip() and
             not line.startswith("#")]
    try:
        return len(lines) > 0 and all(isinstance(json.loads(line), (dict, list))
                                      for line in lines)
    except (ValueError, RecursionError):
        return False


# ---- TOML ------------------------------------------------------------------------------------

def toml_literal(value: str) -> str:
    """A TOML string of ``value``: literal ('...') when it can be, else basic with escapes."""
    if "'" not in value and not any(ord(c) < 0x20 and c != "\t" or c == "\x7f" for c in value):
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_loads() -> Callable[[str], Any] | None:
    try:
        tomllib = importlib.import_module("tomllib")
    except ImportError:  # Python 3.10: no reader, the scanner alone
        return None
    loads: Callable[[str], Any] = tomllib.loads
    return loads


_TOML_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\",
                 "e": "\x1b"}
def _toml_basic(body: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "uU":
            return chr(int(code[1:], 16))
        if code[0] in " \t\r\n":  # a line-ending backslash (multi-line strings)
            return ""
        return _TOML_ESCAPES.get(code, code)
    return re.sub(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[ \t]*\r?\n[ \t\r\n]*|.)", escape,
                  body, flags=re.S)


_TOML_SPACE = re.compile(r"[ \t]*")
_TOML_GAP = re.compile(r"(?:[ \t\r\n]|#[^\r\n]*)*")  # blanks, line breaks and comments
_TOML_BARE = re.compile(r"[A-Za-z0-9_-]+")
_TOML_OTHER = re.compile(r"[^,\]\}\s#]+")  # a number, date, true, false, inf, nan
_TOML_QUOTES = ('"' * 3, "'" * 3)


def _toml_string(text: str, index: int) -> tuple[int, str]:
    """A TOML string at ``index`` (basic, literal, or their multi-line forms): its end and
    value (an unclosed one ends at the end of the line or text)."""
    size = len(text)
    for quote in _TOML_QUOTES:
        if text.startswith(quote, index):
            close = text.find(quote, index + 3)
            close = size if close < 0 else close + 3
            while close < size and text[close] == quote[0]:
                close += 1  # up to two quotes may end the body: """a""""
            body = text[index + 3:max(close - 3, index + 3)]
            body = body[1:] if body.startswith("\n") else \
                body[2:] if body.startswith("\r\n") else body
            return close, _toml_basic(body) if quote[0] == '"' else body
    quote = text[index]
    close = index + 1
    while close < size and text[close] != quote and text[close] not in "\r\n":
        close += 2 if quote == '"' and text[close] == "\\" else 1
    close = min(close + 1, size)
    body = text[index + 1:close - 1]
    return close, _toml_basic(body) if quote == '"' else body


def _toml_key(text: str, index: int) -> tuple[int, list[str]]:
    """A dotted key at ``index``: where it ends (blanks after it skipped) and its parts."""
    parts: list[str] = []
    size = len(text)
    while index < size:
        index = _TOML_SPACE.match(text, index).end()  # type: ignore[union-attr]
        if index < size and text[index] in "\"'":
            index, part = _toml_string(text, index)
        else:
            match = _TOML_BARE.match(text, index)
            if match is None:
                break
            index, part = match.end(), match.group()
        parts.append(part)
        index = _TOML_SPACE.match(text, index).end()  # type: ignore[union-attr]
        if index < size and text[index] == ".":
            index += 1
            continue
        break
    return index, parts


def _toml_scalars(text: str) -> Iterator[Scalar]:
    """The string values (not keys, not table names) of a TOML document, each with the
    keys of the tables around it (``[a.b]`` and ``[[a.b]]`` headers, dotted keys, inline
    tables), in one pass."""
    size = len(text)
    table: list[str] = []
    index = 0
    found: list[Scalar] = []
    # open arrays and inline tables: (kind, keys of the container)
    stack: list[tuple[str, tuple[str, ...]]] = []
    while True:
        yield from found
        found.clear()
        index = _TOML_GAP.match(text, index).end()  # type: ignore[union-attr]
        if index >= size:
            return
        char = text[index]
        if stack:
            kind, keys = stack[-1]
            if char in "]}":
                stack.pop()
                index += 1
            elif char == ",":
                index += 1
            elif kind == "{":
                index, parts = _toml_key(text, index)
                if index >= size or text[index] != "=" or not parts:
                    stack.clear()  # not TOML (tomllib reports it where it exists)
                    index = _toml_skip_line(text, index)
                    continue
                index = _toml_value(text, index + 1, (*keys, *parts), stack, found)
            else:
                index = _toml_value(text, index, keys, stack, found)
            continue
        if char == "[":
            double = text.startswith("[[", index)
            index, table = _toml_key(text, index + (2 if double else 1))
            index = _toml_skip_line(text, index)
            continue
        start = index
        index, parts = _toml_key(text, index)
        if index >= size or text[index] != "=" or not parts:
            index = _toml_skip_line(text, max(index, start + 1))
            continue
        index = _toml_value(text, index + 1, (*table, *parts), stack, found)


def _toml_value(text: str, index: int, keys: tuple[str, ...],
                stack: list[tuple[str, tuple[str, ...]]], found: list[Scalar]) -> int:
    """Read the value at ``index``: a string is recorded in ``found``; ``[``/``{`` open a
    container; anything else is skipped. Returns where the value ends."""
    index = _TOML_SPACE.match(text, index).end()  # type: ignore[union-attr]
    if index >= len(text):
        return index
    char = text[index]
    if char in "\"'":
        end, value = _toml_string(text, index)
        found.append((index, end, value, text[index:end], keys))
        return end
    if char in "[{":
        stack.append((char, keys))
        return index + 1
    match = _TOML_OTHER.match(text, index)
    return match.end() if match else index + 1


def _toml_skip_line(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def handle_toml(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    loads = _toml_loads()
    if loads is not None:
        try:
            loads(text)
        except ValueError as error:
            where = re.search(r"at line (\d+), column (\d+)", str(error))
            line, column = (int(where[1]), int(where[2]) - 1) if where else (1, 0)
            outcome.invalid = Finding(path, line, column, f"not TOML: {error}", "TL001")
            return outcome
        except (RecursionError, MemoryError):
            # valid TOML perhaps, but deeper than the reader that would check it goes: the
            # file is left as it is, and said so
            outcome.invalid = Finding(path, 1, 0, "not readable as TOML here: nested deeper "
                                                  "than Python's TOML reader goes", "TL001")
            return outcome
    quiet = options.quiet(comment_lines(text))
    _sites(text, path, options, _toml_scalars(text), toml_literal, outcome, quiet)
    if loads is not None:
        toml = loads
        _checked(outcome, text, path, toml)
    outcome.suppressed = quiet.count
    return outcome


# ---- YAML ------------------------------------------------------------------------------------

def yaml_quoted(value: str) -> str:
    """A YAML scalar of ``value`` on one line: single-quoted (a single quote doubled), or
    double-quoted with escapes when it holds what YAML does not allow as it is (control
    characters, DEL, a line break)."""
    if all(_yaml_printable(c) and c not in _YAML_BREAKS for c in value):
        return "'" + value.replace("'", "''") + "'"
    out = []
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif _yaml_printable(char) and char not in _YAML_BREAKS and char != "\t":
            out.append(char)
        elif ord(char) <= 0xFF:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


#: What YAML reads as a line break (folded inside a quoted scalar), and the BOM.
_YAML_BREAKS = "\r\n\x85\u2028\u2029\ufeff"


def _yaml_printable(char: str) -> bool:
    """YAML 1.2's printable characters (c-printable)."""
    code = ord(char)
    return char in "\t\n\r" or 0x20 <= code <= 0x7E or code == 0x85 or \
        0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF


_YAML_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
                 "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
                 "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def _yaml_double(body: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xuU":
            return chr(int(code[1:], 16))
        return _YAML_ESCAPES.get(code, code)
    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", escape, body)


#: A plain key and its colon: '#' is text unless a blank precedes it, ':' unless one follows.
_PLAIN_KEY = re.compile(r"(?:[^ \t\r\n#:]|(?<=[^ \t\r\n])#|:(?=[^ \t\r\n])|"
                        r"[ \t]+(?=[^ \t\r\n#]))+?[ \t]*:(?:[ \t]+|$)")
_INDICATOR = re.compile(r"([-?:])(?:[ \t]+|$)")
_YAML_PROPERTIES = re.compile(r"(?:[&!][^\s,\[\]{}]*[ \t]+)*")
_BLOCK_SCALAR = re.compile(r"[|>][0-9+-]*[ \t]*(?:#.*)?$")


_COMMENT = re.compile(r"[ \t]#")
#: a plain scalar holding ": " (or ending with ":"): YAML reads a second mapping there
_MAPPING_IN_PLAIN = re.compile(r":(?:[ \t]|$)")


def _yaml_line_scalars(text: str, start: int, end: int) -> Iterator[Scalar | str]:
    """The scalar value(s) of one logical line ``text[start:end]`` (after its indentation):
    yields scalars, or "block N" when a block scalar starts, or "open N" when a quoted or flow
    value goes on past the line (its lines are then not read as keys)."""
    index = start
    explicit_key = False
    while True:  # indicators: "- - value", "? key", ": value"
        match = _INDICATOR.match(text, index, end)
        if not match or match.end() == index:
            break
        explicit_key = match.group(1) == "?"
        index = match.end()
    if explicit_key:  # a key, not a value: only whether it runs on matters
        if index < end and text[index] in "\"'" and _yaml_quote_end(text, index, end) is None:
            yield f"open {index}"
        elif index < end and text[index] in "[{":
            yield from (m for m in _yaml_flow(text, index, end)
                        if isinstance(m, str) and m.startswith("open "))
        return
    key = _yaml_key_end(text, index, end)
    if key is not None:
        index = key
    index = _YAML_PROPERTIES.match(text, index, end).end()  # type: ignore[union-attr]
    while index < end and text[index] in " \t":
        index += 1
    if index >= end or text[index] == "#":
        return
    char = text[index]
    if _BLOCK_SCALAR.match(text, index, end):
        yield f"block {index}"
        return
    if char in "\"'":
        close = _yaml_quote_end(text, index, end)
        if close is None:
            yield f"open {index}"
            return
        body = text[index + 1:close - 1]
        value = _yaml_double(body) if char == '"' else body.replace("''", "'")
        yield (index, close, value, text[index:close], ())
        return
    if char in "[{":
        yield from _yaml_flow(text, index, end)
        return
    if char in "*|>@`%":
        return  # an alias, or what YAML reserves
    stop = end
    comment = _COMMENT.search(text, index, end)
    if comment:
        stop = comment.start()
    value = text[index:stop].rstrip(" \t")
    if value:
        if _MAPPING_IN_PLAIN.search(value):
            raise _Refused(index + _MAPPING_IN_PLAIN.search(value).start(),  # type: ignore[union-attr]
                           "mapping values are not allowed here")
        yield (index, index + len(value), value, value, ())


def _yaml_key_end(text: str, index: int, end: int) -> int | None:
    """Where the value starts when the line is ``key: value`` (key plain or quoted)."""
    if index < end and text[index] in "\"'":
        close = _yaml_quote_end(text, index, end)
        if close is None:
            return None
        match = re.compile(r"[ \t]*:(?:[ \t]+|$)").match(text, close, end)
        return match.end() if match else None
    if index < end and text[index] in "[{#&*!|>'\"%@`":
        return None
    match = _PLAIN_KEY.match(text, index, end)
    return match.end() if match else None


def _yaml_quote_end(text: str, index: int, end: int) -> int | None:
    quote = text[index]
    at = index + 1
    while at < end:
        if quote == '"' and text[at] == "\\":
            at += 2
            continue
        if text[at] == quote:
            if quote == "'" and at + 1 < end and text[at + 1] == "'":
                at += 2
                continue
            return at + 1
        at += 1
    return None


_FLOW_KEY = re.compile(r"[ \t\r\n]*(?:\?[ \t\r\n]+)?([^ \t\r\n,\[\]{}][^,\[\]{}]*?|"
                       r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*')[ \t\r\n]*:[ \t\r\n]*")


def _yaml_flow(text: str, index: int, end: int) -> Iterator[Scalar | str]:
    """The scalars of a flow collection (``[a, "b"]``, ``{k: v}``) starting at ``index``;
    "open N" when it does not close before ``end``. A quote starts a quoted scalar only
    where a scalar starts (``[it's]`` is one plain scalar)."""
    depth = 0
    at = index
    item_start = None
    fresh = True  # where a scalar may start
    keys: list[str | None] = []  # the key of each open collection
    while at < end:
        char = text[at]
        if char in " \t\r\n":
            at += 1
            continue
        if char in "[{":
            key = None
            if item_start is not None:
                named = _FLOW_KEY.fullmatch(text, item_start, at)
                if named:
                    key = _yaml_key_text(text, named.start(1), named.end(1))
            keys.append(key)
            depth += 1
            at += 1
            item_start, fresh = at, True
            continue
        if char in "]},":
            if item_start is not None:
                yield from ((*s[:4], tuple(keys) + s[4])
                            for s in _yaml_flow_item(text, item_start, at))
            item_start, fresh = at + 1, True
            if char in "]}":
                if keys:
                    keys.pop()
                depth -= 1
                if depth == 0:
                    yield f"close {at + 1}"
                    return
            at += 1
            continue
        if char in ":?" and (at + 1 >= end or text[at + 1] in " \t\r\n,[]{}"):
            at += 1  # a value or an explicit key starts
            fresh = True
            continue
        if char in "\"'" and fresh:
            close = _yaml_quote_end(text, at, end)
            if close is None:
                yield f"open {index}"
                return
            at, fresh = close, False
            continue
        if char == "#" and text[at - 1] in " \t\n":
            newline = text.find("\n", at, end)
            if newline < 0:
                break
            at = newline
            continue
        fresh = False
        at += 1
    yield f"open {index}"


def _yaml_flow_item(text: str, start: int, end: int) -> Iterator[Scalar]:
    segment = text[start:end]
    lead = len(segment) - len(segment.lstrip(" \t\r\n"))
    index = start + lead
    explicit = re.compile(r"\?(?:[ \t\r\n]+|$)").match(text, index, end)
    if explicit:  # "? key : value"
        index = explicit.end()
    key = _yaml_key_end(text, index, end)
    name = None
    if key is not None:
        name = _yaml_key_text(text, index, key)
        index = key
    while index < end and text[index] in " \t":
        index += 1
    if index >= end or text[index] in "[{":
        return
    if text[index] in "\"'":
        close = _yaml_quote_end(text, index, end)
        if close is not None:
            body = text[index + 1:close - 1]
            value = _yaml_double(body) if text[index] == '"' else body.replace("''", "'")
            yield (index, close, value, text[index:close], (name,))
        return
    value = text[index:end].rstrip(" \t\r\n")
    if value and value[0] not in "*&!|>#" and "\n" not in value and "\r" not in value:
        yield (index, index + len(value), value, value, (name,))


def _yaml_key_text(text: str, start: int, end: int) -> str:
    """The key of ``key:`` (its quotes removed) from its start to where its value starts."""
    key = text[start:end].rstrip(" \t")
    key = key[:-1].rstrip(" \t") if key.endswith(":") else key
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        key = key[1:-1]
    return key


def _yaml_scalars(text: str) -> Iterator[Scalar]:
    """Every string scalar of a YAML text with the keys of the mappings around it
    (outermost first), in one pass over its lines."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)
    # the next line with content after each line (for a plain scalar folded over lines)
    following_of: list[str] = [""] * len(lines)
    after = ""
    for number in range(len(lines) - 1, -1, -1):
        following_of[number] = after
        line = lines[number]
        if line.strip(" \t\r\n") and not line.lstrip().startswith("#"):
            after = line
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    keys: list[tuple[int, str]] = []  # (column, key) of the mappings the line is inside
    skip_deeper: int | None = None  # inside a block scalar
    resume_at = 0  # after a quoted scalar or flow collection that ran over several lines
    for number, line in enumerate(lines):
        start, body = starts[number], line.rstrip("\r\n")
        if start < resume_at:
            continue
        stripped = body.lstrip(" ")
        indent = len(body) - len(stripped)
        if skip_deeper is not None:
            if not stripped.strip(" \t") or indent > skip_deeper:
                continue
            skip_deeper = None
        if stripped.startswith("\t"):
            raise _Refused(start + indent, "a tab where YAML wants indentation")
        if not stripped or stripped.startswith(("#", "%")) or body.startswith(("---", "...")) \
                and body[3:4] in ("", " ", "\t"):
            if body.startswith("--- ") or body.startswith("---\t"):
                stripped, indent = body[4:].lstrip(), 4  # "--- value"
                keys.clear()
            else:
                if body.startswith(("---", "...")):
                    keys.clear()
                continue
        following = following_of[number]
        follow_indent = len(following) - len(following.lstrip(" "))
        column = start + indent  # where the node of this line starts, after "- " / "? "
        while (match := _INDICATOR.match(text, column, start + len(body))) and \
                match.end() > column:
            column = match.end()
        key_end = _yaml_key_end(text, column, start + len(body))
        while keys and keys[-1][0] > indent:
            keys.pop()
        if key_end is not None:
            while keys and keys[-1][0] >= column - start:
                keys.pop()
            keys.append((column - start, _yaml_key_text(text, column, key_end)))
        path = tuple(k for _, k in keys)
        scalars = list(_yaml_line_scalars(text, start + indent, start + len(body)))
        block = next((int(m.split()[1]) for m in scalars
                      if isinstance(m, str) and m.startswith("block ")), None)
        if block is not None:
            skip_deeper = indent
            found = _block_scalar(text, block, lines, number + 1, starts[number + 1], indent)
            if found is not None:
                yield (*found[:4], path)
            continue
        scalars = [m for m in scalars if not (isinstance(m, str) and m.startswith("close "))]
        opened = next((int(m.split()[1]) for m in scalars
                       if isinstance(m, str) and m.startswith("open ")), None)
        if opened is not None:
            closed = _closed_or_raise(text, opened)
            if text[opened] in "[{":  # a flow collection over several lines
                yield from ((*s[:4], path + s[4]) for s in _yaml_flow(text, opened, closed)
                            if not isinstance(s, str))
            resume_at = closed
            continue
        follow_body = following.rstrip("\r\n")
        plain_runs_on = bool(following) and follow_indent > column - start and \
            _yaml_key_end(following, follow_indent, len(follow_body)) is None and \
            not _INDICATOR.match(following, follow_indent, len(follow_body))
        for scalar in scalars:
            assert not isinstance(scalar, str)
            if plain_runs_on and scalar[3] == scalar[2] and text[scalar[0]] not in "\"'":
                continue  # a plain scalar folded over several lines: not one value here
            yield (*scalar[:4], path + scalar[4])


def _block_scalar(text: str, indicator: int, lines: list[str], first: int, offset: int,
                  parent: int) -> Scalar | None:
    """A block scalar (``|`` / ``>``, chomping ``-`` / ``+``) as one value: from its
    indicator to the end of its last line of content (``offset``: where ``after``, the
    lines that follow, start; ``parent``: the indentation of the line of the indicator)."""
    header = text[indicator:text.find("\n", indicator) if "\n" in text[indicator:]
                  else len(text)].split("#")[0].strip()
    if any(c.isdigit() for c in header):
        return None  # an explicit indentation: rare, left alone
    content: list[str] = []
    end = None
    at = offset
    for number in range(first, len(lines)):
        line = lines[number]
        body = line.rstrip("\r\n")
        if body.strip() and len(body) - len(body.lstrip(" ")) <= parent:
            break
        if body.strip():
            end = at + len(body)
        content.append(body)
        at += len(line)
    if end is None:
        return None
    while content and not content[-1].strip():
        content.pop()
    margin = min(len(b) - len(b.lstrip(" ")) for b in content if b.strip())
    rows = [b[margin:] for b in content]
    if header.startswith(">"):  # folded: lines joined by a space, blank lines kept
        value = re.sub(r"(?<!\n)\n(?!\n)", " ", "\n".join(rows))
    else:
        value = "\n".join(rows)
    if not header.endswith("-"):
        value += "\n"
    return (indicator, end, value, text[indicator:end], ())


def _yaml_reader() -> Any:
    """PyYAML where it is installed (never required: the scanner does without)."""
    try:
        return importlib.import_module("yaml")
    except ImportError:
        return None


def _yaml_load(yaml: Any, text: str) -> Any:
    """Every document of a YAML text (a ``ValueError`` where PyYAML cannot construct it)."""
    loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader  # libyaml where built
    try:
        return list(yaml.load_all(text, Loader=loader))
    except yaml.YAMLError as error:
        raise ValueError(str(error)) from error


class _Refused(Exception):
    """What YAML refuses: where, and why."""

    def __init__(self, offset: int, what: str) -> None:
        super().__init__(what)
        self.offset, self.what = offset, what


class _Unclosed(_Refused):
    """A quoted scalar or a flow collection that the text never closes."""

    def __init__(self, offset: int, what: str) -> None:
        super().__init__(offset, f"{what} is never closed")


def _closed_or_raise(text: str, index: int) -> int:
    """Where a value that runs on past its line (``"...``, ``[...``) ends; it must."""
    opener = text[index]
    if opener in "\"'":
        end = _yaml_quote_end(text, index, len(text))
        if end is None:
            raise _Unclosed(index, "a quoted scalar")
        return end
    for marker in _yaml_flow(text, index, len(text)):
        if isinstance(marker, str) and marker.startswith("close "):
            return int(marker.split()[1])
    raise _Unclosed(index, "a flow collection")


_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd"
                            "\U00010000-\U0010ffff]")


def _yaml_refusal(text: str) -> tuple[int, str] | None:
    """Where and why YAML refuses a text: PyYAML (libyaml where it is built) where it is
    installed, the scanner's own checks everywhere (characters YAML does not allow)."""
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        return bad.start(), f"the character {bad.group()!r} is not allowed in YAML"
    yaml = _yaml_reader()
    if yaml is None:
        return None
    loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    try:
        for _ in yaml.compose_all(text, Loader=loader):
            pass
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        index = getattr(mark, "index", 0) or 0
        problem = getattr(error, "problem", None) or str(error).split("\n")[0]
        return min(index, len(text)), str(problem)
    except (RecursionError, MemoryError):  # nested deeper than PyYAML recurses
        return 0, "nested too deeply to read"
    return None


def handle_yaml(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    refused = _yaml_refusal(text)
    try:
        scalars = list(_yaml_scalars(text)) if refused is None else []
    except _Refused as error:
        refused = error.offset, error.what
    if refused is not None:
        line, column = Lines(text).position(refused[0])
        outcome.invalid = Finding(path, line, column, f"not YAML: {refused[1]}", "TL001")
        return outcome
    quiet = options.quiet(comment_lines(text))
    _sites(text, path, options, iter(scalars), yaml_quoted, outcome, quiet)
    yaml = _yaml_reader()
    if yaml is not None:
        _checked(outcome, text, path, lambda t: _yaml_load(yaml, t))
    outcome.suppressed = quiet.count
    return outcome
