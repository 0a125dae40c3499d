"""TVM's rules for reading and writing values in target text, reproduced exactly.

Everything here mirrors a function of TVM 0.21's ``src/target/target.cc`` (named in each
docstring), quirks included. The grammar decides where a word starts and ends; these rules
decide what a word means once its attribute's type is known.

Functions that read text return, beside their result, *positions*: for each character of
the result the index of the character of the input it came from (plus one entry for the
end), so that errors found in interpreted text point at the characters the user wrote.
"""

from __future__ import annotations

import re

from ..errors import show
from .tokens import ESCAPE, QUOTE, QUOTE_OR_ESCAPE, is_plain

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


class RuleError(Exception):
    """A value that TVM's rules refuse; ``offset`` indexes the text given to the rule."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def truncate_at_nul(text: str) -> str:
    """A NUL ends every string that crosses from Python into TVM's C++ (``std::string(char*)``)."""
    nul = text.find("\0")
    return text if nul < 0 else text[:nul]


def unencodable_at(text: str) -> int | None:
    """Where ``text`` stops being UTF-8 (a lone surrogate), or None.

    TVM hands every Python string to C++ as UTF-8, and refuses one that cannot be.
    """
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None


def is_quoted(text: str) -> bool:
    """``TargetInternal::IsQuoted``: enclosed in quotes, with no unescaped quote inside."""
    if len(text) < 2 or text[0] != QUOTE or text[-1] != QUOTE:
        return False
    if ESCAPE not in text:
        return QUOTE not in text[1:-1]
    # From one quote or escape to the next (a nested host's text is long runs between them):
    # an escape keeps the character after it; a quote not escaped, or an escape with nothing
    # after it, is not quoted text.
    end = len(text) - 1
    find = QUOTE_OR_ESCAPE.search
    i = 1
    while True:
        found = find(text, i, end)
        if found is None:
            return True
        j = found.start()
        if text[j] == QUOTE or j + 1 >= end:
            return False
        i = j + 2


def interpret(text: str) -> tuple[str, list[int] | None]:
    """``TargetInternal::Interpret``: remove enclosing quotes, then resolve escapes.

    Outside a quoted run an escape pair stands for the escaped character; inside one it
    stays as written. A trailing lone backslash is dropped. Positions are None when the
    text has neither quote nor escape: it is then its own interpretation.
    """
    if is_plain(text):
        return text, None
    if ESCAPE not in text and is_quoted(text):  # 'plain words': the quotes go, nothing else
        return text[1:-1], list(range(1, len(text)))
    return _interpret_runs(text)


def interpreted(text: str) -> str:
    """``interpret``'s text alone (the one-pass reader's: no positions to build). Without
    escapes, only enclosing quotes go; a text they do not enclose is given back as it is
    (the same object)."""
    if ESCAPE not in text:
        if QUOTE not in text:
            return text
        inner = text[1:-1]
        if text[0] == QUOTE == text[-1] and len(text) > 1 and QUOTE not in inner:
            return inner  # 'plain words' (is_quoted, the common case)
        return text  # quotes that do not enclose it stay, as every other character does
    # Escapes pair from the left: each pair of backslashes first (NUL marks one: a read text
    # holds none), then every other backslash escapes the character after it.
    paired = text
    if _ESCAPED_ESCAPE in text:
        if "\0" in text:
            return _interpret_runs(text)[0]
        paired = text.replace(_ESCAPED_ESCAPE, "\0")
    if QUOTE in paired:
        if len(paired) > 1 and paired[0] == QUOTE == paired[-1] and paired[-2] != ESCAPE:
            paired = paired[1:-1]  # enclosed (unless a quote inside is not escaped, below)
        if QUOTE in paired.replace(_ESCAPED_QUOTE, ""):
            return _interpret_runs(text)[0]  # a quoted run inside keeps its escapes
    # No quoted run: every escape gives the character it escapes (a lone last one, nothing).
    out = paired.replace(ESCAPE, "")
    return out if paired is text else out.replace("\0", ESCAPE)


_ESCAPED_ESCAPE = ESCAPE + ESCAPE
_ESCAPED_QUOTE = ESCAPE + QUOTE


def _interpret_runs(text: str) -> tuple[str, list[int]]:
    """``interpret_each``, a run of plain characters at a time (a nested host's text is
    mostly such runs; a test checks the two agree on every short text)."""
    start, end = 0, len(text)
    if is_quoted(text):
        start, end = 1, end - 1
    out: list[str] = []
    positions: list[int] = []
    inside_quote = False
    find = QUOTE_OR_ESCAPE.search
    i = start
    while i < end:
        found = find(text, i, end)
        j = end if found is None else found.start()
        if j > i:
            out.append(text[i:j])
            positions.extend(range(i, j))
        if found is None:
            break
        if text[j] == QUOTE:
            inside_quote = not inside_quote
            out.append(QUOTE)
            positions.append(j)
            i = j + 1
            continue
        # An escape pair: the backslash stays inside a quoted run only; the escaped character
        # always stays, a quote without opening or closing a run. A lone last one is dropped
        # outside a quoted run.
        if inside_quote:
            out.append(ESCAPE)
            positions.append(j)
        if j + 1 < end:
            out.append(text[j + 1])
            positions.append(j + 1)
        i = j + 2
    positions.append(end)
    return "".join(out), positions


def interpret_each(text: str) -> tuple[str, list[int]]:
    """``interpret`` character by character (what its fast paths must agree with)."""
    start, end = 0, len(text)
    if is_quoted(text):
        start, end = 1, end - 1
    out: list[str] = []
    positions: list[int] = []
    inside_quote = False
    escaping = False
    for i in range(start, end):
        c = text[i]
        if escaping:
            escaping = False
        elif c == ESCAPE:
            escaping = True
            if not inside_quote:
                continue
        elif c == QUOTE:
            inside_quote = not inside_quote
        out.append(c)
        positions.append(i)
    positions.append(end)
    return "".join(out), positions


def uninterpret(text: str) -> str:
    """``TargetInternal::Uninterpret``: escape every quote and backslash."""
    if is_plain(text):
        return text
    return "".join(ESCAPE + c if c in (QUOTE, ESCAPE) else c for c in text)


def int64_from_decimal(text: str) -> int | None:
    """An optional sign and ASCII digits as an int64, or None when out of range.

    Leading zeros do not count; a longer number is out of range without being converted
    (Python refuses to convert more than 4300 digits, where TVM simply reads "out of range").
    """
    sign = text[:1] if text[:1] in "+-" else ""
    digits = text[len(sign):].lstrip("0") or "0"
    if len(digits) > 19 or not (digits.isascii() and digits.isdigit()):
        return None
    value = int(sign + digits)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


#: What ``std::istream >> int64_t`` reads: white space (``isspace`` in the "C" locale), then
#: an optional sign and decimal digits; whatever follows is left unread.
_CXX_SPACE = " \t\n\v\f\r"
_ISTREAM_INT = re.compile(r"[+-]?[0-9]+")


def istream_int(text: str, bits: int = 64) -> int | None:
    """The integer ``std::istringstream(text) >> int64_t`` reads (``int`` for ``bits=32``):
    leading white space skipped, a sign and decimal digits read, the rest ignored (``3x`` is
    3, ``0x10`` is 0, ``1e3`` is 1); None where it fails (no digits, out of range)."""
    number = text.lstrip(_CXX_SPACE)
    if not (number.isdigit() and number.isascii()):  # (else all of it is the number)
        match = _ISTREAM_INT.match(number)
        if match is None:
            return None
        number = match.group()
    # (a sign and at most 18 ASCII digits, or 18 digits: in int64's range)
    value = int(number) if len(number) < 19 else int64_from_decimal(number)
    if value is None or bits != 64 and not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        return None
    return value


def int_from_text(text: str, bits: int = 64, true_false: bool = True) -> int | None:
    """An integer as TVM reads one from text (``ParseType``): ``istream_int``, then the words
    ``true`` and ``false`` in any case (``true_false``: releases since 0.8); None: TVM's error."""
    value = istream_int(text, bits)
    if value is None and true_false:
        lowered = text.lower()
        if lowered == "true":
            return 1
        if lowered == "false":
            return 0
    return value


def parse_int(text: str, bits: int = 64, true_false: bool = True) -> int:
    """Read an integer as ``std::istringstream >> int64_t`` does, then TVM's true/false fallback.

    Leading white space is skipped, a sign and decimal digits are read and the rest is
    ignored (``3x`` is 3, ``0x10`` is 0); out-of-range numbers fail; a text that holds no
    number is ``true`` or ``false`` in any case, or an error. Releases before 0.21 read an
    ``int`` (``bits=32``); those before 0.8 had no true/false fallback (``true_false``).
    """
    value = int_from_text(text, bits, true_false)
    if value is None:
        raise RuleError(f"cannot parse an integer from {show(text)}")
    return value


def trim_spaces(text: str) -> tuple[str, int]:
    """String values lose leading and trailing spaces (only ' '); returns (text, start)."""
    if not text.startswith(" ") and not text.endswith(" "):
        return text, 0
    stripped = text.strip(" ")
    if not stripped:
        return "", 0
    return stripped, len(text) - len(text.lstrip(" "))


# ---- writing: TargetInternal::StringifyAtomicType / StringifyArray / TargetNode::str -----

def quote(text: str) -> str:
    return QUOTE + text + QUOTE


def stringify_atomic(value: object) -> str:
    """``StringifyAtomicType``: bools as 1/0, ints in decimal, strings escaped and quoted if spaced."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        u = uninterpret(value)
        if " " in u and not is_quoted(u):
            u = quote(u)
        return u
    # (a Target is the only other value an attribute holds; named as TVM names its type)
    kind = "None" if value is None else "target.Target" if type(value).__name__ == "Target" \
        else type(value).__name__
    raise RuleError(f"Cannot stringify object of type {kind}")


def stringify_array(items: tuple[object, ...]) -> str:
    """``StringifyArray``: each item stringified, escaped once more, quoted if it has a comma."""
    elements = []
    for item in items:
        u = uninterpret(stringify_atomic(item))
        if "," in u and not is_quoted(u):
            u = quote(u)
        elements.append(u)
    return ",".join(elements)
