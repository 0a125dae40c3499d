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
from .common import Finding, Lines, Options, Outcome, apply_edits, may_be_target, value_site

__all__ = ["handle_json", "handle_toml", "handle_yaml", "toml_literal", "yaml_quoted"]

SITE = "config value"
#: (start, end, value, source text) of one string scalar.
Scalar = tuple[int, int, str, str]


def _sites(text: str, path: str, options: Options, scalars: Iterator[Scalar],
           quote: Callable[[str], str], outcome: Outcome) -> None:
    lines = Lines(text)
    for start, end, value, old in scalars:
        if not may_be_target(value):
            continue
        line, column = lines.position(start)
        value_site(value, quote=quote, options=options, where=Finding(path, line, column, ""),
                   site=SITE, start=start, end=end, old=old, outcome=outcome)


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
    except ValueError:
        return  # the reader cannot read it as it is (a custom YAML tag): the scanner alone
    try:
        same = _same_but_values(before, load(apply_edits(text, outcome.edits)), changed)
        why = "its structure changed"
    except ValueError as error:
        same, why = False, str(error)
    if not same:  # pragma: no cover - a guard: the scanners should never get here
        outcome.report(Finding(path, 1, 0, f"the rewritten file would not read the same "
                                           f"({why}); left unchanged"), SITE)
        outcome.edits.clear()
        outcome.changes.clear()


# ---- JSON ------------------------------------------------------------------------------------

def handle_json(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    try:
        root = jsonspan.parse(text)
    except (ValueError, RecursionError) as error:
        why = f"not JSON: {error}"
        if _tuning_log(text):
            why += ("; it is JSON Lines, a tuning log or a MetaSchedule database: "
                    "`targetlang logs normalize --to tvm-0.27 FILE -o OUT` rewrites its targets")
        outcome.invalid = Finding(path, getattr(error, "lineno", 1),
                                  getattr(error, "colno", 1) - 1, why)
        return outcome
    ascii_only = jsonspan.encoder_for(text)
    scalars = ((s.start, s.end, s.value, text[s.start:s.end]) for s in jsonspan.strings(root))
    _sites(text, path, options, scalars,
           lambda new: json.dumps(new, ensure_ascii=ascii_only), outcome)
    _checked(outcome, text, path, json.loads)
    return outcome


def _tuning_log(text: str) -> bool:
    """Whether a text is JSON Lines (a JSON value a line, ``#`` comments allowed): AutoTVM
    and auto-scheduler logs, MetaSchedule databases."""
    lines = [line for line in text.splitlines()[:20] if line.strip() and
             not line.startswith("#")]
    try:
        return len(lines) > 0 and all(isinstance(json.loads(line), (dict, list))
                                      for line in lines)
    except ValueError:
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
_TOML_TOKEN = re.compile(r'"""|\'\'\'|"|\'|#|\[|\]|\{|\}|=|\.|,|\r?\n|[^"\'#\[\]{}=.,\r\n]+')


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


def _toml_scalars(text: str) -> Iterator[Scalar]:
    """The string values (not keys, not table names) of a TOML document."""
    index, size = 0, len(text)
    line_start = True  # at the start of a statement (outside arrays and inline tables)
    depth = 0
    header = False
    pending: Scalar | None = None  # a string whose role (key or value) the next token tells
    after_equals = False
    while index < size:
        match = _TOML_TOKEN.match(text, index)
        assert match is not None
        token = match.group()
        start = index
        if token in ('"""', "'''", '"', "'"):
            if token in ('"""', "'''"):
                close = text.find(token, index + 3)
                close = size if close < 0 else close + 3
                while close < size and text[close] == token[0]:
                    close += 1  # up to two quotes may end the body: """a""""
                body = text[index + 3:close - 3]
                body = body[1:] if body.startswith("\n") else \
                    body[2:] if body.startswith("\r\n") else body
            else:
                close = index + 1
                while close < size and text[close] != token and text[close] not in "\r\n":
                    close += 2 if token == '"' and text[close] == "\\" else 1
                close += 1
                body = text[index + 1:close - 1]
            value = _toml_basic(body) if token[0] == '"' else body
            if pending is not None and after_equals and not header:
                yield pending
            pending = (start, close, value, text[start:close]) if after_equals and \
                not header else None
            index = close
            line_start = False
            continue
        index = match.end()
        if token.strip() == "" and "\n" not in token:
            continue
        if token == "#":
            end = text.find("\n", index)
            index = size if end < 0 else end
            continue
        if token in ("=", "."):
            pending = None  # the string was a key
            if token == "=":
                after_equals = True
            continue
        if pending is not None:
            yield pending
            pending = None
        if token in ("\n", "\r\n"):
            if depth == 0:
                line_start, header, after_equals = True, False, False
            continue
        if token == "[":
            if line_start and depth == 0:
                header = True
            else:
                depth += 1
        elif token == "]":
            if header:
                continue
            depth = max(depth - 1, 0)
        elif token == "{":
            depth += 1
            after_equals = False
        elif token == "}":
            depth = max(depth - 1, 0)
            after_equals = depth > 0 or True
        elif token == ",":
            if depth > 0 and _inline_table(text, start):
                after_equals = False
        line_start = False
    if pending is not None:
        yield pending


def _inline_table(text: str, index: int) -> bool:
    """Whether the comma at ``index`` separates the items of an inline table (keys follow)
    rather than of an array (values follow)."""
    depth = 0
    while index > 0:
        index -= 1
        char = text[index]
        if char in "]}":
            depth += 1
        elif char in "[{":
            if depth == 0:
                return char == "{"
            depth -= 1
    return False


def handle_toml(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    loads = _toml_loads()
    if loads is not None:
        try:
            loads(text)
        except ValueError as error:
            where = re.search(r"at line (\d+), column (\d+)", str(error))
            line, column = (int(where[1]), int(where[2]) - 1) if where else (1, 0)
            outcome.invalid = Finding(path, line, column, f"not TOML: {error}")
            return outcome
    _sites(text, path, options, _toml_scalars(text), toml_literal, outcome)
    if loads is not None:
        toml = loads
        _checked(outcome, text, path, toml)
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
        yield (index, close, value, text[index:close])
        return
    if char in "[{":
        yield from _yaml_flow(text, index, end)
        return
    if char in "*|>@`%":
        return  # an alias, or what YAML reserves
    stop = end
    comment = re.compile(r"[ \t]#").search(text, index, end)
    if comment:
        stop = comment.start()
    value = text[index:stop].rstrip(" \t")
    if value:
        yield (index, index + len(value), value, value)


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


def _yaml_flow(text: str, index: int, end: int) -> Iterator[Scalar | str]:
    """The scalars of a flow collection (``[a, "b"]``, ``{k: v}``) starting at ``index``;
    "open N" when it does not close before ``end``. A quote starts a quoted scalar only
    where a scalar starts (``[it's]`` is one plain scalar)."""
    depth = 0
    at = index
    item_start = None
    fresh = True  # where a scalar may start
    while at < end:
        char = text[at]
        if char in " \t\r\n":
            at += 1
            continue
        if char in "[{":
            depth += 1
            at += 1
            item_start, fresh = at, True
            continue
        if char in "]},":
            if item_start is not None:
                yield from _yaml_flow_item(text, item_start, at)
            item_start, fresh = at + 1, True
            if char in "]}":
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
    if key is not None:
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
            yield (index, close, value, text[index:close])
        return
    value = text[index:end].rstrip(" \t\r\n")
    if value and value[0] not in "*&!|>#" and "\n" not in value and "\r" not in value:
        yield (index, index + len(value), value, value)


def _yaml_scalars(text: str) -> Iterator[Scalar]:
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)
    offset = 0
    skip_deeper: int | None = None  # inside a block scalar
    resume_at = 0  # after a quoted scalar or flow collection that ran over several lines
    for number, line in enumerate(lines):
        start, body = offset, line.rstrip("\r\n")
        offset += len(line)
        if start < resume_at:
            continue
        stripped = body.lstrip(" ")
        indent = len(body) - len(stripped)
        if skip_deeper is not None:
            if not stripped or indent > skip_deeper:
                continue
            skip_deeper = None
        if not stripped or stripped.startswith(("#", "%")) or body.startswith(("---", "...")) \
                and body[3:4] in ("", " ", "\t"):
            if body.startswith("--- ") or body.startswith("---\t"):
                stripped, indent = body[4:].lstrip(), 4  # "--- value"
            else:
                continue
        following = next((n for n in lines[number + 1:] if n.strip(" \t\r\n") and
                          not n.lstrip().startswith("#")), "")
        follow_indent = len(following) - len(following.lstrip(" "))
        scalars = list(_yaml_line_scalars(text, start + indent, start + len(body)))
        block = next((int(m.split()[1]) for m in scalars
                      if isinstance(m, str) and m.startswith("block ")), None)
        if block is not None:
            skip_deeper = indent
            found = _block_scalar(text, block, lines[number + 1:], offset, indent)
            if found is not None:
                yield found
            continue
        scalars = [m for m in scalars if not (isinstance(m, str) and m.startswith("close "))]
        opened = next((int(m.split()[1]) for m in scalars
                       if isinstance(m, str) and m.startswith("open ")), None)
        if opened is not None:
            closed = _closed_or_raise(text, opened)
            if text[opened] in "[{":  # a flow collection over several lines
                yield from (s for s in _yaml_flow(text, opened, closed)
                            if not isinstance(s, str))
            resume_at = closed
            continue
        column = start + indent  # where the node of this line starts, after "- " / "? "
        while (match := _INDICATOR.match(text, column, start + len(body))) and \
                match.end() > column:
            column = match.end()
        follow_body = following.rstrip("\r\n")
        plain_runs_on = bool(following) and follow_indent > column - start and \
            _yaml_key_end(following, follow_indent, len(follow_body)) is None and \
            not _INDICATOR.match(following, follow_indent, len(follow_body))
        for scalar in scalars:
            assert not isinstance(scalar, str)
            if plain_runs_on and scalar[3] == scalar[2] and text[scalar[0]] not in "\"'":
                continue  # a plain scalar folded over several lines: not one value here
            yield scalar


def _block_scalar(text: str, indicator: int, after: list[str], offset: int,
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
    for line in after:
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
    return (indicator, end, value, text[indicator:end])


def _yaml_reader() -> Any:
    """PyYAML where it is installed (never required: the scanner does without)."""
    try:
        return importlib.import_module("yaml")
    except ImportError:
        return None


def _yaml_load(yaml: Any, text: str) -> Any:
    """Every document of a YAML text (a ``ValueError`` where PyYAML cannot construct it)."""
    try:
        return list(yaml.safe_load_all(text))
    except yaml.YAMLError as error:
        raise ValueError(str(error)) from error


class _Unclosed(Exception):
    """A quoted scalar or a flow collection that the text never closes."""

    def __init__(self, offset: int, what: str) -> None:
        super().__init__(what)
        self.offset, self.what = offset, what


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


def handle_yaml(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    try:
        scalars = list(_yaml_scalars(text))
    except _Unclosed as error:
        line, column = Lines(text).position(error.offset)
        outcome.invalid = Finding(path, line, column, f"not YAML: {error.what} is never "
                                                      "closed")
        return outcome
    _sites(text, path, options, iter(scalars), yaml_quoted, outcome)
    yaml = _yaml_reader()
    if yaml is not None:
        _checked(outcome, text, path, lambda t: _yaml_load(yaml, t))
    return outcome
